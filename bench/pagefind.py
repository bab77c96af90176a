"""Pagefind beside our search, on the same built site's pages: cold queries in Chromium.

    python -m pagefind --site SITE --output-subdir pagefind   # the `pagefind` PyPI package ships the binary
    python bench/pagefind.py SITE RECORDS

Each query of bench/queries.py in a new browser context: pagefind.js is
imported, the query searched and the first screen of results (5, as Pagefind's
UI shows) loaded. Prints per kind the median (max) of requests, KB fetched as
stored (Pagefind's files are compressed already) and time to the first
screen's data.
"""
from __future__ import annotations

import statistics, sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.queries import corpus_kind_queries  # noqa: E402
from bench.host import StaticHost  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

SEARCH = """async (q) => {
  const t0 = performance.now();
  const pagefind = await import('/pagefind/pagefind.js');
  await pagefind.init();
  const found = await pagefind.search(q);
  await Promise.all(found.results.slice(0, 5).map(r => r.data()));
  return [performance.now() - t0, found.results.length]; }"""


def main() -> None:
    from playwright.sync_api import sync_playwright
    site, records = Path(sys.argv[1]), Path(sys.argv[2])
    server = StaticHost(site)
    base = f"http://127.0.0.1:{server.port}/"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for kind, texts in corpus_kind_queries(records, 6).items():
                runs = []
                for text in texts:
                    context = browser.new_context()
                    page = context.new_page()
                    page.goto(base + "404.html")
                    fetched: list[str] = []
                    page.on("request", lambda r: fetched.append(r.url) if "/pagefind/" in r.url else None)
                    ms, count = page.evaluate(SEARCH, text)
                    size = sum((site / u.split("/", 3)[3].split("?")[0]).stat().st_size for u in fetched)
                    runs.append((len(fetched), size / 1e3, ms, count))
                    context.close()
                cell = lambda i, f: f"{f(statistics.median(r[i] for r in runs))} ({f(max(r[i] for r in runs))})"
                print(f"pagefind {kind:<12} {cell(0, int)} requests, {cell(1, round)} KB, "
                      f"first screen {cell(2, round)} ms, {cell(3, int)} results")
            browser.close()
    finally:
        server.close()


if __name__ == "__main__":
    main()
