"""Pagefind beside our search, on a built site of the same records: cold queries in Chromium.

    python -m pagefind --site SITE                # the `pagefind` PyPI package ships the binary
    python bench/pagefind.py SITE RECORDS

`bench/bench.py --search` runs both on Hugo's site of each size up to
`--pagefind-up-to` (Pagefind took 3 GB and 275 s to index 10,000 records).
Each query of bench/queries.py in a new browser context, on the same static
host as ours (bench/host.py): pagefind.js is imported, the query searched
and the first screen of results (5, as Pagefind's UI shows) loaded; then the
same with the network emulated as a phone on 4G. Per kind, the median (max)
of requests, bytes fetched as stored (Pagefind's files are compressed
already) and time to the first screen's data.
"""
from __future__ import annotations

import importlib.util, sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.host import StaticHost  # noqa: E402
from bench.latency import PHONE, summarize_runs  # noqa: E402
from bench.queries import corpus_kind_queries  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

SEARCH = """async (q) => {
  const t0 = performance.now();
  const pagefind = await import('/pagefind/pagefind.js');
  await pagefind.init();
  const found = await pagefind.search(q);
  await Promise.all(found.results.slice(0, 5).map(r => r.data()));
  return [performance.now() - t0, found.results.length]; }"""


def available() -> bool:
    return importlib.util.find_spec("pagefind") is not None


BUNDLE = "pagefind"  # the folder of `site` Pagefind writes its index and scripts to


def index_command(site: Path) -> list[str]:
    """Indexes every page of `site` into `site/pagefind/`."""
    return [sys.executable, "-m", "pagefind", "--site", str(site)]


def cold_query(browser, base: str, site: Path, text: str, network: dict | None = None) -> dict:
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + "404.html")  # any page of the origin
    if network:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", network)
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/pagefind/" in r.url else None)
    ms, count = page.evaluate(SEARCH, text)
    context.close()
    stored = sum((site / url.split("/", 3)[3].split("?")[0]).stat().st_size for url in fetched)
    return {"requests": len(fetched), "gzip": stored, "first_result_ms": round(ms, 1), "results": count}


def pagefind_latency(site: Path, records: Path) -> dict:
    """kind → {"Pagefind": figures, "Pagefind, 4G": figures} on `site` (indexed already)."""
    from playwright.sync_api import sync_playwright
    server = StaticHost(site)
    base = f"http://127.0.0.1:{server.port}/"
    result: dict = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for kind, texts in corpus_kind_queries(records, 6).items():
                if texts:
                    result[kind] = {
                        "Pagefind": summarize_runs([cold_query(browser, base, site, t) for t in texts]),
                        "Pagefind, 4G": summarize_runs([cold_query(browser, base, site, t, PHONE) for t in texts])}
            browser.close()
    finally:
        server.close()
    return result


def main() -> None:
    from bench.report import search_cells
    site, records = Path(sys.argv[1]), Path(sys.argv[2])
    for kind, sides in pagefind_latency(site, records).items():
        for side, figures in sides.items():
            print(f"{side}, {kind}: {search_cells(figures)}")


if __name__ == "__main__":
    main()
