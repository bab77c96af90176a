"""Results as you type from any page's search box (issue 29): a panel over the
page with the search page's ranking, Enter opens the top (or chosen) result,
Escape closes, "All results" is the search page with #q=; a phone's box shows
its whole placeholder; the search page's title names its query."""
from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GROUPNORM = "Error: input rank for GroupNorm should be at least 3"
GROUPNORM_PATH = "/errors/huggingface/candle/input-rank-for-groupnorm-should-be-at-least-3/"
KV_CACHE_PATH = "/errors/huggingface/candle/kv-cache-enabled-true-is-not-supported/"
# A paste as it comes from a terminal: the message line inside a traceback.
PASTE = ("Traceback (most recent call last):\n"
         '  File "/home/me/app/main.py", line 12, in <module>\n'
         "    model = build(cfg)\n"
         "Error: input rank for GroupNorm should be at least 3")


def panel_paths(page) -> list[str]:
    page.wait_for_selector("#search-panel:not([hidden]) .search-panel-results > li")
    return [urlsplit(a).path for a in page.eval_on_selector_all(
        "#search-panel .search-panel-results a.result-title", "as => as.map(a => a.href)")]


def search_page_paths(page, base_url, query) -> list[str]:
    page.goto(base_url + "-/search/")
    page.locator("#search-input").fill(query)
    page.wait_for_selector("#search-results > li")
    return [urlsplit(a).path for a in page.eval_on_selector_all(
        "#search-results > li a.result-title", "as => as.map(a => a.href)")]


def test_a_paste_into_the_home_box_shows_the_record_first_and_enter_opens_it(shared_site, page):
    start = shared_site.base_url
    assert page.page.goto(start).ok
    box = page.page.locator("#search-input")
    box.focus()
    box.fill(PASTE)
    assert panel_paths(page.page)[0] == GROUPNORM_PATH
    assert page.page.url == start  # the page stayed
    first = page.page.locator("#search-panel .search-panel-results > li").first
    assert "active" in first.get_attribute("class")
    assert "GroupNorm" in first.locator("mark").all_inner_texts()
    box.press("Enter")
    page.page.wait_for_url(re.compile(re.escape(GROUPNORM_PATH) + "$"))  # ?highlight= is dropped once read
    page.page.wait_for_selector("article mark")
    assert page.errors == []


def test_the_header_box_of_a_record_page_ranks_as_the_search_page(shared_site, page):
    query = "kv_cache_enabled=true is not supported"
    expected = search_page_paths(page.page, shared_site.base_url, query)
    assert page.page.goto(shared_site.base_url + GROUPNORM_PATH[len("/errors/"):]).ok
    page.page.keyboard.press("/")
    page.page.keyboard.type(query)
    shown = panel_paths(page.page)
    assert shown[0] == KV_CACHE_PATH
    assert shown == expected[:len(shown)]
    assert urlsplit(page.page.url).path == GROUPNORM_PATH
    assert page.errors == []


def test_arrows_escape_and_the_mouse(shared_site, page):
    assert page.page.goto(shared_site.base_url + "-/tags/rust/").ok
    box = page.page.locator("#search-input")
    box.focus()
    box.fill("pydantic")
    paths = panel_paths(page.page)
    assert len(paths) >= 3
    items = page.page.locator("#search-panel .search-panel-results > li")
    box.press("ArrowDown")
    assert "active" in items.nth(1).get_attribute("class") and "active" not in items.nth(0).get_attribute("class")
    box.press("ArrowUp")
    box.press("ArrowUp")  # wraps round to the last
    assert "active" in items.nth(len(paths) - 1).get_attribute("class")
    box.press("Escape")
    assert page.page.locator("#search-panel").is_hidden()
    assert box.input_value() == "pydantic"  # Escape closes the panel, and keeps what was typed
    # Focus back in the box shows the same results again; a click outside closes them.
    page.page.mouse.click(8, 600)  # the page's margin, beside the panel
    box.focus()
    assert page.page.locator("#search-panel").is_visible()
    page.page.mouse.click(8, 600)
    assert page.page.locator("#search-panel").is_hidden()
    # "All results" is the search page with the query
    box.focus()
    all_results = page.page.locator("#search-panel a.search-panel-all")
    assert [unquote(urlsplit(all_results.get_attribute("href")).fragment.removeprefix("q="))] == ["pydantic"]
    # After Escape, ↓ shows them again; a click on the second result opens it.
    box.press("Escape")
    box.press("ArrowDown")
    assert page.page.locator("#search-panel").is_visible()
    items.nth(1).locator("a.result-title").click()
    page.page.wait_for_url(re.compile(re.escape(paths[1]) + "$"))
    assert page.errors == []


