"""Make the site-wide unfurl card, static/card.png (1200×630, the size Open
Graph and Twitter's summary_large_image expect), from a small HTML card
screenshot in Chromium. Run once, and commit the PNG:

    python docs/make_card.py
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from playwright.sync_api import sync_playwright  # noqa: E402

from errorsite.render import SITE_DESCRIPTION, SITE_NAME  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

WIDTH, HEIGHT = 1200, 630
CARD = f"""<!doctype html><meta charset="utf-8">
<style>
  html, body {{ margin: 0; width: {WIDTH}px; height: {HEIGHT}px; }}
  body {{ box-sizing: border-box; padding: 80px 90px; background: #0d1117; color: #e6edf3;
         font-family: system-ui, "DejaVu Sans", sans-serif; display: flex; flex-direction: column; }}
  .mark {{ font: 600 34px/1 "DejaVu Sans Mono", monospace; color: #ff7b72; }}
  h1 {{ font-size: 92px; margin: 36px 0 24px; letter-spacing: -1px; }}
  p {{ font-size: 34px; line-height: 1.4; color: #9198a1; margin: 0; max-width: 980px; }}
  .bar {{ margin-top: auto; height: 14px; border-radius: 7px;
          background: linear-gradient(90deg, #1f6feb, #d29922, #cf222e); }}
</style>
<div class="mark">Error: … at line 449</div>
<h1>{SITE_NAME}</h1>
<p>{SITE_DESCRIPTION}</p>
<div class="bar"></div>"""


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        page.set_content(CARD)
        page.screenshot(path=str(ROOT / "static" / "card.png"))
        browser.close()


if __name__ == "__main__":
    main()
