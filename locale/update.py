"""Bring the message catalogues up to date with the sources, with Babel's own ``pybabel``.

    python locale/update.py           # pybabel extract (babel.cfg), then pybabel update of et, fi and en
    python locale/update.py --check   # change nothing; exit 1 if a catalogue is out of date with the
                                      # sources or an Estonian or Finnish text is missing or fuzzy

``pybabel extract -F babel.cfg`` reads the templates (Jinja2's extractor), the ES modules (Babel's
JavaScript extractor, ``houserules_scripts``), app/ Python and the ids built at run time
(``houserules_runtime``: see ``locale/houserules_babel.py``) into a template without line
references, sorted by id; ``pybabel update`` merges it into ``locale/<lang>/LC_MESSAGES/messages.po``
keeping every translation, dropping ids no source names any more (``--ignore-obsolete``) and keeping
the catalogue's own creation date, so a second run changes nothing. When the English of a text
changes, its new id gets the translation of the closest id no longer used, marked *fuzzy* with the
old id beside it (``#| msgid``); a fuzzy entry is never shown (``app/web/i18n.py``) and fails
``--check`` until a translator removes the flag.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import BaseError, CommandLineInterface
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"

LANGUAGES = ("et", "fi", "en")
TRANSLATED = ("et", "fi")  # English texts are the message ids themselves
# The translation functions: the pages' _() and ngettext() are Babel's defaults; the scripts' are
# static/js/i18n.js's (pt and ptMaybe take a context first).
KEYWORDS = ("t", "tMaybe", "tn:1,2", "pt:1c,2", "ptMaybe:1c,2")


def pybabel(*args: str) -> None:
    """Run a ``pybabel`` command in the project's folder (raises ``BaseError`` when it fails)."""
    CommandLineInterface().run(["pybabel", "--quiet", *args])


def extract(pot: Path) -> None:
    # The extractors of babel.cfg import houserules_babel and the app.
    for folder in (LOCALE, ROOT):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    keywords = [part for keyword in KEYWORDS for part in ("-k", keyword)]
    pybabel("extract", "-F", str(ROOT / "babel.cfg"), *keywords, "--no-location", "--sort-output",
            "--project", "Houserules", "-o", str(pot), str(ROOT))


def update(pot: Path, *, check: bool) -> bool:
    """``pybabel update`` of every catalogue from ``pot``; with ``check``, whether they are up to
    date (nothing is written)."""
    try:
        pybabel("update", "-i", str(pot), "-d", str(LOCALE), "-D", "messages", "--no-wrap",
                "--ignore-obsolete", "--ignore-pot-creation-date", "--previous",
                *(["--check"] if check else []))
    except BaseError:
        if check:
            return False
        raise
    return True


def extracted() -> Catalog:
    """What the sources name today (``pybabel extract`` into a temporary template)."""
    with tempfile.TemporaryDirectory() as folder:
        pot = Path(folder) / "messages.pot"
        extract(pot)
        with pot.open("rb") as handle:
            return read_po(handle)


def found_texts(found: Catalog | None = None) -> set[str]:
    """The ids of single texts (no context, no plural) the sources name (or ``found`` holds)."""
    return {m.id for m in (extracted() if found is None else found)
            if isinstance(m.id, str) and m.id and not m.context}


def found_plurals(found: Catalog | None = None) -> set[tuple[str, str]]:
    """The (singular, plural) ids the sources name (or ``found`` holds)."""
    return {(str(m.id[0]), str(m.id[1])) for m in (extracted() if found is None else found)
            if isinstance(m.id, tuple)}


def load(lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=lang)


def translated(string: object) -> bool:
    return bool(string) if isinstance(string, str) else bool(string) and all(string)  # type: ignore[arg-type]


def untranslated(lang: str) -> list[str]:
    """The ids of ``lang`` that lack a translation or have only a fuzzy one."""
    return [str(m.id) + (" (fuzzy)" if m.fuzzy else "") for m in load(lang)
            if m.id and (m.fuzzy or not translated(m.string))]


def main(argv: list[str]) -> int:
    check = "--check" in argv
    with tempfile.TemporaryDirectory() as folder:
        pot = Path(folder) / "messages.pot"
        extract(pot)
        up_to_date = update(pot, check=check)
    if not up_to_date:
        print("The catalogues are out of date with the sources: run python locale/update.py")
    missing_any = False
    for lang in TRANSLATED:
        missing = untranslated(lang)
        if missing:
            missing_any = True
            print(f"{lang}: {len(missing)} untranslated")
            for text in missing:
                print(f"  {text!r}")
    return 1 if check and (missing_any or not up_to_date) else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
