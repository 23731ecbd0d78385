"""The Palace family engine: Hiina turakas, China Hand and Palace with every house rule.

Seats and direction
    Seats are ``0 .. n-1`` clockwise; the dealer is the last seat, so seat 0 sits on the dealer's
    left. Play goes clockwise: seat ``s`` is followed by ``s + 1`` (P6).

Dealing order (from the top of ``deck``, the first card; P3)
    One card at a time, clockwise from seat 0:

    1. three rounds face-down, into table slots 0, 1, 2;
    2. ``deal="three_three_three"``: three rounds face-up, onto slots 0, 1, 2;
    3. three rounds to the hands (``deal="choose_from_six"``: six rounds, and no face-up round);
    4. the rest is the stock, its top first. With ``opening="turn_up"`` the stock's top card is
       turned up as the pile's base when play starts (after the swap phase, P5).

    So with two players and a 3-3-3 deal ``deck[0]`` is seat 0's face-down slot 0, ``deck[1]`` seat 1's
    face-down slot 0, ``deck[6]`` seat 0's face-up slot 0, ``deck[12]`` seat 0's first hand card
    and ``deck[18]`` the stock's top. A ``deck`` need not be a full deck: any card codes, enough
    for the deal.

Actions (``type`` and fields)
    Swap phase (P3, P4), every seat at once until it is ready:
      ``{"type": "swap", "card": "Qs", "index": 0}``  hand card <-> own face-up card in slot 0
      ``{"type": "ready"}``                              done swapping (3-3-3 deal)
      ``{"type": "lay_face_up", "cards": [..3..]}``      choose the 3 face-up cards (6-card deal); ready
    Play phase, the seat on turn:
      ``{"type": "play", "cards": ["Qs", "Qh"]}``        one or more equal cards from the hand (P7)
      ``{"type": "play_face_up", "indexes": [0, 2]}``    equal face-up cards, hand empty (P18)
      ``{"type": "play_face_down", "index": 1}``         a blind face-down card (P21)
      ``{"type": "draw"}``                               cannot or will not play: draw one (P9)
      ``{"type": "play_drawn"}``                         play the card just drawn (P9)
      ``{"type": "pick_up"}``                            take the whole pile (P9, P10, P20)
      ``{"type": "pass"}``                               only when the pile is empty and no play is
                                                         allowed (P23 leaves nothing else)
      ``{"type": "burn"}`` / ``{"type": "keep"}``        after a 10 with ``ten_burn="optional"`` (P15)
    Any seat still in play, out of turn, when the sheet allows it:
      ``{"type": "cut_in", "cards": [...]}``            complete a four on the pile (P16, ``cut_in``)
      ``{"type": "add", "cards": [...]}``                add drawn cards of the rank just played (P17)
      ``{"type": "lay_four", "cards": [..4..]}``         lay aside four of a kind from hand (P16)

Choices where the seeds are silent (see docs/rules/palace.md)
    - A joker fits on anything; ``joker="reset"`` acts like a 2, ``"transparent"`` like the et 8.
      Jokers never make a four of a kind.
    - A turned-up base card (P5) burns nothing; it simply is the pile's first card.
    - ``when_stuck="draw_ends_turn"``: the drawn card may not be played, so the player picks up the
      pile in the same move (P9 "otherwise pick up").
    - A player who goes out on a 10 under ``ten_burn="optional"`` does not decide; the 10 stays.
    - P23 also covers the last blind card: a 2, 10 or ace turned up as the very last card fails
      and is picked up with the pile. A player left only with such cards and an empty pile passes.
    - Out-of-turn moves wait while the player on turn owes a decision (burn/keep, drawn card).
    - Endless games: after ``stalemate_moves`` moves in a row with no progress (no card burned,
      drawn from the stock or played from the table, nobody out) the game ends; players still in
      are placed by the number of cards they hold, fewer first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from app.games import cards as cardlib
from app.games.base import Action, Event, IllegalAction, InvalidSheet, Outcome, require_type
from app.games.cards import RANKS
from app.games.palace.pile import active_card, fits, four_on_top, top_run
from app.games.palace.rules import RuleSheet, check_sheet
from app.games.palace.table import BY_RANK, VALUE, Player, Table

ACTION_FIELDS: dict[str, frozenset[str]] = {
    "swap": frozenset({"card", "index"}),
    "ready": frozenset(),
    "lay_face_up": frozenset({"cards"}),
    "play": frozenset({"cards"}),
    "play_face_up": frozenset({"indexes"}),
    "play_face_down": frozenset({"index"}),
    "draw": frozenset(),
    "play_drawn": frozenset(),
    "pick_up": frozenset(),
    "pass": frozenset(),
    "burn": frozenset(),
    "keep": frozenset(),
    "cut_in": frozenset({"cards"}),
    "add": frozenset({"cards"}),
    "lay_four": frozenset({"cards"}),
}

NO_OUT_RANKS = frozenset("2TA")  # P23


# -- dealing ---------------------------------------------------------------------------------


def new(
    sheet: RuleSheet, players: int, *, seed: str | None = None, deck: Sequence[str] | None = None
) -> Table:
    """Deal a game (P3, P24: the sheet is checked before any card moves)."""
    if not isinstance(sheet, RuleSheet):
        raise InvalidSheet(None, "A Palace game needs a Palace rule sheet.")
    check_sheet(sheet)
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidSheet(None, "The number of players must be a whole number.")
    sheet.check_players(players)
    order = _deck_order(sheet, players, seed, deck)
    pos = 0

    def rounds(count: int) -> list[list[str]]:
        nonlocal pos
        got: list[list[str]] = [[] for _ in range(players)]
        for _ in range(count):
            for s in range(players):
                got[s].append(order[pos])
                pos += 1
        return got

    face_down = rounds(3)
    if sheet.deal == "three_three_three":
        face_up: list[list[str | None]] = [list(c) for c in rounds(3)]
        hands = rounds(3)
    else:
        face_up = [[None, None, None] for _ in range(players)]
        hands = rounds(6)
    seats = tuple(
        Player(
            hand=tuple(sorted(hands[s], key=BY_RANK)),
            face_up=tuple(face_up[s]),
            face_down=tuple(face_down[s]),
        )
        for s in range(players)
    )
    return Table(
        sheet=sheet,
        players=seats,
        stock=tuple(order[pos:]),
        pile=(),
        burned=(),
        phase="swap",
        turn=0,
    )


def full_deck(sheet: RuleSheet, players: int) -> list[str]:
    """The sheet's unshuffled cards for ``players`` (P2): the one shuffle, labelled ``deal``, is of these."""
    low = "2" if sheet.deck == "52" else "6"
    return cardlib.deck(low_rank=low, jokers=sheet.jokers, decks=sheet.deck_count(players))


