"""What the registry-driven suites ask of each registered game's tests, and where to find it.

The generic suites (engine properties, views, bots, rooms, the leak check over real sockets) take
their game list from the registry (``app.registry``), never from a list of their own, and ask each
game's test folder for its cases: a module ``cases`` there whose ``CASES`` is a ``GameCases``. A
built-in game's tests live in ``tests/games/<name>/``; a game whose code lives under ``tests/`` (the
example game, ``tests/example_game/``) keeps its tests, its rules page and its cases in that folder
(docs/adding-a-game.md).
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app import registry
from app.games.base import Game
from tests.games.properties import PropertyCase

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
Action = dict[str, Any]


@dataclass(frozen=True)
class RoomCase:
    """A room of the game: a preset, its options, and how many seats."""

    preset: str
    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)


def any_move(legal: Sequence[Action], rng: random.Random) -> Action:
    """A random legal move as it is (for games whose moves need no amount chosen)."""
    return dict(rng.choice(list(legal)))


def no_cards(dump: Mapping[str, Any], seat: int) -> set[str]:
    return set()


@dataclass(frozen=True)
class GameCases:
    """A game's cases for the generic suites.

    - ``property_case``: the ``PropertyCase`` the engine properties play (tests/games/properties.py);
    - ``view_cases``: named cases for ``Game.views`` (tests/games/test_views.py; default: the one);
    - ``room``: a room the socket tests play to the end or to a seat's turn (tests/e2e), short
      enough to finish quickly (a few hands, a low target);
    - ``bots``: rooms the bots play to the end at every level (tests/bots/test_properties.py);
    - ``hidden`` and ``deck``: a room and its unshuffled cards for "same view, same move"
      (tests/bots/test_hidden.py); ``own_cards`` reads a seat's own cards off a dumped state where
      the view does not show them yet (Thousand before a look);
    - ``move``: a random legal move a socket sends (Hold'em: a calm move with a concrete amount).
    """

    property_case: Callable[[], PropertyCase]
    room: RoomCase
    bots: tuple[RoomCase, ...]
    hidden: RoomCase
    deck: tuple[str, ...]
    view_cases: Callable[[], Iterable[tuple[str, PropertyCase]]] | None = None
    own_cards: Callable[[Mapping[str, Any], int], set[str]] = no_cards
    move: Callable[[Sequence[Action], random.Random], Action] = any_move

    def views(self, name: str) -> Iterable[tuple[str, PropertyCase]]:
        if self.view_cases is not None:
            return self.view_cases()
        return [(name, self.property_case())]


def names() -> list[str]:
    """Every registered game, in the order the registry declares them (the installed games as
    pyproject.toml lists them, then ``HOUSERULES_GAMES``): what the generic suites parametrize by."""
    return list(registry.GAMES)


def source_folder(game: Game[Any, Any]) -> Path:
    """The folder of the game's code (``app/games/<name>/``, or its own folder under ``tests/``)."""
    module = sys.modules[type(game).__module__]
    assert module.__file__ is not None
    return Path(module.__file__).resolve().parent


def game_tests_folder(game: Game[Any, Any]) -> Path:
    """The folder of the game's tests: its own folder for a game under ``tests/``, else
    ``tests/games/<name>/``."""
    folder = source_folder(game)
    return folder if folder.is_relative_to(TESTS) else TESTS / "games" / game.name


def rules_page(game: Game[Any, Any]) -> Path:
    """The game's rules page: ``rules.md`` in its own folder if it has one, else docs/rules/<name>.md."""
    own = source_folder(game) / "rules.md"
    return own if own.exists() else ROOT / "docs" / "rules" / f"{game.name}.md"


def cases_of(name: str) -> GameCases:
    """The ``GameCases`` of the game ``name`` (its test folder's ``cases.CASES``)."""
    folder = game_tests_folder(registry.get(name))
    package = ".".join(folder.relative_to(ROOT).parts)
    found = importlib.import_module(f"{package}.cases").CASES
    assert isinstance(found, GameCases), f"{package}.cases.CASES is not a GameCases"
    return found
