"""``app.games`` is a library: it imports nothing of the server and does no I/O (DESIGN.md, style 1)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "app" / "games"
FORBIDDEN_ROOTS = {
    "fastapi", "starlette", "sqlalchemy", "alembic", "uvicorn", "websockets", "asyncio",
    "aiosqlite", "asyncpg", "jinja2", "socket", "requests", "httpx", "os", "subprocess",
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module)
    return roots


def test_games_import_only_games_and_libraries() -> None:
    files = sorted(GAMES.rglob("*.py"))
    assert files
    for path in files:
        for name in imported_roots(path):
            root = name.split(".")[0]
            assert root not in FORBIDDEN_ROOTS, f"{path.relative_to(GAMES)} imports {name}"
            if root == "app":
                assert name.startswith("app.games"), f"{path.relative_to(GAMES)} imports {name}"


# What each game's own package may import besides ``app.games``: its rules are pure.
GAME_LIBRARIES: dict[str, set[str]] = {
    "palace": {"__future__", "collections", "dataclasses", "itertools", "typing", "pydantic"},
    "thousand": {"pydantic", *sys.stdlib_module_names},
    "holdem": {"pydantic", "phevaluator", "__future__", "collections", "dataclasses", "functools", "hashlib",
               "itertools", "typing"},
}


@pytest.mark.parametrize("name", sorted(GAME_LIBRARIES))
def test_each_game_imports_only_app_games_and_its_libraries(name: str) -> None:
    files = sorted((GAMES / name).glob("*.py"))
    assert files
    for path in files:
        for imported in imported_roots(path):
            ok = imported.startswith("app.games") or imported.split(".")[0] in GAME_LIBRARIES[name]
            assert ok, f"{name}/{path.name} imports {imported}"


def test_games_package_imports_without_the_server() -> None:
    code = (
        "import sys, app.games\n"
        "leaked = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'fastapi','sqlalchemy','starlette','uvicorn','websockets'} "
        "or (m.startswith('app.') and not m.startswith('app.games')))\n"
        "assert not leaked, leaked\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=GAMES.parents[1])
