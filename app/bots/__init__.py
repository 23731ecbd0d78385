"""Computer players: one bot per game behind one small interface.

``choose(game_name, view, legal, rng, level)`` returns the move a bot makes, where ``view`` is
exactly ``game.view(state, seat)`` for the bot's seat and ``legal`` that seat's legal moves. A bot
is never handed the state, so it sees no more than a person in that seat would; for the same view
and legal moves (and the same random draws) it makes the same move, whatever the hidden cards are.

Levels: ``"easy"`` plays legal moves with a little sense; ``"good"`` plays like a sensible person
(see each game's module). Like ``app.games``, this package imports nothing of the server.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.bots import holdem, palace, thousand

Action = dict[str, Any]
Chooser = Callable[[Mapping[str, Any], Sequence[Action], random.Random, str], Action]

LEVELS: tuple[str, ...] = ("easy", "good")

CHOOSERS: dict[str, Chooser] = {
    "palace": palace.choose,
    "thousand": thousand.choose,
    "holdem": holdem.choose,
}


class NoMove(Exception):
    """Asked to move with no legal move to choose from."""


def choose(
    game_name: str,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    rng: random.Random,
    level: str = "good",
) -> Action:
    """The move the bot of ``level`` makes for the seat whose ``view`` and ``legal`` moves these are."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; choose one of {', '.join(LEVELS)}.")
    if not legal:
        raise NoMove("There is no legal move to choose from.")
    chooser = CHOOSERS.get(game_name)
    if chooser is None:
        raise ValueError(f"There is no bot for the game {game_name!r}.")
    return chooser(view, legal, rng, level)


def table_move(game_name: str, view: Mapping[str, Any], offered: Sequence[Action]) -> Action | None:
    """The move a bot makes outside the turn order from the game's table actions ``offered``
    (taking its seat at a table game, a rebuy when broke), or ``None``."""
    if game_name == "holdem":
        return holdem.table_move(view, offered)
    return None
