"""Palace's cases for the registry-driven suites (tests/games/game_cases.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from app.games.palace import PRESETS
from tests.games.game_cases import GameCases, RoomCase
from tests.games.palace import test_properties as props
from tests.games.palace.helpers import random_sheets
from tests.games.properties import PropertyCase

RANKS = "23456789TJQKA"


def view_cases() -> Iterator[tuple[str, PropertyCase]]:
    for name, sheet in PRESETS.items():
        for players in sorted({2, sheet.most_players}):
            yield f"palace-{name}-{players}", props.case(sheet, players)
    for k, (sheet, players) in enumerate(random_sheets(4, 7)):
        yield f"palace-combo-{k}", props.case(sheet, players)


def move(legal: Sequence[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random move; voluntary pick-ups make random games very long, so mostly another one."""
    others = [a for a in legal if "pick" not in str(a.get("type", ""))]
    return dict(rng.choice(others if others and rng.random() < 0.97 else list(legal)))


CASES = GameCases(
    property_case=props.property_case,
    view_cases=view_cases,
    room=RoomCase("hiina-turakas", 3),
    bots=(
        RoomCase("hiina-turakas", 3),
        RoomCase("hiina-turakas", 4, {"cut_in": True, "add_drawn": True, "four_from_hand": True,
                                      "finish": "play_to_last", "jokers": 2}),
        RoomCase("china-hand", 4),
        RoomCase("palace", 3),
        RoomCase("hiina-turakas", 2, {"ten_burn": "optional", "when_stuck": "draw_ends_turn"}),
    ),
    hidden=RoomCase("hiina-turakas", 3),
    deck=tuple(r + s for r in RANKS for s in "cdhs"),
    move=move,
)
