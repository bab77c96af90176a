"""Step 4, index: records → the search data the browser reads.

The lunr index over what users search by, split by term so that a query
fetches only its own words' postings (chunks.py; the browser side is
static/search-data.js), the result cards in small files, and
`-/search/names.json`, the names each repository is known by in real output,
so that a paste's context can name its repository. All are read from records'
summaries. `build_index` and `result_doc` make the whole index and card list
in one piece: the reference the split files are tested against.
"""
from __future__ import annotations

from .. import urls
from ..model import Page, Summary, inert_json
from .chunks import META_PATH, SearchFiles, search_files, search_rules
from .index import FIELDS, build_index, result_doc, search_fields
from .names import repo_names

NAMES_PATH = urls.SEARCH_PATH + "names.json"

__all__ = ["FIELDS", "META_PATH", "NAMES_PATH", "SearchFiles", "build_index", "result_doc", "search_fields",
           "repo_names", "search_pages", "search_rules"]


def search_pages(records: list[Summary]) -> SearchFiles:
    files = search_files(records)
    return SearchFiles([*files.pages, Page(NAMES_PATH, inert_json(repo_names(records)))], files.warnings)
