"""How a report quotes a value from a user's file: short, and on one line."""
from __future__ import annotations

import json

from ..load import printable


def describe(value: object) -> str:
    """A JSON value as a user would recognise it in their file, kept short."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        return short(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    return json.dumps(value)


def number(value: int) -> str:
    """An integer as written, or its length when that is long."""
    digits = len(str(abs(value)))
    return str(value) if digits <= 20 else f"a {digits}-digit number"


def short(text: str, limit: int = 60) -> str:
    """A string quoted as JSON, cut to `limit` characters."""
    quoted = printable(json.dumps(text, ensure_ascii=False))
    return quoted if len(quoted) <= limit else quoted[: limit - 2] + '…"'
