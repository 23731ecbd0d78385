"""docs/adding-a-game.md keeps its promises: its Python samples and the example game pass strict
mypy, and the files it lists for the example game are the example game's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "adding-a-game.md"
SAMPLE = re.compile(r"```python\n# (\S+)\n(.*?)```", re.S)


def samples() -> dict[str, str]:
    """Each Python sample of the guide by the path its first line names."""
    return {path: code for path, code in SAMPLE.findall(GUIDE.read_text())}


def test_the_guide_has_a_sample_for_each_file_of_a_game() -> None:
    assert set(samples()) == {
        "app/games/durak/rules.py", "app/games/durak/layout.py", "app/games/durak/__init__.py",
        "app/bots/durak.py", "tests/games/durak/cases.py",
    }


def test_the_samples_and_the_example_game_pass_strict_mypy(tmp_path: Path) -> None:
    """The samples as a package of their own (``durak``, ``durak_bot``, ``durak_cases``: the app's
    real packages are not touched), checked with the project's mypy settings."""
    names = {"app/games/durak/": "durak/", "app/bots/durak.py": "durak_bot.py",
             "tests/games/durak/cases.py": "durak_cases.py"}
    files = []
    for path, code in samples().items():
        target = path
        for prefix, replacement in names.items():
            target = target.replace(prefix, replacement)
        out = tmp_path / target
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(code.replace("app.games.durak", "durak"))
        files.append(str(out))
    example = [str(ROOT / "tests" / "example_game" / name) for name in ("game.py", "bot.py", "cases.py")]
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--strict",
         "--follow-imports=silent", "--no-incremental", *files, *example],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
