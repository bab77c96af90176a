"""Lighthouse's scores of a built site's kinds of page (issue 42: 100 in
accessibility, best practices and SEO, performance at least 95).

    npm install --prefix /tmp/lh lighthouse@12        # once; Lighthouse drives Debian's chromium
    python bench/lighthouse.py --site DIR --lighthouse /tmp/lh/node_modules/.bin/lighthouse

Serves DIR on 127.0.0.1 under /errors/ (build it with that --base-url) and
prints each page's four scores. Not a test: Lighthouse comes from npm, which CI
does not install; the axe checks in the browser tests hold accessibility there.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import json
import subprocess
import tempfile
import threading
from pathlib import Path

PAGES = ("", "huggingface/candle/input-rank-for-groupnorm-should-be-at-least-3/", "huggingface/candle/",
         "-/search/", "-/code/", "-/tags/")
CATEGORIES = "performance,accessibility,best-practices,seo"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, required=True, help="a site built with --base-url http://127.0.0.1:8765/errors/")
    parser.add_argument("--lighthouse", default="lighthouse")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        (Path(root) / "errors").symlink_to(args.site.resolve())
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)
        handler.log_message = lambda *a: None
        server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            for page in PAGES:
                out = Path(root) / "report.json"
                subprocess.run([args.lighthouse, f"http://127.0.0.1:{args.port}/errors/{page}", "--quiet",
                                "--chrome-flags=--headless --no-sandbox --disable-gpu", f"--only-categories={CATEGORIES}",
                                "--output=json", f"--output-path={out}"], env={"CHROME_PATH": "/usr/bin/chromium",
                                                                               "PATH": "/usr/bin:/bin"},
                               check=True, capture_output=True, timeout=180)
                scores = {k: round(v["score"] * 100) for k, v in json.loads(out.read_text())["categories"].items()}
                print(f"/{page or ''}: " + ", ".join(f"{k} {v}" for k, v in scores.items()))
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
