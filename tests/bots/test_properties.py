"""Bots over many seeded games: every move they send is legal, and the games end.

``HOUSERULES_BOT_GAMES`` sets how many games each case plays (default 4, a quick run; the long run
is ``HOUSERULES_BOT_GAMES=1000``); the "strong" level, which searches, plays a quarter of them, and
only one case of each game unless the run is thorough (``HOUSERULES_THOROUGH=1``).
The bots are asked as the arena asks them: ``wants`` for a seat the table does not wait for (they
may decline), ``choose`` otherwise, with the seat's memory of the deal.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from app.bots import LEVELS, choose, wants
from app.bots.arena import Player, play, random_player
from app.bots.memory import Memory
from app.registry import get
from tests.games.game_cases import cases_of, names

# About 20 s on its own: the parallel run starts it first (tests/conftest.py).
pytestmark = pytest.mark.heavy(20)

GAMES = int(os.environ.get("HOUSERULES_BOT_GAMES", "4"))

# Every registered game's rooms the bots play to the end (its test folder's ``GameCases.bots``).
CASES: list[tuple[str, str, dict[str, Any], int]] = [
    (name, room.preset, dict(room.options), room.seats) for name in names() for room in cases_of(name).bots
]


def checked(level: str) -> Player:
    """The bot of ``level``, and a check that its move is one of the legal ones (amounts in range)."""

    def player(game_name: str, view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
               rng: random.Random, memory: Memory = (), optional: bool = False) -> dict[str, Any] | None:
        if optional:
            action = wants(game_name, view, legal, rng, level, memory)
            if action is None:
                return None
        else:
            action = choose(game_name, view, legal, rng, level, memory)
        assert action in legal or any(_in_range(action, offer) for offer in legal), (action, legal)
        return action

    return player


def _in_range(action: Mapping[str, Any], offer: Mapping[str, Any]) -> bool:
    if offer.get("type") != action.get("type") or "min" not in offer:
        return False
    amount = action.get("to", action.get("amount"))
    return isinstance(amount, int) and offer["min"] <= amount <= offer["max"]


def _case_id(case: tuple[str, str, dict[str, Any], int]) -> str:
    name, preset, options, players = case
    return f"{name}-{preset}-{players}p" + ("-options" if options else "")


def _runs() -> list[Any]:
    """Every case at every level; "strong" (it searches) at the first case of each game in the
    default run and at the others in the thorough run only (``slow``, tests/conftest.py)."""
    runs: list[Any] = []
    first: dict[str, tuple[str, str, dict[str, Any], int]] = {}
    for case in CASES:
        first.setdefault(case[0], case)
        for level in LEVELS:
            marks = [pytest.mark.slow] if level == "strong" and first[case[0]] is not case else []
            runs.append(pytest.param(case, level, marks=marks, id=f"{_case_id(case)}-{level}"))
    return runs


@pytest.mark.parametrize(("case", "level"), _runs())
def test_bots_play_legal_moves_to_the_end(case: tuple[str, str, dict[str, Any], int], level: str) -> None:
    name, preset, options, players = case
    game = get(name)
    sheet = game.sheet(options, preset=preset)
    # "strong" searches at every choice of cards: a quarter of the games (one in the quick run).
    for index in range(GAMES if level != "strong" else max(1, GAMES // 4)):
        # The bot under test against itself, the other level and a random player, in turn.
        others: list[Player] = [checked(level), checked("easy" if level != "easy" else "good"), random_player]
        seats = [checked(level)] + [others[(index + i) % 3] for i in range(players - 1)]
        result = play(game, sheet, seats, f"{name}-{level}-{index}", max_moves=20000)
        assert game.outcome(result.state) is not None


def test_unknown_level_and_game_are_refused() -> None:
    game = get("palace")
    state = game.new(game.sheet(), 2, seed="x")
    view, legal = game.view(state, 0), game.legal_actions(state, 0)
    with pytest.raises(ValueError, match="level"):
        choose("palace", view, legal, random.Random(1), "expert")
    with pytest.raises(ValueError, match="game"):
        choose("chess", view, legal, random.Random(1), "good")
