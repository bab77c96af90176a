"""A record page in the order of the reader's questions (issue 29): the message,
what it means and the solutions on the first screen; "On this page"; a header
that stays; copy buttons out of the text's way; the wrap toggle's state and
wrapped lines that keep their indentation; a very long message folded; on a
phone, every record's first solution on the first screen (issue 62)."""
from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import ROOT, SHARED_RECORDS, Server, build_quietly, need_shared

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


@pytest.fixture(scope="module")
def every_record_site(tmp_path_factory):
    """The records of records/ and of the shared folder, in one site."""
    need_shared()
    tmp = tmp_path_factory.mktemp("every-record")
    records = tmp / "records"
    shutil.copytree(SHARED_RECORDS, records / "shared")
    (records / "demo").mkdir()
    for path in sorted((ROOT / "records").glob("*.json")):
        if not (SHARED_RECORDS / path.name).exists():  # the same record in both would be a duplicate
            shutil.copy(path, records / "demo" / path.name)
    server = Server(tmp / "www")
    result, problems = build_quietly(records, tmp / "www" / "errors", server.base_url)
    assert problems == [] and result.written
    yield server, len(list(records.rglob("*.json")))
    server.close()


# Where the first solution's first line ends, and what hides the top of the screen, without scrolling.
FIRST_LINE = """() => {
  const item = document.getElementById('solution-1');
  if (!item) return null;
  const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode, at = text.data.search(/\\S/);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + 1);
    const line = range.getBoundingClientRect();
    return {top: line.top, bottom: line.bottom, scrolled: scrollY,
            header: document.querySelector('.site-header').getBoundingClientRect().bottom,
            wide: document.documentElement.scrollWidth > document.documentElement.clientWidth};
  }
  return null;
}"""


def test_every_first_solution_starts_on_a_phones_first_screen(every_record_site, browser):
    server, count = every_record_site
    paths = sorted(entry["path"] for entry in json.loads(
        (server.root / "errors" / "-" / "urls.json").read_text("utf-8"))["records"].values())
    assert len(paths) == count
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    below, wider, without = [], [], []
    for path in paths:
        page.goto(server.base_url + path)
        line = page.evaluate(FIRST_LINE)
        if line is None:
            without.append(path)
            continue
        assert line["scrolled"] == 0, path
        if not line["header"] <= line["top"] < line["bottom"] <= PHONE["height"]:
            below.append((path, round(line["bottom"])))
        if line["wide"]:
            wider.append(path)
    context.close()
    assert below == [], f"{len(below)} of {len(paths) - len(without)} first solutions start below the first screen"
    assert wider == [], "pages wider than the phone"
    assert len(without) < len(paths)
    assert errors == []


def test_a_phone_folds_the_pattern_and_a_long_explanation_and_opens_them(every_record_site, browser, axe_source):
    server, _ = every_record_site
    path = "pallets/jinja/has-no-attribute/"  # a pattern, and an explanation of 900 characters
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)  # axe is an added script
    page = context.new_page()
    page.goto(server.base_url + path)
    page.add_script_tag(content=axe_source)
    assert page.evaluate("axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => v.id))") == []
    pattern = page.locator(".record-header p.pattern")
    assert not pattern.is_visible()
    page.locator(".pattern-fold > summary").click()
    assert pattern.is_visible() and "{undefined_obj_type}" in pattern.inner_text()
    explanation = page.locator("section[aria-labelledby='documentation'] .fold")
    folded = explanation.bounding_box()["height"]
    assert explanation.get_by_text("Show less").is_hidden()
    explanation.get_by_text("Read more").click()
    assert explanation.bounding_box()["height"] > folded + 100
    assert explanation.get_by_text("Show less").is_visible()
    context.close()
    # A wide screen shows both whole, without a summary to open.
    context = browser.new_context(viewport=DESKTOP)
    desktop = context.new_page()
    desktop.goto(server.base_url + path)
    assert desktop.locator(".record-header p.pattern").inner_text().startswith("Pattern:")
    assert desktop.locator("summary").filter(visible=True).count() == 1  # the copy fields' only
    assert desktop.get_by_text("StrictUndefined also fails").is_visible()
    context.close()
