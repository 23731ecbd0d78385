"""The server never asks which game it runs: rooms, store and the web layer use only the Game surface."""

from __future__ import annotations

import re
from pathlib import Path

from app import registry

ROOT = Path(__file__).resolve().parents[2]
SERVER = ["app/rooms", "app/store", "app/web/api.py", "app/web/ws.py", "app/web/schemas.py", "app/main.py",
          "app/config.py", "app/__main__.py", "migrations"]


def test_no_game_is_named_outside_app_games() -> None:
    names = sorted(registry.GAMES)
    assert names, "no game is registered"
    pattern = re.compile("|".join(re.escape(n) for n in names) + r"|app\.games\.\w+\.", re.IGNORECASE)
    for part in SERVER:
        path = ROOT / part
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            found = pattern.search(file.read_text())
            assert found is None, f"{file.relative_to(ROOT)} names a game: {found.group(0)!r}"
