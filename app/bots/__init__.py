"""Computer players: one bot per game behind one small interface.

``choose(game_name, view, legal, rng, level, memory)`` returns the move a bot makes, where ``view``
is exactly ``game.view(state, seat)`` for the bot's seat, ``legal`` that seat's legal moves and
``memory`` the events the seat was shown since the current deal began (``app.bots.memory``). A bot
is never handed the state, so it sees no more than a person in that seat would; for the same view,
memory and legal moves (and the same random draws) it makes the same move, whatever the hidden
cards are.

Declining: a seat that may move but that the table does not wait for (in ``Game.to_act`` but not
in ``Game.turn_seats``: a claim before Thousand's bidding, a card cut in at Palace) asks
``wants(...)`` instead, which returns the move or ``None``: the bot lets the chance go, and the
table goes on without it. A seat the table waits for always gets a move from ``choose``.

Each game names its bot module (``Game.bot``: ``choose``, ``declines`` and, for a game with table
actions, ``table_move``); this module finds it through the registry (``app.registry``) and lists no game.

Levels: ``"easy"`` plays legal moves with a little sense; ``"good"`` plays like a sensible person
(see each game's module); ``"strong"`` searches (determinized playouts in Palace and Thousand,
equity against estimated ranges in Hold'em) within a fixed number of samples, which keeps each
decision under about a second; the room runs it in a worker process. Like ``app.games``, this
package imports nothing of the server.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, cast

from app import registry
from app.bots.memory import Memory

Action = dict[str, Any]
Chooser = Callable[[Mapping[str, Any], Sequence[Action], random.Random, str, Memory], Action]
Decliner = Callable[[Mapping[str, Any], Sequence[Action], str, Memory], bool]

LEVELS: tuple[str, ...] = ("easy", "good", "strong")
# The levels that think long enough to be run away from a room's event loop.
SLOW_LEVELS: frozenset[str] = frozenset({"strong"})


def bot_of(game_name: str) -> ModuleType | None:
    """The bot module the game ``game_name`` names (``Game.bot``), or ``None`` (no such game, or
    a game without a bot)."""
    game = registry.GAMES.get(game_name)
    if game is None or game.bot is None:
        return None
    return importlib.import_module(game.bot)


class NoMove(Exception):
    """Asked to move with no legal move to choose from."""


def _check(game_name: str, legal: Sequence[Action], level: str) -> ModuleType:
    """The game's bot module, once the level and the moves are fit to choose from."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; choose one of {', '.join(LEVELS)}.")
    if not legal:
        raise NoMove("There is no legal move to choose from.")
    bot = bot_of(game_name)
    if bot is None:
        raise ValueError(f"There is no bot for the game {game_name!r}.")
    return bot


def _choose(bot: ModuleType, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random,
            level: str, memory: Memory) -> Action:
    return cast(Chooser, bot.choose)(view, legal, rng, level, memory)


def _declines(bot: ModuleType, view: Mapping[str, Any], legal: Sequence[Action], level: str,
              memory: Memory) -> bool:
    return cast(Decliner, bot.declines)(view, legal, level, memory)


def choose(
    game_name: str,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    rng: random.Random,
    level: str = "good",
    memory: Memory = (),
) -> Action:
    """The move the bot of ``level`` makes for the seat whose ``view`` and ``legal`` moves these are."""
    return _choose(_check(game_name, legal, level), view, legal, rng, level, memory)


def wants(
    game_name: str,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    rng: random.Random,
    level: str = "good",
    memory: Memory = (),
) -> Action | None:
    """For a seat the table does not wait for: the move the bot makes, or ``None`` (it declines)."""
    bot = _check(game_name, legal, level)
    if _declines(bot, view, legal, level, memory):
        return None
    return _choose(bot, view, legal, rng, level, memory)


def declined(
    game_name: str, view: Mapping[str, Any], legal: Sequence[Action], level: str = "good",
    memory: Memory = (),
) -> bool:
    """Whether the bot lets an optional move go (what ``wants`` answers ``None`` for), decided
    without thinking about which move it would make."""
    return _declines(_check(game_name, legal, level), view, legal, level, memory)


def choose_seeded(
    game_name: str, view: Mapping[str, Any], legal: Sequence[Action], seed: int, level: str,
    memory: Memory = (),
) -> Action:
    """``choose`` with its random draws from ``seed``: what a worker process runs (all picklable)."""
    return choose(game_name, view, legal, random.Random(seed), level, memory)


def table_move(game_name: str, view: Mapping[str, Any], offered: Sequence[Action]) -> Action | None:
    """The move a bot makes outside the turn order from the game's table actions ``offered``
    (taking its seat at a table game, a rebuy when broke), or ``None``."""
    bot = bot_of(game_name)
    table_move = getattr(bot, "table_move", None)
    if table_move is None:
        return None
    return cast(Callable[[Mapping[str, Any], Sequence[Action]], Action | None], table_move)(view, offered)
