"""The example game is found with no edit outside its folder, and every registry-driven suite plays
it: the test hook registers it (tests/plugins/games.py), the suites take their games from the
registry, and the pages load its table and style sheet from its own folder."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

from app import registry
from app.web import pages
from tests.example_game.game import game

ROOT = Path(__file__).resolve().parents[2]
# The suites that take their game list from the registry (docs/adding-a-game.md, "Tests").
REGISTRY_DRIVEN = (
    "tests/games/test_registry.py",
    "tests/games/test_views.py",
    "tests/bots/test_properties.py",
    "tests/bots/test_hidden.py",
    "tests/web/test_rooms_api.py",
    "tests/e2e/test_every_game.py",
)


def test_the_test_hook_registers_the_example_game() -> None:
    assert "tests.example_game.game:game" in os.environ[registry.EXTRA_GAMES].split(",")
    assert registry.get("highcard") is game
    assert game.rule_letter in registry.rule_letters()


def test_every_registry_driven_suite_collects_the_example_game() -> None:
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *REGISTRY_DRIVEN],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert collected.returncode == 0, collected.stdout + collected.stderr
    ids = [line for line in collected.stdout.splitlines() if "::" in line]
    for suite in REGISTRY_DRIVEN:
        mine = [node for node in ids if node.startswith(suite) and re.search(r"highcard", node)]
        assert mine, f"{suite} does not play the example game"


def test_the_pages_load_its_table_and_style_sheet_from_its_folder() -> None:
    assert pages.game_tables()["highcard"] == "/static/games/highcard/table.js"
    assert "games/highcard/table.css" in pages.game_styles()
    app = FastAPI()
    app.include_router(pages.router)
    client = TestClient(app)
    home = client.get("/")
    assert '"highcard": "/static/games/highcard/table.js"' in home.text
    assert re.search(r'href="/static/games/highcard/table\.css\?v=[0-9a-f]{10}"', home.text)
    script = client.get("/static/games/highcard/table.js")
    assert script.status_code == 200 and "export function mount" in script.text
    assert script.headers["content-type"].startswith(("text/javascript", "application/javascript"))
    assert client.get("/static/games/highcard/../game.py").status_code == 404
    assert client.get("/static/games/nosuchgame/table.js").status_code == 404
