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


def loads(text: str | bytes) -> Any:
    """Parse JSON; raises ``ValueError`` on bad input (NaN and Infinity included: they are not JSON)."""
    return orjson.loads(text)
