"""A record whose slug is not ASCII (a real Chinese message's slug) builds,
is linked from its listings and is found by search, in Chromium."""
from __future__ import annotations

import json
from urllib.parse import quote, unquote, urlsplit

from tests.conftest import ROOT, serve_site

SLUG = "内存不足-错误"
MESSAGE = "out of memory: cannot allocate 4096 bytes (内存不足)"


def test_a_unicode_slug_builds_links_and_searches(tmp_path, page):
    records = tmp_path / "records"
    records.mkdir()
    data = json.loads((ROOT / "records" / "python__cpython__expecting-value.json").read_text("utf-8"))
    data["record"].update(id="oom-zh", slug=SLUG, errorMessage=MESSAGE, messagePattern=None)
    (records / "oom.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    server, out = serve_site(tmp_path / "www", records)
    try:
        record_path = f"{server.base_url}python/cpython/{quote(SLUG)}/"
        assert (out / "python" / "cpython" / SLUG / "index.html").is_file()

        page.page.goto(server.base_url + "python/cpython/")
        link = page.page.locator(f'a[href="{urlsplit(record_path).path}"]')
        assert link.count() == 1
        link.click()
        page.page.wait_for_load_state("load")
        assert unquote(page.page.url) == unquote(record_path)
        assert page.page.locator("h1").inner_text() == MESSAGE

        page.page.goto(server.base_url + "-/search/")
        page.page.locator("#search-input").fill("cannot allocate 4096 bytes")
        first = page.page.locator("#search-results > li a").first
        first.wait_for()
        assert unquote(urlsplit(first.get_attribute("href")).path) == unquote(urlsplit(record_path).path)
        first.click()
        page.page.wait_for_load_state("load")
        assert page.page.locator("h1").inner_text() == MESSAGE
        assert page.errors == []
    finally:
        server.close()
