"""End to end: the shared records built under /errors/, served on 127.0.0.1,
driven in Chromium the way people use the site."""
from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

import pytest

pytestmark = pytest.mark.browser

GROUPNORM = "Error: input rank for GroupNorm should be at least 3"
GROUPNORM_PATH = "huggingface/candle/input-rank-for-groupnorm-should-be-at-least-3/"


def open_page(page, url):
    response = page.page.goto(url)
    assert response.ok, f"{url}: HTTP {response.status}"
    page.page.wait_for_load_state("networkidle")


def search(page, query):
    """Type a query into the search box and wait for the results to settle."""
    box = page.page.locator("#search-input")
    box.fill("")
    box.fill(query)
    page.page.wait_for_function(
        "q => decodeURIComponent(location.hash.slice(3)) === (window.ErrorSearchRedact ? ErrorSearchRedact.redact(q).text : q) && "
        "document.getElementById('search-status').textContent.trim() !== '' && "
        "!document.getElementById('search-status').textContent.startsWith('Type or paste')", arg=query)
    page.page.wait_for_timeout(50)


@pytest.mark.parametrize("path", ["", GROUPNORM_PATH, "-/tags/rust/", "-/repos/", "-/types/validation/",
                                  "-/severities/error/", "-/search/?q=dtype", "nlohmann/json/"])
def test_pages_load_without_errors(shared_site, page, path):
    open_page(page, shared_site.base_url + path)
    assert page.page.locator("h1").count() == 1
    assert page.errors == []


def test_pasted_error_finds_the_record_and_opens_it(shared_site, page):
    open_page(page, shared_site.base_url + "-/search/")
    search(page, GROUPNORM)
    first = page.page.locator("#search-results > li").first.locator("a").first
    assert urlsplit(first.get_attribute("href")).path == "/errors/" + GROUPNORM_PATH
    assert "GroupNorm" in first.inner_text()
    first.click()
    page.page.wait_for_load_state("networkidle")
    assert page.page.locator("h1").inner_text() == "input rank for GroupNorm should be at least 3"
    assert page.page.locator("article mark").count() > 0  # the searched words are highlighted
    assert page.errors == []


def test_query_is_shareable_and_enter_opens_top_hit(shared_site, page):
    open_page(page, shared_site.base_url + "-/search/?q=" + "kv_cache_enabled%3Dtrue")
    page.page.wait_for_selector("#search-results > li")
    assert page.page.input_value("#search-input") == "kv_cache_enabled=true"
    page.page.locator("#search-input").press("Enter")
    # the highlight words travel in ?highlight=, which the record page then drops from the address
    page.page.wait_for_url(re.compile(r".*/kv-cache-enabled-true-is-not-supported/$"))
    page.page.wait_for_selector("article mark")
    assert "kv_cache_enabled=true" in page.page.locator("h1").inner_text()


def test_arrow_keys_move_through_results(shared_site, page):
    open_page(page, shared_site.base_url + "-/search/")
    search(page, "pydantic")
    items = page.page.locator("#search-results > li")
    assert items.count() >= 3
    page.page.locator("#search-input").press("ArrowDown")
    assert "active" in items.nth(1).get_attribute("class")
    second = items.nth(1).locator("a").first.get_attribute("href")
    page.page.locator("#search-input").press("Enter")
    page.page.wait_for_load_state("networkidle")
    assert urlsplit(page.page.url).path == urlsplit(second).path


def test_nonsense_query_says_no_results(shared_site, page):
    open_page(page, shared_site.base_url + "-/search/")
    search(page, "zzqxv wobblefrotz")
    assert page.page.locator("#search-results > li").count() == 0
    assert "No results" in page.page.locator("#search-status").inner_text()
    search(page, "2026-11-28 10:14:03 0xdeadbeef99")
    assert "noise" in page.page.locator("#search-status").inner_text()
    assert page.errors == []


def test_slash_focuses_search_from_any_page(shared_site, page):
    open_page(page, shared_site.base_url + "-/tags/rust/")
    page.page.keyboard.press("/")
    assert page.page.evaluate("document.activeElement.id") == "search-input"
    page.page.keyboard.type("GroupNorm")
    # Enter opens the top result of the panel (test_search_panel_browser); its
    # "All results" link is the search page with the query.
    page.page.wait_for_selector("#search-panel:not([hidden]) a.search-panel-all")
    page.page.locator("#search-panel a.search-panel-all").click()
    page.page.wait_for_url(re.compile(r".*/errors/-/search/#q=GroupNorm"))
    page.page.wait_for_selector("#search-results > li")
    assert [unquote(urlsplit(page.page.url).fragment.removeprefix("q="))] == ["GroupNorm"]


@pytest.mark.parametrize("query", ["Error: dtype mismatch in mul, lhs: F32", "a+b ~c ^d", ":", "+", "-", "~",
                                   "^", "*", '"', "'", "</script>", "field:term", "x" * 5000])
def test_any_text_is_a_valid_query(shared_site, page, query):
    open_page(page, shared_site.base_url + "-/search/")
    search(page, query)
    assert page.errors == []


def test_enter_right_after_typing_opens_the_top_hit(shared_site, page):
    open_page(page, shared_site.base_url + "-/search/")
    box = page.page.locator("#search-input")
    box.fill("TypeError: path must be a string to res.sendFile")
    box.press("Enter")  # before the as-you-type search has had time to run
    page.page.wait_for_url(re.compile(r".*/expressjs/express/path-must-be-a-string-to-res-sendfile/.*"))
    assert page.errors == []
