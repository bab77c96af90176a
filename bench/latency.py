"""Search in Chromium over a built corpus: what a cold query fetches and how long it waits.

For each kind of query of bench/queries.py (a pasted traceback, a Rust panic,
typed words with a typo, three words, one word; several of each, drawn from
the corpus's own records), each in a new browser context (cold: nothing
cached): the search page is opened, the box focused and the query typed, as a
user does. Per query: the search files fetched after the page itself
(requests, raw and gzipped bytes) until the first screen of results shows,
the rounds of requests the query waited for and the requests the cards of
the results past the first screen then need (from the same query under
Node, bench/search-fetches.js, which orders the fetches by what each waited
for), time from typing to the first result, time
from the last search file's arrival to the first result, then a warm query
(the same words again, everything fetched) and the JS heap the search holds;
then the same cold queries with the network emulated as a phone on 4G (150 ms
round trip, 4 Mbit/s). With `whole=True`
the same queries run on the whole index in one piece (index.json + docs.json,
written beside the site for this purpose only), as the site served it before
the split, to show both side by side.

    python -m bench.latency RECORDS SEARCH_FILES

runs the corpus's queries on a large corpus's search files alone (made by
bench/search_files.py RECORDS SEARCH_FILES) behind the search page of a site
of the repository's few records: the work tree's engine at 100,000 records in
minutes, without the full build.
"""
from __future__ import annotations

import gzip, json, os, shutil, statistics, subprocess, sys, tempfile
from pathlib import Path

from bench.queries import corpus_kind_queries

from errorsite import urls
from bench.host import StaticHost
from tests.conftest import CHROMIUM, CHROMIUM_ARGS

SAMPLES = 6
PHONE = {"offline": False, "latency": 150, "downloadThroughput": 4e6 / 8, "uploadThroughput": 4e6 / 8}
FETCHES = Path(__file__).resolve().parent / "search-fetches.js"

# Resolves when the results list shows results for exactly what is in the box.
SHOWN = """() => decodeURIComponent(location.hash.slice(3)) === document.getElementById('search-input').value &&
                  (document.querySelector('#search-results > li') ||
                   /No results|noise/.test(document.getElementById('search-status').textContent))"""
WATCH = """() => { window.__shown = null; new MutationObserver(() => {
                 if (window.__shown === null && document.querySelector('#search-results > li'))
                   window.__shown = performance.now(); })
               .observe(document.getElementById('search-results'), {childList: true}); }"""


def corpus_queries(records: Path) -> dict[str, list[str]]:
    """SAMPLES queries of each kind of bench/queries.py."""
    return {kind: texts for kind, texts in corpus_kind_queries(records, SAMPLES).items() if texts}


