"""Bots over many seeded games: every move they send is legal, and the games end.

``HOUSERULES_BOT_GAMES`` sets how many games each case plays (default 4, a quick run; the long run,
24,000 games in all, is ``HOUSERULES_BOT_GAMES=1000``).
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from app.bots import LEVELS, choose
from app.bots.arena import Player, play, random_player
from app.games import get

GAMES = int(os.environ.get("HOUSERULES_BOT_GAMES", "4"))

# Blinds that double every 10 hands, so a table game ends.
TOURNAMENT: dict[str, Any] = {
    "format": "tournament", "level_by": "hands", "level_length": 10,
    "levels": [{"small_blind": 2 ** i, "big_blind": 2 ** (i + 1)} for i in range(12)],
}

CASES: list[tuple[str, str, dict[str, Any], int]] = [
    ("palace", "hiina-turakas", {}, 3),
    ("palace", "hiina-turakas", {"cut_in": True, "add_drawn": True, "four_from_hand": True,
                                 "finish": "play_to_last", "jokers": 2}, 4),
    ("palace", "china-hand", {}, 4),
    ("palace", "palace", {}, 3),
    ("palace", "hiina-turakas", {"ten_burn": "optional", "when_stuck": "draw_ends_turn"}, 2),
    ("thousand", "tuhat", {}, 3),
    ("thousand", "tuhat-4", {}, 4),
    ("thousand", "tuhat-2", {}, 2),
    ("thousand", "tuhat-eesti", {}, 3),
    ("holdem", "tournament-nl-turbo", {"level_by": "hands", "level_length": 10}, 4),
    ("holdem", "fixed-limit-2-4", TOURNAMENT, 3),
    ("holdem", "pot-limit-1-2", TOURNAMENT, 2),
]


def checked(level: str) -> Player:
    """The bot of ``level``, and a check that its move is one of the legal ones (amounts in range)."""

    def player(game_name: str, view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
               rng: random.Random) -> dict[str, Any]:
        action = choose(game_name, view, legal, rng, level)
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


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_bots_play_legal_moves_to_the_end(case: tuple[str, str, dict[str, Any], int], level: str) -> None:
    name, preset, options, players = case
    game = get(name)
    sheet = game.sheet(options, preset=preset)
    for index in range(GAMES):
        # The bot under test against itself, the other level and a random player, in turn.
        others: list[Player] = [checked(level), checked("easy" if level == "good" else "good"), random_player]
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
