"""Fragments survive every redirect the site makes, in Chromium: build, rename
a record's slug and its repository, rebuild; then the old URL and the
permalink, followed with #L<n>, #L<a>-L<b> and #solutions, land on the new
page with the same fragment and the target in view. The same through the
301s of `_redirects`, served as Netlify and Cloudflare Pages serve them."""
from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
from urllib.parse import urlsplit

import pytest

from tests.conftest import BASE_PATH, SHARED_RECORDS, QuietHandler, Server, WatchedPage, build_quietly, need_shared

pytestmark = pytest.mark.browser

CANDLE = "huggingface__candle__kv-cache-enabled-true-is-not-supported.json"
OTHER = "huggingface__candle__dtype-mismatch-in-op-lhs-rhs.json"
RECORD_ID = "5410d019e75c02d7"
OLD = "huggingface/candle/kv-cache-enabled-true-is-not-supported/"
NEW = "huggingface/candle-next/kv-cache-is-not-supported/"
FRAGMENTS = {"#L449": "L449", "#L445-L452": "L445", "#solutions": "solutions", "#solution-2": "solution-2"}


@pytest.fixture(scope="module")
def renamed(tmp_path_factory):
    """(www folder, site folder) after a build, a slug and repository rename and a rebuild."""
    need_shared()
    tmp = tmp_path_factory.mktemp("fragments")
    records = tmp / "records"
    records.mkdir()
    for name in (CANDLE, OTHER):
        shutil.copy(SHARED_RECORDS / name, records / name)
    server = Server(tmp)
    out = tmp / BASE_PATH.strip("/")
    assert build_quietly(records, out, server.base_url)[0].written
    data = json.loads((records / CANDLE).read_text("utf-8"))
    data["record"].update(slug="kv-cache-is-not-supported", repo="huggingface/candle-next")
    (records / CANDLE).write_text(json.dumps(data), "utf-8")
    data = json.loads((records / OTHER).read_text("utf-8"))
    data["record"].update(repo="huggingface/candle-next")  # and the old repository's listing is gone
    (records / OTHER).write_text(json.dumps(data), "utf-8")
    result, problems = build_quietly(records, out, server.base_url)
    assert result.written and problems == []
    assert (out / OLD / "index.html").is_file() and (out / NEW / "index.html").is_file()
    yield server, out
    server.close()


@pytest.fixture
def small_page(browser):
    """A short window, so that every target starts out of view."""
    context = browser.new_context(viewport={"width": 900, "height": 500})
    watched = WatchedPage(context.new_page())
    yield watched
    context.close()


def landed(page, url: str, element_id: str) -> tuple[str, bool]:
    """Go to `url`; wait for the new record page; its location.hash, and whether
    the element `element_id` is in the window once the page has settled."""
    page.goto(url)
    page.wait_for_url(lambda u: urlsplit(u).path.endswith("/" + NEW))
    page.wait_for_load_state("load")
    page.wait_for_function("""id => {
        const r = document.getElementById(id).getBoundingClientRect();
        return r.bottom > 0 && r.top < window.innerHeight;
    }""", arg=element_id, timeout=5000)
    return page.evaluate("location.hash"), True


@pytest.mark.parametrize("start", [OLD, f"-/r/{RECORD_ID}/"], ids=["old-url", "permalink"])
def test_a_fragment_survives_the_redirect_page(renamed, small_page, start):
    server, _ = renamed
    for fragment, element_id in FRAGMENTS.items():
        hash_, in_view = landed(small_page.page, server.base_url + start + fragment, element_id)
        assert hash_ == fragment and in_view
    # A range is marked as it is on the record page itself.
    small_page.page.goto(server.base_url + start + "#L445-L452")
    small_page.page.wait_for_url(lambda u: urlsplit(u).path.endswith("/" + NEW))
    small_page.page.wait_for_function("() => document.querySelectorAll('.source-code code > .selected').length === 8")
    assert small_page.errors == []


def test_a_moved_listing_keeps_the_fragment_and_query(renamed, small_page):
    server, _ = renamed
    small_page.page.goto(server.base_url + "huggingface/candle/?from=issue#main")
    small_page.page.wait_for_url(lambda u: urlsplit(u).path.endswith("/huggingface/candle-next/"))
    assert small_page.page.evaluate("location.search + location.hash") == "?from=issue#main"
    assert small_page.errors == []


def test_without_javascript_the_meta_refresh_still_leads_there(renamed, browser):
    server, _ = renamed
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server.base_url + OLD)
    page.wait_for_url(lambda u: urlsplit(u).path.endswith("/" + NEW))
    context.close()


class RedirectingHandler(QuietHandler):
    """Serves `_redirects` as real 301s before the files, as Cloudflare Pages does."""

    moves: dict[str, str] = {}

    def do_GET(self):
        target = self.moves.get(urlsplit(self.path).path)
        if target:
            self.send_response(301)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        super().do_GET()


def test_the_301s_of_redirects_keep_the_fragment(renamed, small_page):
    _, out = renamed
    moves = dict(line.split()[:2] for line in (out / "_redirects").read_text().splitlines())
    assert moves[BASE_PATH + OLD] == BASE_PATH + NEW
    handler = type("Moves", (RedirectingHandler,), {"moves": moves})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(out.parent)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{httpd.server_address[1]}{BASE_PATH}"
        hash_, in_view = landed(small_page.page, base + OLD + "#L445-L452", "L445")
        assert hash_ == "#L445-L452" and in_view
    finally:
        httpd.shutdown()
        httpd.server_close()
