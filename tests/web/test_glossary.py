"""The key terms of docs/glossary/key-terms.md are used the same way in every catalogue entry, and
no Estonian or Finnish translation keeps an English word outside proper names and the poker words
the glossary borrows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Message

from app.web import i18n

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "glossary" / "key-terms.md"
LANG_COLUMN = {"et": 2, "fi": 3}


def key_terms() -> list[tuple[str, re.Pattern[str], dict[str, re.Pattern[str]], list[str]]]:
    terms = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ") or line.startswith("| concept"):
            continue
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
        code = [re.findall(r"`([^`]*)`", cell) for cell in cells]
        english = re.compile(code[1][0].replace("\\|", "|"), re.IGNORECASE)
        words = {lang: re.compile(code[column][0].replace("\\|", "|"), re.IGNORECASE)
                 for lang, column in LANG_COLUMN.items()}
        terms.append((cells[0], english, words, code[4]))
    return terms


def texts(message: Message) -> list[str]:
    string = message.string
    return [string] if isinstance(string, str) else [str(s) for s in string or ()]


def english(message: Message) -> str:
    ident = message.id
    text = " ".join(ident) if isinstance(ident, tuple) else str(ident)
    return text


def test_the_table_names_the_nine_concepts() -> None:
    names = [name.split(" (")[0] for name, *_ in key_terms()]
    assert names == ["bid", "pass", "pile", "burn", "talon", "marriage", "nine lottery", "replay",
                     "contribution"]


@pytest.mark.parametrize("lang", ["et", "fi"])
def test_each_key_term_has_one_word(lang: str) -> None:
    wrong_word = []
    for name, pattern, words, wrongs in key_terms():
        for message in i18n.catalog(lang):
            if not message.id or message.context == "key" \
                    or not pattern.search(english(message).split(": ", 1)[-1]):
                continue
            for text in texts(message):
                if not words[lang].search(text):
                    wrong_word.append(f"{name}: {english(message)!r} -> {text!r}")
                for wrong in wrongs:
                    if wrong.lower() in text.lower():
                        wrong_word.append(f"{name}: {english(message)!r} -> {text!r} says {wrong!r}")
    assert not wrong_word, f"{lang}: " + "\n".join(wrong_word)


# Words an Estonian or Finnish text may share with English: names of games and presets, the
# poker words the glossary borrows, and words of the language that happen to be English too.
SHARED = {
    "ante", "blind", "check", "china", "hand", "eesti", "hiina", "palace", "tuhat", "turakas", "turbo",
    "json", "limit", "straddle", "preflop", "flop", "turn", "river", "trump", "showdown", "must", "need",
    "said", "just", "number", "server", "kinni", "pott", "mast", "rida", "hai", "pari", "poti", "risti",
    "ruutu", "muck", "fixed",
}
# A protocol field or value quoted in a refusal ('cards', 'true') and placeholders are not words.
NOT_WORDS = re.compile(r"\{\w+\}|'[^']*'")


def english_words() -> set[str]:
    words: set[str] = set()
    for message in i18n.catalog("en"):
        if not message.id:
            continue
        text = english(message)
        text = text.split(": ", 1)[1] if re.match(r"^[a-z ]+: ", text) else text
        words |= {w.lower() for w in re.findall(r"[A-Za-z]{4,}", NOT_WORDS.sub("", text))}
    return words


@pytest.mark.parametrize("lang", ["et", "fi"])
def test_no_english_is_left_in_the_translations(lang: str) -> None:
    vocabulary = english_words() - SHARED
    left = []
    for message in i18n.catalog(lang):
        if not message.id:
            continue
        for text in texts(message):
            found = sorted({w for w in re.findall(r"[A-Za-z]{4,}", NOT_WORDS.sub("", text))
                            if w.lower() in vocabulary})
            if found:
                left.append(f"{english(message)!r} -> {text!r}: {found}")
    assert not left, f"{lang}: English words left: " + "\n".join(left)


GAMES_MOVES = {
    "palace": {"play", "lay_face_up", "cut_in", "add", "lay_four", "ready", "play_drawn", "draw", "pick_up",
               "burn", "keep", "pass", "swap"},
    "holdem": {"fold", "check_call", "raise", "all_in"},
    "thousand": {"bid", "pass", "take_talon"},
}
# One key each on an Estonian or Finnish keyboard, without AltGr; digits choose cards.
ONE_KEY = re.compile(r"^[a-zõäöüå+]$")


@pytest.mark.parametrize("lang", ["et", "fi"])
def test_each_table_has_its_own_keys_in_the_language(lang: str) -> None:
    table = i18n.messages(lang)
    for game, moves in GAMES_MOVES.items():
        keys = {move: table.get(i18n.message_key(f"{game}: {move}", "key")) for move in moves}
        assert all(key is not None and ONE_KEY.match(key) for key in keys.values()), (game, keys)
        assert len(set(keys.values())) == len(keys), f"{lang} {game}: two moves share a key: {keys}"
