"""High card, the example game (rules E1–E3 of ``rules.md`` in this folder).

Two players, a 24-card deck; the leader plays a card, the other answers with any card, the higher
rank takes the round. The whole game behind the ``Game`` contract of ``app/games/base.py``, in one
module because it is small; a real game splits it (docs/adding-a-game.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from app.games import cards as cardlib
from app.games.base import (
    Action,
    Event,
    Game,
    IllegalAction,
    InvalidSheet,
    Outcome,
    RuleSheetBase,
    option,
    require_type,
)
from app.games.fair import Shuffle
from app.games.form_layout import GameLayout, place

RANKS = "9TJQKA"
# [E1] The deck as ``cards.deck`` builds it unshuffled: the fair deal's shuffle lists these cards.
DECK: tuple[str, ...] = tuple(cardlib.deck(low_rank="9"))


class HighCardSheet(RuleSheetBase):
    """High card's house rules; the defaults are the preset ``highcard``."""

    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 2

    players: int = option(2, "Number of players: two (E1).", ge=2, le=2)
    hand_size: int = option(6, "Cards dealt to each player (E1).", ge=3, le=6)
    ties_to_leader: bool = option(True, "On equal ranks the leader takes the round (E2).")


PRESETS: dict[str, HighCardSheet] = {"highcard": HighCardSheet()}

LAYOUT = GameLayout(
    "players",
    "exact",
    {
        "players": place("other", 0, "Players"),
        "hand_size": place("dealing", 0, "Cards per hand", essential=True),
        "ties_to_leader": place("playing", 0, "Equal ranks: the leader takes the round"),
    },
    essentials=("hand_size",),
    hidden=("decision_timer_seconds",),
)


@dataclass(frozen=True)
class Duel:
    """A game of High card. ``table`` holds the round's cards, the leader's first; ``rounds`` every
    finished round as (leader's card, other card, the seat that took it or ``None``)."""

    sheet: HighCardSheet
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    stock: tuple[str, ...]
    leader: int
    table: tuple[str, ...]
    taken: tuple[int, int]
    rounds: tuple[tuple[str, str, int | None], ...]

    @property
    def over(self) -> bool:
        return not self.table and not any(self.hands)

    def to_act(self) -> int | None:
        if self.over:
            return None
        return self.leader if not self.table else 1 - self.leader


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def _taker(leader: int, led: str, answer: str, ties_to_leader: bool) -> int | None:
    """[E2] The higher rank takes the round; equal ranks go to the leader, or to nobody."""
    if _rank(answer) > _rank(led):
        return 1 - leader
    if _rank(answer) < _rank(led) or ties_to_leader:
        return leader
    return None


