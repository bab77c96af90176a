"""Step 4, index: records → the search payload the browser loads.

Two files: `-/search/index.json`, a lunr index built by lunr.py over what users
search by, and `-/search/docs.json`, one short entry per record for result cards
and for the pattern matcher. Both are keyed by the record's position, a small
integer, which keeps the index compact.
"""
from __future__ import annotations


from lunr import __TARGET_JS_VERSION__ as LUNR_JS_VERSION
from lunr.builder import Builder
from lunr.stemmer import stemmer

from . import urls
from .model import Page, Summary, inert_json
from .tokens import pattern_words, tokenize

INDEX_PATH = urls.SEARCH_PATH + "index.json"
DOCS_PATH = urls.SEARCH_PATH + "docs.json"

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
        "code": tokenize(record.error_code or ""),
        "cls": tokenize(record.error_class or ""),
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
    """[message, repo, path, type, summary, pattern]: what a result card shows
    and what the pattern matcher needs, nothing more."""
    return [record.message, record.repo, urls.record_path(record), record.error_type,
            record.card, record.shown_pattern or ""]


def search_pages(records: list[Summary]) -> list[Page]:
    return [
        Page(INDEX_PATH, to_json(build_index(records))),
        Page(DOCS_PATH, to_json([result_doc(record) for record in records])),
    ]


def to_json(value: object) -> bytes:
    return inert_json(value)
