"""The search box keeps a paste whole: a real paste of a multi-line traceback
(clipboard and Control+V in Chromium) reaches the search with its line breaks,
`#q=` links carry them (old `?q=` ones still work), Enter searches and Shift+Enter starts a new line."""
from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

import pytest

from tests.conftest import WatchedPage

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TRACEBACK = ("thread 'main' panicked at candle-examples/examples/metavoice/main.rs:100:10:\n"
             "called `Result::unwrap()` on an `Err` value: Msg(\"kv_cache_enabled=true is not supported\")\n"
             "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace")
KV_CACHE = "/errors/huggingface/candle/kv-cache-enabled-true-is-not-supported/"


@pytest.fixture
def clipboard_page(browser):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    watched = WatchedPage(context.new_page())
    yield watched
    context.close()


def open_search(page, url):
    assert page.page.goto(url).ok
    page.page.wait_for_load_state("networkidle")
    # The search code loads when a box takes the focus (or on the search page).
    page.page.locator("#search-input").focus()
    page.page.wait_for_function("() => typeof ErrorSearch !== 'undefined'")
    page.page.evaluate("() => document.activeElement.blur()")  # as the page was, before
    # Record every text the page hands to the search engine.
    page.page.evaluate("""() => {
        const search = ErrorSearchData.SplitSearch.prototype.search;
        window.__searched = [];
        ErrorSearchData.SplitSearch.prototype.search = function (text, limit) {
          __searched.push(text);
          return search.call(this, text, limit);
        };
      }""")


def first_hit(page) -> str:
    page.page.wait_for_selector("#search-results > li")
    return urlsplit(page.page.locator("#search-results > li a").first.get_attribute("href")).path


def test_a_pasted_traceback_reaches_the_search_with_its_lines(shared_site, clipboard_page):
    page = clipboard_page
    open_search(page, shared_site.base_url + "-/search/")
    box = page.page.locator("#search-input")
    one_line = box.bounding_box()["height"]
    page.page.evaluate("text => navigator.clipboard.writeText(text)", TRACEBACK)
    box.focus()
    page.page.keyboard.press("Control+V")  # a trusted paste event, as a user's
    page.page.wait_for_function("t => window.__searched.includes(t)", arg=TRACEBACK)
    assert box.input_value() == TRACEBACK
    assert first_hit(page) == KV_CACHE
    # Once the results are shown, the address names their query: %0A in the shareable link.
    assert [unquote(urlsplit(page.page.url).fragment.removeprefix("q="))] == [TRACEBACK]
    assert box.bounding_box()["height"] > 2 * one_line  # the box grew to show the lines
    assert page.errors == []


def test_a_link_with_line_breaks_restores_them(shared_site, page):
    url = shared_site.base_url + "-/search/?q=" + TRACEBACK.replace("\n", "%0A").replace("`", "%60").replace(" ", "+")
    open_search(page, url)
    assert page.page.input_value("#search-input") == TRACEBACK
    assert first_hit(page) == KV_CACHE
    assert page.errors == []


def test_shift_enter_starts_a_line_and_enter_searches(shared_site, page):
    open_search(page, shared_site.base_url + "huggingface/candle/kv-cache-enabled-true-is-not-supported/")
    page.page.keyboard.press("/")
    page.page.keyboard.type("GroupNorm")
    page.page.keyboard.press("Shift+Enter")
    page.page.keyboard.type("input rank")
    assert page.page.input_value("#search-input") == "GroupNorm\ninput rank"
    # The panel under the header's box searched the text with its line break.
    page.page.wait_for_function("t => window.__searched.includes(t)", arg="GroupNorm\ninput rank")
    page.page.keyboard.press("Enter")  # opens the top result
    page.page.wait_for_url(re.compile(r".*/errors/huggingface/candle/input-rank-for-groupnorm-should-be-at-least-3/$"))
    # Without a result to open, the search page takes the query with its line break.
    page.page.locator("#search-input").fill("zzqxv\nwobblefrotz")
    page.page.locator("#search-input").press("Enter")
    page.page.wait_for_url(re.compile(r".*/errors/-/search/#q=.*"))
    assert [unquote(urlsplit(page.page.url).fragment.removeprefix("q="))][0].replace("\r\n", "\n") == "zzqxv\nwobblefrotz"
    assert page.page.input_value("#search-input") == "zzqxv\nwobblefrotz"
    assert page.errors == []


def test_focus_asks_for_meta_json_once_beside_the_scripts(shared_site, page):
    """On a phone each round trip is 150 ms: meta.json is asked for with the
    search code, not after it, and only once."""
    assert page.page.goto(shared_site.base_url + KV_CACHE.removeprefix("/errors/")).ok
    page.page.wait_for_load_state("networkidle")
    page.page.locator("#search-input").focus()
    page.page.fill("#search-input", "kv_cache_enabled")
    page.page.wait_for_selector(".search-panel li a")
    entries = page.page.evaluate("""() => performance.getEntriesByType('resource')
        .map(e => [new URL(e.name).pathname, e.startTime, e.responseEnd])""")
    metas = [e for e in entries if e[0].endswith("/-/search/meta.json")]
    engine = [e for e in entries if e[0].endswith("/-/static/search-engine.js")]
    assert len(metas) == 1 and len(engine) == 1
    assert metas[0][1] < engine[0][2]  # asked for before the engine had arrived
    assert page.errors == []


