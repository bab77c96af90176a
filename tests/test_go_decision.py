"""/-/go/#q=…'s decision under Node, in the fast loop (tests/js/go_page.js:
static/search-ui.js on a fake page, its engine a stub that judges every
paste as told): only an exact match opens the record page; a likely match,
no match, or an exact verdict without a result sends the reader to the
search page with the text, and an engine that fails to load sends them
nowhere, saying so. tests/test_go_browser.py checks the same on real
records in Chromium."""
from __future__ import annotations

import json
import subprocess

import pytest

from tests.search_node import NODE, ROOT, need_node

HARNESS = ROOT / "tests" / "js" / "go_page.js"
HANG_GUARD = 30  # seconds; a run takes well under one
GO = "https://example.org/errors/-/go/#q=ERR%20max%20number%20of%20clients%20reached"
SEARCH = "https://example.org/errors/-/search/#q=ERR%20max%20number%20of%20clients%20reached"
RECORD = "https://example.org/errors/acme/tool/record-0/"


def go(match: str, results: int = 3, href: str = GO, fails: bool = False) -> dict:
    need_node()
    done = subprocess.run([NODE, str(HARNESS), str(ROOT / "static" / "search-ui.js"),
                           json.dumps({"href": href, "match": match, "results": results, "fails": fails})],
                          capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_an_exact_match_opens_its_record():
    assert go("exact") == {"replaced": [RECORD], "status": ""}


@pytest.mark.parametrize("match, results", [("likely", 3), ("none", 3), ("none", 0), ("exact", 0)],
                         ids=["likely", "none-with-related", "none", "exact-without-a-result"])
def test_anything_else_opens_the_search_page_with_the_text(match, results):
    """A likely match is only probably the reader's error: a tool's link must
    not send them to its record."""
    assert go(match, results) == {"replaced": [SEARCH], "status": ""}


def test_an_empty_link_opens_the_search_page():
    assert go("exact", href="https://example.org/errors/-/go/") == \
        {"replaced": ["https://example.org/errors/-/search/"], "status": ""}


def test_an_engine_that_fails_to_load_sends_no_one_anywhere_and_says_so():
    made = go("exact", fails=True)
    assert made["replaced"] is None
    assert made["status"] == ("Search is unavailable: the search data could not be loaded (meta.json: HTTP 404). "
                              "Try the search page")
