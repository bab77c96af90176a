"""`build.py serve`: what it serves and refuses, rebuilding on a change, keeping
the last good build, live reload in Chromium, and stopping on Ctrl-C.

Servers listen on a free port of 127.0.0.1 and build into their own temporary
folder; the records they watch are copies in the test's tmp_path. Waiting for
a rebuild uses the server's own long-poll (`-/serve/status?since=…`), not sleeps.
"""
from __future__ import annotations

import dataclasses
import http.client
import json
import os
import queue
import select
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable
from urllib.parse import quote, urlsplit

import pytest

from errorsite import urls
from errorsite.config import Settings, read_config
from errorsite.pages.render import SITE_DESCRIPTION
from errorsite.tools.serve import OWN, Status, route, serve
from tests.conftest import ROOT

DEMO = ROOT / "records"
RECORD = "pallets__jinja__has-no-attribute.json"
OTHER = "python__cpython__extra-data.json"
SECRET = "the secret beside the site"


def record_path(name: str) -> str:
    data = json.loads((DEMO / name).read_text(encoding="utf-8"))["record"]
    return f"{data['repo'].lower()}/{data['slug']}/"


# --- route(): which file answers, without a server -------------------------------------

@pytest.fixture
def site(tmp_path) -> Path:
    root = tmp_path / "site"
    (root / "a" / "b").mkdir(parents=True)
    (root / "index.html").write_text("home")
    (root / "a" / "b" / "index.html").write_text("page")
    (root / "style.css").write_text("css")
    (tmp_path / "secret.txt").write_text(SECRET)
    return root


@pytest.mark.parametrize("target, expected", [
    ("/errors/", (200, "index.html")),
    ("/errors/a/b/", (200, "a/b/index.html")),
    ("/errors/a/b/?q=1#x", (200, "a/b/index.html")),
    ("/errors/style.css", (200, "style.css")),
    ("/errors/st%79le.css", (200, "style.css")),
    ("/errors/missing/", (404, None)),
    ("/elsewhere/", (404, None)),
])
def test_route_finds_files_under_the_base_path(site, target, expected):
    found = route(site, "/errors/", target)
    assert (found.status, found.file and found.file.relative_to(site.resolve()).as_posix()) == expected


def test_route_redirects_to_the_base_path_and_adds_the_slash(site):
    assert route(site, "/errors/", "/")[::2] == (302, "/errors/")
    assert route(site, "/errors/", "/errors")[::2] == (302, "/errors/")
    assert route(site, "/errors/", "/errors/a/b")[::2] == (301, "/errors/a/b/")


@pytest.mark.parametrize("target", [
    "/errors/../secret.txt", "/errors/a/../../secret.txt", "/errors/%2e%2e/secret.txt",
    "/errors/%2E%2E/secret.txt", "/errors/.%2e/secret.txt", "/errors/%2e%2e%2fsecret.txt",
    "/errors/..%5csecret.txt", "/errors/a/%2e/b/", "/errors//etc/passwd", "/errors/%00",
])
def test_route_refuses_dot_segments_however_encoded(site, target):
    assert route(site, "/errors/", target).status == 400


def test_route_refuses_a_symlink_out_of_the_site(site, tmp_path):
    (site / "leak.txt").symlink_to(tmp_path / "secret.txt")
    (site / "out").symlink_to(tmp_path)
    (site / "a" / "b" / "index.html").unlink()
    (site / "a" / "b" / "index.html").symlink_to(tmp_path / "secret.txt")
    assert route(site, "/errors/", "/errors/leak.txt").status == 403
    assert route(site, "/errors/", "/errors/out/secret.txt").status == 403
    assert route(site, "/errors/", "/errors/a/b/").status == 403


def test_route_follows_a_symlink_that_stays_inside(site):
    (site / "alias.css").symlink_to(site / "style.css")
    assert route(site, "/errors/", "/errors/alias.css").status == 200


def test_status_waits_for_the_next_build():
    status = Status()
    first = status.snapshot()
    assert status.wait(first["version"], 0.01) == first  # nothing new: it times out unchanged
    threading.Timer(0.05, status.publish, (True, ["r/x.json: id: bad"], None)).start()
    after = status.wait(first["version"], 60)
    assert after["version"] != first["version"] and after["site"] != first["site"]
    assert after["problems"] == ["r/x.json: id: bad"]


# --- a running server ---------------------------------------------------------------