def _deck_order(sheet: RuleSheet, players: int, seed: str | None, deck: Sequence[str] | None) -> list[str]:
    """The cards in dealing order, top first: the seeded shuffle of the sheet's deck, or ``deck``."""
    needed = sheet.cards_needed(players)
    if deck is None:
        full = full_deck(sheet, players)
        if len(full) < needed:
            raise InvalidSheet(
                "decks",
                f"{players} players need {needed} cards but the deck has {len(full)}; use more decks.",
            )
        return cardlib.shuffled(full, seed if seed is not None else cardlib.new_seed())
    order = list(deck)
    for code in order:
        if not cardlib.is_card(code):
            raise IllegalAction("bad_deck", f"The deck holds {str(code)[:8]!r}, not a card code.")
    if len(order) < needed:
        raise IllegalAction("bad_deck", f"{players} players need {needed} cards, not {len(order)}.")
    return order


# -- small helpers -----------------------------------------------------------------------------


def _is_empty(p: Player) -> bool:
    return not p.hand and p.table_count() == 0


def _next_active(out: tuple[int, ...], n: int, seat: int) -> int:
    for k in range(1, n + 1):
        s = (seat + k) % n
        if s not in out:
            return s
    return seat


def _groups(cards: Sequence[str]) -> dict[str, list[str]]:
    """Cards by rank, in rank order (hands are sorted, so groups come out sorted too)."""
    out: dict[str, list[str]] = {}
    for c in cards:
        out.setdefault(c[0], []).append(c)
    return out


def _sub_multisets(cards: list[str], low: int, high: int) -> list[list[str]]:
    """Every distinct choice of ``low``..``high`` cards out of ``cards`` (twins counted once)."""
    out: list[list[str]] = []
    twins = len(set(cards)) != len(cards)
    seen: set[tuple[str, ...]] = set()
    for k in range(max(low, 1), min(high, len(cards)) + 1):
        for combo in combinations(cards, k):
            if twins:
                if combo in seen:
                    continue
                seen.add(combo)
            out.append(list(combo))
    return out


def _goes_out_on_special(t: Table, p: Player, rank: str, count: int) -> bool:
    """P23: would playing ``count`` cards of ``rank`` leave this player with nothing at all?"""
    return t.sheet.no_out_on_special and rank in NO_OUT_RANKS and not t.stock and p.card_count() == count


def _held(hand: tuple[str, ...], cards: list[str]) -> bool:
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return False
    return True


def _without(p: Player, cards: Sequence[str]) -> Player:
    hand = list(p.hand)
    known = list(p.known)
    for c in cards:
        hand.remove(c)
        if c in known:
            known.remove(c)
    return replace(p, hand=tuple(hand), known=tuple(known))


# -- legal moves -------------------------------------------------------------------------------


def _source(p: Player) -> str:
    """Where the player's next card comes from (P18, P20, P21): hand, then face-up, then face-down."""
    if p.hand:
        return "hand"
    if any(c is not None for c in p.face_up):
        return "face_up"
    return "face_down"


def _plays(t: Table, seat: int) -> list[Action]:
    """Every play the seat on turn may make from its current source."""
    p = t.players[seat]
    sheet = t.sheet
    active = active_card(sheet, t.pile)
    out: list[Action] = []
    source = _source(p)
    if source == "hand":
        for rank, group in _groups(p.hand).items():
            if not fits(sheet, rank, active) or (t.opening_rank is not None and rank != t.opening_rank):
                continue
            for cards in _sub_multisets(group, 1, len(group)):
                if not _goes_out_on_special(t, p, rank, len(cards)):
                    out.append({"type": "play", "cards": cards})
    elif source == "face_up":
        slots: dict[str, list[int]] = {}
        for i, c in enumerate(p.face_up):
            if c is not None:
                slots.setdefault(c[0], []).append(i)
        for rank in sorted(slots, key=VALUE.__getitem__):
            if not fits(sheet, rank, active):
                continue
            idx = slots[rank]
            for k in range(1, len(idx) + 1):
                for combo in combinations(idx, k):
                    if not _goes_out_on_special(t, p, rank, k):
                        out.append({"type": "play_face_up", "indexes": list(combo)})
    else:
        for i, c in enumerate(p.face_down):
            if c is not None:
                out.append({"type": "play_face_down", "index": i})
    return out


