"""Search latency in Chromium: the real search page over a built corpus, per query.

Queries: every one of ../shared/queries.json (when present), lunr's special
characters, and a 10 KB log paste, timed after the index is loaded.
"""
from __future__ import annotations

import json, shutil, statistics
from pathlib import Path

from errorsite import urls
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, SHARED, serve_site


def queries() -> list[str]:
    path = SHARED / "queries.json"
    found = [q["query"] for q in json.loads(path.read_text(encoding="utf-8"))] if path.exists() else []
    log = "\n".join(f"2026-11-30T10:{i % 60:02d}:00Z INFO worker[{i}] processed job {i} in 0x{i:08x} ms"
                    for i in range(160))
    return found + [":", "+", "-", "~", "^", "*", '"', "</script>", "a+b ~c ^d", "invalid argument", log[:10240]]


def search_latency(records: Path, scratch: Path) -> dict:
    """Build `records` under `scratch`, serve it, and time every query in Chromium."""
    from playwright.sync_api import sync_playwright
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    server, _ = serve_site(scratch, records)
    qs = queries()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(server.base_url + urls.SEARCH_PATH)
            load_ms = page.evaluate("""async (dir) => { const t = performance.now();
                const [i, d, n] = await Promise.all(['index.json', 'docs.json', 'names.json'].map(n =>
                  fetch(document.documentElement.dataset.root + dir + n).then(r => r.json())));
                window.__engine = new ErrorSearch(i, d, n); return performance.now() - t; }""", urls.SEARCH_PATH)
            times = page.evaluate("""qs => qs.map(q => { const t = performance.now();
                window.__engine.search(q, 20); return performance.now() - t; })""", qs)
            browser.close()
    finally:
        server.close()
    log_ms, times = times[-1], sorted(times)  # the 10 KB log paste is the last query
    return {"queries": len(times), "index_load_ms": round(load_ms), "median_ms": round(statistics.median(times), 1),
            "p95_ms": round(times[int(len(times) * 0.95) - 1], 1), "max_ms": round(times[-1], 1),
            "log_10kb_ms": round(log_ms, 1)}