def refusal(state: Duel, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
    """Why ``seat`` may not make ``action`` now, or ``None``: the one legality check of
    ``legal_actions`` and ``apply`` (``Game.check``)."""
    try:
        require_type(action, ("play",))
    except IllegalAction as refused:
        return refused
    if state.to_act() != seat:
        return IllegalAction("not_your_turn", "It is not your turn.")
    card = action.get("card")
    if set(action) != {"type", "card"} or not isinstance(card, str):
        return IllegalAction("bad_action", "A play names one card.")
    if card not in state.hands[seat]:
        return IllegalAction("not_in_hand", "That card is not in your hand.")
    return None


class HighCard(Game[Duel, HighCardSheet]):
    name: ClassVar[str] = "highcard"
    titles: ClassVar[Mapping[str, str]] = {"en": "High card", "et": "Kõrgem kaart", "fi": "Korkein kortti"}
    rule_letter: ClassVar[str] = "E"
    form_layout: ClassVar[GameLayout | None] = LAYOUT
    bot: ClassVar[str | None] = "tests.example_game.bot"
    RuleSheet = HighCardSheet
    presets: Mapping[str, HighCardSheet] = PRESETS

    def assets(self) -> Path | None:
        # A game outside app/ brings its table: static/table.js and static/table.css here.
        return Path(__file__).resolve().parent / "static"

    def new(self, sheet: HighCardSheet, players: int, *, seed: str | None = None,
            deck: Sequence[str] | None = None) -> Duel:
        if not isinstance(sheet, HighCardSheet):
            raise InvalidSheet(None, "A High card game needs a High card rule sheet.")
        sheet.check_players(players)
        if deck is None:
            order = cardlib.shuffled(DECK, seed if seed is not None else cardlib.new_seed())
        else:
            order = list(deck)
            if sorted(order) != sorted(DECK):
                raise IllegalAction("bad_deck", "The deck is the 24 cards from nine to ace.")
        # [E1] Dealt one at a time, seat 0 first; the rest stays face down, unseen.
        dealt = order[: 2 * sheet.hand_size]
        hands = (tuple(dealt[0::2]), tuple(dealt[1::2]))
        return Duel(sheet, hands, tuple(order[2 * sheet.hand_size:]), 0, (), (0, 0), ())

    def check(self, state: Duel, seat: int, action: Mapping[str, Any]) -> IllegalAction | None:
        return refusal(state, seat, action)

    def legal_actions(self, state: Duel, seat: int) -> list[Action]:
        if state.to_act() != seat:
            return []
        candidates: list[Action] = [{"type": "play", "card": card} for card in state.hands[seat]]
        return [move for move in candidates if refusal(state, seat, move) is None]

    def apply(self, state: Duel, seat: int, action: Mapping[str, Any]) -> tuple[Duel, list[Event]]:
        refused = refusal(state, seat, action)
        if refused is not None:
            raise refused
        card = action["card"]
        hand = list(state.hands[seat])
        hand.remove(card)
        hands = (tuple(hand), state.hands[1]) if seat == 0 else (state.hands[0], tuple(hand))
        events = [Event("played", {"seat": seat, "card": card})]
        if not state.table:
            return replace(state, hands=hands, table=(card,)), events
        led = state.table[0]
        taker = _taker(state.leader, led, card, state.sheet.ties_to_leader)
        taken = list(state.taken)
        if taker is not None:
            taken[taker] += 1
        events.append(Event("round_taken", {"seat": taker}))
        after = replace(state, hands=hands, table=(), taken=(taken[0], taken[1]),
                        rounds=(*state.rounds, (led, card, taker)),
                        leader=state.leader if taker is None else taker)
        return after, events

    def view(self, state: Duel, seat: int | None) -> dict[str, Any]:
        return {
            "seats": 2,
            "hand": sorted(state.hands[seat], key=_rank) if seat is not None else None,
            "hand_sizes": [len(hand) for hand in state.hands],
            "stock": len(state.stock),
            "leader": state.leader,
            "table": list(state.table),
            "taken": list(state.taken),
            "rounds": [[led, answer, taker] for led, answer, taker in state.rounds],
            "to_act": [] if state.to_act() is None else [state.to_act()],
        }

    def outcome(self, state: Duel) -> Outcome | None:
        if not state.over:
            return None
        first, second = state.taken
        # [E3] More rounds taken wins; equal counts tie.
        if first == second:
            placings: tuple[tuple[int, ...], ...] = ((0, 1),)
        else:
            placings = ((0,), (1,)) if first > second else ((1,), (0,))
        return Outcome(placings, {0: first, 1: second})

    def to_act(self, state: Duel) -> list[int]:
        seat = state.to_act()
        return [] if seat is None else [seat]

    def timeout_action(self, state: Duel, seat: int) -> Action | None:
        legal = self.legal_actions(state, seat)
        return min(legal, key=lambda a: (_rank(a["card"]), a["card"])) if legal else None

    def dump(self, state: Duel) -> dict[str, Any]:
        return {
            "sheet": state.sheet.model_dump(),
            "hands": [list(hand) for hand in state.hands],
            "stock": list(state.stock),
            "leader": state.leader,
            "table": list(state.table),
            "taken": list(state.taken),
            "rounds": [list(r) for r in state.rounds],
        }

    def load(self, data: Mapping[str, Any]) -> Duel:
        first, second = data["hands"]
        return Duel(
            HighCardSheet.model_validate(data["sheet"]),
            (tuple(first), tuple(second)),
            tuple(data["stock"]),
            int(data["leader"]),
            tuple(data["table"]),
            (int(data["taken"][0]), int(data["taken"][1])),
            tuple((str(led), str(answer), taker) for led, answer, taker in data["rounds"]),
        )

    def shuffles(self, state: Duel, since: int = 0) -> list[Shuffle]:
        # One shuffle a game; every card may be known once it is over.
        return [] if since > 0 else [Shuffle("deal", DECK, state.over)]


game = HighCard()
