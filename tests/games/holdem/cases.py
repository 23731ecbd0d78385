"""Hold'em's cases for the registry-driven suites (tests/games/game_cases.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from tests.games.game_cases import GameCases, RoomCase
from tests.games.holdem import test_properties as props
from tests.games.holdem.helpers import concrete
from tests.games.properties import PropertyCase

RANKS = "23456789TJQKA"
# Blinds that double every 10 hands, so a table game ends.
TOURNAMENT: dict[str, Any] = {
    "format": "tournament", "level_by": "hands", "level_length": 10,
    "levels": [{"small_blind": 2 ** i, "big_blind": 2 ** (i + 1)} for i in range(12)],
}


def view_cases() -> Iterator[tuple[str, PropertyCase]]:
    for name in sorted(props.CASES):
        yield f"holdem-{name}", props.property_case(name)


def calm_move(legal: Sequence[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Calm betting keeps the hands going: check, call, fold or the quiet choice, with an amount."""
    quiet = ("check", "call", "fold", "show", "muck", "no_straddle", "run_once")
    calm = [a for a in legal if a["type"] in quiet]
    return concrete(rng.choice(calm or list(legal)), rng)


CASES = GameCases(
    property_case=props.property_case,
    view_cases=view_cases,
    room=RoomCase("cash-nl-1-2", 3, {"max_hands": 6, "buy_in_min": 20, "buy_in_max": 100,
                                     "buy_in_default": 40, "straddle": "off"}),
    bots=(
        RoomCase("tournament-nl-turbo", 4, {"level_by": "hands", "level_length": 10}),
        RoomCase("fixed-limit-2-4", 3, TOURNAMENT),
        RoomCase("pot-limit-1-2", 2, TOURNAMENT),
    ),
    hidden=RoomCase("cash-nl-1-2", 3),
    deck=tuple(r + s for r in RANKS for s in "cdhs"),
    move=calm_move,
)
