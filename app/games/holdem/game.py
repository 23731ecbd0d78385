"""The hold'em ``Game`` object: the contract's surface over the engine.

Moves of a hand (``legal_actions`` lists them for the seat to act): ``fold``, ``check``,
``call``, ``bet``/``raise`` with ``to`` (the total this round), ``all_in``; ``straddle`` or
``no_straddle`` (UTG, before the deal, H7); ``run_twice`` or ``run_once``; ``show`` or ``muck``
(at an asked showdown, and after the hand when the sheet lets players show).

Table actions (always open to a seat; the room server applies them with the acting seat's
index and decides who may send which): ``join`` {"seat", "buy_in", "post"}, ``leave``,
``sit_out``, ``sit_in`` {"post"}, ``rebuy``/``top_up`` {"amount"}, ``close_table`` (the room
server sends it from the host's seat; the hand in play is finished first) and ``clock``
{"now": seconds} (the room server's clock for blind levels by minutes; the engine reads no clock).
While no hand can be dealt, ``legal_actions`` lists what would let the table go on (a busted
player's ``rebuy`` with its range, ``sit_in``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from app.games.base import Event, Game, IllegalAction, Outcome, freeze, require_type
from app.games.cards import new_seed
from app.games.fair import RESEED, Shuffle, parse_reseed
from app.games.form_layout import GameLayout
from app.games.holdem import engine, phh, table
from app.games.holdem.betting import refusal as betting_refusal
from app.games.holdem.common import FULL_DECK, amount, check_keys
from app.games.holdem.engine import (
    BETTING_ACTIONS,
    HAND_ACTIONS,
    TABLE_ACTIONS,
    apply_bet,
    apply_table,
    betting_options,
    current_level,
    legal_bets,
)
from app.games.holdem.layout import LAYOUT
from app.games.holdem.rules import PRESETS
from app.games.holdem.rules import RuleSheet as HoldemSheet
from app.games.holdem.state import FrozenState, Hand, State, dump_state, load_state
from app.games.holdem.view import between_hands_view, table_view, table_views

Action = dict[str, Any]

ALL_ACTIONS = frozenset((*HAND_ACTIONS, *TABLE_ACTIONS))
_TABLE = frozenset(TABLE_ACTIONS)
_BETTING = frozenset(BETTING_ACTIONS)
# The moves of a hand's decisions other than bets, by phase: ``legal_actions`` keeps those ``check``
# accepts (the straddle's amount depends on the level, so it is made each time).
DECISIONS: dict[str, list[Action]] = {
    "run_twice": [{"type": "run_twice"}, {"type": "run_once"}],
    "showdown": [{"type": "show"}, {"type": "muck"}],
    "show": [{"type": "show"}, {"type": "muck"}],
}
PHASE_OF = {
    **dict.fromkeys(BETTING_ACTIONS, "bet"),
    "straddle": "straddle",
    "no_straddle": "straddle",
    "run_twice": "run_twice",
    "run_once": "run_twice",
}


class Holdem(Game[State, HoldemSheet]):
    name: ClassVar[str] = "holdem"
    titles: ClassVar[Mapping[str, str]] = dict.fromkeys(("en", "et", "fi"), "Texas Hold'em")
    RuleSheet = HoldemSheet
    presets = PRESETS
    rule_letter: ClassVar[str] = "H"
    form_layout: ClassVar[GameLayout | None] = LAYOUT
    bot: ClassVar[str | None] = "app.bots.holdem"
    deal_starts: ClassVar[frozenset[str]] = frozenset({"hand_started"})
    # The engine reads no clock: only the room server tells it the time. Closing a table is the host's.
    server_actions: ClassVar[frozenset[str]] = frozenset({"clock", RESEED})
    reseeds: ClassVar[bool] = True
    host_actions: ClassVar[frozenset[str]] = frozenset({"close_table"})

    def check_sheet(self, sheet: HoldemSheet) -> None:
        sheet.check()

    def new(self, sheet: HoldemSheet, players: int, *, seed: str | None = None,
            deck: Sequence[str] | None = None, decks: Sequence[Sequence[str]] | None = None,
            button: int | None = None, stacks: Sequence[int] | None = None) -> State:
        """A table with seats ``0 .. players-1`` taken, its first hand dealt.

        ``deck`` fixes the first hand's deck; ``decks`` fixes several hands in order; ``button``
        puts the first button on a seat instead of the high-card draw (H4); ``stacks`` gives
        the players' starting stacks instead of the sheet's (tests, and tournament restarts).
        """
        sheet.check()
        fixed = [list(deck)] if deck is not None else [list(d) for d in (decks or [])]
        state, _ = engine.new_table(
            sheet,
            players,
            seed if seed is not None else new_seed(),
            fixed,
            button,
            list(stacks) if stacks is not None else None,
        )
        return freeze(state, FrozenState)

    # -- moves -------------------------------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        h = state.hand
        if state.over or not isinstance(seat, int) or not 0 <= seat < len(state.occupied):
            return []
        if h is None:
            return self._waiting_actions(state, seat)
        if h.phase == "bet":
            # The bets, a bet or raise as its range: ``betting_options``, which ``check`` reads too.
            return legal_bets(state, h, seat) if seat == h.actor else []
        if h.phase == "straddle":
            straddle: Action = {"type": "straddle", "amount": 2 * current_level(state).big_blind}
            candidates = [straddle, {"type": "no_straddle"}]
        else:
            candidates = DECISIONS.get(h.phase, [])
        return [dict(a) for a in candidates if self.check(state, seat, a) is None]

    def _waiting_actions(self, state: State, seat: int) -> list[Action]:
        """While no hand can be dealt: what would let the table go on (rebuy, sit in)."""
        if not state.occupied[seat]:
            return []
        out: list[Action] = []
        if state.status[seat] == "out":
            out.append({"type": "sit_in"})
        if state.sheet.format == "cash" and state.sheet.rebuy and state.stacks[seat] == 0:
            low, high = engine.rebuy_range(state, seat)
            if high > 0:
                out.append({"type": "rebuy", "min": low, "max": high})
        return out

    def table_actions(self, state: State, seat: int) -> list[Action]:
        """The table moves ``apply`` accepts from ``seat`` now, amounts as ranges ("min"/"max").

        ``clock`` and ``close_table`` are listed for every seat, as ``apply`` takes them; the room
        server keeps the first to itself and the second for the host (``server_actions``,
        ``host_actions``).
        """
        if state.over or isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
            return []
        sheet = state.sheet
        out: list[Action] = []
        if sheet.format == "cash":
            if not state.occupied[seat]:
                out.append({"type": "join", "seat": seat, "min": sheet.buy_in_min, "max": sheet.buy_in_max,
                            "default": sheet.buy_in_default, "post": [False, True]})
            else:
                out.append({"type": "leave"})
                if state.status[seat] != "out":
                    out.append({"type": "sit_out"})
                if state.sit_out[seat] or state.status[seat] == "out":
                    out.append({"type": "sit_in", "post": [False, True]})
                if sheet.rebuy:
                    low, high = engine.rebuy_range(state, seat)
                    if high > 0:
                        out.append({"type": "rebuy", "min": low, "max": high})
                        out.append({"type": "top_up", "min": low, "max": high})
        elif state.occupied[seat]:
            out.append({"type": "sit_in"} if state.status[seat] == "away" else {"type": "sit_out"})
        out.append({"type": "close_table"})
        if sheet.format == "tournament" and sheet.level_by == "minutes":
            out.append({"type": "clock"})
        return out

    def auto_action(self, state: State, seat: int) -> Action | None:
        # H22: a tournament player sitting out stays dealt in and is blinded away: check, else fold.
        if state.over or state.sheet.format != "tournament" or not 0 <= seat < state.seats:
            return None
        if not state.occupied[seat] or state.status[seat] != "away" or seat not in self.to_act(state):
            return None
        return self.timeout_action(state, seat)

    def clock_action(self, state: State, now: float) -> Action | None:
        sheet = state.sheet
        if state.over or sheet.format != "tournament" or sheet.level_by != "minutes":
            return None
        if state.clock_start is not None:
            level = int((now - state.clock_start) // (sheet.level_length * 60))
            if level <= state.clock_level:
                return None  # nothing would change: no need to log the time
        return {"type": "clock", "now": now}

    def to_act(self, state: State) -> list[int]:
        h = state.hand
        if state.over:
            return []
        if h is None:
            return [x for x in range(state.seats) if self._waiting_actions(state, x)]
        if h.phase in ("bet", "straddle", "showdown"):
            return [h.actor] if h.actor >= 0 else []
        if h.phase == "run_twice":
            return [x for x in range(state.seats) if h.votes[x] == -1]
        if h.phase == "show":
            return list(h.order)
        return []

    def optional_decision(self, state: State, seat: int) -> bool:
        # A straddle (H7), running the board twice, and showing or mucking at showdown (H19): each has
        # a quiet default (timeout_action), so none may hold the table up.
        h = state.hand
        return h is not None and h.phase in ("straddle", "run_twice", "showdown", "show")

    def timeout_action(self, state: State, seat: int) -> Action | None:
        h = state.hand
        legal = self.legal_actions(state, seat)
        if h is None or not legal:
            return None
        if h.phase == "bet":
            return {"type": "check"} if {"type": "check"} in legal else {"type": "fold"}
        if h.phase == "straddle":
            return {"type": "no_straddle"}
        if h.phase == "run_twice":
            return {"type": "run_once"}
        if h.phase == "showdown":
            # Cards speak (H19): a hand that can still win is tabled for the absent player.
            if engine.must_show(h, seat) or engine.could_win(h, seat):
                return {"type": "show"}
            return {"type": "muck"}
        return {"type": "muck"}

    def check(self, state: State, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
        """The one legality check (``Game.check``): the type and the seat, then a table move's
        own rules (``table_refusal``), or a hand move's: the turn, then its rules (betting:
        ``betting.refusal``, H15–H17; a straddle's amount, H7; a muck only where allowed, H19)."""
        kind: Any = action.get("type") if isinstance(action, dict) else None
        h = state.hand
        if (kind in _BETTING and h is not None and h.phase == "bet"
                and type(seat) is int and seat == h.actor >= 0):
            # The move of nearly every apply, a bet of the seat to act: every check before the
            # betting's own holds (a hand in play, so the table is open; the seat to act).
            return betting_refusal(state, h, seat, action, betting_options(state, h, seat))
        if kind == RESEED:
            return _reseed_refusal(state, action)
        if kind not in ALL_ACTIONS:
            try:
                kind = require_type(action, (*HAND_ACTIONS, *TABLE_ACTIONS))
            except IllegalAction as refused:
                return refused
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.occupied):
            return IllegalAction("bad_seat", "Seats are numbered 0 to {last}.", last=state.seats - 1)
        if kind in _TABLE:
            return table_refusal(state, seat, action)
        if state.over:
            return IllegalAction("table_closed", "The table is closed.")
        if h is None or h.phase == "over":
            return IllegalAction("no_hand", "No hand is being played.")
        wrong_turn = _turn_refusal(h, seat, kind)
        if wrong_turn is not None or kind in _BETTING:
            return wrong_turn  # a bet on its turn was checked above
        return _hand_move_refusal(state, h, seat, action)

    def apply(self, state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
        problem = self.check(state, seat, action)
        if problem is not None:
            raise problem
        kind = action["type"]
        s = state.copy()
        if kind == RESEED:
            s.round = parse_reseed(action)
            return freeze(s, FrozenState), []
        events: list[Event] = []
        if kind in _TABLE:
            apply_table(s, seat, action, events)
            return freeze(s, FrozenState), events
        h = s.hand
        assert h is not None
        if kind in _BETTING:
            apply_bet(s, h, seat, action, events)
        elif kind in ("straddle", "no_straddle"):
            engine.straddle(s, h, seat, action, events)
        elif kind in ("run_twice", "run_once"):
            engine.vote_run_twice(s, h, seat, action, events)
        elif h.phase == "showdown":
            engine.decide_showdown(s, h, seat, kind, events)
        else:
            engine.after_hand_show(s, h, seat, kind, events)
        return freeze(s, FrozenState), events

    # -- what leaves the server -------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return table_view(state, seat)

    def views(self, state: State, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        return table_views(state, seats)

    def view_between(self, state: State, seat: int | None) -> dict[str, Any]:
        return between_hands_view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        if state.sheet.format == "cash":
            net: dict[int, int] = {}
            for entry in state.ledger:
                net[entry["seat"]] = net.get(entry["seat"], 0) + entry["cash_out"] - entry["buy_in"]
            groups: dict[int, list[int]] = {}
            for s, v in net.items():
                groups.setdefault(v, []).append(s)
            placings = tuple(tuple(sorted(groups[v])) for v in sorted(groups, reverse=True))
            return Outcome(placings=placings, scores=net, reason="table_closed")
        placings = tuple(tuple(sorted(g)) for g in reversed(state.places))
        scores = {x: state.stacks[x] for x in range(state.seats) if state.occupied[x]}
        return Outcome(placings=placings, scores=scores, reason="closed" if state.closing else "finished")

    def hand_history(self, state: State, hand: int, seat: int | None, *, everything: bool = False,
                     names: Mapping[int, str] | None = None) -> str:
        """A finished hand in PHH as ``seat`` may see it (see ``phh.export``)."""
        return phh.export(state, hand, seat, everything=everything, names=names)

    def history(self, state: State, seat: int | None,
                names: Mapping[int, str] | None = None) -> tuple[str, str] | None:
        """Every finished hand as a PHH set (``[1]``, ``[2]`` … sections), as ``seat`` saw it,
        players named by ``names`` where given."""
        sections = [f"[{n}]\n{self.hand_history(state, hand, seat, names=names)}"
                    for n, hand in enumerate(self.hands(state), start=1)]
        return "holdem-hands.phhs", "\n\n".join(sections)

    def hands(self, state: State) -> list[int]:
        """The numbers of the finished hands that ``hand_history`` can export."""
        return [rec["hand"] for rec in state.history]

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> State:
        return load_state(data)

    def seat_count(self, state: State) -> int:
        return state.seats

    def current_round(self, state: State) -> Mapping[str, Any] | None:
        return state.round

    def shuffle_count(self, state: State) -> int:
        dealt = state.hand.number if state.hand is not None else state.hands
        return (1 if state.draw else 0) + max(0, dealt - len(state.decks))

    def shuffles(self, state: State, since: int = 0) -> list[Shuffle]:
        """The button draw (its drawn cards are public at once, the rest is never used) and one
        shuffle per hand dealt, ``hand-{n}``; a hand's shuffle opens when the hand is over."""
        deck = tuple(FULL_DECK)
        drawn = 1 if state.draw else 0
        out = [Shuffle("button-draw", deck, True)] if drawn and since == 0 else []
        dealt = state.hand.number if state.hand is not None else state.hands
        first = max(len(state.decks) + 1, since - drawn + len(state.decks) + 1)
        rounds = state.rounds
        out.extend(Shuffle(f"hand-{n}", deck, n <= state.hands or state.over, rounds.get(f"hand-{n}"))
                   for n in range(first, dealt + 1))
        return out

    def replay(
        self,
        sheet: HoldemSheet,
        players: int,
        seed: str | None,
        log: Any,
        *,
        deck: Sequence[str] | None = None,
        decks: Sequence[Sequence[str]] | None = None,
        button: int | None = None,
    ) -> State:
        state = self.new(sheet, players, seed=seed, deck=deck, decks=decks, button=button)
        for seat, action in log:
            state, _ = self.apply(state, seat, action)
        return state


def _reseed_refusal(state: State, action: Mapping[str, Any]) -> IllegalAction | None:
    """A new fair round for the hands dealt from now on (``fair.RESEED``): refused on a closed
    table or with a malformed round."""
    if state.over:
        return IllegalAction("table_closed", "The table is closed.")
    try:
        parse_reseed(action)
    except IllegalAction as refused:
        return refused
    return None


def _turn_refusal(h: Hand, seat: int, kind: str) -> IllegalAction | None:
    """Whether a hand move is ``seat``'s to make now (its phase, its turn)."""
    if kind in ("show", "muck"):
        if h.phase == "showdown" and seat == h.actor:
            return None
        if h.phase == "show" and seat in h.order:
            return None
        return IllegalAction("not_your_turn", "You may not show or muck now.")
    if PHASE_OF[kind] != h.phase:
        return IllegalAction("wrong_phase", "That move is not open now (the hand is at {phase}).",
                             phase=h.phase)
    if h.phase == "run_twice":
        if h.votes[seat] != -1:
            return IllegalAction("not_your_turn", "You have no run-it-twice choice to make.")
    elif seat != h.actor:
        return IllegalAction("not_your_turn", "It is not your turn.")
    return None


def _hand_move_refusal(state: State, h: Hand, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
    """The rules of a hand move other than a bet, on its turn: its fields, the straddle's amount
    (H7), a muck only where the hand need not be shown (H19)."""
    kind = action["type"]
    try:
        check_keys(action, ("amount",) if kind in ("straddle", "no_straddle") else ())
        if kind == "straddle" and "amount" in action:
            chips = 2 * current_level(state).big_blind
            if amount(action, "amount") != chips:
                return IllegalAction("bad_amount", "The straddle is {chips}.", chips=chips)
    except IllegalAction as refused:
        return refused
    if kind == "muck" and h.phase == "showdown" and engine.must_show(h, seat):
        return IllegalAction("must_show", "Every other hand in your pot is mucked: show to win it.")
    return None


def table_refusal(state: State, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
    """A table move's legality: its rules (``table.apply_table``: joining, leaving, sitting out
    and in, rebuys, the clock, closing) are checked as the move is made, so it is made on a
    scratch copy (table moves are rare: between hands, at a player's request)."""
    try:
        table.apply_table(state.copy(), seat, action, [])
    except IllegalAction as refused:
        return refused
    return None


HOLDEM = Holdem()
