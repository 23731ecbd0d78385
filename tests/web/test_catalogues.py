"""The message catalogues are complete: every refusal code raised under app/, every text the
templates and scripts ask for, every rule-sheet choice and preset, in en, et and fi; plural entries
have every form; the rule-sheet form's layout places every option."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from app import registry
from app.games.form_layout import missing_placements, strip_rule_ids
from app.games.holdem.layout import BLIND_STRUCTURES
from app.web import i18n
from tests.games.game_cases import source_folder

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "et", "fi")
TRANSLATED = ("et", "fi")

# A refusal names its code as the first string argument of one of these calls (after the subscriber
# and message id for a room's _refuse, after nothing else for the rest).
RAISERS = re.compile(
    r"\b(?:IllegalAction|RoomError|_refuse|_error|refuse|illegal|__init__)\(\s*(?:[A-Za-z_][\w.]*\s*,\s*){0,2}"
    r"f?\"([a-z{][a-z0-9_{}]*)\""
)
CLEAN_TEXT_KINDS = re.compile(r"clean_text\([^()]*?\"(\w+)\"\s*\)")
# Codes that are built from a part named elsewhere: {what} is the kind of text clean_text checks.
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def raised_codes() -> dict[str, list[str]]:
    """Every refusal code raised under app/, with the files that raise it."""
    sources = {path: path.read_text(encoding="utf-8") for path in sorted((ROOT / "app").rglob("*.py"))}
    kinds = sorted({kind for text in sources.values() for kind in CLEAN_TEXT_KINDS.findall(text)})
    codes: dict[str, list[str]] = {}
    for path, text in sources.items():
        for code in RAISERS.findall(text):
            names = PLACEHOLDER.findall(code)
            if not names:
                expanded = [code]
            else:
                assert set(names) == {"what"}, (
                    f"{path}: a code built from {names}: teach this test its values"
                )
                expanded = [code.replace("{what}", kind) for kind in kinds]
            for one in expanded:
                codes.setdefault(one, []).append(str(path.relative_to(ROOT)))
    return codes


def test_the_code_scan_finds_the_codes_it_should() -> None:
    codes = raised_codes()
    # One from each kind of raiser: a game's IllegalAction, a room's RoomError, a room's _refuse,
    # the socket's _error, Palace's own _refuse helper and a code built by clean_text.
    for code in (
        "cannot_check",
        "unknown_room",
        "unknown_op",
        "bad_json",
        "mixed_ranks",
        "empty_chat",
        "name_too_long",
        "invalid_sheet",
    ):
        assert code in codes, code
    assert len(codes) > 60


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_code_has_a_text(lang: str) -> None:
    """et and fi translate every code; English lists it too, and its text is the server's own
    sentence, which is more precise than a text per code ("The bid must be at least 130.")."""
    table = i18n.messages(lang)
    catalog = i18n.catalog(lang)
    missing = []
    for code, places in sorted(raised_codes().items()):
        key = f"error: {code}"
        if catalog.get(key) is None or (lang in TRANSLATED and not table.get(key)):
            missing.append(f"{code} ({places[0]})")
    assert not missing, f"{lang}: refusal codes without a text: {missing}"


@functools.cache
def used_message_ids() -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """The single and plural ids the sources name, from one extraction (``pybabel extract`` takes
    seconds, and three tests read it)."""
    import sys

    sys.path.insert(0, str(ROOT / "locale"))
    try:
        import update  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    found = update.extracted()
    return frozenset(update.found_texts(found)), frozenset(update.found_plurals(found))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_of_the_templates_and_scripts_is_translated(lang: str) -> None:
    singles, plurals = used_message_ids()
    table = i18n.messages(lang)
    missing = sorted(text for text in singles if not table.get(text))
    assert not missing, f"{lang}: texts without a translation: {missing}"
    forms = i18n.plural_forms(lang)
    missing_plurals = sorted(one for one, _ in plurals if len(forms.get(one, [])) != 2)
    assert not missing_plurals, f"{lang}: plural texts without both forms: {missing_plurals}"


def test_every_text_of_the_templates_and_scripts_is_in_the_english_catalogue() -> None:
    singles, plurals = used_message_ids()
    catalog = i18n.catalog("en")
    assert not sorted(text for text in singles if catalog.get(text) is None)
    assert not sorted(one for one, many in plurals if catalog.get((one, many)) is None)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_rule_sheet_choice_preset_and_blind_structure_has_a_name(lang: str) -> None:
    table = i18n.messages(lang)
    wanted: set[str] = set()
    for game in registry.GAMES.values():
        wanted |= {f"preset: {name}" for name in game.presets}
        wanted.add(f"game: {game.name}")
        for prop in registry.sheet_schema(game)["properties"].values():
            for value in prop.get("enum", []):
                # Numbers (a raise cap of 4, a low card of 7) read as themselves.
                if isinstance(value, str) and not value.isdigit():
                    wanted.add(f"option value: {value}")
    wanted |= {f"blind structure: {name}" for name in BLIND_STRUCTURES}
    missing = sorted(key for key in wanted if not table.get(key) and not key.startswith("game: "))
    assert not missing, f"{lang}: {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_follow_the_catalogue_rule(lang: str) -> None:
    translations = i18n.translations(lang)
    one = translations.ngettext("{n} house rule beyond the preset", "{n} house rules beyond the preset", 1)
    many = translations.ngettext("{n} house rule beyond the preset", "{n} house rules beyond the preset", 3)
    expected = {
        "en": ("{n} house rule beyond the preset", "{n} house rules beyond the preset"),
        "et": ("{n} kodureegel valmisvariandi lisaks", "{n} kodureeglit valmisvariandi lisaks"),
        "fi": ("{n} kotisääntö muunnelman lisäksi", "{n} kotisääntöä muunnelman lisäksi"),
    }[lang]
    assert (one, many) == expected
    assert i18n.script_catalogue(lang)["plural_categories"] == ["one", "other"]


CARD_WORDS = [
    f"card rank: {word}"
    for word in (
        "ace",
        "king",
        "queen",
        "jack",
        "ten",
        "nine",
        "eight",
        "seven",
        "six",
        "five",
        "four",
        "three",
        "two",
    )
] + [f"card suit: {word}" for word in ("spades", "hearts", "diamonds", "clubs")]


@pytest.mark.parametrize("lang", LANGS)
def test_card_names_are_written_as_each_language_writes_them(lang: str) -> None:
    table = i18n.messages(lang)
    assert all(table.get(key) for key in CARD_WORDS), [key for key in CARD_WORDS if not table.get(key)]

    def name(rank: str, suit: str) -> str:
        return table["card: {rank}{suit}"].format(
            rank=table[f"card rank: {rank}"], suit=table[f"card suit: {suit}"]
        )

    expected = {
        "en": [("ace", "clubs", "Ace of clubs"), ("queen", "spades", "Queen of spades")],
        "et": [
            ("ace", "clubs", "ristiäss"),
            ("queen", "spades", "potiemand"),
            ("ten", "hearts", "ärtukümme"),
        ],
        "fi": [
            ("queen", "spades", "patarouva"),
            ("jack", "hearts", "herttasotilas"),
            ("ace", "clubs", "ristiässä"),
        ],
    }[lang]
    assert [name(rank, suit) for rank, suit, _ in expected] == [text for _, _, text in expected]


def test_every_option_has_a_place_on_the_form() -> None:
    """An option with no layout entry still renders (under "More house rules", group "other"), but it
    should be placed: this lists the ones that are not, so a new option is noticed."""
    unplaced = {name: missing_placements(game.form_layout, registry.sheet_schema(game))
                for name, game in registry.GAMES.items()}
    assert not {name: options for name, options in unplaced.items() if options}


# A rule-id tag of any letter: "(P4)", "(C2: …", "[H16]". Any capital letter, not only the
# registered games' (whose letters build the pattern that takes tags out), so a tag the form missed
# is caught whatever its game.
ANY_RULE_TAG = re.compile(r"\(\s*[A-Z]\d+\b|\[[A-Z]\d+\]")


def test_visible_descriptions_carry_no_rule_ids() -> None:
    for game in registry.GAMES.values():
        for name, prop in registry.sheet_schema(game)["properties"].items():
            text = prop["description"]
            assert not ANY_RULE_TAG.search(text), (game.name, name, text)
            assert isinstance(prop.get("x-label"), str), (game.name, name)


def test_the_rule_tags_taken_out_are_those_of_every_registered_game() -> None:
    """A game's own letter is taken out of its descriptions, and so is a tag of any other registered
    game; a letter no game has stays (it is no rule id)."""
    letters = registry.rule_letters()
    assert sorted(letters) == sorted(game.rule_letter for game in registry.GAMES.values())
    for letter in letters:
        text, ids = strip_rule_ids(f"Plays lower ({letter}2). ({letter}3: the source says so)", letters)
        assert (text, ids) == ("Plays lower. (the source says so)", [f"{letter}2", f"{letter}3"])
    unused = next(c for c in "ABCDEFGIJKLMNOQRSUVWXYZ" if c not in letters)
    assert strip_rule_ids(f"A ({unused}2) stays.", letters)[0] == f"A ({unused}2) stays."


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_form_label_and_help_is_in_the_catalogue(lang: str) -> None:
    """The form's labels and help are English in app/games; their Estonian and Finnish texts live in
    the catalogues, found by the English under the contexts "rule-sheet label" and "rule-sheet help"."""
    table = i18n.messages(lang)
    missing = []
    for game in registry.GAMES.values():
        for name, prop in registry.sheet_schema(game)["properties"].items():
            texts = (("rule-sheet label", prop["x-label"]), ("rule-sheet help", prop["description"]))
            for context, text in texts:
                if not table.get(i18n.message_key(text, context)):
                    missing.append(f"{game.name}.{name} ({context}): {text!r}")
    assert not missing, f"{lang}: form texts without a translation: {missing}"


EVENT = re.compile(r"(?:Event|_event)\(\s*\"([a-z_]+)\"")
DESCRIBED = re.compile(r"case \"([a-z_]+)\"")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_log_event_reads_in_the_language(lang: str) -> None:
    """An event the table module does not describe falls back to its catalogue text ("event: <type>"),
    so the log never shows an English word in et or fi."""
    table = i18n.messages(lang)
    missing = []
    for name, game in registry.GAMES.items():
        emitted = set()
        for path in source_folder(game).glob("*.py"):
            emitted |= set(EVENT.findall(path.read_text(encoding="utf-8")))
        assets = game.assets()
        module = game.table_module()
        script = assets / module.split("/", 2)[2] if assets is not None else ROOT / "static" / module
        described = set(DESCRIBED.findall(script.read_text(encoding="utf-8"))) if script.exists() else set()
        unread = sorted(kind for kind in emitted - described if not table.get(f"event: {kind}"))
        missing += [f"{name}: {kind}" for kind in unread]
    assert not missing, f"{lang}: log events without a text: {missing}"


# The polite or plural "you" and its verb forms; words that only look like them are listed apart.
FORMAL = {
    "et": re.compile(
        r"\b(?:[Tt]eie|[Tt]eil|[Tt]eid|[Tt]eile|saate|olete|võite|peate|teete|\w{3,}(?:ge|ke))\b"
    ),
    "fi": re.compile(r"\b(?:[Tt]e|[Tt]eidän|[Tt]eillä|[Tt]eitä|[Tt]eille|olette|voitte|\w{3,}(?:kaa|kää))\b"),
}
NOT_FORMAL = {"mänge", "kõige", "väike", "kõrge", "hylkää", "paikkaa", "pakkaa", "lühike", "pakke", "hetke",
              "käike", "liige", "sulge", "liikaa", "jatkaa"}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_one_informal_register(lang: str) -> None:
    """Friends at a table: "sina" in Estonian, "sinä" in Finnish, never the polite or plural form."""
    found = []
    for message in i18n.catalog(lang):
        if not message.id:
            continue
        texts = [message.string] if isinstance(message.string, str) else list(message.string or ())
        for text in texts:
            words = {word for word in FORMAL[lang].findall(text or "") if word.lower() not in NOT_FORMAL}
            if words:
                found.append(f"{message.id!r}: {sorted(words)}")
    assert not found, f"{lang}: formal forms: {found}"
