"""The Thousand engine is pure rules: it imports only the standard library, pydantic and app.games."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import app.games.thousand as package

ALLOWED = {"pydantic", *sys.stdlib_module_names}


def test_thousand_imports_nothing_outside_games() -> None:
    folder = Path(package.__file__).parent
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                ok = name.startswith("app.games") or top in ALLOWED
                assert ok, f"{path.name} imports {name}"
