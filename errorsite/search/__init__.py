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

from typing import Generator

from .. import urls
from ..model import Page, Summary
from .chunks import META_PATH, SearchFiles, search_files, search_rules, search_stream
from .index import FIELDS, build_index, result_doc, search_fields
from .names import repo_names

__all__ = ["FIELDS", "META_PATH", "SearchFiles", "build_index", "result_doc", "search_fields",
           "repo_names", "search_order", "search_pages", "search_rules", "streamed_search"]


def search_pages(records: list[Summary]) -> SearchFiles:
    return search_files(search_order(records))


def streamed_search(records: list[Summary]) -> Generator[Page, None, list[str]]:
    """search_pages one file at a time, as the build writes them; returns the warnings."""
    return search_stream(search_order(records))


def search_order(records: list[Summary]) -> list[Summary]:
    """The records by their pattern (or message), then their address: a
    record's card sits in its position's card file (`d/N.json`), and the results
    a query's words did not bring cards for are mostly alike (one message in
    several repositories), so alike records share a card file: a first
    screen fetches fewer card files, and a term's records are runs of
    positions, which compress well. A record's position is its lunr ref."""
    return sorted(records, key=lambda record: ((record.shown_pattern or record.message).casefold(),
                                               urls.record_path(record)))
