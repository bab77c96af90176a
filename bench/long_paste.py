"""A long paste on the search page in Chromium: how long it holds the main thread.

The repository's records are built into a temporary folder and served; the
search page is opened and its engine loaded (the box focused, as a user does
before pasting); then a CI log of `--size` characters that ends in (or holds
halfway) a real traceback is pasted into the box. Reported per log: the
main thread's busy time from the paste to the results shown (or none) (and
200 ms after), all of it (Chromium's TaskDuration) and its long tasks (over
50 ms), the result and its verdict, and the characters the box holds after
(the page puts a long paste in as what the engine reads of it). The paste is
a paste event with the log as its clipboard data, as the browser's own. The engine reads a long paste by its error blocks
(static/search-paste.js `read`), so its cost is bounded by how the text is
scanned, not by how long it is.

    python -m bench.long_paste [--size 1000000]
"""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from bench.host import StaticHost
from bench.longlog import decorated, in_log
from tests.conftest import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parent.parent
TRACEBACK = """Traceback (most recent call last):
  File "/app/load.py", line 12, in <module>
    data = json.loads(text)
  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
  File "/usr/lib/python3.11/json/decoder.py", line 340, in decode
    raise JSONDecodeError("Extra data", s, end)
json.decoder.JSONDecodeError: Extra data: line 2 column 1 (char 9)"""

# The shapes a probe of the page found slow (issue 63): runs a scan could
# backtrack over, one word again and again, a trace of nothing but frames.
PROBES = {"a a a": "a ", "Error: Error:": "Error: ", "a.a.a": "a.", "a-a-a": "a-", "x@x@x": "x@",
          "stack lines": "    at Object.<anonymous> (/app/node_modules/lib/index.js:10:15)\n"}

# Long tasks and busy time from the paste on, read back once the first result shows.
WATCH = """() => {
  window.__long = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]); })
    .observe({type: "longtask", buffered: false});
}"""
PASTE = """() => {
  const text = window.__log, box = document.getElementById("search-input");
  document.getElementById("search-results").removeAttribute("data-match");  // set again when results are shown
  window.__pasted = performance.now();
  const data = new DataTransfer();
  data.setData("text/plain", text);
  if (box.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true, cancelable: true}))) {
    box.value = text;  // not taken by the page: what the browser's own paste does
    box.dispatchEvent(new InputEvent("input", {inputType: "insertFromPaste", bubbles: true}));
  }
}"""
SHOWN = "() => document.getElementById('search-results').hasAttribute('data-match')"
READ = """() => ({
  shown: performance.now() - window.__pasted,
  long: window.__long.filter(([start]) => start >= window.__pasted - 1).map(([, duration]) => duration),
  first: document.querySelector('#search-results > li a')
    ? new URL(document.querySelector('#search-results > li a').href).pathname : null,
  match: document.getElementById('search-results').getAttribute('data-match'),
  box: document.getElementById('search-input').value.length,
})"""


def build(out: Path, base_url: str) -> None:
    from errorsite.cli import main
    code = main(["--records", str(ROOT / "records"), "--out", str(out), "--base-url", base_url, "-j", "1"])
    if code:
        raise SystemExit(f"the build failed ({code})")