def _stuck_moves(t: Table, seat: int, can_play: bool) -> list[Action]:
    """Draw, pick up or pass: what a seat on turn may do instead of playing (P9, P10, P11, P23)."""
    p = t.players[seat]
    sheet = t.sheet
    if t.pile:
        if can_play and not sheet.voluntary_pick_up:
            return []  # P10: you must play if you can
        if sheet.when_stuck != "pick_up" and t.stock and p.hand:
            return [{"type": "draw"}]
        return [{"type": "pick_up"}]
    if not can_play:
        return [{"type": "pass"}]
    return []


def _drawn_moves(t: Table, seat: int) -> list[Action]:
    p = t.players[seat]
    drawn = t.drawn
    assert drawn is not None
    ok = fits(t.sheet, drawn[0], active_card(t.sheet, t.pile)) and not _goes_out_on_special(t, p, drawn[0], 1)
    out: list[Action] = []
    if ok:
        out.append({"type": "play_drawn"})
    if not ok or t.sheet.voluntary_pick_up:
        out.append({"type": "pick_up"})
    return out


def _cut_ins(t: Table, seat: int) -> list[Action]:
    """P16 (wikihow variant): complete the four on top of the pile from the hand, out of turn."""
    rank, count = top_run(t.pile)
    if rank is None or rank == "X" or count >= 4:
        return []
    p = t.players[seat]
    group = [c for c in p.hand if c[0] == rank]
    need = 4 - count
    if len(group) < need:
        return []
    return [
        {"type": "cut_in", "cards": cards}
        for cards in _sub_multisets(group, need, len(group))
        if not _goes_out_on_special(t, p, rank, len(cards))
    ]


def _adds(t: Table, seat: int) -> list[Action]:
    """P17: the cards just drawn of the rank just played, while the next player has not moved."""
    p = t.players[seat]
    cards = [c for c in t.add_cards]
    if not cards:
        return []
    return [
        {"type": "add", "cards": sub}
        for sub in _sub_multisets(cards, 1, len(cards))
        if not _goes_out_on_special(t, p, sub[0][0], len(sub))
    ]


def _fours(t: Table, seat: int) -> list[Action]:
    """P16 (et matrix): four of a kind held in hand may be laid aside at any time."""
    p = t.players[seat]
    out: list[Action] = []
    for rank, group in _groups(p.hand).items():
        if rank == "X" or len(group) < 4:
            continue
        for cards in _sub_multisets(group, 4, 4):
            if not _goes_out_on_special(t, p, rank, 4):
                out.append({"type": "lay_four", "cards": cards})
    return out


def _out_of_turn(t: Table, seat: int) -> list[Action]:
    """Moves a seat may make whether or not it is on turn (never while a decision is owed)."""
    sheet = t.sheet
    out: list[Action] = []
    if seat != t.turn:
        if sheet.cut_in:
            out.extend(_cut_ins(t, seat))
        if sheet.add_drawn and t.add_seat == seat:
            out.extend(_adds(t, seat))
    if sheet.four_from_hand:
        out.extend(_fours(t, seat))
    return out


def _swap_moves(t: Table, seat: int) -> list[Action]:
    p = t.players[seat]
    if p.ready:
        return []
    if t.sheet.deal == "choose_from_six" and all(c is None for c in p.face_up):
        return [{"type": "lay_face_up", "cards": cards} for cards in _sub_multisets(list(p.hand), 3, 3)]
    out: list[Action] = []
    for card in dict.fromkeys(p.hand):
        for i, up in enumerate(p.face_up):
            if up is not None and up != card:
                out.append({"type": "swap", "card": card, "index": i})
    out.append({"type": "ready"})
    return out


# The latest tables' legal moves by (table id, seat), each entry holding its table (so the id is
# not reused while remembered). A server with many tables between a view's ``legal_actions`` and
# the ``apply`` that follows (other rooms' moves come in between) still computes them once.
_LEGAL_MEMO: dict[tuple[int, int], tuple[Table, list[Action]]] = {}
_LEGAL_MEMO_SIZE = 512


def legal_actions(t: Table, seat: int) -> list[Action]:
    """Every move ``seat`` may make now: the one legality check of Palace.

    ``apply`` accepts a move only if it is listed here (in canonical form, see ``_canonical``);
    the ``_do_*`` handlers then perform it, and their refusals name what is wrong with a move that
    is not listed. Remembered for the latest tables asked: tables never change, so
    ``legal_actions`` and the ``apply`` that follows share one computation.
    """
    return list(_listed(t, seat))


def _listed(t: Table, seat: int) -> list[Action]:
    """``legal_actions`` as remembered: the list must not be changed."""
    key = (id(t), seat)
    found = _LEGAL_MEMO.get(key)
    if found is not None and found[0] is t:
        return found[1]
    out = _legal_actions(t, seat)
    if len(_LEGAL_MEMO) >= _LEGAL_MEMO_SIZE:
        _LEGAL_MEMO.clear()  # one step (a replay in another thread may use the memo meanwhile)
    _LEGAL_MEMO[key] = (t, out)
    return out


