"""Thousand (Tuhat), rules T1–T19 of ``docs/rules/thousand.md`` read against the Finnish seed."""

from __future__ import annotations

from app.games.thousand.engine import Thousand
from app.games.thousand.rules import PRESETS, RuleSheet
from app.games.thousand.state import State

# The registered object (pyproject.toml, entry point group ``houserules.games``).
game = Thousand()

__all__ = ["PRESETS", "RuleSheet", "State", "Thousand", "game"]
