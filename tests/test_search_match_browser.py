"""The site says when it has no match (issue 39): the results list carries the
engine's judgement as `data-match` (exact, likely, none), on the search page
and in the header's panel; with none, the results say "No record for this
error yet", list the nearest under a heading that calls them related, and
Enter does not open them."""
from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GROUPNORM = ("Traceback (most recent call last):\n  File \"/home/me/app/main.py\", line 12, in <module>\n"
             "Error: input rank for GroupNorm should be at least 3")
GROUPNORM_PATH = "/errors/huggingface/candle/input-rank-for-groupnorm-should-be-at-least-3/"
# An error no shared record is about, with words some of them share.
UNKNOWN = ("Traceback (most recent call last):\n  File \"/srv/app.py\", line 3, in <module>\n"
           "ModuleNotFoundError: No module named 'yaml'")


def settled(page, selector: str) -> str:
    page.wait_for_selector(f"{selector} > li")
    return page.get_attribute(selector, "data-match")


def typed(page, url: str, text: str, selector: str):
    """Opens `url`, puts `text` in its search box; the box and the judgement of `selector`'s list."""
    assert page.goto(url).ok
    box = page.locator("#search-input")
    box.fill(text)
    return box, settled(page, selector)


def test_a_match_on_the_search_page_says_so_and_enter_opens_it(shared_site, page):
    box, match = typed(page.page, shared_site.base_url + "-/search/", GROUPNORM, "#search-results")
    assert match in ("exact", "likely")
    assert page.page.locator("#search-related").is_hidden()
    box.press("Enter")
    page.page.wait_for_url(re.compile(re.escape(GROUPNORM_PATH) + "$"))
    assert page.errors == []


def test_no_match_on_the_search_page_lists_related_records_and_enter_stays(shared_site, page):
    box, match = typed(page.page, shared_site.base_url + "-/search/", UNKNOWN, "#search-results")
    assert match == "none"
    status = page.page.locator("#search-status").inner_text()
    assert status.startswith("No record for this error yet."), status
    assert page.page.locator("#search-related").is_visible()
    assert page.page.locator("#search-results > li.active").count() == 0
    url = page.page.url
    box.press("Enter")
    page.page.wait_for_timeout(300)
    assert page.page.url == url  # nothing opened
    # A related record opens once chosen.
    box.press("ArrowDown")
    first = page.page.locator("#search-results > li").first
    assert "active" in first.get_attribute("class")
    href = first.locator("a.result-title").get_attribute("href")
    box.press("Enter")
    page.page.wait_for_url(re.compile(re.escape(href.split("?")[0]) + r"(\?.*)?$"))
    assert page.errors == []


def test_the_header_panel_says_the_same(shared_site, page):
    box, match = typed(page.page, shared_site.base_url + "-/repos/", UNKNOWN, "#search-panel-results")
    assert match == "none"
    assert page.page.locator("#search-panel .search-panel-related").is_visible()
    assert "No record for this error yet" in page.page.locator("#search-panel-status").inner_text()
    box.press("Enter")  # no match: the search page takes the query
    page.page.wait_for_url(re.compile(r".*/-/search/#q=.*"))
    assert settled(page.page, "#search-results") == "none"
    box, match = typed(page.page, shared_site.base_url + "-/repos/", GROUPNORM, "#search-panel-results")
    assert match in ("exact", "likely")
    assert page.page.locator("#search-panel .search-panel-related").is_hidden()
    assert page.errors == []
