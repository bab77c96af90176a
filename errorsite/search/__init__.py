"""Step 4, index: records → the search payload the browser loads.

Three files: `-/search/index.json`, a lunr index built by lunr.py over what
users search by; `-/search/docs.json`, one short entry per record for result
cards and for the pattern matcher; and `-/search/names.json`, the names each
repository is known by in real output, so that a paste's context can name its
repository. All three are read from records' summaries.
"""
from __future__ import annotations

from .. import urls
from ..model import Page, Summary, inert_json
from .index import FIELDS, build_index, result_doc, search_fields
from .names import repo_names

INDEX_PATH = urls.SEARCH_PATH + "index.json"
DOCS_PATH = urls.SEARCH_PATH + "docs.json"
NAMES_PATH = urls.SEARCH_PATH + "names.json"

__all__ = ["FIELDS", "INDEX_PATH", "DOCS_PATH", "NAMES_PATH", "build_index", "result_doc", "search_fields",
           "repo_names", "search_pages", "to_json"]


def search_pages(records: list[Summary]) -> list[Page]:
    return [
        Page(INDEX_PATH, to_json(build_index(records))),
        Page(DOCS_PATH, to_json([result_doc(record) for record in records])),
        Page(NAMES_PATH, to_json(repo_names(records))),
    ]


def to_json(value: object) -> bytes:
    return inert_json(value)
