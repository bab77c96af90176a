"""The HTTP side of `serve`: the built site as files under the base path, each
page with the live-reload tag, and this server's own files: the script, and
`status`, which waits for the next build."""
from __future__ import annotations

import http.server
import json
import mimetypes
import secrets
import socket
import sys
import threading
from pathlib import Path
from typing import NamedTuple
from urllib.parse import parse_qs, unquote, urlsplit

from ...pages.render import CSP

OWN = "-/serve/"     # this server's own files, under the base path; never part of a built site
SCRIPT = Path(__file__).with_name("live-reload.js")
WAIT_SECONDS = 20    # how long a status request waits for the next build
MISSING = b"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head>" \
          b"<body><p>Nothing here: no build has succeeded yet.</p></body></html>\n"


class Status:
    """What the last build did, and a way to wait for the next one. `site`
    changes when a build wrote files; `version` on every build, good or bad."""

    def __init__(self):
        self._changed = threading.Condition()
        self._session = secrets.token_hex(4)
        self._sites = self._versions = 0
        self._problems: list[str] = []
        self._error: str | None = None
        self._heading: str | None = None
        self._stopped = False

    def publish(self, wrote: bool, problems: list[str], error: str | None, heading: str | None = None) -> None:
        """`heading`: the overlay's sentence over the problems (reporting.overlay_heading)."""
        with self._changed:
            self._sites += wrote
            self._versions += 1
            self._problems, self._error, self._heading = problems, error, heading
            self._changed.notify_all()

    def snapshot(self) -> dict:
        with self._changed:
            return {"site": f"{self._session}.{self._sites}", "version": f"{self._session}.{self._versions}",
                    "problems": self._problems, "error": self._error, "heading": self._heading}

    def wait(self, since: str, timeout: float) -> dict:
        """The state once its version is not `since` (or after `timeout`)."""
        with self._changed:
            self._changed.wait_for(lambda: self._stopped or self.snapshot()["version"] != since, timeout)
            return self.snapshot()

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify_all()


class Route(NamedTuple):
    status: int                 # 200, 301, 302, 400, 403 or 404
    file: Path | None = None
    location: str | None = None


def route(root: Path, base_path: str, target: str) -> Route:
    """The file that answers a request for `target`, or why none does. Nothing
    outside `root` is ever named: `.` and `..` segments, however encoded, are
    refused, and so is any path that a symlink leads out of `root`."""
    path = urlsplit(target).path
    if not path.startswith(base_path):
        return Route(302, location=base_path) if path in ("/", base_path.rstrip("/")) else Route(404)
    rest = unquote(path[len(base_path):])
    parts = rest.split("/")
    if any(p in (".", "..") or "\\" in p or "\0" in p for p in parts) or "" in parts[:-1]:
        return Route(400)
    try:
        real_root = root.resolve()
        real = root.joinpath(*parts).resolve()
        if not real.is_relative_to(real_root):
            return Route(403)
        if real.is_dir():
            if rest and not rest.endswith("/"):
                return Route(301, location=path + "/")
            real = (real / "index.html").resolve()
            if not real.is_relative_to(real_root):
                return Route(403)
        return Route(200, real) if real.is_file() else Route(404)
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a name too long…
        return Route(404)


def with_script(html: bytes, tag: bytes) -> bytes:
    at = html.find(b"</head>")
    return html[:at] + tag + html[at:] if at >= 0 else html + tag


class DevServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: str, port: int, base_path: str, root: Path, status: Status):
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.base_path, self.root, self.status = base_path, root, status
        super().__init__((host, port), Handler)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a reloading page hangs up: fine
            super().handle_error(request, client_address)


class Handler(http.server.BaseHTTPRequestHandler):
    server: DevServer
    server_version = "errorsite-serve"

    def do_GET(self) -> None:
        self.answer(body=True)

    def do_HEAD(self) -> None:
        self.answer(body=False)

    def answer(self, body: bool) -> None:
        base, status = self.server.base_path, self.server.status
        target = urlsplit(self.path)
        if target.path == base + OWN + "live-reload.js":
            return self.send(200, "text/javascript; charset=utf-8", SCRIPT.read_bytes(), body)
        if target.path == base + OWN + "status":
            since = parse_qs(target.query).get("since", [""])[0]
            state = status.wait(since, WAIT_SECONDS) if since else status.snapshot()
            return self.send(200, "application/json", json.dumps(state).encode(), body)
        found = route(self.server.root, base, self.path)
        if found.location:
            self.send_response(found.status)
            self.send_header("Location", found.location)
            self.send_header("Content-Length", "0")
            return self.end_headers()
        if found.status == 200:
            try:
                return self.send_file(200, found.file, body)
            except OSError:  # replaced by a rebuild between finding and reading it
                pass
        code = found.status if found.status != 200 else 404
        not_found = self.server.root / "404.html"
        try:
            if not not_found.is_symlink():
                return self.send_file(code, not_found, body)
        except OSError:  # no build yet, or one being swapped in
            pass
        self.send(code, "text/html; charset=utf-8", self.scripted(MISSING), body)

    def send_file(self, code: int, file: Path, body: bool) -> None:
        content = file.read_bytes()
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        if kind == "text/html":
            content = self.scripted(content)
        if kind.startswith("text/") or kind in ("application/json", "application/xml", "text/javascript"):
            kind += "; charset=utf-8"
        self.send(code, kind, content, body)

    def scripted(self, html: bytes) -> bytes:
        base = self.server.base_path
        site = self.server.status.snapshot()["site"]
        return with_script(html, (f'<script src="{base}{OWN}live-reload.js" data-status="{base}{OWN}status" '
                                  f'data-site="{site}" defer></script>\n').encode())

    def send(self, code: int, kind: str, content: bytes, body: bool) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(content)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if kind.startswith("text/html"):
            self.send_header("Content-Security-Policy", CSP)
        self.end_headers()
        if body:
            self.wfile.write(content)

    def log_message(self, *args) -> None:  # quiet: the terminal shows builds, not requests
        pass
