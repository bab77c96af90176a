"""A record page in the order of the reader's questions (issue 29): the message,
what it means and the solutions on the first screen; "On this page"; a header
that stays; copy buttons out of the text's way; the wrap toggle's state and
wrapped lines that keep their indentation; a very long message folded."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

KV_CACHE = "huggingface/candle/kv-cache-enabled-true-is-not-supported/"
PYDANTIC = "pydantic/pydantic/cannot-create-a-pydantic-dataclass-from-as-it-is-already-a-pydantic-model/"  # every field
REDIS = "redis/redis/denied-redis-is-running-in-protected-mode-because-protected-mode-is-enabled-and/"  # a long message
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}

TOP = "id => Math.round(document.getElementById(id).getBoundingClientRect().top + scrollY)"


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page, errors
    context.close()


@pytest.mark.parametrize("path", [KV_CACHE, PYDANTIC, REDIS])
def test_the_solutions_start_on_the_first_screen(shared_site, browser, phone, path):
    context = browser.new_context(viewport=DESKTOP)
    desktop = context.new_page()
    errors: list[str] = []
    desktop.on("pageerror", lambda e: errors.append(str(e)))
    desktop.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    desktop.goto(shared_site.base_url + path)
    # the whole Solutions heading and the first solution are inside the 1280×800 window
    first = desktop.evaluate("() => document.getElementById('solution-1').getBoundingClientRect().bottom")
    assert desktop.evaluate(TOP, "solutions") < first <= DESKTOP["height"]
    assert desktop.evaluate(TOP, "documentation") < desktop.evaluate(TOP, "solutions")
    assert desktop.evaluate(TOP, "solutions") < desktop.evaluate(TOP, "source")  # the source comes later
    context.close()
    page, phone_errors = phone
    page.goto(shared_site.base_url + path)
    assert page.evaluate(TOP, "documentation") < PHONE["height"]
    assert page.evaluate(TOP, "solutions") < 1.5 * PHONE["height"]
    assert errors == [] and phone_errors == []


def test_on_this_page_and_a_header_that_stays(shared_site, phone):
    page, errors = phone
    page.goto(shared_site.base_url + PYDANTIC)
    toc = page.locator("nav.toc a")
    headings = page.eval_on_selector_all("article h2[id]", "hs => hs.map(h => '#' + h.id)")
    assert [toc.nth(i).get_attribute("href") for i in range(toc.count())] == headings
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.locator("nav.toc a[href='#source']").click()
    header = page.locator(".site-header").bounding_box()
    source = page.locator("#source").bounding_box()
    assert header["y"] == 0 and source["y"] >= header["y"] + header["height"]  # landed below the header
    assert page.locator("#search-input").is_visible()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.locator(".site-header").bounding_box()["y"] == 0 and page.locator("#search-input").is_visible()
    assert errors == []


def test_copy_buttons_keep_out_of_the_text(shared_site, browser, phone):
    page, errors = phone
    page.goto(shared_site.base_url + KV_CACHE)
    buttons = page.locator("li[id^='solution-'] > button.copy-anchor")
    assert buttons.count() == 3
    # On a phone: small icons in a margin of their own, not a line of the text.
    for i in range(3):
        box = buttons.nth(i).bounding_box()
        assert box["width"] <= 28 and box["height"] <= 28
        assert buttons.nth(i).evaluate("b => getComputedStyle(b).position") == "absolute"
    assert page.get_by_role("button", name="Copy link to solution 2").count() == 1
    # With a pointer, they show where it is.
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    desktop = context.new_page()
    desktop.goto(shared_site.base_url + KV_CACHE)
    button = desktop.get_by_role("button", name="Copy link to solution 2")
    assert button.evaluate("b => getComputedStyle(b).opacity") == "0"
    desktop.locator("#solution-2").hover()
    assert button.evaluate("b => getComputedStyle(b).opacity") == "1"
    context.close()
    assert errors == []


def test_the_wrap_toggle_shows_its_state_and_keeps_indentation(shared_site, phone):
    page, errors = phone
    page.goto(shared_site.base_url + KV_CACHE)
    toggle = page.locator("button.wrap-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    before = toggle.evaluate("b => getComputedStyle(b).backgroundColor")
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert toggle.evaluate("b => getComputedStyle(b).backgroundColor") != before
    # Each wrapped, indented line continues under its own first character of code.
    seen = page.evaluate("""() => {
        const out = [];
        for (const line of document.querySelectorAll('.source-code code > span')) {
          const rects = [], walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
          let firstCode = null;
          while (walker.nextNode()) {
            const node = walker.currentNode;
            for (let i = 0; i < node.length; i++) {
              if (node.data[i] === '\\n') continue;
              const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
              const rect = r.getBoundingClientRect();
              if (firstCode === null && /\\S/.test(node.data[i])) firstCode = rect;
              rects.push(rect);
            }
          }
          if (!firstCode || !/^\\s+/.test(line.textContent)) continue;
          const rows = [...new Set(rects.map(r => Math.round(r.top)))];
          if (rows.length < 2) continue;
          const second = rects.find(r => Math.round(r.top) === rows[1]);
          out.push([line.id, Math.round(firstCode.left), Math.round(second.left)]);
        }
        return out;
    }""")
    assert seen, "no indented line wraps at 375 px"
    for line, code_left, continued_left in seen:
        assert abs(code_left - continued_left) <= 2, (line, code_left, continued_left)
    assert errors == []


def test_a_very_long_message_is_folded_and_opens(shared_site, phone):
    page, errors = phone
    page.goto(shared_site.base_url + REDIS)
    title = page.locator("h1")
    folded = title.bounding_box()["height"]
    assert page.get_by_role("button", name="Show the whole message").get_attribute("aria-expanded") == "false"
    page.get_by_role("button", name="Show the whole message").click()
    toggle = page.get_by_role("button", name="Show less")
    assert toggle.get_attribute("aria-expanded") == "true"
    assert title.bounding_box()["height"] > 2 * folded
    assert "protected mode" in title.inner_text()
    assert errors == []
