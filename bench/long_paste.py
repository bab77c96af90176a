"""A long paste on the search page in Chromium: how long it holds the main thread.

The repository's records are built into a temporary folder and served; the
search page is opened and its engine loaded (the box focused, as a user does
before pasting); then a CI log of `--size` characters that ends in (or holds
halfway) a real traceback is pasted into the box. Reported per log: the
main thread's busy time from the paste to the first result shown (and
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

# Long tasks and busy time from the paste on, read back once the first result shows.
WATCH = """() => {
  window.__long = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]); })
    .observe({type: "longtask", buffered: false});
}"""
PASTE = """() => {
  const text = window.__log, box = document.getElementById("search-input");
  window.__pasted = performance.now();
  const data = new DataTransfer();
  data.setData("text/plain", text);
  if (box.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true, cancelable: true}))) {
    box.value = text;  // not taken by the page: what the browser's own paste does
    box.dispatchEvent(new InputEvent("input", {inputType: "insertFromPaste", bubbles: true}));
  }
}"""
SHOWN = "() => document.querySelector('#search-results > li')"
READ = """() => ({
  shown: performance.now() - window.__pasted,
  long: window.__long.filter(([start]) => start >= window.__pasted - 1).map(([, duration]) => duration),
  first: new URL(document.querySelector('#search-results > li a').href).pathname,
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


def measure(size: int) -> list[dict]:
    from playwright.sync_api import sync_playwright
    logs = {"traceback at the end": in_log(TRACEBACK, "end", size),
            "traceback halfway": in_log(TRACEBACK, "middle", size),
            "stamped and coloured": decorated(TRACEBACK, size)}
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1_000_000, help="characters of each log")
    args = parser.parse_args(argv)
    for row in measure(args.size):
        print(json.dumps(row))


if __name__ == "__main__":
    main()
