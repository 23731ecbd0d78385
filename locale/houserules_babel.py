"""Babel extractors of the texts that Babel's own extractors cannot find (``babel.cfg`` names them).

- ``extract_scripts``: Babel's JavaScript extractor, less the ids a script builds at run time
  (a template string with ``${…}``: ``t(`error: ${code}`)``); those ids come from the next one.
- ``extract_runtime``: the ids the server and the pages build at run time or read by the English of
  a text, from where the app defines them: refusal codes (``error: <code>``) and refusal sentences
  under ``app/``, the rule-sheet form's labels and help (contexts ``rule-sheet label`` and
  ``rule-sheet help``), rule-sheet choices, presets and blind structures, the games' log events,
  card words; and the ids of ``locale/runtime_ids.txt``, the rest of those built at run time
  (hand names, keyboard keys, the rooms' events …), one JSON value a line. The file that
  ``babel.cfg`` maps to it is that list.

``locale/update.py`` runs ``pybabel extract`` and ``pybabel update`` with the project on the path,
so these import as ``houserules_babel`` and the app as ``app``.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from babel.messages.extract import extract_javascript

ROOT = Path(__file__).resolve().parents[1]
# (line, function, message(s), comments) as Babel's extractors yield them; "pgettext" with
# (context, id) makes an entry with a context.
Found = tuple[int, str | None, Any, list[str]]

EVENT = re.compile(r"(?:Event|_event)\(\s*\"([a-z_]+)\"")
DESCRIBED = re.compile(r"case \"([a-z_]+)\"")
CARD_RANKS = ("ace", "king", "queen", "jack", "ten", "nine", "eight", "seven", "six", "five", "four",
              "three", "two")
CARD_SUITS = ("spades", "hearts", "diamonds", "clubs")


def extract_scripts(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
                    options: dict[str, Any]) -> Iterator[Found]:
    for lineno, funcname, messages, comments in extract_javascript(fileobj, keywords, comment_tags, options):
        parts = messages if isinstance(messages, (list, tuple)) else [messages]
        if not any(isinstance(part, str) and "${" in part for part in parts):
            yield lineno, funcname, messages, comments


def extract_runtime(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
                    options: dict[str, Any]) -> Iterator[Found]:
    for text in _refusal_ids():
        yield 0, None, text, []
    for context, text in _rule_sheet_texts():
        yield 0, "pgettext", (context, text), []
    for text in sorted(_choice_ids() | _event_ids() | _card_ids()):
        yield 0, None, text, []
    for number, line in enumerate(fileobj.read().decode("utf-8").splitlines(), start=1):
        if line.strip() and not line.startswith("#"):
            listed = json.loads(line)
            if isinstance(listed, dict):
                yield number, "pgettext", (listed["context"], listed["id"]), []
            else:
                yield number, "ngettext" if isinstance(listed, list) else None, listed, []


def _refusal_ids() -> list[str]:
    """``error: <code>`` for each refusal code raised under app/, and each refusal sentence."""
    from tests.web.refusal_templates import refusal_templates
    from tests.web.test_catalogues import raised_codes

    return sorted({f"error: {code}" for code in raised_codes()} | set(refusal_templates()[0]))


def _games() -> list[Any]:
    """The registered games, the tests' own games included (tests/plugins/games.py): the tests
    check every registered game's texts against the catalogues."""
    from app import registry
    from tests.plugins.games import games_under_tests

    present = [spec for spec in os.environ.get(registry.EXTRA_GAMES, "").split(",") if spec.strip()]
    os.environ[registry.EXTRA_GAMES] = ",".join(dict.fromkeys([*present, *games_under_tests()]))
    registry.GAMES.reload()
    return list(registry.GAMES.values())


def _rule_sheet_texts() -> list[tuple[str, str]]:
    texts = set()
    for game in _games():
        for prop in game.sheet_schema()["properties"].values():
            texts |= {("rule-sheet label", prop["x-label"]), ("rule-sheet help", prop["description"])}
    return sorted(texts)


def _choice_ids() -> set[str]:
    """Rule-sheet choices, presets and blind structures (their names on the form)."""
    wanted = set()
    for game in _games():
        wanted |= {f"preset: {name}" for name in game.presets}
        for prop in game.sheet_schema()["properties"].values():
            wanted |= {f"blind structure: {name}" for name in prop.get("x-structures", {})}
            # Numbers (a raise cap of 4, a low card of 7) read as themselves.
            wanted |= {f"option value: {value}" for value in prop.get("enum", [])
                       if isinstance(value, str) and not value.isdigit()}
    return wanted


def _event_ids() -> set[str]:
    """The games' log events that their table script does not describe: the log reads their
    catalogue text (``event: <type>``)."""
    wanted = set()
    for game in _games():
        folder = Path(sys.modules[type(game).__module__].__file__ or "").parent
        emitted = {kind for path in folder.glob("*.py")
                   for kind in EVENT.findall(path.read_text(encoding="utf-8"))}
        assets = game.assets()
        script = assets / "table.js" if assets is not None else ROOT / "static" / game.table_module()
        described = set(DESCRIBED.findall(script.read_text(encoding="utf-8"))) if script.exists() else set()
        wanted |= {f"event: {kind}" for kind in emitted - described}
    return wanted


def _card_ids() -> set[str]:
    return ({f"card rank: {rank}" for rank in CARD_RANKS} | {f"card suit: {suit}" for suit in CARD_SUITS}
            | {"card: {rank}{suit}"})
