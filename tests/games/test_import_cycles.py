"""The games and the bots import without cycles (scripts/import-cycles, from the source: a cycle
would make a module's import order matter, and a game's package must load on its own)."""

from __future__ import annotations

import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_import_cycle_in_the_games_or_the_bots() -> None:
    script = runpy.run_path(str(ROOT / "scripts" / "import-cycles"), run_name="import_cycles")
    edges = script["graph"]([ROOT / "app" / "games", ROOT / "app" / "bots"])
    assert script["cycles"](edges) == []
    # The script sees a cycle where there is one: base ↔ fair, as it was.
    edges["app.games.fair"].add("app.games.base")
    assert script["cycles"](edges) == [["app.games.base", "app.games.fair"]]
