"""locale/update.py (pybabel extract and update with babel.cfg) on a copy of the project: a text
whose English changed gets its old translation marked fuzzy (never shown, and --check fails until it
is reviewed); an id no source names is dropped; a second run changes nothing; the real catalogues
pass --check."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("et", "fi", "en")


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(root / "locale" / "update.py"), *args], cwd=root,
                          capture_output=True, text=True, check=False)


def catalogue(root: Path, lang: str) -> Path:
    return root / "locale" / lang / "LC_MESSAGES" / "messages.po"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The sources the catalogues are made from, copied (the app and the tests, which the runtime
    extractor reads, are linked)."""
    shutil.copytree(ROOT / "locale", tmp_path / "locale", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    shutil.copytree(ROOT / "static" / "js", tmp_path / "static" / "js")
    shutil.copy(ROOT / "babel.cfg", tmp_path / "babel.cfg")
    for linked in ("app", "tests"):
        (tmp_path / linked).symlink_to(ROOT / linked)
    return tmp_path


def test_a_changed_english_text_gets_its_old_translation_marked_fuzzy(project: Path) -> None:
    home = project / "templates" / "home.html"
    home.write_text(home.read_text(encoding="utf-8").replace('_("New room")', '_("New game room")'),
                    encoding="utf-8")
    done = run(project)
    assert done.returncode == 0, done.stdout + done.stderr
    with catalogue(project, "et").open("rb") as handle:
        catalog = read_po(handle, locale="et")
    message = catalog.get("New game room")
    assert message is not None and message.fuzzy and message.string == "Uus tuba"
    # The old id stays beside it for the translator (msgmerge's --previous).
    written = catalogue(project, "et").read_text(encoding="utf-8")
    assert '#, fuzzy\n#| msgid "New room"\nmsgid "New game room"' in written
    assert catalog.get("New room") is None
    checked = run(project, "--check")
    assert checked.returncode == 1
    assert "'New game room (fuzzy)'" in checked.stdout


def test_an_id_no_source_names_is_dropped_and_a_second_run_changes_nothing(project: Path) -> None:
    et = catalogue(project, "et")
    et.write_text(et.read_text(encoding="utf-8") + '\nmsgid "Nothing names this."\nmsgstr "Mitte miski."\n',
                  encoding="utf-8")
    checked = run(project, "--check")
    assert checked.returncode == 1 and "out of date" in checked.stdout
    assert run(project).returncode == 0
    assert "Nothing names this." not in et.read_text(encoding="utf-8")
    before = {lang: catalogue(project, lang).read_bytes() for lang in LANGS}
    assert run(project).returncode == 0
    assert {lang: catalogue(project, lang).read_bytes() for lang in LANGS} == before
    assert run(project, "--check").returncode == 0


def test_the_catalogues_pass_the_check() -> None:
    checked = run(ROOT, "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
