"""High card's cases for the registry-driven suites (tests/games/game_cases.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.example_game.game import DECK, Duel, game
from tests.games.game_cases import GameCases, RoomCase
from tests.games.properties import PropertyCase


def visible_cards(state: Duel, seat: int | None) -> set[str]:
    """From the rules (E1, E2): the cards on the table and of every finished round, and one's hand."""
    seen = set(state.table) | {card for led, answer, _ in state.rounds for card in (led, answer)}
    return seen | (set(state.hands[seat]) if seat is not None else set())


def all_cards(state: Duel) -> Counter[str]:
    rounds = [card for led, answer, _ in state.rounds for card in (led, answer)]
    return Counter([*state.hands[0], *state.hands[1], *state.stock, *state.table, *rounds])


def property_case(**options: Any) -> PropertyCase:
    return PropertyCase(game, game.sheet(options), 2, visible_cards, all_cards, max_moves=20)


CASES = GameCases(
    property_case=property_case,
    view_cases=lambda: [("highcard", property_case()),
                        ("highcard-five-no-ties", property_case(hand_size=5, ties_to_leader=False))],
    room=RoomCase("highcard", 2),
    bots=(RoomCase("highcard", 2), RoomCase("highcard", 2, {"ties_to_leader": False})),
    hidden=RoomCase("highcard", 2),
    deck=DECK,
)
