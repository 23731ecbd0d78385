"""Fixed shapes for everything a stranger can send: ids, integers and text.

A value outside these bounds is refused where it enters (an HTTP 4xx or an error frame with a
stable code) and never reaches the database: PostgreSQL refuses a NUL in text and an integer past
32 bits with an error of its own, which would otherwise surface as a server error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# Room ids and seat tokens are ``secrets.token_urlsafe`` output (base64url); sheet ids too.
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,43}")
SHEET_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,128}")
# A client's message id: 1–64 printable ASCII characters (no spaces, no control characters).
MSG_ID_PATTERN = r"^[!-~]{1,64}$"
# The database's integer columns are 32-bit signed.
INT_MAX = 2**31 - 1
# Numbers inside a game action or a rule sheet: exact in a double, as in any browser.
NUMBER_MAX = 2**53


def is_room_id(value: str) -> bool:
    return ROOM_ID.fullmatch(value) is not None


def is_sheet_id(value: str) -> bool:
    return SHEET_ID.fullmatch(value) is not None


def is_token(value: str) -> bool:
    return TOKEN.fullmatch(value) is not None


def _bad_text(value: str) -> bool:
    # NUL is refused by PostgreSQL's text and JSON types; lone surrogates cannot be UTF-8 encoded.
    return "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value)


def json_problem(value: Any, depth: int = 0) -> str | None:
    """Why a JSON-like value (a game action, a sheet's options) may not be stored, or ``None``."""
    if depth > 32:
        return "nested too deeply"
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return None if -NUMBER_MAX <= value <= NUMBER_MAX else f"the number {str(value)[:20]} is out of range"
    if isinstance(value, float):
        return None if abs(value) <= NUMBER_MAX else "a number is out of range"
    if isinstance(value, str):
        return "a text holds a NUL byte or an unpaired surrogate" if _bad_text(value) else None
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str) or _bad_text(key):
                return "a key holds a NUL byte or an unpaired surrogate"
            problem = json_problem(item, depth + 1)
            if problem is not None:
                return problem
        return None
    if isinstance(value, (list, tuple)):
        for item in value:
            problem = json_problem(item, depth + 1)
            if problem is not None:
                return problem
        return None
    return "not a JSON value"