class Running:
    """`serve` in a thread, over a copy of two demo records and a template folder."""

    def __init__(self, tmp: Path, footer: str = "<footer>theme footer, first</footer>\n",
                 after_first_build: Callable[["Running"], None] | None = None):
        self.records = tmp / "records"
        self.records.mkdir()
        for name in (RECORD, OTHER):
            shutil.copy(DEMO / name, self.records / name)
        self.theme = tmp / "theme"
        self.theme.mkdir()
        self.write_footer(footer)
        self.config = tmp / "site.toml"
        self.config.write_text('title = "Live"\n')
        settings = Settings(
            title="Live", description=SITE_DESCRIPTION, base_url="https://example.org/errors/",
            dataset_url=None, page_size=100, templates=self.theme, records=self.records, out=tmp / "unused",
            strict=False, jobs=1, host="127.0.0.1", port=0, card=None, cards=False, config=self.config)

        def reread() -> Settings:  # what the command does: the file again, over the same options
            return dataclasses.replace(settings, **read_config(self.config))

        self.lines: list[str] = []

        def report(line: str) -> None:  # called on serve's own thread, between its steps
            nonlocal after_first_build
            self.lines.append(line)
            if after_first_build and line.startswith("built "):
                after_first_build(self)
                after_first_build = None

        self.stop = threading.Event()
        started: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=serve, kwargs=dict(
            settings=settings, reread=reread, report=report, stop=self.stop,
            ready=lambda url, root: started.put((url, root))), daemon=True)
        self.thread.start()
        self.url, self.root = started.get(timeout=120)
        self.base_path = urlsplit(self.url).path
        self.state = self.status()

    def write_footer(self, text: str) -> None:
        (self.theme / "footer.html").write_text(text, encoding="utf-8")

    def request(self, path: str, method: str = "GET") -> tuple[int, dict, bytes]:
        """`path` is sent exactly as given: no client-side normalization of `..`."""
        parts = urlsplit(self.url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        try:
            connection.request(method, path)
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def get(self, site_path: str) -> bytes:
        code, _, body = self.request(self.base_path + site_path)
        assert code == 200, (site_path, code)
        return body

    def status(self, since: str = "") -> dict:
        query = f"?since={since}" if since else ""
        return json.loads(self.get(OWN + "status" + query))

    def next_build(self) -> dict:
        """Wait for the build after the last one seen."""
        for _ in range(30):  # each wait is at most WAIT_SECONDS
            state = self.status(self.state["version"])
            if state["version"] != self.state["version"]:
                self.state = state
                return state
        raise AssertionError(f"no rebuild; the server said: {self.lines}")

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=60)
        assert not self.thread.is_alive()


@pytest.fixture
def running(tmp_path):
    server = Running(tmp_path)
    yield server
    server.close()


@pytest.mark.slow
def test_serves_the_site_under_the_base_path_with_the_reload_script(running):
    assert running.url.startswith("http://127.0.0.1:") and running.base_path == "/errors/"
    code, headers, body = running.request("/errors/" + record_path(RECORD))
    assert code == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Content-Security-Policy"].startswith("default-src 'self'; script-src 'self';")
    html = body.decode()
    tag = f'<script src="/errors/{OWN}live-reload.js" data-status="/errors/{OWN}status" data-site="'
    assert html.count(tag) == 1 and html.index(tag) < html.index("</head>")
    assert "<script>" not in html  # nothing inline
    assert "theme footer, first" in html
    code, headers, body = running.request(f"/errors/{OWN}live-reload.js")
    assert (code, headers["Content-Type"]) == (200, "text/javascript; charset=utf-8")
    assert b"location.reload()" in body
    assert running.request("/errors/" + urls.SCHEMA_PATH)[1]["Content-Type"] == "application/json; charset=utf-8"
    assert running.request("/")[0:2] == (302, running.request("/")[1]) and running.request("/")[1]["Location"] == "/errors/"
    code, _, body = running.request("/errors/no/such/page/")
    assert code == 404 and b"Page not found" in body and b"live-reload.js" in body
    assert running.request("/errors/", "HEAD")[::2] == (200, b"")


@pytest.mark.slow
@pytest.mark.parametrize("trick", ["../secret.txt", "%2e%2e/secret.txt", "%2E%2E%2Fsecret.txt",
                                   "..%2f..%2fsecret.txt", "..\\secret.txt", "./%2e./secret.txt"])
