"""Bring the message catalogues up to date with the texts in templates/ and static/js/.

``python locale/update.py`` finds every ``_("...")`` in the Jinja2 templates and every ``t("...")`` /
``tMaybe("...")`` in the ES modules, and the plural pairs of ``tn("one", "many", n)`` (scripts) and
``ngettext("one", "many", n)`` (templates), adds the new message ids to
``locale/<lang>/LC_MESSAGES/messages.po`` (keeping every translation already there) and lists what is
still untranslated. Ids built at run time (``error: <code>``, ``event: <type>``, ``option value:
<value>``, ``preset: <name>`` …) are written into the catalogues by hand and kept. ``--check``
changes nothing and exits 1 when a text lacks a translation.
The ``.po`` files are the sources; the server compiles them in memory (``app/web/i18n.py``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
LANGUAGES = ("et", "fi", "en")
TRANSLATED = ("et", "fi")  # English texts are the message ids themselves
PATTERNS = [
    re.compile(r"""\b_\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]"""),
    re.compile(r"""\b_\(\s*'((?:[^'\\]|\\.)*)'\s*[,)]"""),
    re.compile(r"""\b(?:t|tMaybe)\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]"""),
    re.compile(r"""\b(?:t|tMaybe)\(\s*`([^`$]*)`\s*[,)]"""),
]

PLURAL = re.compile(r"""\b(?:tn|ngettext)\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"\s*,""")


def _files() -> list[Path]:
    return sorted((ROOT / "templates").rglob("*.html")) + sorted((ROOT / "static" / "js").rglob("*.js"))


def found_plurals() -> dict[tuple[str, str], list[tuple[str, int]]]:
    """(singular, plural) pairs of ``tn`` / ``ngettext`` calls, with where they are."""
    pairs: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for path in _files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in PLURAL.finditer(line):
                one, many = (json.loads(f'"{part}"') if "\\" in part else part for part in match.groups())
                pairs.setdefault((one, many), []).append((str(path.relative_to(ROOT)), number))
    return pairs


def found_texts() -> dict[str, list[tuple[str, int]]]:
    texts: dict[str, list[tuple[str, int]]] = {}
    for path in _files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for pattern in PATTERNS:
                for match in pattern.finditer(line):
                    text = match.group(1)
                    if "\\" in text:
                        text = json.loads(f'"{text}"')
                    texts.setdefault(text, []).append((str(path.relative_to(ROOT)), number))
    return texts


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "messages.po"


def load(lang: str) -> Catalog:
    path = po_path(lang)
    if path.exists():
        with path.open("rb") as handle:
            return read_po(handle, locale=lang)
    return Catalog(locale=lang, project="Houserules", charset="utf-8")


def main(argv: list[str]) -> int:
    check = "--check" in argv
    texts = found_texts()
    plurals = found_plurals()
    missing_any = False
    for lang in LANGUAGES:
        catalog = load(lang)
        for text, places in texts.items():
            message = catalog.get(text)
            if message is None:
                catalog.add(text, "", locations=places)
            else:
                message.locations = places
        for pair, places in plurals.items():
            message = catalog.get(pair)
            if message is None:
                catalog.add(pair, ("", ""), locations=places)
            else:
                message.locations = places
        if lang in TRANSLATED:
            missing = [str(m.id) for m in catalog
                       if m.id and not (m.string if isinstance(m.string, str) else all(m.string))]
            if missing:
                missing_any = True
                print(f"{lang}: {len(missing)} untranslated")
                for missing_text in missing:
                    print(f"  {missing_text!r}")
        if not check:
            path = po_path(lang)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as handle:
                write_po(handle, catalog, width=0, sort_output=False, omit_header=False)
    return 1 if (check and missing_any) else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
