"""The site says when it has no match (issue 39), and which match it has
(issue 61): the results list carries the engine's judgement as `data-match`
(exact, likely, none), on the search page and in the header's panel; on a
match the verdict stands over the first result, the answer ("This is your
error", or "Probably this error — the wording differs"), the rest under
"Other results"; with none, the results say "No record for this error yet",
list the nearest under a heading that calls them related, and Enter does not
open them."""
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
# pydantic's message as it raises it, where two other pydantic records rank close behind.
EXACT = ("Traceback (most recent call last):\n  File \"/home/me/app/models.py\", line 8, in <module>\n"
         "pydantic.errors.PydanticUserError: `const` is removed, use `Literal` instead")
EXACT_PATH = "/errors/pydantic/pydantic/const-is-removed-use-literal-instead/"
# An older wording of redis' message (`client` for `clients`), through redis-py.
LIKELY = ("Traceback (most recent call last):\n"
          "  File \"/usr/lib/python3/site-packages/redis/connection.py\", line 12, in connect\n"
          "redis.exceptions.ConnectionError: ERR max number of client reached")
LIKELY_PATH = "/errors/redis/redis/err-max-number-of-clients-reached/"
VERDICTS = {"exact": "This is your error", "likely": "Probably this error — the wording differs"}


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


def box_of(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


@pytest.mark.parametrize("paste, match, path", [(EXACT, "exact", EXACT_PATH), (LIKELY, "likely", LIKELY_PATH)])
def test_the_search_page_says_its_verdict_over_the_answer_and_the_others_after(shared_site, page, paste, match, path):
    box, judged = typed(page.page, shared_site.base_url + "-/search/", paste, "#search-results")
    assert judged == match, "the paste is no longer judged " + match + ": choose another"
    verdict = page.page.locator("#search-verdict")
    assert verdict.is_visible() and verdict.inner_text() == VERDICTS[match]
    assert page.page.locator("#search-related").is_hidden()
    items = page.page.locator("#search-results > li")
    first, second = items.nth(0), items.nth(1)
    assert first.locator("a.result-title").get_attribute("href").split("?")[0] == path
    assert first.get_attribute("class").split() == ["active", "answer"]
    label = second.locator(".results-label")
    assert label.inner_text() == "Other results" and label.evaluate("e => e.tagName") == "H2"
    assert items.locator(".results-label").count() == 1
    # Shown in that order: the verdict, the answer, the label, the others.
    heading, answer, others, after = (box_of(page.page, s) for s in (
        "#search-verdict", "#search-results > li.answer", "#search-results .results-label", "#search-results > li.others"))
    assert heading["y"] + heading["height"] <= answer["y"]
    assert answer["y"] + answer["height"] <= others["y"] and others["y"] + others["height"] <= after["y"]
    # A screen reader hears the verdict where the count is announced.
    assert page.page.locator("#search-status").inner_text().startswith(VERDICTS[match] + ".")
    box.press("Enter")  # a match, likely too: Enter opens it
    page.page.wait_for_url(re.compile(re.escape(path) + "$"))
    assert page.errors == []


def test_no_match_has_no_verdict_and_no_answer(shared_site, page):
    box, match = typed(page.page, shared_site.base_url + "-/search/", UNKNOWN, "#search-results")
    assert match == "none"
    assert page.page.locator("#search-verdict").is_hidden()
    assert page.page.locator("#search-results > li.answer, #search-results .results-label").count() == 0
    assert page.errors == []


@pytest.mark.parametrize("paste, match", [(EXACT, "exact"), (LIKELY, "likely")])
def test_the_header_panel_says_the_verdict_too(shared_site, page, paste, match):
    box, judged = typed(page.page, shared_site.base_url + "-/repos/", paste, "#search-panel-results")
    assert judged == match
    verdict = page.page.locator("#search-panel .search-panel-verdict")
    assert verdict.is_visible() and verdict.inner_text() == VERDICTS[match]
    items = page.page.locator("#search-panel-results > li")
    assert "answer" in items.nth(0).get_attribute("class")
    assert items.nth(1).locator(".results-label").inner_text() == "Other results"
    assert page.page.locator("#search-panel-status").inner_text().startswith(VERDICTS[match] + ".")
    box, judged = typed(page.page, shared_site.base_url + "-/repos/", UNKNOWN, "#search-panel-results")
    assert judged == "none" and verdict.is_hidden()
    assert page.page.locator("#search-panel-results .results-label").count() == 0
    assert page.errors == []
