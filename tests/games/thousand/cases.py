"""Thousand's cases for the registry-driven suites (tests/games/game_cases.py)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, cast

from app.games.cards import is_card
from tests.games.game_cases import GameCases, RoomCase
from tests.games.properties import PropertyCase
from tests.games.thousand import test_properties as props


def view_cases() -> Iterator[tuple[str, PropertyCase]]:
    for name, sheet in props.SHEETS.items():
        options: dict[str, Any] = dict(cast(dict[str, Any], sheet))
        players = options.pop("players", 3)
        yield f"thousand-{name}", props.case(players, **options)


def own_cards(dump: Mapping[str, Any], seat: int) -> set[str]:
    """The seat's own hand: the view shows it only after the seat looked at it."""
    return {c for c in dump["hands"][seat] if is_card(c)}


CASES = GameCases(
    property_case=props.property_case,
    view_cases=view_cases,
    room=RoomCase("tuhat", 3, {"target_score": 100, "opening_bid": 60}),
    bots=(RoomCase("tuhat", 3), RoomCase("tuhat-4", 4), RoomCase("tuhat-2", 2), RoomCase("tuhat-eesti", 3)),
    hidden=RoomCase("tuhat", 3),
    deck=tuple(r + s for r in "9TJQKA" for s in "cdhs"),
    own_cards=own_cards,
)
