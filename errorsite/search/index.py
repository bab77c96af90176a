"""The lunr index over what users search by, and the short entry per record
that result cards and the pattern matcher read. Both are keyed by the record's
position, a small integer, which keeps the index compact.
"""
from __future__ import annotations

from lunr import __TARGET_JS_VERSION__ as LUNR_JS_VERSION
from lunr.builder import Builder
from lunr.stemmer import PorterStemmer

from .. import urls
from ..model import Summary
from .facets import facets
from ..tokens import class_terms, code_terms, pattern_words, tokenize


class _LunrJsPorter(PorterStemmer):
    """lunr.py's Porter stemmer with lunr.js's rule for a final y, so that index
    terms and the browser's query terms meet: lunr.py stems `key` to `kei` and
    `npy` to `npy`, lunr.js to `key` and `npi`. lunr.js turns a final y into i
    after a consonant that follows at least one letter; a test compares both."""

    def step1c(self):
        if self.ends("y") and self.k - self.k0 >= 2 and self.b[self.k - 1] not in "aeiou":
            self.b = self.b[: self.k] + "i" + self.b[self.k + 1:]


_PORTER = _LunrJsPorter()


def stemmer(token, i=None, tokens=None):
    """The pipeline step; serialized as lunr's "stemmer", which lunr.js runs on queries."""
    return token.update(_PORTER.stem)


stemmer.label = "stemmer"


def stem(word: str) -> str:
    return _PORTER.stem(word)


# Field boosts: the message decides, then what names the error, then context.
FIELDS = (
    ("message", 10),
    ("pattern", 6),
    ("code", 4),
    ("cls", 4),
    ("tags", 2),
    ("repo", 2),
    ("file", 1),
    ("summary", 1),
)


def search_fields(record: Summary) -> dict[str, list[str]]:
    """The tokens of each indexed field; the same tokenizer runs on queries."""
    pattern = record.shown_pattern
    return {
        "message": tokenize(record.message),
        "pattern": tokenize(pattern_words(pattern)) if pattern else [],
        "code": code_terms(record.error_code or ""),
        "cls": class_terms(record.error_class or ""),
        "tags": tokenize(" ".join(record.tags)),
        "repo": tokenize(record.repo),
        "file": tokenize(record.file_path or ""),
        "summary": tokenize(record.card),
    }


def build_index(records: list[Summary]) -> dict:
    if not records:  # lunr.py cannot average field lengths over no documents
        return {"version": LUNR_JS_VERSION, "fields": [name for name, _ in FIELDS],
                "fieldVectors": [], "invertedIndex": [], "pipeline": ["stemmer"]}
    builder = Builder()
    # Our tokenizer already lowercased, split and dropped stop words; lunr only
    # stems, on both sides, so index terms and query terms meet.
    builder.pipeline.add(stemmer)
    builder.search_pipeline.add(stemmer)
    builder.ref("ref")
    for name, boost in FIELDS:
        builder.field(name, boost=boost)
    for ref, record in enumerate(records):
        builder.add({"ref": str(ref), **search_fields(record)})
    return builder.build().serialize()


def result_doc(record: Summary) -> list:
    """[message, repo, path, type, summary, pattern, severity, language, fix]:
    what a result card shows, what the pattern matcher and the filters need
    (facets.py), nothing more. The fix (the first solution in a line) is left
    off when there is none."""
    doc = [record.message, record.repo, urls.record_path(record), record.error_type,
           record.card, record.shown_pattern or "", *facets(record)]
    return doc + [record.fix] if record.fix else doc
