"""Step 2, validate: raw JSON → typed Record, or every Problem found in it.

Every check that protects the output (path segments, link schemes, sizes) lives
here, so later steps can trust a Record completely. Only what a page cannot
exist without rejects a record: the id, repo, message and GitHub link,
the required type and severity, and any value of the wrong JSON type. A bad
optional value (a tag without letters, a malformed date or sha, an
out-of-range line) is dropped with a `dropped:` problem, and the record built;
so is a slug that is not one, replaced by one made from it (formats.derived_slug).

Every size and count has a ceiling (limits.py), so that no record makes a page
a browser cannot open, and the problems reported for one record are capped
(issues.py). What the page then shows as plain text rather than as HTML
(code a lexer takes too long over, Markdown whose HTML would grow out of
proportion) is not decided here but on the valid Record, by pages/plain_text.py: markup
is a layer above this one.

The parts: record.py checks one file (fields.py its fields, formats.py the
shapes of identifiers, links and dates); duplicates.py drops what repeats an
id or a URL.
"""
from __future__ import annotations

from typing import Callable, Iterable

from ..load import RawRecord
from ..model import Problem, Record
from .duplicates import Seen, drop_duplicates, flag_duplicates
from .formats import ID_RE, NAME_RE, OWNER_RE, REF_RE, normalized_slug
from .limits import (MAX_ITEM, MAX_ITEMS, MAX_LABEL, MAX_LINE, MAX_MESSAGE, MAX_PROBLEMS, MAX_SOURCE_LINES, MAX_TAG,
                     MAX_TAGS, SCHEMA_VERSION, TEXT_LIMITS, text_limit)
from .record import Checked, check, validate

__all__ = ["Checked", "ID_RE", "MAX_ITEM", "MAX_ITEMS", "MAX_LABEL", "MAX_LINE", "MAX_MESSAGE", "MAX_PROBLEMS",
           "MAX_SOURCE_LINES", "MAX_TAG", "MAX_TAGS", "NAME_RE", "OWNER_RE", "REF_RE", "SCHEMA_VERSION", "Seen",
           "TEXT_LIMITS", "check", "drop_duplicates", "flag_duplicates", "normalized_slug", "text_limit", "validate", "validate_all"]


def validate_all(raws: list[RawRecord], checks: Callable[[list[RawRecord]], Iterable[Checked]] | None = None
                 ) -> tuple[list[Record], list[Problem]]:
    """Validate each file, then drop later duplicates of an id or a URL.
    `checks` gives the Checked of each readable file, in order (tools/check.py
    spreads them over processes); by default they are checked here."""
    readable = [raw for raw in raws if not raw.problem]
    checked_files = iter(checks(readable) if checks else (check(raw.path, raw.data) for raw in readable))
    records, problems = [], []
    for raw in raws:
        if raw.problem:
            problems.append(raw.problem)
            continue
        checked = next(checked_files)
        problems.extend(checked.problems)
        if checked.record:
            records.append(checked.record)
    unique, duplicates = drop_duplicates(records)
    return unique, problems + duplicates