def busy(cdp) -> dict[str, float]:
    """Seconds the page's main thread has spent: on tasks in all, on scripts, on layout and styles."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {"all": metrics["TaskDuration"], "script": metrics["ScriptDuration"],
            "layout": metrics["LayoutDuration"] + metrics["RecalcStyleDuration"]}


def measure(size: int, shapes: list[str] | None = None) -> list[dict]:
    from playwright.sync_api import sync_playwright
    logs = {"traceback at the end": in_log(TRACEBACK, "end", size),
            "traceback halfway": in_log(TRACEBACK, "middle", size),
            "stamped and coloured": decorated(TRACEBACK, size),
            **{name: (unit * (size // len(unit) + 1))[:size] for name, unit in PROBES.items()}}
    logs = {name: text for name, text in logs.items() if not shapes or name in shapes}
    with tempfile.TemporaryDirectory(prefix="long-paste-") as folder:
        host = StaticHost(Path(folder))
        base = f"http://127.0.0.1:{host.port}/site/"
        build(Path(folder) / "site", base)
        rows = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                for name, text in logs.items():
                    page = browser.new_context().new_page()
                    page.goto(base + "-/search/")
                    page.focus("#search-input")
                    page.wait_for_function("() => window.ErrorSearch && window.ErrorSearchData")
                    page.evaluate(WATCH)
                    cdp = page.context.new_cdp_session(page)
                    cdp.send("Performance.enable")
                    page.evaluate("text => { window.__log = text; }", text)  # handed over before the clock starts
                    before = busy(cdp)
                    page.evaluate(PASTE)
                    page.wait_for_function(SHOWN, timeout=60_000)
                    page.wait_for_timeout(200)  # the observer reports a task once it ends
                    found = page.evaluate(READ)
                    after = busy(cdp)
                    work = {key: round((after[key] - before[key]) * 1000, 1) for key in after}
                    rows.append({"log": name, "characters": len(text), "main_thread_ms": work["all"], "script_ms": work["script"],
                                 "layout_ms": work["layout"],
                                 "long_tasks_ms": round(sum(found["long"]), 1),
                                 "longest_ms": round(max(found["long"], default=0), 1),
                                 "first_result_ms": round(found["shown"], 1), "first": found["first"],
                                 "match": found["match"], "box_characters": found["box"]})
                    page.context.close()
                browser.close()
        finally:
            host.close()
    return rows


LINK_LIMIT = 2 * 1024 * 1024  # Chromium's longest URL


def measure_links(size: int, shapes: list[str] | None = None) -> list[dict]:
    """A `-/search/#q=` and a `-/go/#q=` link holding each log, cut to what
    fits in a URL of `size` characters: the main thread's busy time from the
    navigation to the results (or the record's page) shown, beside a short
    link's, and beside the floor: a page of one paragraph and no script opened
    with the same fragment, which is Chromium's own cost of so long a URL."""
    from urllib.parse import quote
    from playwright.sync_api import sync_playwright
    texts = {"short": TRACEBACK, "traceback at the end": in_log(TRACEBACK, "end", size),
             **{name: unit * (size // len(unit) + 1) for name, unit in PROBES.items()}}
    texts = {name: text for name, text in texts.items() if not shapes or name in shapes or name == "short"}
    rows = []
    with tempfile.TemporaryDirectory(prefix="long-link-") as folder:
        host = StaticHost(Path(folder))
        base = f"http://127.0.0.1:{host.port}/site/"
        build(Path(folder) / "site", base)
        (Path(folder) / "floor.html").write_text("<!doctype html><title>floor</title><p>A page with no script.")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                for name, text in texts.items():
                    for page_path in ("../floor.html", "-/search/", "-/go/"):
                        prefix = base + page_path + "#q="
                        encoded = quote(text, safe="")
                        while len(prefix) + len(encoded) > min(size, LINK_LIMIT):
                            text = text[:len(text) * 9 // 10]
                            encoded = quote(text, safe="")
                        page = browser.new_context().new_page()
                        cdp = page.context.new_cdp_session(page)
                        cdp.send("Performance.enable")
                        page.goto(prefix + encoded)
                        page.wait_for_function("() => { const list = document.getElementById('search-results');"
                                               " return (list && list.hasAttribute('data-match')) ||"
                                               " document.querySelector('article h1') || document.title == 'floor' }",
                                               timeout=60_000)
                        page.wait_for_timeout(200)
                        work = busy(cdp)
                        rows.append({"link": page_path, "log": name, "url_characters": len(prefix) + len(encoded),
                                     "main_thread_ms": round(work["all"] * 1000, 1),
                                     "script_ms": round(work["script"] * 1000, 1),
                                     "layout_ms": round(work["layout"] * 1000, 1), "landed": urlsplit(page.url).path})
                        page.context.close()
                browser.close()
        finally:
            host.close()
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1_000_000, help="characters of each log")
    parser.add_argument("--shape", action="append", help="only this log (repeat for more): one of the names printed")
    parser.add_argument("--links", action="store_true", help="open -/search/#q= and -/go/#q= links instead of pasting")
    args = parser.parse_args(argv)
    for row in (measure_links if args.links else measure)(args.size, args.shape):
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
