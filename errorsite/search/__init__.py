"""Step 4, index: records → the search data the browser reads.

The lunr index over what users search by, split by term so that a query
fetches only its own words' postings (chunks.py; the browser side is
static/search-data.js), the result cards in small files, and the names each
repository is known by in real output, so that a paste's context can name
its repository (carried in the term files, by the names' sorted order). All
are read from records' summaries. `build_index` and `result_doc` make the whole index and card list
in one piece: the reference the split files are tested against.
"""
from __future__ import annotations

from ..model import Summary
from .chunks import META_PATH, SearchFiles, search_files, search_rules
from .index import FIELDS, build_index, result_doc, search_fields
from .names import repo_names

__all__ = ["FIELDS", "META_PATH", "SearchFiles", "build_index", "result_doc", "search_fields",
           "repo_names", "search_pages", "search_rules"]


def search_pages(records: list[Summary]) -> SearchFiles:
    return search_files(records)
