"""A site built for https://…/errors/ and served there works in Chromium
(issue 62, item 2): every page of the real records, opened as a user opens
it, loads its styles, scripts and data, and every link on it, followed, is
found: 0 broken links, and none that leaves /errors/ for the host's root."""
from __future__ import annotations

from urllib.parse import urldefrag, urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LINKS = """() => [...document.querySelectorAll('a[href], link[href], script[src], img[src], form[action]')]
  .map(e => e.href || e.src || e.action)"""


def test_every_link_of_a_site_served_under_a_sub_path_resolves(shared_site, browser):
    base = shared_site.base_url
    assert urlsplit(base).path == "/errors/"
    origin = base[:-len("errors/")]
    context = browser.new_context()
    page = context.new_page()
    broken: list[str] = []
    page.on("response", lambda r: broken.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("requestfailed", lambda r: broken.append(f"failed {r.url}"))
    page.on("pageerror", lambda e: broken.append(f"pageerror: {e}"))
    seen, queue, checked = {base}, [base], 0
    while queue:
        url = queue.pop()
        response = page.goto(url) if url.endswith("/") or url.endswith(".html") else context.request.get(url)
        checked += 1
        if response is None or response.status >= 400:
            broken.append(f"{response.status if response else 'no response'} {url}")
            continue
        if not (url.endswith("/") or url.endswith(".html")):
            continue
        page.wait_for_load_state("networkidle")
        for link in page.evaluate(LINKS):
            link = urldefrag(link).url
            if not link.startswith(origin) or link in seen:
                continue  # another site (GitHub, the dataset's repository)
            seen.add(link)
            if not link.startswith(base):
                broken.append(f"{url} links {link}, outside {base}")
                continue
            queue.append(link)
    context.close()
    assert checked > 100  # the home page, the listings, every record, their data
    assert broken == []
