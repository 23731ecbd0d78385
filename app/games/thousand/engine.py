"""Thousand (Tuhat): the game object [T1–T19].

The flow of a deal: deal (redealing on four nines) → auction (with the "17 or less" redeal and
the nine lottery before a player's first bid) → the talon turned up and taken → the contract
raised, cards given or laid aside, or a bomb → tricks → scoring → the next deal, until a player
reaches the target. The modules ``deal``, ``auction``, ``talon``, ``tricks`` and ``scoring``
hold the rules; this one routes moves to them and answers the contract's questions.

Every action type, with the phase it belongs to:

- auction: ``bid``, ``pass``, ``look``, ``redeal``, ``lottery``; lottery: ``guess``;
- talon: ``take_talon``; exchange: ``bid`` (raise), ``give``, ``discard``, ``bomb``;
- play: ``play``.

Dealing order from the top of the deck (details in ``deal``): 3 cards to each player from the
dealer's left, 3 face-down to the talon, then 4 to each [T4] (four players: the dealer gets none
[T13]; two players: 3+3+3+3 and a stock, or 4+4, bank 0, 4+4, bank 1 [T18]). Deal n of a game is
shuffled by ``SeededRandom(seed, f"deal-{n}")``; a fixed ``deck`` replaces the first shuffle.

The first dealer is drawn by lot from the seed [T2]; with a fixed ``deck`` the last seat deals,
so seat 0 (on the dealer's left) gets the first packet and opens the auction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from app.games.base import Action, Event, Game, IllegalAction, InvalidSheet, Outcome, each_seat, freeze
from app.games.cards import SeededRandom, new_seed
from app.games.fair import RESEED, Shuffle, parse_reseed
from app.games.form_layout import GameLayout
from app.games.thousand import auction, talon, tricks
from app.games.thousand import deal as dealing
from app.games.thousand.layout import LAYOUT
from app.games.thousand.rules import BY_RANK, DECK, POINTS, PRESETS, TRICK_RANK
from app.games.thousand.rules import RuleSheet as Sheet
from app.games.thousand.state import FrozenState, State
from app.games.thousand.view import public as public_view
from app.games.thousand.view import seat_view

ACTIONS_BY_PHASE: dict[str, tuple[str, ...]] = {
    "auction": ("bid", "pass", "look", "redeal", "lottery"),
    "lottery": ("guess",),
    "talon": ("take_talon",),
    "exchange": ("bid", "give", "discard", "bomb"),
    "play": ("play",),
    "over": (),
}
ALL_ACTIONS = tuple(dict.fromkeys(kind for kinds in ACTIONS_BY_PHASE.values() for kind in kinds))

Checker = Callable[[State, int, Mapping[str, Any]], IllegalAction | None]
MODULE_BY_PHASE: dict[str, Any] = {
    "auction": auction,
    "lottery": auction,
    "talon": talon,
    "exchange": talon,
    "play": tricks,
}


def low_key(card: str) -> tuple[int, int, int]:
    """The "lowest" card for default moves: fewest points, then trick order, then suit."""
    return (POINTS[card[0]], TRICK_RANK[card[0]], DECK.index(card))


class Thousand(Game[State, Sheet]):
    name = "thousand"
    titles: ClassVar[Mapping[str, str]] = {"en": "Thousand", "et": "Tuhat", "fi": "Tuhat"}
    language_presets: ClassVar[Mapping[str, str]] = {"et": "tuhat-eesti", "fi": "tuhat"}
    RuleSheet = Sheet
    presets = PRESETS
    rule_letter: ClassVar[str] = "T"
    form_layout: ClassVar[GameLayout | None] = LAYOUT
    bot: ClassVar[str | None] = "app.bots.thousand"
    deal_starts: ClassVar[frozenset[str]] = frozenset({"deal_started"})

    # -- dealing -------------------------------------------------------------------------------

    def new(self, sheet: Sheet, players: int, *, seed: str | None = None,
            deck: Sequence[str] | None = None) -> State:
        sheet.check_players(players)
        seed = seed if seed is not None else new_seed()
        cards: list[str] | None = None
        if deck is not None:
            cards = list(deck)
            if sorted(cards) != sorted(DECK):
                raise InvalidSheet(None, "A fixed deck must hold the 24 cards 9–A of every suit once.")
            dealer = players - 1
        else:
            dealer = SeededRandom(seed, "first-dealer").below(players)  # [T2] first dealer by lot
        state = State(sheet=sheet, seed=seed, players=players, dealer=dealer)
        state.scores = [0] * players
        state.bombs_used = [0] * players
        dealing.deal(state, [], cards)
        return freeze(state, FrozenState)

    # -- moves ---------------------------------------------------------------------------------

    def check(self, state: State, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
        """The one legality check (``Game.check``): the contract's checks (the type, the seat, the
        turn, the phase), then the phase module's own ``check``. ``legal_actions`` keeps the phase
        module's candidates that pass it; ``apply`` raises what it returns."""
        if not isinstance(action, dict) and not isinstance(action, Mapping):
            return IllegalAction("bad_action", "An action is a JSON object with a 'type'.")
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in ALL_ACTIONS:
            expected = ", ".join(ALL_ACTIONS)
            return IllegalAction("unknown_action", "Unknown action type; expected one of: {expected}.",
                                 expected=expected)
        if state.phase == "over":
            return IllegalAction("game_over", "The game is over.")
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            return IllegalAction("bad_seat", "No such seat.")
        # The seat whose turn it is is always to act (outside the lottery, whose guessers are not
        # the turn): the common case skips building ``to_act``, asked once per candidate move.
        if (seat != state.turn or state.phase == "lottery") and seat not in self.to_act(state) and not (
            kind in auction.EARLY_MOVES and auction.before_bidding(state)
        ):  # the auction checks out-of-turn claims itself
            return IllegalAction("not_your_turn", "It is not your turn.")
        if kind not in ACTIONS_BY_PHASE[state.phase]:
            return IllegalAction("wrong_phase", "A '{action}' is not possible in the {phase} phase.",
                                 action=kind, phase=state.phase)
        checker: Checker = MODULE_BY_PHASE[state.phase].check
        return checker(state, seat, action)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.phase == "over" or seat not in self.to_act(state):
            return []
        module = MODULE_BY_PHASE[state.phase]
        candidates: list[Action] = module.candidates(state, seat)
        # ``check`` for each candidate: its contract part (a known type, a seat to act, the game
        # not over) holds for the whole listing once ``seat`` is to act, so each candidate meets
        # only the phase's own check (and the phase's types), as ``check`` would run it.
        allowed = ACTIONS_BY_PHASE[state.phase]
        checker: Checker = module.check
        return [a for a in candidates if a["type"] in allowed and checker(state, seat, a) is None]

    server_actions: ClassVar[frozenset[str]] = frozenset({RESEED})
    reseeds: ClassVar[bool] = True

    def apply(self, state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
        if isinstance(action, Mapping) and action.get("type") == RESEED:
            return self._reseed(state, action), []
        problem = self.check(state, seat, action)
        if problem is not None:
            raise problem
        after = state.copy()
        events: list[Event] = []
        MODULE_BY_PHASE[state.phase].perform(after, seat, action, events)
        return freeze(after, FrozenState), events

    def _reseed(self, state: State, action: Mapping[str, Any]) -> State:
        """A new fair round for the deals shuffled from now on (``fair.RESEED``)."""
        if state.phase == "over":
            raise IllegalAction("game_over", "The game is over.")
        after = state.copy()
        after.round = parse_reseed(action)
        return freeze(after, FrozenState)

    # -- questions -----------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        phase = state.phase
        if phase == "over":
            return []
        if phase == "lottery":
            assert state.lottery is not None
            return [s for s in auction.guessers(state) if str(s) not in state.lottery["guesses"]]
        if phase == "auction" and state.bid == 0:  # auction.before_bidding, written out
            return list(self._early_to_act(state))
        return [state.turn]

    _EARLY: ClassVar[list[Any]] = [None, ()]

    def _early_to_act(self, state: State) -> tuple[int, ...]:
        """[T5, T6] before the opening bid any player may look, claim a redeal or run the lottery
        out of turn. This tells what a seat holds: the room shows each seat only itself.

        Remembered for the last state asked: finished states never change, and ``legal_actions``
        asks once per candidate move."""
        memo = self._EARLY
        if memo[0] is not state:
            seats = [s for s in state.active() if s != state.turn and auction.early_claims(state, s)]
            memo[0], memo[1] = state, (state.turn, *seats)
        return tuple(memo[1])

    def turn_seats(self, state: State) -> list[int]:
        # [T5, T6] before the opening bid the others may look or claim out of turn, but the table
        # waits for the opener's bid alone: only he is on the clock.
        if state.phase == "auction" and state.bid == 0:
            return [state.turn]
        return self.to_act(state)

    def optional_decision(self, state: State, seat: int) -> bool:
        # [T6] a guess in the nine lottery has a quiet default (red): it may not hold the table up.
        return state.phase == "lottery"

    def timeout_action(self, state: State, seat: int) -> Action | None:
        """Pass in the auction (the opener bids his compulsory 100), guess red in the lottery, take
        the talon, give or lay aside the lowest cards, and play the lowest legal card."""
        phase = state.phase
        if seat not in self.to_act(state) or (phase != "lottery" and seat != state.turn):
            return None  # an out-of-turn claim is a choice, never a default [T5, T6]
        choice: Action
        if phase == "auction":
            choice = {"type": "bid", "value": state.sheet.opening_bid} if state.bid == 0 else {"type": "pass"}
            if self.check(state, seat, choice) is not None:
                choice = {"type": "look"}
        elif phase == "lottery":
            choice = {"type": "guess", "colour": "red"}
        elif phase == "talon":
            choice = (
                {"type": "take_talon", "bank": 0} if state.sheet.banks_variant() else {"type": "take_talon"}
            )
        elif phase == "exchange":
            low = sorted(state.hands[seat], key=low_key)
            opponents = state.opponents(seat)
            if talon.keeps_talon(state):
                choice = {"type": "discard", "cards": sorted(low[:3], key=BY_RANK)}
            elif talon.give_count(state) == 2:
                choice = {"type": "give", "cards": {str(opponents[0]): sorted(low[:2], key=BY_RANK)}}
            else:
                choice = {"type": "give", "cards": {str(o): c for o, c in zip(opponents, low, strict=False)}}
        else:
            playable = [
                c for c in state.hands[seat] if self.check(state, seat, {"type": "play", "card": c}) is None
            ]
            choice = {"type": "play", "card": min(playable, key=low_key)}
        return choice

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return self.views(state, [seat])[seat]

    def views(self, state: State, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        shared = public_view(state)
        to_act = self.to_act(state)
        waiting = self.turn_seats(state)
        outcome = self.outcome(state)
        outcome_json = outcome.to_json() if outcome is not None else None

        def build(seat: int | None) -> dict[str, Any]:
            data = seat_view(state, shared, seat)
            # [T5, T6] Before the opening bid a seat may claim out of turn (a redeal, the nine
            # lottery) only with certain cards: each view names the seats the table waits for, and
            # the viewing seat itself when it may move, never another seat that could claim.
            mine = seat is not None and seat in to_act and seat not in waiting
            data["to_act"] = sorted([*waiting, seat]) if mine and seat is not None else waiting
            if seat is not None and 0 <= seat < state.players:
                # ``legal_actions`` is empty for a seat not to act: asked only of those that are.
                data["legal_actions"] = self.legal_actions(state, seat) if seat in to_act else []
            data["outcome"] = outcome_json
            return data

        return each_seat(seats, build)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        distinct = sorted(set(state.scores), reverse=True)
        placings = tuple(tuple(s for s in range(state.players) if state.scores[s] == v) for v in distinct)
        return Outcome(placings=placings, scores=dict(enumerate(state.scores)), reason="target_reached")

    def dump(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def load(self, data: Mapping[str, Any]) -> State:
        return State.from_json(dict(data))

    def seat_count(self, state: State) -> int:
        return state.players

    def shuffles(self, state: State, since: int = 0) -> list[Shuffle]:
        # Deal n (redeals counted) is shuffled as ``deal-{n}`` from 0; a deal's discards and passed
        # cards stay hidden after it, so every shuffle opens only when the game is over.
        over = state.phase == "over"
        rounds = state.rounds
        return [Shuffle(f"deal-{n}", tuple(DECK), over, rounds.get(f"deal-{n}"))
                for n in range(since, state.shuffles)]

    def current_round(self, state: State) -> Mapping[str, Any] | None:
        return state.round

    def shuffle_count(self, state: State) -> int:
        return state.shuffles

    def check_sheet(self, sheet: Sheet) -> None:
        if sheet.opening_bid > sheet.bid_limit_without_marriage:
            raise InvalidSheet("opening_bid", "The opening bid cannot be above the limit without a marriage.")
