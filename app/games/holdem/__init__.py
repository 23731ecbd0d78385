"""Texas Hold'em: cash tables and tournaments; no limit, pot limit and fixed limit (rules H1–H24).

``HOLDEM`` is the registered ``Game`` object (name ``"holdem"``; pyproject.toml, entry point group
``houserules.games``); see ``game.py`` for the moves,
``rules.py`` for the sheet and its presets, ``engine.py`` for the dealing order and the flow of a
table, and the rules by subject: ``blinds`` (button and blinds), ``betting``, ``pots`` (pots and
odd chips), ``showdown``, ``table`` (table life); ``state`` holds the data, ``view`` what a seat sees.
"""

from __future__ import annotations

from app.games.holdem.game import HOLDEM, Holdem
from app.games.holdem.rules import PRESETS, RuleSheet

__all__ = ["HOLDEM", "PRESETS", "Holdem", "RuleSheet"]
