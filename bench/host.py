"""A local stand-in for a static host, for the benchmark's browser timings.

GitHub Pages, Netlify and Cloudflare Pages all compress text (JSON, JS, CSS,
HTML) and keep connections open; Python's http.server does neither, so under
the 4G emulation a query paid for its raw bytes (3–5× the gzipped ones) and a
new connection per request. This host serves a folder over HTTP/1.1 with
keep-alive and gzips every text file for a client that accepts it, so the
throttled figures measure what a phone on a real host waits for. The folders
named in `ahead` (the search files) are compressed before the first request,
as a CDN's cache holds them: compressing a term file on the request took the
local server 10–80 ms, time no real host spends.
"""
from __future__ import annotations

import functools
import gzip
import http.server
import io
import mimetypes
import os
import threading
from pathlib import Path

COMPRESSED_TYPES = ("text/", "application/json", "application/javascript", "application/xml", "application/wasm",
                    "image/svg+xml")


class StaticHost:
    """Serves `root` at http://127.0.0.1:PORT/ from a thread, as a static host would."""

    def __init__(self, root: Path, ahead: tuple[str, ...] = ()):
        for folder in ahead:
            for dirpath, _, names in os.walk(root / folder):
                for name in names:
                    path = os.path.join(dirpath, name)
                    if (mimetypes.guess_type(path)[0] or "").startswith(COMPRESSED_TYPES):
                        _gzipped(path, os.stat(path).st_mtime_ns)
        handler = functools.partial(_Handler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@functools.cache
def _gzipped(path: str, mtime_ns: int) -> bytes:
    with open(path, "rb") as file:
        return gzip.compress(file.read(), 6, mtime=0)


class _Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the redirect to the folder's URL
            path = os.path.join(path, "index.html")
        kind = self.guess_type(path)
        if "gzip" not in self.headers.get("Accept-Encoding", "") or not kind.startswith(COMPRESSED_TYPES) \
                or not os.path.isfile(path):
            return super().send_head()
        body = _gzipped(path, os.stat(path).st_mtime_ns)
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)  # what do_GET copies to the client
