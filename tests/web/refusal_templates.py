"""Every refusal sentence the server can send, read from the source: the message ids a page needs to
format a refusal in its own language (``refusalText`` in static/js/i18n.js)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The calls that make a refusal; its sentence is the positional argument that is a sentence.
RAISERS = {"IllegalAction", "RoomError", "InvalidSheet", "_refuse", "_error", "error", "Sentence",
           "error_response"}


def _module_values(tree: ast.Module) -> dict[str, ast.expr]:
    values: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = node.value
    return values


def _local_values(tree: ast.Module) -> dict[int, dict[str, ast.expr]]:
    """Per call line: the plain assignments of the function around it (``message = "…"``)."""
    out: dict[int, dict[str, ast.expr]] = {}
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = {node.targets[0].id: node.value for node in ast.walk(func)
                     if isinstance(node, ast.Assign) and len(node.targets) == 1
                     and isinstance(node.targets[0], ast.Name)}
            for node in ast.walk(func):
                if isinstance(node, ast.Call):
                    out.setdefault(node.lineno, {}).update(names)
    return out


def _sentences(node: ast.expr, names: dict[str, ast.expr], problems: list[str], where: str) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} if " " in node.value else set()
    if isinstance(node, ast.IfExp):
        return _sentences(node.body, names, problems, where) | _sentences(node.orelse, names, problems, where)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in names:
        table = names[node.value.id]
        if isinstance(table, ast.Dict):
            return {v.value for v in table.values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    if isinstance(node, ast.Name) and node.id in names and names[node.id] is not node:
        found = _sentences(names[node.id], {k: v for k, v in names.items() if k != node.id}, problems, where)
        if found:
            return found
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Sentence":
        return _sentences(node.args[0], names, problems, where)
    if isinstance(node, ast.JoinedStr) and any(
        isinstance(part, ast.Constant) and " " in str(part.value) for part in node.values
    ):
        problems.append(f"{where}: an f-string refusal; give its values as params")
    return set()


def refusal_templates() -> tuple[dict[str, str], list[str]]:
    """(template -> first place it is raised, problems found)."""
    templates: dict[str, str] = {}
    problems: list[str] = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = _module_values(tree)
        local = _local_values(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = (func.id if isinstance(func, ast.Name)
                    else func.attr if isinstance(func, ast.Attribute) else "")
            if name not in RAISERS:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            names = {**module, **local.get(node.lineno, {})}
            args = node.args[:1] if name == "Sentence" else node.args[1:]
            for arg in args:
                if isinstance(arg, ast.Constant) and not (isinstance(arg.value, str) and " " in arg.value):
                    continue
                for text in _sentences(arg, names, problems, where):
                    templates.setdefault(text, where)
    # Sentences kept in tables the scan does not follow: pydantic's problems with a sheet, and the
    # body limit's ready-made answer.
    from app.games.sheet_problems import SHEET_PROBLEM_OTHER, SHEET_PROBLEMS
    from app.web.body import TOO_LARGE

    for template, _ in SHEET_PROBLEMS.values():
        templates.setdefault(template, "app/games/sheet_problems.py")
    templates.setdefault(str(TOO_LARGE["message"]), "app/web/body.py")
    templates.setdefault(SHEET_PROBLEM_OTHER, "app/games/sheet_problems.py")
    return templates, problems
