"""The code stays ruff and mypy (strict) clean, and its shape in check (no import cycles, no
overlong functions or modules); CI runs these with the rest of the suite."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_finds_nothing() -> None:
    result = run("ruff", "check", "app", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_finds_nothing() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


# -- the shape of the code --------------------------------------------------------------------

# The packages held to the rules below, and the module line limits (a module's own limit is
# checked beside its package's).
ACYCLIC_PACKAGES = ("app",)
SHORT_FUNCTION_PACKAGES = ("app",)
FUNCTION_MAX_LINES = 60
MODULE_MAX_LINES = {"app": 500, "app.rooms.room": 450}


def app_modules() -> dict[str, Path]:
    """Every module of app/ by its dotted name (a package by its own name)."""
    modules: dict[str, Path] = {}
    for path in sorted((ROOT / "app").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The app modules ``name`` imports anywhere in its file: at the top, inside functions and under
    ``TYPE_CHECKING`` alike (a typing-only import still ties the two modules together)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    found.add(f"{base}.{alias.name}")  # a module of a package
                elif base in modules:
                    found.add(base)  # a name from a module (or from a package's __init__)
    found.discard(name)
    return found


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: its strongly connected parts of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part: list[str] = []
            while not part or part[-1] != node:
                part.append(stack.pop())
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle_through_three_modules() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_a_typing_only_import_counts(tmp_path: Path) -> None:
    module = tmp_path / "room.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from app.rooms.manager import RoomManager\n")
    assert imports_of("app.rooms.room", module, {"app.rooms.manager": module}) == {"app.rooms.manager"}


@pytest.mark.parametrize("package", ACYCLIC_PACKAGES)
def test_no_import_cycle_in(package: str) -> None:
    modules = app_modules()
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    touching = [part for part in cycles(graph)
                if any(name == package or name.startswith(f"{package}.") for name in part)]
    assert touching == [], f"import cycles through {package}: {touching}"


@pytest.mark.parametrize("package", SHORT_FUNCTION_PACKAGES)
def test_no_function_over_the_line_limit_in(package: str) -> None:
    long = []
    for name, path in app_modules().items():
        if name != package and not name.startswith(f"{package}."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > FUNCTION_MAX_LINES:
                    long.append(f"{name}.{node.name}: {lines} lines")
    assert long == [], f"functions over {FUNCTION_MAX_LINES} lines: {long}"


@pytest.mark.parametrize("package", sorted(MODULE_MAX_LINES))
def test_no_module_over_the_line_limit_in(package: str) -> None:
    limit = MODULE_MAX_LINES[package]
    long = [f"{name}: {count} lines" for name, path in app_modules().items()
            if (name == package or name.startswith(f"{package}."))
            and (count := len(path.read_text(encoding="utf-8").splitlines())) > limit]
    assert long == [], f"modules over {limit} lines: {long}"