def test_enter_right_after_typing_opens_the_top_hit_and_nothing_found_goes_to_the_search_page(shared_site, page):
    assert page.page.goto(shared_site.base_url + "-/repos/").ok
    box = page.page.locator("#search-input")
    box.fill("TypeError: path must be a string to res.sendFile")
    box.press("Enter")  # before the as-you-type search has had time to run
    page.page.wait_for_url(re.compile(r".*/expressjs/express/path-must-be-a-string-to-res-sendfile/$"))
    assert page.page.goto(shared_site.base_url + "-/repos/").ok
    box.fill("zzqxv wobblefrotz")
    box.press("Enter")
    page.page.wait_for_url(re.compile(r".*/-/search/#q=zzqxv%20wobblefrotz$"))
    page.page.wait_for_function("() => document.getElementById('search-status').textContent.startsWith('No results')")
    # "browse by repository" in the message is a link
    link = page.page.locator("#search-status a")
    assert link.inner_text() == "browse by repository"
    assert urlsplit(link.get_attribute("href")).path == "/errors/-/repos/"
    assert page.errors == []


def test_the_search_page_title_names_its_query(shared_site, page):
    assert page.page.goto(shared_site.base_url + "-/search/?q=kv_cache_enabled%3Dtrue").ok
    page.page.wait_for_selector("#search-results > li")
    assert page.page.title() == "“kv_cache_enabled=true” — Search — Error Index"
    page.page.locator("#search-input").fill("at main.rs:4\nGroupNorm: invalid input rank")  # the message line only
    page.page.wait_for_function("() => document.title.startsWith('“GroupNorm: invalid input rank” — ')")
    description = page.page.locator("meta[name=description]").get_attribute("content")
    assert description.startswith("Search Error Index:")
    assert page.errors == []


@pytest.mark.parametrize("path", ["", "huggingface/candle/kv-cache-enabled-true-is-not-supported/", "-/search/"])
def test_a_phone_shows_the_whole_placeholder(shared_site, browser, path):
    context = browser.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(shared_site.base_url + path)
    box = page.locator("#search-input")
    placeholder = box.get_attribute("placeholder")
    assert "press /" not in placeholder
    fits = box.evaluate("b => [b.scrollWidth, b.clientWidth, b.scrollHeight, b.clientHeight]")
    assert fits[0] <= fits[1] and fits[2] <= fits[3], f"{path or 'home'}: placeholder cut {fits}"
    assert not page.locator(".key-hint").is_visible()  # no keyboard shortcut shown to a touch screen
    context.close()


def test_the_slash_hint_shows_on_a_desktop_until_the_box_is_used(shared_site, page):
    page.page.set_viewport_size({"width": 1280, "height": 800})
    assert page.page.goto(shared_site.base_url + "-/tags/").ok
    hint = page.page.locator(".key-hint")
    assert hint.is_visible()
    page.page.keyboard.press("/")
    assert not hint.is_visible()
    assert page.errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_with_the_panel_open(shared_site, browser, axe_source, scheme):
    context = browser.new_context(color_scheme=scheme, bypass_csp=True)  # axe runs as an added script
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    found = {}
    for path in ("", "huggingface/candle/kv-cache-enabled-true-is-not-supported/"):
        page.goto(shared_site.base_url + path)
        page.locator("#search-input").focus()
        page.locator("#search-input").fill(GROUPNORM)
        page.wait_for_selector("#search-panel:not([hidden]) .search-panel-results > li")
        page.add_script_tag(content=axe_source)
        violations = page.evaluate("axe.run(document, {resultTypes: ['violations']}).then(r => r.violations"
                                   ".map(v => v.id + ' (' + v.impact + '): ' + v.nodes.map(n => n.target.join(' ')).join(', ')))")
        if violations:
            found[path or "home"] = violations
    context.close()
    assert found == {} and errors == []
