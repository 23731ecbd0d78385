"""JSON in and out of the server: orjson, with the standard library as the fallback for what orjson
refuses (integers beyond 64 bits), so the output is the same compact UTF-8 text either way."""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS  # like json.dumps: integer keys become strings


def dumps(value: Any) -> str:
    """Compact JSON text (no spaces, non-ASCII kept as it is)."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(text: str | bytes) -> Any:
    """Parse JSON; raises ``ValueError`` on bad input (NaN and Infinity included: they are not JSON).

    What orjson refuses goes to the standard library, which accepts a little more (a lone surrogate
    escape such as ``"\\ud800"``): the result is the standard library's on every input, only faster,
    so what counts as bad JSON (``bad_json``) and what as a bad message does not change.
    """
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text, parse_constant=_no_constants)
