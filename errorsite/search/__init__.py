"""Step 4, index: records → the search payload the browser loads.

Three files: `search/index.json`, a lunr index built by lunr.py over what users
search by; `search/docs.json`, one short entry per record for result cards and
for the pattern matcher; and `search/names.json`, the names each repository is
known by in real output, so that a paste's context can name its repository.
"""
from __future__ import annotations

import json

from ..model import Page, Record
from .index import FIELDS, build_index, card_summary, result_doc, search_fields
from .names import repo_names

INDEX_PATH = "search/index.json"
DOCS_PATH = "search/docs.json"
NAMES_PATH = "search/names.json"

__all__ = ["FIELDS", "INDEX_PATH", "DOCS_PATH", "NAMES_PATH", "build_index", "card_summary", "result_doc",
           "search_fields", "repo_names", "search_pages", "to_json"]


def search_pages(records: list[Record]) -> list[Page]:
    docs = [result_doc(record) for record in records]
    return [
        Page(INDEX_PATH, to_json(build_index(records, [doc[4] for doc in docs]))),
        Page(DOCS_PATH, to_json(docs)),
        Page(NAMES_PATH, to_json(repo_names(records))),
    ]


def to_json(value: object) -> bytes:
    """Compact, sorted, and with `<`, `>` and `&` escaped, so the file is inert
    even if a browser is tricked into reading it as HTML."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").encode()
