"""Registers the games that live under ``tests/`` before any test asks the registry.

A folder of ``tests/`` holding a ``game.py`` whose ``game`` is a ``Game`` (the example game,
``tests/example_game/``) is a game of the tests: its ``module:game`` is added to ``HOUSERULES_GAMES``
(``app/registry.py``), so the registry-driven suites play it like the installed games, and the
servers the tests start (they inherit the environment) serve it. Nothing outside the game's folder
names it. Loaded for every run by ``addopts`` in pyproject.toml.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app import registry

TESTS = Path(__file__).resolve().parents[1]


def games_under_tests() -> list[str]:
    """``tests.<folder>.game:game`` for each folder of tests/ with a game.py."""
    return [f"tests.{path.parent.name}.game:game" for path in sorted(TESTS.glob("*/game.py"))]


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    present = [spec for spec in os.environ.get(registry.EXTRA_GAMES, "").split(",") if spec.strip()]
    os.environ[registry.EXTRA_GAMES] = ",".join(dict.fromkeys([*present, *games_under_tests()]))
    registry.GAMES.reload()
