"""Hostile records in a real browser: every page of a site built from the
hostile fixtures that render (plus a few real records) is opened in Chromium,
every payload is typed into the search box, and nothing may run: every payload
tries to set `window.__pwned` (or open a dialog).

Console errors from the Content Security Policy are allowed here (they would
prove the CSP caught something); a second pass serves the pages with the CSP
removed, to show that the markup alone is already inert.
"""
from __future__ import annotations

import re
import shutil
from urllib.parse import quote, unquote, urlsplit

import pytest

from errorsite import urls

from tests.conftest import SHARED_RECORDS, need_shared, serve_site
from tests.test_hostile import RENDERED, copy_fixtures, generate, record_path_of

pytestmark = pytest.mark.browser

REAL = ["redis__redis__err-syntax-error.json", "expressjs__express__callback-function-required.json",
        "pydantic__pydantic__typing-self-is-invalid-in-this-context.json",
        "nlohmann__json__iterators-are-not-compatible.json"]
PAYLOADS = [*generate.XSS.values(), *generate.MARKDOWN.values(),
            *(value for key, value in generate.RENDERED_FIELD.values() if key == "errorMessage"),
            "javascript:alert(1)", "<img src=x onerror=alert(1)>", "\"'><script>alert(document.domain)</script>"]
CSP_META = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>')

# Text around record text must keep its order: in every text node outside
# <bdi>, <code> and <pre> whose own characters are left-to-right (bidi controls
# between FSI and PDI aside), the first Latin letter must lie left of the last
# one on the same line. And every count sits right of its label.
REORDERED_JS = r"""() => {
  const controls = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u200F\u202A-\u202E\u2066\u2067]/;
  const bad = [];
  const range = document.createRange();
  const rect = (node, i) => { range.setStart(node, i); range.setEnd(node, i + 1); return range.getBoundingClientRect(); };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, text = node.nodeValue;
    if (node.parentElement.closest("bdi, code, pre, .visually-hidden")) continue;
    let depth = 0, letters = [], ownRtl = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === "\u2068") depth++;
      else if (c === "\u2069") depth--;
      else if (depth === 0 && controls.test(c)) ownRtl = true;
      else if (depth === 0 && /[A-Za-z]/.test(c)) letters.push(i);
    }
    if (ownRtl || letters.length < 2) continue;
    const a = rect(node, letters[0]), b = rect(node, letters[letters.length - 1]);
    if (a.width && b.width && Math.abs(a.top - b.top) < 2 && a.left > b.left) bad.push(text.trim().slice(0, 80));
  }
  for (const li of document.querySelectorAll(".counted li")) {
    const label = document.createRange();  // the link holds the label, then its count
    label.setStart(li.querySelector("a"), 0);
    label.setEndBefore(li.querySelector(".count"));
    const lines = label.getClientRects(), a = lines[lines.length - 1];  // a label may wrap
    const n = li.querySelector(".count").getBoundingClientRect();
    const sameLine = a.top < n.bottom && n.top < a.bottom;
    if (sameLine && n.left < a.right - 1) bad.push("count left of its label: " + li.textContent.trim());
  }
  return bad;
}"""

UNSAFE_LINKS_JS = r"""() => [...document.querySelectorAll("a[href], img[src], link[href], script[src], form[action]")]
  .map(e => e.href || e.src || e.action)
  .filter(u => !/^(https?|mailto):/.test(u) && u !== "data:,")"""


PAGE_CHECKS_JS = f"() => ({{pwned: typeof window.__pwned, unsafe: ({UNSAFE_LINKS_JS})(), reordered: ({REORDERED_JS})()}})"


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    need_shared()
    tmp = tmp_path_factory.mktemp("hostile-browser")
    records = copy_fixtures(tmp / "records", sorted(RENDERED))
    for name in REAL:
        shutil.copy(SHARED_RECORDS / name, records / name)
    server, out = serve_site(tmp / "site", records)
    paths = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))
    yield server, [p.removesuffix("index.html") for p in paths]
    server.close()


def watch(page, server, strip_csp: bool = False) -> list[str]:
    """Block every request that leaves the test server; note every dialog."""
    dialogs: list[str] = []

    def dismiss(dialog):
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def strip(route):
        if route.request.resource_type == "document":
            response = route.fetch()
            route.fulfill(response=response, body=CSP_META.sub("", response.text()))
        else:
            route.continue_()

    page.page.on("dialog", dismiss)
    # Patterns, not one handler for every request: Playwright matches a pattern
    # in the browser's driver, so the site's own requests need no round trip here.
    page.page.route(re.compile(rf"^(?!{re.escape(server.base_url)})"), lambda route: route.abort())
    if strip_csp:
        page.page.route(re.compile(rf"^{re.escape(server.base_url)}"), strip)
    return dialogs