# Timers of the keystroke wait never fire: what is searched then was searched at once.
HOLD_KEYSTROKE_WAIT = """() => { const set = window.setTimeout;
    window.setTimeout = (f, ms, ...rest) => ms === 60 ? 0 : set(f, ms, ...rest); }"""


@pytest.mark.parametrize("where", ["-/search/", KV_CACHE.removeprefix("/errors/")])
def test_a_paste_is_searched_at_once_and_keystrokes_wait_for_the_next(shared_site, clipboard_page, where):
    """A paste is the whole query: it does not wait the 60 ms a keystroke
    waits for the next one, on the search page or in any page's panel."""
    page = clipboard_page
    open_search(page, shared_site.base_url + where)
    page.page.evaluate(HOLD_KEYSTROKE_WAIT)
    box = page.page.locator("#search-input")
    box.focus()
    page.page.keyboard.type("GroupNorm")
    page.page.evaluate("text => navigator.clipboard.writeText(text)", TRACEBACK)
    page.page.keyboard.press("Control+A")
    page.page.keyboard.press("Control+V")
    page.page.wait_for_function("t => window.__searched.includes(t)", arg=TRACEBACK)
    assert not any(text.startswith("G") for text in page.page.evaluate("window.__searched"))
    assert page.errors == []


@pytest.mark.parametrize("where", ["-/search/", KV_CACHE.removeprefix("/errors/")])
def test_input_events_that_repeat_the_text_share_one_search(shared_site, page, where):
    """Playwright's fill puts a multi-line text in the box as one input event
    a line, each with the whole text already there: one search, not one a
    line (six searches of a paste made its results wait for all six)."""
    open_search(page, shared_site.base_url + where)
    page.page.locator("#search-input").focus()
    page.page.fill("#search-input", TRACEBACK)
    page.page.wait_for_function("t => window.__searched.includes(t)", arg=TRACEBACK)
    page.page.wait_for_selector("#search-results > li, .search-panel li a")
    assert page.page.evaluate("window.__searched") == [TRACEBACK]
    assert page.errors == []


@pytest.mark.parametrize("where", ["-/search/", KV_CACHE.removeprefix("/errors/")])
def test_the_same_paste_after_emptying_the_box_shows_its_results_again(shared_site, clipboard_page, where):
    """Emptying the box forgets the search shared with inputs of the same
    text: pasting it again shows the results again (the panel kept the old
    search and stayed closed)."""
    page = clipboard_page
    open_search(page, shared_site.base_url + where)
    box = page.page.locator("#search-input")
    results = "#search-results > li a" if where == "-/search/" else ".search-panel li a"
    page.page.evaluate("text => navigator.clipboard.writeText(text)", TRACEBACK)
    for _ in range(2):
        box.focus()
        page.page.keyboard.press("Control+V")
        page.page.wait_for_selector(results)
        page.page.keyboard.press("Control+A")
        page.page.keyboard.press("Delete")
        page.page.wait_for_selector(results, state="detached" if where == "-/search/" else "hidden")
    box.focus()
    page.page.keyboard.press("Control+V")
    page.page.wait_for_selector(results)
    assert page.page.evaluate("window.__searched") == [TRACEBACK] * 3
    assert page.errors == []


def test_a_long_log_goes_into_the_box_as_its_error_lines(shared_site, clipboard_page):
    """A whole CI log pasted with Control+V (over 1 MB, the error at its end):
    the box takes what the engine reads of it, its error lines, and the search
    finds the error as when it is pasted alone. A megabyte in the box would
    hold the page's main thread for half a second of layout (bench/long_paste.py)."""
    from bench.longlog import in_log
    page = clipboard_page
    open_search(page, shared_site.base_url + "-/search/")
    log = in_log(TRACEBACK, "end", 1_000_000)
    page.page.evaluate("text => navigator.clipboard.writeText(text)", log)
    box = page.page.locator("#search-input")
    box.focus()
    page.page.keyboard.press("Control+V")
    assert first_hit(page) == KV_CACHE
    kept = box.input_value()
    assert TRACEBACK in kept and len(kept) < 5_000, len(kept)
    assert page.page.locator("#search-results").get_attribute("data-match") == "exact"  # as alone


def test_a_link_that_holds_a_long_log_fills_the_box_with_its_error_lines(shared_site, clipboard_page):
    """A -/search/#q= link of a whole CI log (the error at its end): the box
    takes what the engine reads of it, as a paste does, never the megabyte."""
    from urllib.parse import quote
    from bench.longlog import in_log
    page = clipboard_page
    log = in_log(TRACEBACK, "end", 300_000)
    open_search(page, shared_site.base_url + "-/search/#q=" + quote(log, safe=""))
    assert first_hit(page) == KV_CACHE
    kept = page.page.locator("#search-input").input_value()
    assert TRACEBACK in kept and len(kept) < 5_000, len(kept)
    assert page.page.locator("#search-results").get_attribute("data-match") == "exact"
