"""The ceilings: every size and count a record may have, so that no record
makes a page a browser cannot open (about 1 MB at the very worst, every field
at its limit), and the text checks that enforce them."""
from __future__ import annotations

import re

from .wording import short


SCHEMA_VERSION = 2
MAX_MESSAGE = 2_000         # errorMessage / messagePattern: shown in titles and cards
TEXT_LIMITS = {             # characters, by field; the largest real values are a fifth of these or less
    "errorMessage": MAX_MESSAGE, "messagePattern": MAX_MESSAGE,
    "sourceCode": 8_000, "exampleFix": 3_000, "validationCode": 3_000, "typeGuard": 3_000,
    "tryCatchPattern": 3_000, "documentation": 5_000, "triggerScenarios": 5_000, "commonSituations": 5_000,
    "githubUrl": 2_000, "filePath": 500,
    "id": 2_000, "repo": 2_000, "slug": 2_000,  # held to their own, shorter rules in check_values
}
MAX_LABEL = 300             # characters in any other text field (a type, a class, a date…)
MAX_ITEMS = 20              # items in solutions / preventionTips
MAX_ITEM = 400              # characters in one of them
MAX_TAGS = 50
MAX_TAG = 64
MAX_SOURCE_LINES = 500      # lines of sourceCode, each with its own number and anchor
MAX_LINE = 10_000_000       # lineNumber, sourceCodeStart, sourceCodeEnd
MAX_PROBLEMS = 10           # reported per record (of each kind); the rest are counted in one line


SURROGATE_RE = re.compile("[\ud800-\udfff]")  # half a UTF-16 pair: no character
NOT_UNICODE = "{} is not valid Unicode (an unpaired surrogate)"


def text_limit(key: str) -> int:
    """The most characters a text field, or an item of a list field, may have."""
    if key in ("solutions", "preventionTips"):
        return MAX_ITEM
    if key == "tags":
        return MAX_TAG
    return TEXT_LIMITS.get(key, MAX_LABEL)


def text_fits(key: str, value: str) -> bool:
    return (len(value) <= text_limit(key) or key == "tags") and not SURROGATE_RE.search(value)


def text_problem(key: str, value: str) -> str | None:
    limit = text_limit(key)
    if len(value) > limit and key != "tags":  # a long tag is reported by checked_tags
        return f"is {len(value)} characters long, at most {limit} allowed"
    if SURROGATE_RE.search(value):  # JSON can spell one: "\ud800"
        return NOT_UNICODE.format(short(value))
    return None