def test_path_tricks_are_refused(running, trick):
    (running.root.parent / "secret.txt").write_text(SECRET)
    code, _, body = running.request("/errors/" + trick)
    assert code == 400 and SECRET.encode() not in body


@pytest.mark.slow
def test_a_symlink_out_of_the_site_is_refused(running):
    secret = running.root.parent.parent / "secret.txt"  # outside the server's own folder too
    secret.write_text(SECRET)
    (running.root / "leak.txt").symlink_to(secret)
    (running.root / "out").symlink_to(secret.parent)
    for path in ("/errors/leak.txt", "/errors/out/secret.txt"):
        code, _, body = running.request(path)
        assert code == 403 and SECRET.encode() not in body, path


@pytest.mark.slow
def test_a_changed_record_is_rebuilt(running):
    page = record_path(RECORD)
    assert b"EDITED" not in running.get(page)
    data = json.loads((running.records / RECORD).read_text(encoding="utf-8"))
    data["record"]["errorMessage"] += " EDITED"
    (running.records / RECORD).write_text(json.dumps(data), encoding="utf-8")
    before = running.state["site"]
    state = running.next_build()
    assert state["site"] != before and state["problems"] == [] and state["error"] is None
    assert b"EDITED" in running.get(page)
    assert any(line.startswith("built 2 records (") for line in running.lines)


@pytest.mark.slow
def test_a_change_made_before_the_watcher_is_armed_is_rebuilt(tmp_path):
    """The first build can take minutes; what is edited meanwhile must not be missed."""
    def edit(server: Running) -> None:
        (server.records / "late.json").write_text('{"record": {"id": 3}}', encoding="utf-8")

    server = Running(tmp_path, after_first_build=edit)
    try:
        if not server.state["problems"]:
            server.next_build()
        assert any("late.json: id: expected a string, got 3" in line for line in server.state["problems"])
        assert "changed: late.json" in server.lines
    finally:
        server.close()


@pytest.mark.slow
def test_a_bad_record_is_reported_and_the_rest_keeps_working(running):
    (running.records / "broken.json").write_text('{"record": {"id": 3}}', encoding="utf-8")
    state = running.next_build()
    shown = running.records.as_posix() + "/broken.json"
    assert f"{shown}: id: expected a string, got 3" in state["problems"]
    assert state["error"] is None
    assert f"{shown}: id: expected a string, got 3" in running.lines  # and in the terminal
    assert running.get(record_path(RECORD)) and running.get(record_path(OTHER))


@pytest.mark.slow
def test_a_failed_rebuild_keeps_the_last_good_build(running):
    page = record_path(RECORD)
    good_site = running.state["site"]
    running.write_footer("<footer>{% if %}</footer>\n")
    state = running.next_build()
    assert state["site"] == good_site  # nothing new was written: open pages do not reload
    assert state["error"].startswith(f"template error: {running.theme / 'footer.html'}:1: ")
    assert b"theme footer, first" in running.get(page)  # the last good build, still served
    running.write_footer("<footer>theme footer, second</footer>\n")
    state = running.next_build()
    assert state["error"] is None and state["site"] != good_site
    assert b"theme footer, second" in running.get(page)


@pytest.mark.slow
def test_a_settings_change_rebuilds_and_a_bad_one_is_shown(running):
    running.config.write_text('title = "Renamed"\n')
    state = running.next_build()
    assert state["error"] is None and b"Renamed" in running.get("")
    running.config.write_text('titel = "Oops"\n')
    state = running.next_build()
    assert state["error"].startswith(f"{running.config}: titel: unknown key (did you mean 'title'?)")
    assert b"Renamed" in running.get("")


@pytest.mark.slow
def test_before_any_good_build_the_page_still_waits_for_one(tmp_path):
    server = Running(tmp_path, footer="<footer>{{ nothing_here }}</footer>\n")
    try:
        assert server.state["error"].startswith("template error: ")
        assert "nothing_here" in server.state["error"]
        code, _, body = server.request("/errors/")
        assert code == 404 and b"no build has succeeded yet" in body and b"live-reload.js" in body
        server.write_footer("<footer>fixed</footer>\n")
        assert server.next_build()["error"] is None
        assert b"<footer>fixed</footer>" in server.get("")
    finally:
        server.close()


