"""The games: pure rules, no I/O. Nothing here imports anything outside ``app.games``.

The registry maps a game's name to its ``Game`` object; rooms, bots and tests look games up here.
"""

from __future__ import annotations

import importlib
from typing import Any

from app.games.base import Game

# The one place that names the games; each module registers its Game object on import.
GAME_MODULES: tuple[str, ...] = ("app.games.holdem", "app.games.palace", "app.games.thousand",)

GAMES: dict[str, Game[Any, Any]] = {}


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    GAMES[game.name] = game
    return game


def get(name: str) -> Game[Any, Any]:
    """The game called ``name``; ``KeyError`` if there is none."""
    return GAMES[name]


for _module in GAME_MODULES:
    importlib.import_module(_module)
