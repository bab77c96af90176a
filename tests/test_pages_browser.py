"""The pages as people read them (issue 14): axe-core in light and dark, a
375 px phone, line ranges, copy buttons, the weaker-results cut-off, and no
search code on a page before someone is about to search. One built site (the
shared records) and few pages, so the suite stays fast."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.browser

RECORD = "huggingface/candle/kv-cache-enabled-true-is-not-supported/"  # its source raises at line 449
GROUPNORM = "Error: input rank for GroupNorm should be at least 3"
GROUPNORM_PATH = "huggingface/candle/input-rank-for-groupnorm-should-be-at-least-3/"
AXE_PAGES = {"home": "", "record": RECORD, "record, highlighted": RECORD + "?highlight=kv+cache+enabled+supported",
             "listing": "-/tags/rust/", "search with results": "-/search/?q=kv_cache_enabled%3Dtrue",
             "repository": "redis/redis/", "codes": "-/code/", "a repository's codes": "-/code/-/in/nlohmann/json/",
             "tags": "-/tags/", "search with filters": "-/search/#q=invalid&severity=error"}


def settle(page):
    """After "load" (which goto waits for) the deferred scripts have run; one
    more frame for what the page does on its load event."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation(shared_site, browser, axe_source, scheme):
    context = browser.new_context(color_scheme=scheme, bypass_csp=True)  # axe runs as an added script
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    found = {}
    for name, path in AXE_PAGES.items():
        page.goto(shared_site.base_url + path)
        settle(page)
        if "search" in name:
            page.wait_for_selector("#search-results > li")
        if "highlighted" in name:
            page.wait_for_selector("article mark")
        page.add_script_tag(content=axe_source)
        violations = page.evaluate("axe.run(document, {resultTypes: ['violations']}).then(r => r.violations"
                                   ".map(v => v.id + ' (' + v.impact + '): ' + v.nodes.map(n => n.target.join(' ')).join(', ')))")
        if violations:
            found[name] = violations
        assert page.locator("[role=search], search").count() <= 1, f"{name}: more than one search landmark"
    context.close()
    assert found == {} and errors == []


def test_a_phone_reads_every_page_and_the_marked_line(shared_site, browser):
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    for path in ["", RECORD, "-/tags/rust/", "-/repos/", "-/search/?q=dtype",
                 "redis/redis/denied-redis-is-running-in-protected-mode-because-protected-mode-is-enabled-and/"]:
        page.goto(shared_site.base_url + path)
        settle(page)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{path or 'home'}: {overflow} px wider than the screen"
    page.goto(shared_site.base_url + RECORD + "#L449")
    settle(page)
    # the first 40 characters of code of the line (from its first non-blank one)
    # are inside the code box and right of the line numbers, which stay visible
    seen = page.evaluate("""() => {
        const line = document.getElementById('L449'), box = line.closest('.source-code').getBoundingClientRect();
        // The number is the line's ::before, kept at the box's left edge (sticky) as the code scrolls.
        const number = getComputedStyle(line, '::before'), edge = line.closest('.source-code');
        const width = parseFloat(number.width);  // border-box
        const gutterLeft = number.position === 'sticky' ? Math.max(line.getBoundingClientRect().left, box.left + edge.clientLeft)
                                                        : line.getBoundingClientRect().left;
        const gutter = {left: gutterLeft, right: gutterLeft + width};
        const rects = [], walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        while (walker.nextNode() && rects.length < 40) {
          const node = walker.currentNode;
          for (let i = 0; i < node.length && rects.length < 40; i++) {
            if (!rects.length && /\\s/.test(node.data[i])) continue;
            const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
            rects.push(r.getBoundingClientRect());
          }
        }
        const viewport = line.getBoundingClientRect();
        return {first: rects[0].left, last: rects[39].right, gutterLeft: gutter.left, gutterRight: gutter.right,
                left: box.left, right: box.right, top: viewport.top, bottom: viewport.bottom, height: innerHeight};
    }""")
    assert seen["gutterRight"] <= seen["first"] and seen["last"] <= seen["right"], seen
    assert seen["gutterLeft"] >= seen["left"] - 1, seen  # the line numbers did not scroll away
    assert 0 <= seen["top"] and seen["bottom"] <= seen["height"], seen
    context.close()