def _canonical(action: Mapping[str, Any]) -> dict[str, Any]:
    """The form ``legal_actions`` lists a move in: cards in hand order, slot indexes ascending."""
    out = dict(action)
    cards = out.get("cards")
    if isinstance(cards, list) and all(isinstance(c, str) and cardlib.is_card(c) for c in cards):
        out["cards"] = sorted(cards, key=BY_RANK)
    indexes = out.get("indexes")
    if isinstance(indexes, list) and all(type(i) is int for i in indexes):
        out["indexes"] = sorted(indexes)
    return out


def _legal_actions(t: Table, seat: int) -> list[Action]:
    if t.phase == "over" or not isinstance(seat, int) or not 0 <= seat < len(t.players):
        return []
    if t.phase == "swap":
        return _swap_moves(t, seat)
    if seat in t.out:
        return []
    if t.decision is not None:
        if seat != t.turn:
            return []
        if t.decision == "burn":
            return [{"type": "burn"}, {"type": "keep"}]
        return _drawn_moves(t, seat)
    out: list[Action] = []
    if seat == t.turn:
        plays = _plays(t, seat)
        out.extend(plays)
        out.extend(_stuck_moves(t, seat, bool(plays)))
    out.extend(_out_of_turn(t, seat))
    return out


def to_act(t: Table) -> list[int]:
    """Every seat with a move now: the seat on turn and any seat with an out-of-turn move.

    The out-of-turn part tells what a seat holds, so it is for the server and bots only; the
    public "whom do we wait for" is the view's ``waiting_for``.
    """
    if t.phase == "over":
        return []
    if t.phase == "swap":
        return [s for s, p in enumerate(t.players) if not p.ready]
    if t.decision is not None:
        return [t.turn]
    seats = [t.turn]
    sheet = t.sheet
    if sheet.cut_in or sheet.add_drawn or sheet.four_from_hand:
        for s in range(len(t.players)):
            if s != t.turn and s not in t.out and _out_of_turn(t, s):
                seats.append(s)
    return seats


def timeout_action(t: Table, seat: int) -> Action | None:
    """The move made for a seat whose timer runs out.

    Ready, keep, pick up, draw or pass when legal, else the lowest play.
    """
    legal = legal_actions(t, seat)
    if not legal:
        return None
    if t.phase == "swap":
        if {"type": "ready"} in legal:
            return {"type": "ready"}
        # Choose-from-six: lay 2s, 10s and then the highest cards face-up (the wikihow's advice).
        best = sorted(t.players[seat].hand, key=lambda c: (c[0] in "2T", VALUE[c[0]]))[-3:]
        action: Action = {"type": "lay_face_up", "cards": sorted(best, key=BY_RANK)}
        return action if action in legal else legal[-1]
    if seat != t.turn:
        return None
    for preferred in ("keep", "pick_up", "draw", "pass"):
        if {"type": preferred} in legal:
            return {"type": preferred}
    return legal[0]


# -- applying a move ---------------------------------------------------------------------------


class _Move:
    """A mutable working copy of a table for one move; ``freeze`` gives the new table."""

    __slots__ = (
        "add_cards",
        "add_seat",
        "burned",
        "decision",
        "drawn",
        "events",
        "idle",
        "opening_rank",
        "out",
        "phase",
        "pile",
        "players",
        "reason",
        "sheet",
        "stock",
        "turn",
    )

    def __init__(self, t: Table) -> None:
        self.sheet = t.sheet
        self.players = list(t.players)
        self.stock = t.stock
        self.pile = t.pile
        self.burned = t.burned
        self.phase = t.phase
        self.turn = t.turn
        self.decision = t.decision
        self.drawn = t.drawn
        self.add_seat = t.add_seat
        self.add_cards = t.add_cards
        self.out = t.out
        self.idle = t.idle
        self.reason = t.reason
        self.opening_rank = t.opening_rank
        self.events: list[Event] = []

    def freeze(self) -> Table:
        return Table(
            sheet=self.sheet,
            players=tuple(self.players),
            stock=self.stock,
            pile=self.pile,
            burned=self.burned,
            phase=self.phase,
            turn=self.turn,
            decision=self.decision,
            drawn=self.drawn,
            add_seat=self.add_seat,
            add_cards=self.add_cards,
            out=self.out,
            idle=self.idle,
            reason=self.reason,
            opening_rank=self.opening_rank,
        )

    def emit(self, kind: str, data: dict[str, Any], audience: tuple[int, ...] | None = None) -> None:
        self.events.append(Event(kind, data, audience))

    def next_active(self, seat: int) -> int:
        return _next_active(self.out, len(self.players), seat)

    def refill(self, seat: int) -> list[str]:
        """P8: after a play, draw up to three cards in hand while the stock lasts."""
        p = self.players[seat]
        need = 3 - len(p.hand)
        if need <= 0 or not self.stock:
            return []
        got = self.stock[:need]
        self.stock = self.stock[need:]
        self.players[seat] = replace(p, hand=tuple(sorted(p.hand + got, key=BY_RANK)))
        self.emit("drew", {"seat": seat, "count": len(got)})
        self.emit("drew_cards", {"seat": seat, "cards": list(got)}, (seat,))
        return list(got)

    def burn(self, seat: int, why: str) -> None:
        """P15, P16: the pile leaves the deal."""
        self.emit("burned", {"seat": seat, "by": why, "cards": list(self.pile)})
        self.burned = self.burned + self.pile
        self.pile = ()

    def pick_up(self, seat: int, extra: tuple[str, ...] = ()) -> None:
        """P9, P11, P20, P21: the whole pile (and a failed face-down card) goes to the hand."""
        cards = self.pile + extra
        p = self.players[seat]
        hand = tuple(sorted(p.hand + cards, key=BY_RANK))
        self.players[seat] = replace(p, hand=hand, known=tuple(sorted(p.known + cards, key=BY_RANK)))
        self.pile = ()
        self.emit("picked_up", {"seat": seat, "cards": list(cards)})
        self.turn = seat if self.sheet.after_pick_up == "picker" else self.next_active(seat)

    def check_out(self, seat: int) -> bool:
        """A player with no cards left is out (P22); True when that ends the game."""
        if seat in self.out or not _is_empty(self.players[seat]):
            return False
        self.out = (*self.out, seat)
        self.emit("out", {"seat": seat, "place": len(self.out)})
        if self.sheet.finish == "first_out_wins" or len(self.players) - len(self.out) <= 1:
            self.end("finished")
            return True
        return False

    def end(self, reason: str) -> None:
        self.phase = "over"
        self.reason = reason
        self.decision = None
        self.drawn = None
        self.add_seat = None
        self.add_cards = ()
        self.emit("game_over", {"reason": reason})

    def placed(
        self,
        seat: int,
        cards: list[str],
        source: str,
        *,
        may_add: bool = True,
        indexes: list[int] | None = None,
    ) -> None:
        """Cards went on the pile: refill, burns, who plays next (P8, P15, P16, P17)."""
        self.pile = self.pile + tuple(cards)
        data: dict[str, Any] = {"seat": seat, "cards": cards, "from": source}
        if indexes is not None:
            data["indexes"] = indexes
        self.emit("played", data)
        rank = cards[0][0]
        drawn = self.refill(seat)
        sheet = self.sheet
        again = False
        if four_on_top(self.pile):
            self.burn(seat, "four")  # P16: the player of the fourth starts again
            again = True
        elif rank == "T" and sheet.ten_burn == "always":
            self.burn(seat, "ten")  # P15 (fi, wikihow, et matrix): the same player plays again
            again = True
        if self.check_out(seat):
            return
        out = seat in self.out
        if rank == "T" and not again and not out:
            # P15 et base: the player says whether the pile burns.
            self.decision = "burn"
            self.turn = seat
            return
        self.turn = seat if again and not out else self.next_active(seat)
        if sheet.add_drawn and may_add and not again and not out:
            same = tuple(c for c in drawn if c[0] == rank)
            if same:
                self.add_seat = seat
                self.add_cards = same


