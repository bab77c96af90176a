"""Reading and browsing (issue 42), at a desktop's 1280×800 and a phone's
390×844: result cards and list rows with the first fix, a repository's
overview, the codes and tags indexes with their filter boxes, the phone's
source view, highlighting, the header box, search filters."""
from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
GROUPNORM = "Error: input rank for GroupNorm should be at least 3"


@pytest.fixture(params=list(SIZES))
def sized(request, browser):
    """A watched page at one of the two sizes (a phone's with touch)."""
    from tests.conftest import WatchedPage
    phone = request.param == "phone"
    context = browser.new_context(viewport=SIZES[request.param], has_touch=phone, is_mobile=phone)
    watched = WatchedPage(context.new_page())
    watched.size = request.param
    yield watched
    context.close()


def fits(page) -> bool:
    """Nothing wider than the screen."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


# --- 1. the first fix on cards and rows; a repository's overview ----------------------

def test_result_cards_show_the_first_fix(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url + "-/search/#q=" + GROUPNORM.replace(" ", "%20")).ok
    page.wait_for_selector("#search-results > li .result-fix")
    first = page.locator("#search-results > li").first
    fix = first.locator(".result-fix")
    assert fix.inner_text().startswith("Fix: ")
    assert fix.evaluate("e => getComputedStyle(e).whiteSpace") == "nowrap"  # one line
    box = fix.bounding_box()
    assert box["height"] < 40 and box["x"] + box["width"] <= SIZES[sized.size]["width"]
    assert fits(page)
    # the panel of another page's box shows it too
    assert page.goto(shared_site.base_url + "-/tags/rust/").ok
    page.locator("#search-input").fill(GROUPNORM)
    page.wait_for_selector("#search-panel:not([hidden]) .search-panel-results > li .result-fix")
    assert sized.errors == []


def test_a_repository_page_opens_with_a_summary_and_rows_with_fixes(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url + "redis/redis/").ok
    overview = page.locator("dl.overview")
    assert overview.locator("dt").all_inner_texts() == ["Error types", "Severities", "Most common tags", "Error codes"]
    assert page.locator("h1").inner_text() == "Errors raised in redis/redis"
    assert page.locator("main").inner_text().count("redis/redis") == 1
    assert page.locator(".record-list .fix").count() == page.locator(".record-list > li").count()
    assert fits(page)
    assert sized.errors == []


# --- 2. the codes' index ----------------------------------------------------------

def test_the_codes_index_groups_by_repository_in_order_and_filters(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url + "-/code/").ok
    repos = page.locator(".code-group h2").all_inner_texts()
    assert repos == sorted(repos, key=str.casefold) and "nlohmann/json" in repos
    json_codes = page.locator(".code-group", has_text="nlohmann/json").locator("li code").all_inner_texts()
    assert json_codes[:2] == ["json.exception.invalid_iterator.201", "json.exception.out_of_range.409"]
    first = page.locator(".code-rows > li").first
    assert first.locator(".code-message").inner_text() and first.locator(".code-meaning").inner_text()
    box = page.get_by_label("Filter the codes on this page")
    assert box.is_visible()
    box.fill("parse_error")
    shown = page.locator(".code-rows > li:visible code").all_inner_texts()
    assert shown and all("parse_error" in code for code in shown)
    assert not page.locator(".code-group", has_text="redis/redis").is_visible()  # a group with no match hides
    total = page.locator(".code-rows > li").count()
    assert page.locator(".filter-status").inner_text() == f"{len(shown)} of {total} shown"
    box.fill("")
    assert page.locator(".code-rows > li:visible").count() == page.locator(".code-rows > li").count()
    assert fits(page)
    page.locator(".code-group h2 a", has_text="redis/redis").click()
    page.wait_for_url("**/-/code/-/in/redis/redis/")
    assert page.locator("h1").inner_text() == "Error codes of redis/redis"
    assert sized.errors == []


# --- 3. the tags' index -----------------------------------------------------------

def test_the_tags_index_is_a_to_z_with_counts_and_filters(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url + "-/tags/").ok
    tags = page.locator(".az li a").all_inner_texts()
    assert tags == sorted(tags, key=str.casefold) and len(tags) > 20
    assert all(count.isdigit() for count in page.locator(".az li .count").all_inner_texts())
    box = page.get_by_label("Filter the tags on this page")
    box.fill("json")
    shown = page.locator(".az li:visible a").all_inner_texts()
    assert shown and all("json" in tag.lower() for tag in shown)
    assert page.locator(".tag-initial:visible h2").all_inner_texts() == sorted({t[0].upper() for t in shown})
    assert fits(page)
    page.locator(".az li a", has_text="json").first.click()
    page.wait_for_url("**/-/tags/*/")
    intro = page.locator(".intro").inner_text()
    assert intro.split()[0].isdigit() and "error record" in intro
    assert page.locator(".record-list > li").count() == int(intro.split()[0])
    assert sized.errors == []


# --- 4. the source view on a phone; one link control a heading ------------------------

CANDLE = "huggingface/candle/kv-cache-enabled-true-is-not-supported/"  # raises at line 449, indented deep


def source_state(page) -> dict:
    return page.evaluate("""() => {
        const box = document.querySelector('.source-code');
        const number = getComputedStyle(document.getElementById('L449'), '::before');
        return {left: box.scrollLeft, cutLeft: box.classList.contains('cut-left'),
                cutRight: box.classList.contains('cut-right'), edge: parseFloat(number.borderRightWidth),
                wider: box.scrollWidth > box.clientWidth};
    }""")


def test_the_source_box_scrolls_sideways_only_for_a_line_link_and_shows_it(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url + CANDLE).ok
    page.wait_for_load_state("load")
    state = source_state(page)
    assert state["left"] == 0 and not state["cutLeft"] and state["edge"] == 0  # every line from its start
    assert state["cutRight"] == state["wider"]  # a shade where more code is to the right
    page.goto("about:blank")
    assert page.goto(shared_site.base_url + CANDLE + "#L449").ok  # a fresh load with the fragment, as a followed link
    page.wait_for_load_state("load")
    page.wait_for_timeout(100)
    state = source_state(page)
    if sized.size == "phone":
        assert state["left"] > 0 and state["cutLeft"] and state["edge"] >= 3, state
    page.evaluate("document.querySelector('.source-code').scrollLeft = 0")
    page.wait_for_timeout(100)  # the scroll event
    assert not source_state(page)["cutLeft"]
    if state["wider"]:  # scrolled by hand: the cue shows
        page.evaluate("document.querySelector('.source-code').scrollLeft = 60")
        page.wait_for_timeout(100)
        assert source_state(page)["cutLeft"] and source_state(page)["edge"] >= 3
    assert sized.errors == []


def test_one_link_control_a_heading(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url + CANDLE).ok
    page.wait_for_selector("article h2[id] > button.copy-anchor")
    for heading in page.locator("article h2[id]").all():
        assert heading.locator("a").count() == 0 and heading.locator("button").count() == 1
    assert sized.errors == []


# --- 5. highlighting only the words that decided the match ---------------------------

COBRA_QUERY = "accepts at most 1 arg(s), received 3"


def test_a_record_opened_from_a_search_marks_only_the_deciding_words(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url + "-/search/#q=" + COBRA_QUERY.replace(" ", "%20")).ok
    first = page.locator("#search-results > li").first
    first.wait_for()
    card_marks = {m.lower() for m in first.locator(".result-title mark").all_inner_texts()}
    assert {"accepts", "most", "arg", "received"} >= card_marks >= {"accepts", "received"}, card_marks
    first.locator("a.result-title").click()
    page.wait_for_selector("article mark")
    marks = page.evaluate("""() => Array.from(document.querySelectorAll('article mark'), m => ({
        text: m.textContent.toLowerCase(), where: m.closest('h1') ? 'message' : m.closest('.raised') ? 'raised' : 'other'}))""")
    assert {m["where"] for m in marks} <= {"message", "raised"}, marks
    assert any(m["where"] == "message" for m in marks)
    assert len(marks) < 12, marks  # 53 when every common word of the page was marked
    assert sized.errors == []


# --- 6. the header box, a crawlable "All results", the overlay (test_serve, test_kept_pages) ---

TRACEBACK = "Traceback (most recent call last):\n" + "".join(
    f'  File "/home/me/app/module_{i}.py", line {i}, in function_{i}\n    call_{i}(argument)\n' for i in range(30)) + GROUPNORM


def test_the_header_box_stays_a_few_lines_and_scrolls_inside(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url + "-/tags/rust/").ok
    box = page.locator("#search-input")
    box.focus()
    box.fill(TRACEBACK)
    page.wait_for_selector("#search-panel:not([hidden]) .search-panel-results > li")
    size = box.evaluate("b => ({height: b.getBoundingClientRect().height, line: parseFloat(getComputedStyle(b).lineHeight),"
                        " scrolls: b.scrollHeight > b.clientHeight, overflow: getComputedStyle(b).overflowY})")
    assert size["height"] <= 6 * size["line"] + 24, size  # five lines and its padding
    assert size["scrolls"] and size["overflow"] == "auto", size
    panel = page.locator("#search-panel").bounding_box()
    assert panel["y"] < SIZES[sized.size]["height"] / 2  # the results start near the top of the screen
    assert fits(page)
    assert sized.errors == []


def test_all_results_is_a_crawlable_link_before_any_search(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url).ok
    page.wait_for_selector("#search-panel", state="attached")
    link = page.locator("#search-panel a.search-panel-all")
    assert link.get_attribute("href") == shared_site.base_url + "-/search/"
    assert page.evaluate("Array.from(document.querySelectorAll('a')).every(a => a.hasAttribute('href'))")
    box = page.locator("#search-input")
    box.fill(GROUPNORM)
    page.wait_for_selector("#search-panel:not([hidden]) .search-panel-results > li")
    assert "#q=" in link.get_attribute("href")
    assert sized.errors == []


# --- 7. search filters, in the address with the query ---------------------------------

def result_repos(page) -> list[str]:
    return [meta.split(" · ")[0] for meta in page.locator("#search-results > li .meta").all_inner_texts()]


def test_filters_narrow_the_results_count_each_value_and_stay_in_the_address(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url + "-/search/#q=invalid").ok
    page.wait_for_selector("#search-results > li")
    repos = set(result_repos(page))
    assert len(repos) > 1
    select = page.locator("#search-filters select[data-filter-key=repo]")
    options = select.locator("option").all_inner_texts()
    assert options[0] == "Any" and all(re.fullmatch(r".+ \(\d+\)", o) for o in options[1:]), options
    counted = {o.rsplit(" (", 1)[0]: int(o.rsplit("(", 1)[1][:-1]) for o in options[1:]}
    chosen = max(counted, key=counted.get)
    select.select_option(chosen)
    page.wait_for_function("() => location.hash.includes('&repo=')")
    assert set(result_repos(page)) == {chosen} and len(result_repos(page)) == counted[chosen]
    assert "Filtered by repository " + chosen in page.locator("#search-status").inner_text()
    assert f"#q=invalid&repo={chosen.replace('/', '%2F')}" in page.url
    # a language filter: the card's language, named as meta.json names it
    languages = page.locator("#search-filters select[data-filter-key=lang] option").all_inner_texts()
    assert not languages or languages[0] == "Any"
    # the address alone brings the filter back
    page.goto("about:blank")
    assert page.goto(shared_site.base_url + f"-/search/#q=invalid&repo={chosen}").ok
    page.wait_for_selector("#search-results > li")
    assert set(result_repos(page)) == {chosen}
    assert page.locator("#search-filters select[data-filter-key=repo]").input_value() == chosen
    page.locator("#search-filters select[data-filter-key=repo]").select_option("")
    page.wait_for_function("() => !location.hash.includes('&repo=')")
    assert set(result_repos(page)) == repos
    assert fits(page)
    assert sized.errors == []


def test_a_record_page_searches_its_repository(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url + "redis/redis/err-syntax-error/").ok
    page.get_by_role("link", name="Search this repository").click()
    page.wait_for_url("**/-/search/#repo=redis*")
    box = page.locator("#search-input")
    box.fill("error")
    page.wait_for_selector("#search-results > li")
    assert set(result_repos(page)) == {"redis/redis"}
    assert "&repo=redis" in page.url
    assert sized.errors == []


def test_the_panel_filters_too_and_hands_them_to_the_search_page(shared_site, sized):
    page = sized.page
    assert page.goto(shared_site.base_url + "-/tags/rust/").ok
    page.locator("#search-input").fill("invalid")
    page.wait_for_selector("#search-panel:not([hidden]) .search-panel-results > li")
    select = page.locator("#search-panel select[data-filter-key=repo]")
    options = select.locator("option").all_inner_texts()
    chosen = options[1].rsplit(" (", 1)[0]
    select.select_option(chosen)
    metas = page.locator("#search-panel .search-panel-results > li .meta").all_inner_texts()
    assert metas and {m.split(" · ")[0] for m in metas} == {chosen}
    assert not page.locator("#search-panel").is_hidden()  # choosing kept the panel open
    href = page.locator("#search-panel a.search-panel-all").get_attribute("href")
    assert f"&repo={chosen.replace('/', '%2F')}" in href
    assert sized.errors == []


# --- 8. cards: a script the font lacks unfurls text-led (test_cards has the warning) ---------

@pytest.fixture(scope="module")
def cards_site(tmp_path_factory):
    import json
    import shutil
    from errorsite.pages.render import SiteOptions
    from tests.conftest import BASE_PATH, SHARED_RECORDS, Server, build_quietly, need_shared
    need_shared()
    tmp = tmp_path_factory.mktemp("cards-site")
    records = tmp / "records"
    records.mkdir()
    name = "huggingface__candle__kv-cache-enabled-true-is-not-supported.json"
    shutil.copy(SHARED_RECORDS / name, records / name)
    data = json.loads((SHARED_RECORDS / name).read_bytes())
    data["record"].update(id="cjk0000000000001", slug="cjk", errorMessage="内存不足: kv cache 已满")
    (records / "cjk.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    server = Server(tmp)
    result, lines = build_quietly(records, tmp / BASE_PATH.strip("/"), server.base_url, options=SiteOptions(cards=True))
    assert result.written and len(lines) == 1 and "card: text only" in lines[0]
    yield server
    server.close()


def test_a_record_in_a_script_the_card_font_lacks_has_a_text_led_card(cards_site, sized):
    page = sized.page
    assert page.goto(cards_site.base_url + "huggingface/candle/cjk/").ok
    assert page.locator("h1").inner_text() == "内存不足: kv cache 已满"
    image = page.locator("meta[property='og:image']").get_attribute("content")
    assert image == cards_site.base_url + "-/card.png"
    assert page.locator("meta[name='twitter:card']").get_attribute("content") == "summary"
    assert page.request.get(cards_site.base_url + "-/r/cjk0000000000001/card.png").status == 404
    assert page.goto(cards_site.base_url + "huggingface/candle/kv-cache-enabled-true-is-not-supported/").ok
    assert page.locator("meta[name='twitter:card']").get_attribute("content") == "summary_large_image"
    assert fits(page)
    assert sized.errors == []
