"""Record text as text, before any HTML: its lines as Pygments reads them,
and its bidi controls, which may not reorder the page around it (record text
may hold U+202E and friends). Validate and the page alike use these."""
from __future__ import annotations

import re
import unicodedata

_EMBEDDINGS = "\u202a\u202b\u202d\u202e"  # LRE RLE LRO RLO, each closed by PDF
_ISOLATES = "\u2066\u2067\u2068"          # LRI RLI FSI, each closed by PDI
_PDF, _PDI = "\u202c", "\u2069"
_BIDI_CONTROL = re.compile("[\u202a-\u202e\u2066-\u2069]")
_NEEDS_ISOLATION = frozenset({"R", "AL", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})


def balance_bidi(text: str) -> str:
    """Drop the bidi controls that close what the text never opened, and close
    what it leaves open, so that no override or isolate reaches past the text
    (a stray PDI would otherwise end the <bdi> around it)."""
    if not _BIDI_CONTROL.search(text):
        return text
    kept, open_ = [], []
    for c in text:
        if c in _EMBEDDINGS or c in _ISOLATES:
            open_.append(c)
        elif c == _PDF:
            if not open_ or open_[-1] not in _EMBEDDINGS:
                continue
            open_.pop()
        elif c == _PDI:
            if not any(o in _ISOLATES for o in open_):
                continue
            while open_.pop() not in _ISOLATES:  # a PDI also ends the embeddings inside
                pass
        kept.append(c)
    return "".join(kept) + "".join(_PDI if o in _ISOLATES else _PDF for o in reversed(open_))


def isolate(text: str) -> str:
    """Record text where a <bdi> cannot go (<title>) or would change markup: set
    between FSI and PDI when it holds right-to-left letters or bidi controls,
    so it cannot reorder the text around it. Other text is left as it is."""
    if not text.isascii() and any(unicodedata.bidirectional(c) in _NEEDS_ISOLATION for c in text):
        return f"\u2068{balance_bidi(text)}\u2069"  # (no ASCII character is right-to-left or a control)
    return text


def line_ends(code: str) -> str:
    return code.replace("\r\n", "\n").replace("\r", "\n")  # as Pygments reads it


def line_count(code: str) -> int:
    return len(line_ends(code).removesuffix("\n").split("\n"))