def _refuse(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def _cards_field(action: Mapping[str, Any], name: str = "cards") -> list[str]:
    try:
        cards = cardlib.parse_cards(action.get(name), field=name)
    except ValueError as error:
        raise _refuse("bad_cards", str(error).capitalize() + ".") from None
    if not cards:
        raise _refuse("bad_cards", "Name at least one card.")
    return cards


def _index_field(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _refuse("bad_index", f"{name} must be a slot number 0, 1 or 2.")
    if not 0 <= value <= 2:
        raise _refuse("bad_index", f"{name} must be a slot number 0, 1 or 2.")
    return value


def _same_rank(cards: list[str]) -> str:
    rank = cards[0][0]
    if any(c[0] != rank for c in cards):
        raise _refuse("mixed_ranks", "Cards played together must be of one rank.")
    return rank


def _check_held(p: Player, cards: list[str]) -> None:
    if not _held(p.hand, cards):
        raise _refuse("not_held", "You do not hold all of those cards in your hand.")


def _check_not_out_on_special(t: Table, p: Player, rank: str, count: int) -> None:
    if _goes_out_on_special(t, p, rank, count):
        raise _refuse("no_out_on_special", "House rule: you may not go out on a 2, a 10 or an ace.")


def _check_fits(t: Table, rank: str) -> None:
    if not fits(t.sheet, rank, active_card(t.sheet, t.pile)):
        raise _refuse("does_not_fit", "That card does not fit on the pile.")


def _on_turn(t: Table, seat: int) -> Player:
    if t.phase != "play":
        raise _refuse("wrong_phase", "Play has not started yet: finish the swap first.")
    if seat in t.out:
        raise _refuse("already_out", "You are out of the game.")
    if seat != t.turn:
        raise _refuse("not_your_turn", "It is not your turn.")
    if t.decision == "burn":
        raise _refuse("decision_pending", "First say whether the pile burns: burn or keep.")
    if t.decision == "drawn":
        raise _refuse("decision_pending", "First play the card you drew, or pick up the pile.")
    return t.players[seat]


def _out_of_turn_ok(t: Table, seat: int, option: bool, label: str) -> Player:
    if not option:
        raise _refuse("not_allowed", f"This rule sheet does not allow {label}.")
    if t.phase != "play":
        raise _refuse("wrong_phase", "Play has not started yet.")
    if seat in t.out:
        raise _refuse("already_out", "You are out of the game.")
    if t.decision is not None:
        raise _refuse("decision_pending", "Wait: the player on turn has a decision to make.")
    return t.players[seat]


def _must_play_check(t: Table, seat: int) -> None:
    if not t.sheet.voluntary_pick_up and _plays(t, seat):
        raise _refuse("must_play", "You must play if you can (no voluntary pick-up).")


def apply(t: Table, seat: int, action: Mapping[str, Any]) -> tuple[Table, list[Event]]:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(t.players):
        raise _refuse("bad_seat", "There is no such seat at this table.")
    kind = require_type(action, ACTION_FIELDS)
    extra = set(action) - ACTION_FIELDS[kind] - {"type"}
    if extra:
        raise _refuse("bad_action", f"A {kind} action has no field {sorted(extra)[0]!r}.")
    missing = ACTION_FIELDS[kind] - set(action)
    if missing:
        raise _refuse("bad_action", f"A {kind} action needs the field {sorted(missing)[0]!r}.")
    if t.phase == "over":
        raise _refuse("game_over", "The game is over.")
    m = _Move(t)
    before = _progress(t)
    if not (kind == "add" and seat == t.add_seat):
        # P17: the add window closes with any move but the adding player's own add.
        m.add_seat = None
        m.add_cards = ()
    listed = _listed(t, seat)
    if action not in listed and _canonical(action) not in listed:
        # Not a legal move: the handler's own checks say what is wrong with it (on a scratch copy).
        _HANDLERS[kind](t, _Move(t), seat, action)
        raise _refuse("not_allowed", "That move is not open to you now.")
    _HANDLERS[kind](t, m, seat, action)
    if t.phase == "play":
        m.opening_rank = None  # P5: the opening constraint binds the first move only
    if m.phase == "play" and t.phase == "play":
        m.idle = 0 if _progress_of(m) != before else t.idle + 1
        if m.idle >= t.sheet.stalemate_moves:
            m.end("stalemate")
    return m.freeze(), m.events


def _progress(t: Table) -> tuple[int, int, int, int]:
    return (len(t.stock), len(t.burned), sum(p.table_count() for p in t.players), len(t.out))


def _progress_of(m: _Move) -> tuple[int, int, int, int]:
    return (len(m.stock), len(m.burned), sum(p.table_count() for p in m.players), len(m.out))


# -- handlers ----------------------------------------------------------------------------------


def _swap_phase(t: Table, seat: int) -> Player:
    if t.phase != "swap":
        raise _refuse("wrong_phase", "The swap phase is over (P4).")
    p = t.players[seat]
    if p.ready:
        raise _refuse("already_ready", "You are already ready.")
    return p


def _start_play(m: _Move) -> None:
    """P5: open the play once every seat is ready."""
    m.phase = "play"
    sheet = m.sheet
    start = 0
    if sheet.opening == "turn_up":
        base = m.stock[0]
        m.stock = m.stock[1:]
        m.pile = (base,)
        m.emit("turned_up", {"card": base})
    elif sheet.opening in ("lowest_card", "first_three"):
        ranks = RANKS if sheet.opening == "lowest_card" else RANKS[1:]
        for rank in ranks:
            holders = [s for s, p in enumerate(m.players) if rank in _opening_ranks(sheet, p)]
            if holders:
                start = holders[0]
                break
    elif sheet.opening == "left_plays_lowest":
        # P5 (wikihow): "diilerist vasakule jääv inimene mängib käes olevat kõige madalamat kaarti".
        ranks_held = [c[0] for c in m.players[0].hand if c[0] in VALUE and c[0] != "X"]
        m.opening_rank = min(ranks_held, key=VALUE.__getitem__) if ranks_held else None
    m.turn = start
    m.emit("play_started", {"turn": start})


def _opening_ranks(sheet: RuleSheet, p: Player) -> set[str]:
    """P5: the ranks that count for who opens, from the hand, the face-up cards or both."""
    cards: list[str] = []
    if sheet.opening_cards != "face_up":
        cards.extend(p.hand)
    if sheet.opening_cards != "hand":
        cards.extend(c for c in p.face_up if c is not None)
    return {c[0] for c in cards}


def _after_ready(m: _Move) -> None:
    if all(p.ready for p in m.players):
        _start_play(m)


def _do_swap(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    p = _swap_phase(t, seat)
    if t.sheet.deal != "three_three_three" or all(c is None for c in p.face_up):
        raise _refuse("wrong_phase", "Lay your three face-up cards first.")
    card = action["card"]
    if not cardlib.is_card(card):
        raise _refuse("bad_cards", "card must be a card code like 'Qs' or 'Th'.")
    index = _index_field(action["index"], "index")
    _check_held(p, [card])
    up = p.face_up[index]
    if up is None:
        raise _refuse("bad_index", "That slot has no face-up card.")
    if up == card:
        raise _refuse("same_card", "Swapping a card for an identical one changes nothing.")
    hand = list(p.hand)
    hand.remove(card)
    hand.append(up)
    face_up = list(p.face_up)
    face_up[index] = card
    m.players[seat] = replace(p, hand=tuple(sorted(hand, key=BY_RANK)), face_up=tuple(face_up))
    m.emit("swapped", {"seat": seat, "index": index, "card": card, "took": up})


def _do_ready(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    p = _swap_phase(t, seat)
    if any(c is None for c in p.face_up):
        raise _refuse("choose_face_up_first", "Choose your three face-up cards first.")
    m.players[seat] = replace(p, ready=True)
    m.emit("ready", {"seat": seat})
    _after_ready(m)


def _do_lay_face_up(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    p = _swap_phase(t, seat)
    if t.sheet.deal != "choose_from_six" or any(c is not None for c in p.face_up):
        raise _refuse("wrong_phase", "Your face-up cards are already on the table.")
    cards = _cards_field(action)
    if len(cards) != 3:
        raise _refuse("wrong_count", "Choose exactly three cards to lay face-up.")
    _check_held(p, cards)
    rest = _without(p, cards)
    m.players[seat] = replace(rest, face_up=tuple(cards), ready=True)
    m.emit("laid_face_up", {"seat": seat, "cards": cards})
    m.emit("ready", {"seat": seat})
    _after_ready(m)


def _do_play(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    p = _on_turn(t, seat)
    if not p.hand:
        raise _refuse("hand_empty", "Your hand is empty: play from your table cards.")
    cards = _cards_field(action)
    rank = _same_rank(cards)
    _check_held(p, cards)
    _check_fits(t, rank)
    if t.opening_rank is not None and rank != t.opening_rank:
        raise _refuse("play_lowest", "The opener plays the lowest card in his hand first (P5).")
    _check_not_out_on_special(t, p, rank, len(cards))
    m.players[seat] = _without(p, cards)
    m.placed(seat, sorted(cards, key=BY_RANK), "hand")


def _do_play_face_up(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    p = _on_turn(t, seat)
    if p.hand:
        raise _refuse("hand_first", "Play your hand first (P18, P20).")
    raw = action["indexes"]
    if not isinstance(raw, list) or not raw or len(raw) > 3:
        raise _refuse("bad_index", "indexes must be a list of one to three slot numbers.")
    indexes = [_index_field(i, "indexes") for i in raw]
    if len(set(indexes)) != len(indexes):
        raise _refuse("bad_index", "Name each slot once.")
    chosen = [p.face_up[i] for i in indexes]
    cards: list[str] = []
    for c in chosen:
        if c is None:
            raise _refuse("bad_index", "That slot has no face-up card.")
        cards.append(c)
    rank = _same_rank(cards)
    _check_fits(t, rank)
    _check_not_out_on_special(t, p, rank, len(cards))
    face_up = list(p.face_up)
    face_down = list(p.face_down)
    indexes.sort()
    cards = [c for c in (p.face_up[i] for i in indexes) if c is not None]
    turned: list[tuple[int, str]] = []
    for i in indexes:
        face_up[i] = None
        below = face_down[i]
        if t.sheet.turn_up_face_down and below is not None:
            # P19 (China Hand): the face-down card below is turned up at once and joins the face-up row.
            face_up[i] = below
            face_down[i] = None
            turned.append((i, below))
    m.players[seat] = replace(p, face_up=tuple(face_up), face_down=tuple(face_down))
    m.placed(seat, cards, "face_up", indexes=indexes)
    for i, below in turned:
        m.emit("turned_up_below", {"seat": seat, "index": i, "card": below})


def _do_play_face_down(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    p = _on_turn(t, seat)
    if p.hand:
        raise _refuse("hand_first", "Play your hand first (P18, P20).")
    if any(c is not None for c in p.face_up):
        raise _refuse("face_up_first", "Play your face-up cards before the face-down ones (P21).")
    index = _index_field(action["index"], "index")
    card = p.face_down[index]
    if card is None:
        raise _refuse("bad_index", "That slot has no face-down card.")
    face_down = list(p.face_down)
    face_down[index] = None
    m.players[seat] = replace(p, face_down=tuple(face_down))
    ok = fits(t.sheet, card[0], active_card(t.sheet, t.pile))
    if ok and _goes_out_on_special(t, p, card[0], 1):
        ok = False  # P23: the last card may not be a 2, 10 or ace, even a blind one (our reading)
    m.emit("turned_face_down", {"seat": seat, "index": index, "card": card, "fits": ok})
    if ok:
        m.placed(seat, [card], "face_down")
    else:
        m.pick_up(seat, (card,))  # P21: the pile and the turned card go to the hand


def _do_draw(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    p = _on_turn(t, seat)
    if t.sheet.when_stuck == "pick_up":
        raise _refuse("not_allowed", "This rule sheet has no drawing when stuck: pick up the pile.")
    if not t.pile:
        raise _refuse("pile_empty", "The pile is empty: start it with any card.")
    if not t.stock:
        raise _refuse("stock_empty", "The stock is empty: pick up the pile.")
    if not p.hand:
        raise _refuse("hand_empty", "Your hand is empty: play from your table cards.")
    _must_play_check(t, seat)
    card = m.stock[0]
    m.stock = m.stock[1:]
    m.players[seat] = replace(p, hand=tuple(sorted((*p.hand, card), key=BY_RANK)))
    m.emit("drew", {"seat": seat, "count": 1})
    m.emit("drew_cards", {"seat": seat, "cards": [card]}, (seat,))
    if t.sheet.when_stuck == "draw_ends_turn":
        m.pick_up(seat)  # our reading of "drawing ends the turn": no play, so the pile is taken (P9)
    else:
        m.decision = "drawn"
        m.drawn = card


def _do_play_drawn(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    if t.phase != "play" or seat != t.turn or t.decision != "drawn" or t.drawn is None:
        raise _refuse("no_drawn_card", "You have no freshly drawn card to play.")
    p = t.players[seat]
    card = t.drawn
    _check_fits(t, card[0])
    _check_not_out_on_special(t, p, card[0], 1)
    m.decision = None
    m.drawn = None
    m.players[seat] = _without(p, [card])
    m.placed(seat, [card], "drawn")


def _do_pick_up(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    if t.phase == "play" and seat == t.turn and t.decision == "drawn":
        assert t.drawn is not None
        if not t.sheet.voluntary_pick_up and {"type": "play_drawn"} in _drawn_moves(t, seat):
            raise _refuse("must_play", "The card you drew fits: you must play it (no voluntary pick-up).")
        m.decision = None
        m.drawn = None
        m.pick_up(seat)
        return
    p = _on_turn(t, seat)
    if not t.pile:
        raise _refuse("pile_empty", "The pile is empty: there is nothing to pick up.")
    if t.sheet.when_stuck != "pick_up" and t.stock and p.hand:
        raise _refuse("draw_first", "Draw a card from the stock first (P9).")
    _must_play_check(t, seat)
    m.pick_up(seat)


def _do_pass(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    _on_turn(t, seat)
    if t.pile:
        raise _refuse("cannot_pass", "You cannot pass: play or pick up the pile.")
    if _plays(t, seat):
        raise _refuse("cannot_pass", "You cannot pass: you have a card to play.")
    m.emit("passed", {"seat": seat})
    m.turn = m.next_active(seat)


def _do_burn_or_keep(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    if t.phase != "play" or seat != t.turn or t.decision != "burn":
        raise _refuse("no_burn_decision", "There is no 10 of yours waiting for a burn decision.")
    m.decision = None
    if action["type"] == "burn":
        m.burn(seat, "ten")  # P15: the same player starts a new pile
        m.turn = seat
    else:
        m.emit("kept", {"seat": seat})  # P15: leaving the 10 gives no extra turn
        m.turn = m.next_active(seat)


def _do_cut_in(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    p = _out_of_turn_ok(t, seat, t.sheet.cut_in, "cutting in")
    if seat == t.turn:
        raise _refuse("your_turn", "It is your turn: just play the cards.")
    cards = _cards_field(action)
    rank = _same_rank(cards)
    _check_held(p, cards)
    top, count = top_run(t.pile)
    if top is None or top == "X" or rank != top or count + len(cards) < 4:
        raise _refuse("no_four", "Those cards do not complete a four of a kind on the pile.")
    _check_not_out_on_special(t, p, rank, len(cards))
    m.players[seat] = _without(p, cards)
    # P16 (wikihow): the cutter burns the pile and plays on; the seats between are skipped.
    m.placed(seat, sorted(cards, key=BY_RANK), "cut_in", may_add=False)


def _do_add(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    p = _out_of_turn_ok(t, seat, t.sheet.add_drawn, "adding drawn cards")
    if t.add_seat != seat or seat == t.turn:
        raise _refuse("no_add", "You have no freshly drawn card of the rank you just played.")
    cards = _cards_field(action)
    if not _held(t.add_cards, cards):
        raise _refuse("no_add", "Only cards just drawn of the rank you played may be added.")
    rank = cards[0][0]
    _check_not_out_on_special(t, p, rank, len(cards))
    m.add_seat = None
    m.add_cards = ()
    m.players[seat] = _without(p, cards)
    turn = t.turn
    m.placed(seat, sorted(cards, key=BY_RANK), "add")
    if m.phase == "play" and m.turn != seat:
        m.turn = turn  # an add is out of turn: the next player is still to play


def _do_lay_four(t: Table, m: _Move, seat: int, action: Mapping[str, Any]) -> None:
    p = _out_of_turn_ok(t, seat, t.sheet.four_from_hand, "laying down a four from the hand")
    cards = _cards_field(action)
    if len(cards) != 4:
        raise _refuse("wrong_count", "Lay down exactly four cards of one rank.")
    rank = _same_rank(cards)
    if rank == "X":
        raise _refuse("no_four", "Jokers do not make a four of a kind.")
    _check_held(p, cards)
    _check_not_out_on_special(t, p, rank, 4)
    m.players[seat] = _without(p, cards)
    m.burned = m.burned + tuple(cards)
    m.emit("laid_four", {"seat": seat, "cards": sorted(cards, key=BY_RANK)})
    m.refill(seat)
    if m.check_out(seat):
        return
    if seat in m.out and m.turn == seat:
        m.turn = m.next_active(seat)


_HANDLERS: dict[str, Any] = {
    "swap": _do_swap,
    "ready": _do_ready,
    "lay_face_up": _do_lay_face_up,
    "play": _do_play,
    "play_face_up": _do_play_face_up,
    "play_face_down": _do_play_face_down,
    "draw": _do_draw,
    "play_drawn": _do_play_drawn,
    "pick_up": _do_pick_up,
    "pass": _do_pass,
    "burn": _do_burn_or_keep,
    "keep": _do_burn_or_keep,
    "cut_in": _do_cut_in,
    "add": _do_add,
    "lay_four": _do_lay_four,
}


# -- outcome -----------------------------------------------------------------------------------


def outcome(t: Table) -> Outcome | None:
    """Placings: first out first (P22); with play-on-to-the-last the loser last; after a stalemate
    the players still in are placed by cards held, fewer first, ties sharing a place."""
    if t.phase != "over":
        return None
    groups: list[tuple[int, ...]] = [(s,) for s in t.out]
    rest = [s for s in range(len(t.players)) if s not in t.out]
    if rest:
        if t.reason == "stalemate":
            counts = sorted({t.players[s].card_count() for s in rest})
            for n in counts:
                groups.append(tuple(s for s in rest if t.players[s].card_count() == n))
        else:
            groups.append(tuple(rest))
    scores = {s: t.players[s].card_count() for s in range(len(t.players))}
    return Outcome(placings=tuple(groups), scores=scores, reason=t.reason or "finished")
