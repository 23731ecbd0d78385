"""Languages for the pages and the scripts, from the Babel message catalogues under ``locale/``.

The ``.po`` files are the committed sources; they are compiled in memory with Babel's API when
first needed, so there is no build step. One catalogue serves both the Jinja2 pages (``_()``)
and the ES modules (embedded in the page as JSON, also served at ``/i18n/{lang}.json``).
Message ids are the English texts, so English needs no translations and a missing entry falls
back to English.
"""

from __future__ import annotations

from functools import cache
from io import BytesIO
from pathlib import Path

from babel.core import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
LANGUAGES: tuple[str, ...] = ("et", "fi", "en")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"et": "Eesti", "fi": "Suomi", "en": "English"}
COOKIE = "lang"


def _po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"


@cache
def catalog(lang: str) -> Catalog:
    """The parsed catalogue of ``lang`` (an empty one for a language without a file)."""
    path = _po_path(lang)
    if not path.exists():
        return Catalog(locale=lang)
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


@cache
def translations(lang: str) -> Translations:
    """A gettext ``Translations`` object compiled in memory from the ``.po`` source."""
    buffer = BytesIO()
    write_mo(buffer, catalog(lang))
    buffer.seek(0)
    return Translations(fp=buffer)


# Between a message context and its id in the scripts' table, as gettext joins them in a .mo file.
CONTEXT_SEPARATOR = "\x04"


def message_key(msgid: str, context: str | None = None) -> str:
    """The key of a message in ``messages()``: its id, after its context and ``CONTEXT_SEPARATOR``."""
    return f"{context}{CONTEXT_SEPARATOR}{msgid}" if context else msgid


@cache
def messages(lang: str) -> dict[str, str]:
    """Message key -> translation, for the scripts (``message_key``: an entry with a context is keyed
    by context and id); untranslated and fuzzy entries are left out."""
    table: dict[str, str] = {}
    for message in catalog(lang):
        if not message.id or message.fuzzy or not isinstance(message.id, str):
            continue
        if isinstance(message.string, str) and message.string:
            table[message_key(message.id, message.context)] = message.string
    return table


@cache
def plural_forms(lang: str) -> dict[str, list[str]]:
    """Singular id -> the translated forms of a plural entry (``ngettext``), for the scripts.

    English falls back to the ids themselves (singular, plural), so it needs no entries."""
    table: dict[str, list[str]] = {}
    for message in catalog(lang):
        if not isinstance(message.id, tuple) or message.fuzzy:
            continue
        forms = [str(form) for form in (message.string or ())]
        if forms and all(forms):
            table[str(message.id[0])] = forms
    return table


def plural_categories(lang: str) -> list[str]:
    """The CLDR plural categories of ``lang`` in gettext's form order (``one`` first, ``other`` last),
    which is how the scripts pick a form with ``Intl.PluralRules``."""
    order = ("zero", "one", "two", "few", "many", "other")
    try:
        tags = set(Locale.parse(lang).plural_form.tags) | {"other"}
    except (ValueError, UnknownLocaleError):
        tags = {"one", "other"}
    return [tag for tag in order if tag in tags]


def script_catalogue(lang: str) -> dict[str, object]:
    """What the ES modules read: messages, plural entries and the order of plural categories."""
    return {
        "lang": lang,
        "messages": messages(lang),
        "plurals": plural_forms(lang),
        "plural_categories": plural_categories(lang),
    }


def pick_language(cookie: str | None, accept_language: str | None) -> str:
    """The cookie's language if it is one we speak, else the best match of Accept-Language."""
    if cookie in LANGUAGES:
        return cookie
    preferred: list[tuple[float, int, str]] = []
    for position, part in enumerate((accept_language or "").split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip()
        if not tag or tag == "*":
            continue
        quality = 1.0
        for param in fields[1:]:
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        preferred.append((-quality, position, tag.replace("_", "-")))
    for negative_quality, _position, tag in sorted(preferred):
        if negative_quality == 0:  # q=0 means "not acceptable"
            continue
        try:
            language = Locale.parse(tag, sep="-").language
        except (ValueError, UnknownLocaleError):
            language = tag.split("-")[0].lower()
        if language in LANGUAGES:
            return language
    return DEFAULT_LANGUAGE
