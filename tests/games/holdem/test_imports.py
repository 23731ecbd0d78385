"""``app/games/holdem`` is pure rules: it imports nothing of the server, only ``app.games``,
the standard library, pydantic and the evaluator."""

from __future__ import annotations

import ast
from pathlib import Path

ALLOWED = {
    "app.games",
    "pydantic",
    "phevaluator",
    "__future__",
    "collections",
    "dataclasses",
    "functools",
    "hashlib",
    "itertools",
    "typing",
}


def test_holdem_imports_only_games_and_libraries() -> None:
    root = Path(__file__).resolve().parents[3] / "app" / "games" / "holdem"
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert any(name == ok or name.startswith(ok + ".") for ok in ALLOWED), f"{path.name}: {name}"