def test_line_ranges_and_copy_buttons(shared_site, browser):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(shared_site.base_url + RECORD + "#L445-L452")
    settle(page)
    selected = page.eval_on_selector_all(".source-code code > .selected", "ls => ls.map(l => l.id)")
    assert selected == [f"L{n}" for n in range(445, 453)]
    assert page.locator("#L445").is_visible()
    # line numbers are drawn, neither text nor tab stops: one button copies the link instead
    assert page.eval_on_selector_all(".source-code a, .source-code [tabindex]", "es => es.length") == 0
    assert page.locator("#L445").evaluate("l => getComputedStyle(l, '::before').content") == 'counter(ln) / ""'
    assert "445" not in page.locator("#L445").inner_text()
    line_button = page.locator("button.copy-line")
    assert line_button.inner_text() == "Copy link to lines 445-452"
    # a click on a line number links to the line, a shift-click then selects from it to another
    number = {"x": 10, "y": 5}
    page.locator("#L447").click(position=number)
    assert urlsplit(page.url).fragment == "L447"
    page.locator("#L450").click(position=number, modifiers=["Shift"])
    assert urlsplit(page.url).fragment == "L447-L450"
    assert page.eval_on_selector_all(".source-code code > .selected", "ls => ls.map(l => l.id)") == \
        ["L447", "L448", "L449", "L450"]
    page.locator("#L452").click(position={"x": 200, "y": 5})  # a click on the code is no link
    assert urlsplit(page.url).fragment == "L447-L450"
    line_button.click()
    page.wait_for_function("() => document.getElementById('copy-status').textContent === 'Copied'")
    # the permanent link, -/r/<id>/, as every copied link (test_links_browser)
    assert page.evaluate("navigator.clipboard.readText()").endswith("/-/r/5410d019e75c02d7/#L447-L450")
    # a copy button on every code block, copying the code without line numbers
    blocks = page.locator(".highlight")
    assert blocks.count() >= 2 and page.locator("button.copy-code").count() == blocks.count()
    page.locator("button.copy-code[aria-label^='Copy code: Source lines']").click()
    page.wait_for_function("() => navigator.clipboard.readText().then(t => t.includes('kv_cache_enabled=true is not supported'))")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert not copied.lstrip().startswith("431") and len(copied.splitlines()) == 37
    # the wrap toggle: no sideways scrolling left
    page.locator("button.wrap-toggle").click()
    assert page.locator("button.wrap-toggle").get_attribute("aria-pressed") == "true"
    assert page.evaluate("(b => b.scrollWidth <= b.clientWidth)(document.querySelector('.source-code'))")
    context.close()
    assert errors == []


def test_weaker_results_fold_away_on_a_pasted_line(shared_site, page):
    page.page.goto(shared_site.base_url + "-/search/")
    page.page.locator("#search-input").fill(GROUPNORM)
    page.page.wait_for_selector("#search-results > li")
    strong = page.page.locator("#search-results > li")
    assert urlsplit(strong.first.locator("a").get_attribute("href")).path == "/errors/" + GROUPNORM_PATH
    weak = page.page.locator("#search-weaker .weak-results > li")
    assert strong.count() < 3 and weak.count() >= 10  # the rest share only "error" or "input"
    status = page.page.locator("#search-status").inner_text()  # after the verdict, said to a screen reader
    assert f"{strong.count()} result" in status and f"{weak.count()} weaker" in status
    assert page.page.locator("#search-weaker details").get_attribute("open") is None
    assert not weak.first.is_visible()  # folded away until asked for
    assert page.errors == []


def test_the_cutoff_rule(search_core):
    cut = search_core.evaluate("""() => [
        searchCutoff([]),
        searchCutoff([{score: 8}, {score: 2}, {score: 1.9}, {score: 0.1}]),
        searchCutoff([{score: 0}, {score: 0}]),
        searchCutoff([{score: 3}, {score: 2.5}, {score: 1}]),
    ].map(c => [c.strong.map(r => r.score), c.weak.map(r => r.score)])""")
    assert cut == [[[], []], [[8, 2], [1.9, 0.1]], [[0, 0], []], [[3, 2.5, 1], []]]


def test_no_search_code_runs_on_a_record_page_before_focus(shared_site, page):
    requests = []
    page.page.on("request", lambda r: requests.append(urlsplit(r.url).path))
    page.page.goto(shared_site.base_url + RECORD)
    page.page.wait_for_load_state("networkidle")  # nothing more is on its way
    assert page.page.evaluate("[typeof lunr, typeof ErrorSearch]") == ["undefined", "undefined"]
    assert not [r for r in requests if "lunr" in r or "search-core" in r or "/-/search/" in r]
    page.page.locator("#search-input").focus()
    page.page.wait_for_function("() => typeof lunr !== 'undefined' && typeof ErrorSearch !== 'undefined'")
    page.page.wait_for_load_state("networkidle")
    # meta.json comes with the code (a round trip less before the first search); the index waits for words
    assert [r for r in requests if "/-/search/" in r] == ["/errors/-/search/meta.json"]
    # ?highlight= marks the words, and leaves the address people copy clean
    page.page.goto(shared_site.base_url + RECORD + "?highlight=kv+cache")
    page.page.wait_for_selector("article mark")
    assert urlsplit(page.page.url).query == ""
    assert page.errors == []