def real_errors(page) -> list[str]:
    return [e for e in page.errors if "Content Security Policy" not in e and "net::ERR_FAILED" not in e]


def assert_inert(page, where: str, dialogs: list[str]) -> None:
    assert page.page.evaluate("() => typeof window.__pwned") == "undefined", f"{where}: a payload ran"
    assert dialogs == [], f"{where}: a dialog opened"


def test_every_page_is_inert_and_keeps_its_order(hostile_site, page):
    server, paths = hostile_site
    assert len(paths) > 100
    dialogs = watch(page, server)
    problems = []
    # Each permalink's page moves on to its record page, checked there: the
    # record pages it lands on are not loaded again (48 of 235 loads).
    permalinks = [path for path in paths if path.startswith(urls.PERMALINKS_PATH)]
    landed_on = set()
    for path in [*permalinks, *(path for path in paths if path not in permalinks)]:
        if path in landed_on:
            continue
        url = server.base_url + quote(path)
        response = page.page.goto(url, wait_until="load")
        assert response.ok or path == "404.html", url
        if path in permalinks:
            page.page.wait_for_url(lambda landed: "/-/r/" not in landed)
            page.page.wait_for_load_state("load")
            landed = urlsplit(page.page.url).path.removeprefix(urlsplit(server.base_url).path)
            assert unquote(landed) in paths, f"{url} landed on {page.page.url}, no page of the site"
            landed_on.add(unquote(landed))
        found = page.page.evaluate(PAGE_CHECKS_JS)  # one round trip: as assert_inert, then the links and the order
        assert found["pwned"] == "undefined", f"{url}: a payload ran"
        assert dialogs == [], f"{url}: a dialog opened"
        problems += [f"{path}: unsafe link {u}" for u in found["unsafe"]]
        problems += [f"{path}: {text}" for text in found["reordered"]]
    assert problems == [], "\n".join(problems)
    assert real_errors(page) == []


def test_record_pages_are_inert_without_the_csp(hostile_site, page):
    """With the CSP stripped, nothing a payload could use is left in the markup."""
    server, paths = hostile_site
    dialogs = watch(page, server, strip_csp=True)
    names = [n for n in RENDERED if n.startswith(("xss-", "md-", "unicode-"))]
    for name in names:
        url = server.base_url + quote(record_path_of(name)) + "/"
        assert page.page.goto(url, wait_until="load").ok
        assert "Content-Security-Policy" not in page.page.content()
        assert_inert(page, url, dialogs)
    for path in ("", "-/tags/", "-/types/", "-/severities/"):
        page.page.goto(server.base_url + path, wait_until="load")
        assert_inert(page, path, dialogs)
    assert real_errors(page) == []


def test_every_payload_searched_stays_text(hostile_site, page):
    server, _ = hostile_site
    dialogs = watch(page, server)
    assert page.page.goto(server.base_url + "-/search/", wait_until="load").ok
    status = page.page.locator("#search-status")
    for payload in PAYLOADS:
        page.page.evaluate("() => { document.getElementById('search-status').textContent = 'waiting'; }")
        page.page.fill("#search-input", payload)
        page.page.wait_for_function("() => document.getElementById('search-status').textContent !== 'waiting'")
        assert_inert(page, f"query {payload!r}", dialogs)
        tags = page.page.evaluate("() => [...document.querySelectorAll('#search-results *')].map(e => e.tagName)")
        assert set(tags) <= {"LI", "A", "SPAN", "P", "MARK", "H2"}, payload  # H2: "Other results", ours
        if payload in generate.XSS.values():
            titles = page.page.locator("#search-results .result-title").all_text_contents()
            assert payload in titles, f"{payload!r} is not shown, as text, among {titles}"
        assert status.text_content() != "waiting"
    assert real_errors(page) == []


def test_payloads_in_the_url_stay_text(hostile_site, page):
    """?q= fills the search box and ?highlight= marks words on a record page."""
    server, _ = hostile_site
    dialogs = watch(page, server)
    record = server.base_url + record_path_of("xss-script-tag.json") + "/"
    for payload in [*generate.XSS.values(), generate.MARKDOWN["md-javascript-link"], "javascript:alert(1)"]:
        page.page.goto(server.base_url + "-/search/?q=" + quote(payload), wait_until="load")
        page.page.wait_for_function("() => !document.getElementById('search-status').textContent.startsWith('Type')")
        assert page.page.input_value("#search-input") == payload
        assert_inert(page, f"?q={payload}", dialogs)
        page.page.goto(record + "?highlight=" + quote(payload), wait_until="load")
        assert_inert(page, f"?highlight={payload}", dialogs)
    assert real_errors(page) == []
