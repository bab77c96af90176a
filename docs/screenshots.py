"""Regenerate the README's screenshots from a fresh build of records/ in a
temporary folder (needs Chromium at /usr/bin/chromium and the test packages):

    .venv/bin/python docs/screenshots.py [FOLDER]    # default: docs/
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from playwright.sync_api import sync_playwright  # noqa: E402

from errorsite.urls import SEARCH_PATH  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, serve_site  # noqa: E402

PASTE = "jinja2.exceptions.UndefinedError: 'dict object' has no attribute 'address'"
DESKTOP, PHONE = (1100, 900), (375, 812)
SHOTS = [  # (file, path under the site, text typed into its search box or None, colour scheme, viewport)
    ("record.png", "pallets/jinja/has-no-attribute/", None, "light", DESKTOP),
    ("record-phone.png", "pallets/jinja/has-no-attribute/", None, "light", PHONE),
    ("search.png", SEARCH_PATH, PASTE, "light", DESKTOP),
    ("search-panel.png", "", PASTE, "light", DESKTOP),  # the home page's box: results as you type
    ("record-dark.png", "huggingface/candle/kv-cache-enabled-true-is-not-supported/", None, "dark", DESKTOP),
]


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    with tempfile.TemporaryDirectory() as tmp:
        server, _ = serve_site(Path(tmp), ROOT / "records")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for name, path, query, scheme, (width, height) in SHOTS:
                page = browser.new_page(viewport={"width": width, "height": height}, color_scheme=scheme)
                page.goto(server.base_url + path)
                if query:
                    page.fill("#search-input", query)
                    page.wait_for_selector("#search-results > li, #search-panel:not([hidden]) li")
                page.wait_for_timeout(300)
                page.screenshot(path=str(out / name))
                page.close()
            browser.close()
        server.close()


if __name__ == "__main__":
    main()