def node_fetches(site: Path, queries: list[str]) -> list[dict]:
    """What each query fetches, and in how many rounds, under Node (bench/search-fetches.js)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as f:
        json.dump(queries, f)
        f.flush()
        run = subprocess.run(["node", str(FETCHES), str(site / urls.SEARCH_PATH), f.name], capture_output=True,
                             text=True, timeout=600, check=True)
    return json.loads(run.stdout)


def search_files(site: Path, requests: list[str]) -> list[tuple[str, int, int]]:
    """(path, raw bytes, gzipped bytes) of each search file the page fetched."""
    found = []
    for url in requests:
        path = url.split("://", 1)[-1].split("/", 1)[-1].split("?")[0]
        if path.startswith(urls.SEARCH_PATH) and path.endswith(".json"):
            data = (site / path).read_bytes()
            found.append((path, len(data), len(gzip.compress(data, 6))))
    return found


def search_page(browser, base: str):
    """The search page in a new browser context: nothing cached."""
    context = browser.new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    page.goto(base + urls.SEARCH_PATH)
    page.wait_for_load_state("networkidle")
    return context, page, cdp


def heap(cdp) -> int:
    cdp.send("HeapProfiler.collectGarbage")
    return cdp.send("Runtime.getHeapUsage")["usedSize"]


def cold_query(browser, base: str, site: Path, query: str, network: dict | None = None) -> dict:
    context, page, cdp = search_page(browser, base)
    if network:
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", network)
    heap_before = heap(cdp)
    page.evaluate(WATCH)
    page.focus("#search-input")
    started = page.evaluate("performance.now()")
    page.fill("#search-input", query)
    page.wait_for_function(SHOWN, timeout=120_000)
    shown = page.evaluate("window.__shown")
    arrived = page.evaluate("""() => Math.max(0, ...performance.getEntriesByType('resource')
        .filter(e => e.name.includes('/-/search/')).map(e => e.responseEnd))""")
    # What the first screen waited for: the cards of results past it may be fetched after.
    requests = page.evaluate("""() => performance.getEntriesByType('resource')
        .filter(e => e.startTime <= window.__shown).map(e => e.name)""")
    used = heap(cdp) - heap_before
    files = search_files(site, requests)
    warm = page.evaluate("""async (q) => {
        const get = url => fetch(url).then(r => r.json());
        const search = new ErrorSearchData.SplitSearch(document.documentElement.dataset.root + '-/search/', get);
        await search.search(q, 20);               // fetched once (from the HTTP cache)…
        const t = performance.now(); await search.search(q, 20); return performance.now() - t; }""", query)
    context.close()
    return {"requests": len(files), "raw": sum(f[1] for f in files), "gzip": sum(f[2] for f in files),
            "biggest_gzip": max((f[2] for f in files), default=0),
            "first_result_ms": round((shown or 0) - started, 1), "after_data_ms": round((shown or 0) - arrived, 1),
            "warm_ms": round(warm, 1), "heap_mb": round(used / 2**20, 2)}


def whole_query(browser, base: str, site: Path, query: str) -> dict:
    """The same query on the whole index: fetch it all, load it, search."""
    context, page, cdp = search_page(browser, base)
    heap_before = heap(cdp)
    timing = page.evaluate("""async (q) => {
        const root = document.documentElement.dataset.root + '-/search/whole/';
        const t0 = performance.now();
        const [i, d, n, m] = await Promise.all(['index.json', 'docs.json', '../names.json', '../meta.json'].map(f =>
          fetch(root + f).then(r => r.json())));
        const t1 = performance.now();
        window.__whole = new ErrorSearch(i, d, n, m); window.__whole.search(q, 20);
        const t2 = performance.now(); window.__whole.search(q, 20);
        return [t1 - t0, t2 - t0, performance.now() - t2]; }""", query)
    used = heap(cdp) - heap_before
    context.close()
    files = [site / urls.SEARCH_PATH / "whole" / name for name in ("index.json", "docs.json")]
    files.append(site / urls.SEARCH_PATH / "names.json")
    raw = sum(f.stat().st_size for f in files)
    packed = sum(len(gzip.compress(f.read_bytes(), 6)) for f in files)
    return {"requests": 3, "raw": raw, "gzip": packed, "biggest_gzip": packed, "first_result_ms": round(timing[1], 1),
            "after_data_ms": round(timing[1] - timing[0], 1), "warm_ms": round(timing[2], 1),
            "heap_mb": round(used / 2**20, 2)}


def write_whole_index(records: Path, site: Path) -> None:
    """index.json and docs.json as the site served them before the split."""
    from bench.search_files import corpus_summaries
    from errorsite.search import build_index, result_doc
    summaries = corpus_summaries(records)
    folder = site / urls.SEARCH_PATH / "whole"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.json").write_text(json.dumps(build_index(summaries), separators=(",", ":")), encoding="utf-8")
    (folder / "docs.json").write_text(json.dumps([result_doc(r) for r in summaries], separators=(",", ":")),
                                      encoding="utf-8")


def summarize_runs(runs: list[dict]) -> dict:
    keys = runs[0].keys()
    return {key: {"median": round(statistics.median(r[key] for r in runs), 1), "max": max(r[key] for r in runs)}
            for key in keys}


def search_latency(site: Path, records: Path, whole: bool = False) -> dict:
    """Serve the built `site` and run the corpus's queries cold, split and (with `whole`) in one piece."""
    from playwright.sync_api import sync_playwright
    queries = corpus_queries(records)
    if whole:
        write_whole_index(records, site)
    server = StaticHost(site, ahead=(urls.SEARCH_PATH, urls.STATIC_PATH))
    base = f"http://127.0.0.1:{server.port}/"
    result: dict = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for kind, texts in queries.items():
                rounds = [{"rounds": o["rounds"], "later_requests": len(o["later"])} for o in node_fetches(site, texts)]
                runs = [{**cold_query(browser, base, site, q), **r} for q, r in zip(texts, rounds)]
                phone = [{**cold_query(browser, base, site, q, PHONE), **r} for q, r in zip(texts, rounds)]
                result[kind] = {"split": summarize_runs(runs), "split, 4G": summarize_runs(phone)}
                if whole:
                    result[kind]["whole"] = summarize_runs([whole_query(browser, base, site, q) for q in texts])
            browser.close()
    finally:
        server.close()
        if whole:
            for name in ("index.json", "docs.json"):
                (site / urls.SEARCH_PATH / "whole" / name).unlink(missing_ok=True)
            (site / urls.SEARCH_PATH / "whole").rmdir()
    return result


def site_with_search_files(search_files: Path, folder: Path) -> Path:
    """A site of the repository's own few records whose search data is that
    of `search_files` (bench/search_files.py's OUT): the work tree's search
    page and engine over a large corpus's files, without building its pages.
    The files are hard-linked where they can be: 100,000 records make 12,000."""
    root = Path(__file__).resolve().parent.parent
    site = folder / "site"
    subprocess.run([sys.executable, str(root / "build.py"), "--records", str(root / "records"), "--out", str(site),
                    "-q", "--no-cache"], check=True)
    search = site / urls.SEARCH_PATH
    page = (search / "index.html").read_bytes()
    shutil.rmtree(search)

    def link(source: str, target: str) -> None:
        try:
            os.link(source, target)
        except OSError:  # another file system
            shutil.copy2(source, target)
    shutil.copytree(search_files / urls.SEARCH_PATH, search, copy_function=link)
    (search / "index.html").write_bytes(page)
    return site


def main() -> None:
    """python -m bench.latency RECORDS SEARCH_FILES: the corpus's queries in
    Chromium on SEARCH_FILES (bench/search_files.py RECORDS SEARCH_FILES), as JSON."""
    records, search_files = Path(sys.argv[1]), Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as folder:
        site = site_with_search_files(search_files, Path(folder))
        print(json.dumps(search_latency(site, records), indent=1))


if __name__ == "__main__":
    main()