@pytest.mark.slow
def test_stopping_removes_the_build(tmp_path):
    server = Running(tmp_path)
    workdir = server.root.parent
    assert workdir.is_dir()
    server.close()
    assert not workdir.exists()
    assert server.lines[-1] == "stopped"


# --- as users run it: a subprocess, stopped with Ctrl-C ------------------------------------

@pytest.mark.slow
def test_ctrl_c_stops_cleanly(tmp_path):
    records = tmp_path / "records"
    records.mkdir()
    shutil.copy(DEMO / RECORD, records / RECORD)
    temp = tmp_path / "tmp"
    temp.mkdir()
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "build.py"), "serve", "--port", "0", "--records", str(records),
         "--base-url", "https://example.org/errors/"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "TMPDIR": str(temp)})
    try:
        ready, _, _ = select.select([process.stdout], [], [], 120)
        assert ready, "serve printed no URL"
        url = process.stdout.readline().strip()
        parts = urlsplit(url)
        assert (parts.hostname, parts.path) == ("127.0.0.1", "/errors/")
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        connection.request("GET", parts.path + record_path(RECORD))
        assert connection.getresponse().status == 200
        connection.close()
        assert len(list(temp.iterdir())) == 1  # its build folder
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert err.splitlines()[0] == "built 1 record (" + err.splitlines()[0].split("(", 1)[1]
    assert err.splitlines()[-1] == "stopped"
    assert list(temp.iterdir()) == []


@pytest.mark.slow
def test_a_taken_port_is_an_error_not_a_traceback(tmp_path):
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, str(ROOT / "build.py"), "serve", "--port", str(port)],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip() == f"serve: cannot listen on 127.0.0.1:{port}: Address already in use"


# --- in Chromium ---------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.browser
def test_the_open_page_follows_the_records(running, page):
    """Edit a record: the open page shows it with no manual reload. Break one:
    an overlay lists the problem. The reload script passes the strict CSP."""
    target = running.url + record_path(RECORD)
    assert page.page.goto(target).ok
    h1 = page.page.locator("h1")
    assert "EDITED" not in h1.inner_text()
    page.page.evaluate("() => { window.__sameDocument = true; }")  # survives only if nobody reloads

    data = json.loads((running.records / RECORD).read_text(encoding="utf-8"))
    data["record"]["errorMessage"] += " EDITED"
    (running.records / RECORD).write_text(json.dumps(data), encoding="utf-8")
    page.page.wait_for_function("() => document.querySelector('h1').textContent.includes('EDITED')", timeout=60_000)
    assert page.page.evaluate("() => window.__sameDocument === undefined")  # the script reloaded it

    (running.records / "broken.json").write_text('{"error": {}}', encoding="utf-8")
    overlay = page.page.locator("#errorsite-serve-overlay")
    overlay.wait_for(state="visible", timeout=60_000)
    assert overlay.get_attribute("role") == "alert"
    assert "1 problem in the records: built 2 records, skipped 1." in overlay.inner_text()
    assert "(those records are skipped)" not in overlay.inner_text()
    assert f"{running.records.as_posix()}/broken.json: record: is missing" in overlay.inner_text()
    assert "EDITED" in h1.inner_text()  # the record pages keep working

    overlay.locator("button").click()  # Dismiss
    assert overlay.count() == 0
    page.page.evaluate("() => { window.__sameDocument = true; }")
    (running.records / "broken.json").unlink()
    page.page.wait_for_function("() => window.__sameDocument === undefined", timeout=60_000)
    page.page.wait_for_load_state("load")
    assert running.status()["problems"] == [] and overlay.count() == 0
    assert page.errors == []


@pytest.mark.slow
@pytest.mark.browser
def test_the_opensearch_template_lands_on_results(running, page):
    """What a browser does with the OpenSearch file: fill {searchTerms}, open it."""
    xml = running.get(urls.OPENSEARCH_PATH).decode()
    template = xml.split('type="text/html" method="get" template="', 1)[1].split('"', 1)[0]
    assert template == running.url + urls.SEARCH_PATH + "?q={searchTerms}"  # serve's own address
    message = json.loads((DEMO / RECORD).read_text(encoding="utf-8"))["record"]["errorMessage"]
    assert page.page.goto(template.replace("{searchTerms}", quote(message))).ok
    first = page.page.locator("#search-results > li a").first
    first.wait_for(timeout=60_000)
    assert urlsplit(first.get_attribute("href")).path == running.base_path + record_path(RECORD)
    assert page.errors == []
