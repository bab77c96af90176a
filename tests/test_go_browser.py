"""/-/go/#q=<text> (issue 41): a link any tool can build from an error's text.
On an exact match it replaces itself with the record page; otherwise with the
search page holding the text. The text travels in the fragment, which no host
receives: the server's access log never sees it, and the browser's history
keeps no address holding it. Old ?q= links to the search page keep working,
and the search page keeps its query in #q= too."""
from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GROUPNORM = ("Traceback (most recent call last):\n  File \"/home/alice/app/main.py\", line 12, in <module>\n"
             "Error: input rank for GroupNorm should be at least 3")
GROUPNORM_PATH = "/errors/huggingface/candle/input-rank-for-groupnorm-should-be-at-least-3/"
UNKNOWN = "ModuleNotFoundError: No module named 'yaml' (secret-token-123 in /home/alice)"


def served_paths_since(server, count: int) -> list[str]:
    return server.paths[count:]


def test_an_exact_match_lands_on_its_record_page_and_no_host_sees_the_paste(shared_site, page):
    assert page.page.goto(shared_site.base_url + "-/repos/").ok
    before = page.page.evaluate("history.length")
    seen = len(shared_site.paths)
    assert page.page.goto(shared_site.base_url + "-/go/#q=" + quote(GROUPNORM)).ok
    page.page.wait_for_url(re.compile(re.escape(GROUPNORM_PATH) + "$"))
    page.page.wait_for_selector("h1")
    # The record's own address, with no paste in it, and no page in the history before it holding one.
    assert urlsplit(page.page.url).fragment == "" and urlsplit(page.page.url).query == ""
    assert page.page.evaluate("history.length") == before + 1  # the /-/go/ entry was replaced
    page.page.go_back()
    assert urlsplit(page.page.url).path == "/errors/-/repos/"
    requested = served_paths_since(shared_site, seen)
    assert any(path.startswith("/errors/-/go/") for path in requested)
    assert not [path for path in requested if "GroupNorm" in path or "alice" in path], requested
    assert page.errors == []


def test_an_error_without_a_record_lands_on_the_search_page_with_its_text(shared_site, page):
    assert page.page.goto(shared_site.base_url + "-/repos/").ok
    before = page.page.evaluate("history.length")
    seen = len(shared_site.paths)
    assert page.page.goto(shared_site.base_url + "-/go/#q=" + quote(UNKNOWN)).ok
    page.page.wait_for_url(re.compile(r".*/errors/-/search/#q=.*"))
    page.page.wait_for_selector("#search-results > li")
    assert page.page.input_value("#search-input") == UNKNOWN
    assert page.page.get_attribute("#search-results", "data-match") == "none"
    assert page.page.locator("#search-status").inner_text().startswith("No record for this error yet.")
    assert page.page.evaluate("history.length") == before + 1
    requested = served_paths_since(shared_site, seen)
    assert not [path for path in requested if "yaml" in path or "secret" in path or "alice" in path], requested
    assert page.errors == []


def test_the_search_page_keeps_its_query_in_the_fragment_and_reads_old_links(shared_site, page):
    assert page.page.goto(shared_site.base_url + "-/search/?q=kv_cache_enabled%3Dtrue").ok
    page.page.wait_for_selector("#search-results > li")
    url = urlsplit(page.page.url)
    assert url.query == "" and url.fragment == "q=" + quote("kv_cache_enabled=true", safe="")
    assert page.page.goto(shared_site.base_url + "-/repos/").ok
    assert page.page.goto(shared_site.base_url + "-/search/#q=" + quote("input rank for GroupNorm")).ok
    page.page.wait_for_selector("#search-results > li")
    assert page.page.input_value("#search-input") == "input rank for GroupNorm"
    first = page.page.locator("#search-results > li a.result-title").first.get_attribute("href")
    assert urlsplit(first).path == GROUPNORM_PATH
    assert page.errors == []


def test_an_empty_link_opens_the_search_page(shared_site, page):
    assert page.page.goto(shared_site.base_url + "-/go/").ok
    page.page.wait_for_url(re.compile(r".*/errors/-/search/$"))
    assert page.errors == []
