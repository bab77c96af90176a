"""What a page says of a record in a line: its title and its description, the
text a tab, a search result and a chat unfurl show."""
from __future__ import annotations

import re

from ..markup import plain_text, shorten
from ..model import Record, Summary
from ..text import isolate


def record_description(r: Record | Summary) -> str:
    """The meta description and the unfurl card's text: what the title (the
    message and repository) does not say — what the error means and the first
    fix. Made once per record (summarize) and carried by its Summary, so the
    permalink and every redirect page show the same."""
    if isinstance(r, Summary):
        return r.unfurl
    return unfurl_description(r)


TITLE_LIMIT = 90        # characters of a page title: what a tab, a result or a card shows
UNFURL_LIMIT = 200      # characters of a description: what a chat unfurl or a search result shows whole
FIX_ROOM = 40           # the least room worth giving the first solution in a description
# A full stop after these ends no sentence ("…or unknown, e.g. ZADD with …").
ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "no", "fig", "ca", "al"})
_SENTENCE_END = re.compile(r"(?<!\.)[.!?](?!\.)[\"')\]]*\s+(?=\S)")  # an ellipsis "..." ends none


def first_sentence(text: str) -> str:
    """The first sentence of plain text (all of it if it is one)."""
    for end in _SENTENCE_END.finditer(text):
        word = text[: end.start()].rsplit(None, 1)[-1].lower().lstrip("(\"'")
        if text[end.start()] == "." and word in ABBREVIATIONS:
            continue
        return text[: end.end()].rstrip()
    return text


def as_sentence(text: str) -> str:
    return text if not text or text[-1] in ".!?…" else text + "."


def unfurl_description(r: Record) -> str:
    """"<first sentence of the documentation> Fix: <first solution>", cut at a
    sentence or word with an ellipsis to at most UNFURL_LIMIT characters."""
    meaning = as_sentence(first_sentence(plain_text(r.documentation or r.trigger_scenarios or "")))
    fix = as_sentence(first_sentence(plain_text(r.solutions[0]))) if r.solutions else ""
    if not meaning and not fix:
        return f"{r.repo} · {r.error_type} · {r.severity}"
    if not meaning:
        return shorten(f"Fix: {fix}", UNFURL_LIMIT)
    if len(meaning) > UNFURL_LIMIT - FIX_ROOM or not fix:
        return shorten(meaning, UNFURL_LIMIT)
    return f"{meaning} {shorten(f'Fix: {fix}', UNFURL_LIMIT - len(meaning) - 1)}"


FIX_LIMIT = 100         # characters of the first solution on a result card or a list row


def first_fix(r: Record) -> str:
    """The record's first solution as one line of plain text, its first
    sentence, at most FIX_LIMIT characters ("" without a solution)."""
    if not r.solutions:
        return ""
    return shorten(first_sentence(plain_text(r.solutions[0])), FIX_LIMIT)


def page_title(r: Record | Summary) -> str:
    """"message — repo", at most TITLE_LIMIT characters: the message is cut
    (the page shows it whole), and a very long repository name after it."""
    tail = f" — {r.repo}"
    room = TITLE_LIMIT - len(tail)
    if room < 40:
        return shorten(f"{isolate(shorten(r.message, 40))}{tail}", TITLE_LIMIT)
    return f"{isolate(shorten(r.message, room))}{tail}"
