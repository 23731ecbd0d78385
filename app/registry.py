"""The registered games: every game this installation plays, found when first asked for.

A game registers by an entry point of the group ``houserules.games`` (``importlib.metadata``): its
name is the game's name, its object the game's ``Game`` instance (``"app.games.palace:game"``). The
three games of this project are declared in ``pyproject.toml``; a game shipped as its own package
declares its own, and is found once installed beside the app.

``HOUSERULES_GAMES`` (comma-separated ``module:attribute``, or ``module`` whose ``game`` is the
object) adds games that are not installed: a game being written, or the example game the tests
register (``tests/plugins/games.py``). Rooms, bots, the API and the generic tests find every game
here; nothing else lists them.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Mapping
from importlib.metadata import entry_points
from typing import Any

from app.games.base import Game

ENTRY_POINT_GROUP = "houserules.games"
EXTRA_GAMES = "HOUSERULES_GAMES"

AnyGame = Game[Any, Any]


class RegistryError(RuntimeError):
    """A game that cannot be registered (two games of one name or one rule letter, not a ``Game``)."""


def load_game(spec: str) -> AnyGame:
    """The ``Game`` object ``spec`` names: ``module:attribute`` (``attribute`` may be dotted), or
    ``module`` for its ``game``."""
    module_name, _, attribute = spec.strip().partition(":")
    found: Any = importlib.import_module(module_name)
    for part in (attribute or "game").split("."):
        found = getattr(found, part)
    if not isinstance(found, Game):
        raise RegistryError(f"{spec!r} is not a Game object")
    return found


def _specs() -> list[tuple[str | None, str]]:
    """(declared name, spec) of every installed game, then of the extra ones."""
    installed = [(point.name, point.value) for point in entry_points(group=ENTRY_POINT_GROUP)]
    if not installed:
        raise RegistryError(
            f"No game is installed: no entry point of the group {ENTRY_POINT_GROUP!r}. The project's "
            "own games are declared in pyproject.toml; scripts/ensure-venv (and the image) make them "
            "visible. See docs/adding-a-game.md."
        )
    extra = [(None, spec) for spec in os.environ.get(EXTRA_GAMES, "").split(",") if spec.strip()]
    # One installation can be seen twice (an editable install beside the checkout's own metadata).
    return list(dict.fromkeys([*installed, *extra]))


def discover() -> dict[str, AnyGame]:
    """Every registered game by name, in the order they are declared."""
    games: dict[str, AnyGame] = {}
    letters: dict[str, str] = {}
    for declared, spec in _specs():
        game = load_game(spec)
        if declared is not None and declared != game.name:
            raise RegistryError(f"The entry point {declared!r} names the game {game.name!r}")
        if game.name in games:
            if games[game.name] is game:
                continue
            raise RegistryError(f"Two games are called {game.name!r}")
        letter = getattr(game, "rule_letter", "")
        if not (isinstance(letter, str) and len(letter) == 1 and letter.isupper()):
            raise RegistryError(f"{game.name}: rule_letter must be one capital letter, not {letter!r}")
        if letter in letters:
            raise RegistryError(f"{game.name} and {letters[letter]} both have the rule letter {letter}")
        games[game.name] = game
        letters[letter] = game.name
    return games


class Registry(Mapping[str, AnyGame]):
    """The games by name, found on first use (so the setting can be made before: a test hook)."""

    def __init__(self) -> None:
        self._games: dict[str, AnyGame] | None = None

    def _loaded(self) -> dict[str, AnyGame]:
        if self._games is None:
            self._games = discover()
        return self._games

    def __getitem__(self, name: str) -> AnyGame:
        return self._loaded()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())

    def reload(self) -> None:
        """Look for the games again when next asked (after ``HOUSERULES_GAMES`` changed)."""
        self._games = None


GAMES = Registry()


def get(name: str) -> AnyGame:
    """The game called ``name``; ``KeyError`` if there is none."""
    return GAMES[name]


def rule_letters() -> str:
    """The rule letters of every registered game ("PHT"): the rule-id tags the form takes out."""
    return "".join(game.rule_letter for game in GAMES.values())


def sheet_schema(game: AnyGame) -> dict[str, Any]:
    """``game``'s rule-sheet schema for the form, without the rule-id tags of any registered game."""
    return game.sheet_schema(rule_letters())

