"""`errorsite find` trusts no site (issue 63, items B, C, G and H): a record's
text starts no CI command in any format; a slow server, a huge file, a script
that loops or allocates forever, a link or path out of the site, a redirect
off it and an engine that asks for thousands of files each end in exit status
2 and one line on stderr, within --timeout.

Sites are built or written in temporary folders, and served from a thread on
127.0.0.1 at a port the system picks."""
from __future__ import annotations

import copy
import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from errorsite.tools.find import MAX_FILES, Deadline, FindError, FolderSite, WebSite
from errorsite.tools.find.sites import MAX_FILE_BYTES
from errorsite.tools.logsafe import _LINE_BREAKS
from tests.conftest import ROOT, build_quietly

BASE = "/errors/"
MASK = "##[add-mask]hunter2 is the token"
ANNOTATION = "Failed to connect\u2028::error::forged annotation"
DOCUMENTATION = "It fails.\n::error file=app.py::forged from the documentation\n##[error]forged too"
STOPPED = 60  # seconds: a guard against a hang (each test's --timeout is at most 20), not a measure of speed


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A real site of two records whose text holds workflow commands."""
    base = json.loads((ROOT / "tests" / "fixtures" / "hostile" / "bases" / "redis.json").read_text("utf-8"))
    records = tmp_path_factory.mktemp("records")
    for n, (slug, message) in enumerate([("add-mask", MASK), ("annotation", ANNOTATION)]):
        record = copy.deepcopy(base)
        record["record"].update(id=f"hostile{n}", slug=slug, errorMessage=message, messagePattern=message,
                                documentation=DOCUMENTATION)
        (records / f"{slug}.json").write_text(json.dumps(record), "utf-8")
    out = tmp_path_factory.mktemp("built") / "errors"
    result, _ = build_quietly(records, out)
    assert result.written
    return out


def copy_of(site: Path, tmp_path: Path) -> Path:
    """The built site in a served folder's /errors/, to change it."""
    shutil.copytree(site, tmp_path / "served" / "errors", symlinks=True)
    return tmp_path / "served" / "errors"


def run(*args: str, timeout: float = STOPPED) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "build.py"), "find", *args], capture_output=True, text=True,
                          timeout=timeout)


def refused(done: subprocess.CompletedProcess, *words: str) -> str:
    """Exit status 2, nothing on stdout, one line on stderr holding `words`."""
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert len(re.split(f"[{_LINE_BREAKS}]", done.stderr.rstrip("\n"))) == 1, done.stderr
    for word in words:
        assert word in done.stderr
    return done.stderr


def starts_a_command(output: str) -> list[str]:
    """The lines of `output` a CI runner would act on."""
    return [line for line in re.split(f"[{_LINE_BREAKS}]", output)
            if re.match(r"\s*::", line) or "##[" in line or "##vso[" in line]


# ---- Serving a site, some paths answered by the test -------------------------------

class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        self.server.paths.append(self.path)
        answer = self.server.answers.get(urlsplit(self.path).path)
        if answer is None:
            return super().do_GET()
        answer(self)


class Served:
    """A folder served at http://127.0.0.1:PORT/, the site under /errors/; `answers`
    maps a path to a function that answers it; `paths` is every path asked for."""

    def __init__(self, root: Path):
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
        self.httpd.paths, self.httpd.answers = [], {}
        self.paths, self.answers = self.httpd.paths, self.httpd.answers
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.url = self.origin + BASE
        self.stop = threading.Event()
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def served(tmp_path):
    (tmp_path / "served").mkdir()
    server = Served(tmp_path / "served")
    yield server
    server.close()


def fake_site(folder: Path, engine: str) -> Path:
    """A site whose search page runs `engine` (its only script) over an empty meta.json."""
    (folder / "-" / "search").mkdir(parents=True)
    (folder / "-" / "static").mkdir(parents=True)
    (folder / "-" / "search" / "index.html").write_text(
        f'<link rel="canonical" href="http://127.0.0.1:1{BASE}-/search/">'
        f'<script src="x.js" data-engine="{BASE}-/static/engine.js?v=1"></script>', "utf-8")
    (folder / "-" / "search" / "meta.json").write_text("{}", "utf-8")
    (folder / "-" / "static" / "engine.js").write_text(engine, "utf-8")
    return folder


def asking_engine(paths_js: str) -> str:
    """An engine that asks for the files `paths_js` (a JavaScript array) every round."""
    return ("var ErrorSearchData = {SplitIndex: function () {}};"
            f"var ErrorSearch = {{lookup: function () {{ return {{wanted: {paths_js}}}; }}}};")


# ---- B. No printed line starts a CI command ----------------------------------------------

@pytest.mark.parametrize("query", [MASK, "Failed to connect forged annotation"])
def test_no_output_line_starts_a_workflow_command_in_any_format(built, query):
    for args in (["--json"], ["--json", "--explain"], [], ["--explain"]):
        done = run("--site", str(built), *args, query)
        assert done.returncode == 0, done.stderr
        assert starts_a_command(done.stdout) == [], args
        if "--json" in args:  # the same text, once parsed
            data = json.loads(done.stdout)
            assert data["results"][0]["message"] in (MASK, ANNOTATION)
            if "--explain" in args:
                assert data["record"]["record"]["documentation"] == DOCUMENTATION


def test_an_error_from_the_site_is_one_inert_line(tmp_path):
    site = fake_site(tmp_path, 'throw new Error("it broke\\n::error::forged\\n##[add-mask]x\\u2028::warning::y")')
    stderr = refused(run("--site", str(site), "some error"), "it broke")
    assert starts_a_command(stderr) == []


# ---- C. One deadline, a size cap, V8's limits -------------------------------------------

@pytest.mark.slow  # waits out a budget or a deadline on purpose: the whole suite runs it
def test_a_server_that_answers_a_byte_at_a_time_fails_at_the_deadline(built, tmp_path, served):
    copy_of(built, tmp_path)

    def trickle(handler):
        try:
            handler.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n<")
            handler.wfile.flush()
            while not served.stop.wait(10):  # one byte every 10 s, for as long as anyone listens
                handler.wfile.write(b" ")
                handler.wfile.flush()
        except OSError:
            pass

    served.answers[BASE + "-/search/"] = trickle
    refused(run("--site", served.url, "--timeout", "2", "ERR syntax error"), "--timeout")


def test_the_deadline_is_a_documented_flag_and_30_seconds_by_default():
    shown = " ".join(run("--help").stdout.split())
    assert "--timeout S seconds for the whole search" in shown and "(default: 30)" in shown
    assert Deadline().seconds == 30


@pytest.mark.parametrize("declared", [True, False])
def test_a_huge_file_over_http_is_refused_without_reading_it(built, tmp_path, served, declared):
    copy_of(built, tmp_path)
    sent = []

    def huge(handler):  # 100 MB, declared or not: the client must stop long before
        handler.wfile.write(b"HTTP/1.1 200 OK\r\n" + (b"Content-Length: %d\r\n" % (100 << 20) if declared else b"")
                            + b"Connection: close\r\n\r\n")
        try:
            for _ in range(100):
                handler.wfile.write(b" " * (1 << 20))
                sent.append(1)
        except OSError:
            pass

    served.answers[BASE + "-/search/meta.json"] = huge
    refused(run("--site", served.url, "ERR syntax error"), "over 64 MB", "meta.json")
    assert len(sent) < (32 if declared else 90)  # MB the server could write before the client hung up


def test_a_huge_file_in_a_folder_is_refused_without_reading_it(built, tmp_path):
    site = copy_of(built, tmp_path)
    with open(site / "-" / "search" / "meta.json", "r+b") as meta:
        meta.truncate(100 << 20)  # sparse: nothing written to the disk
    refused(run("--site", str(site), "ERR syntax error"), "over 64 MB", "meta.json")
    assert MAX_FILE_BYTES == 64 << 20


@pytest.mark.slow  # waits out a budget or a deadline on purpose: the whole suite runs it
@pytest.mark.parametrize("engine, said", [
    ("while (true) {}", "--timeout"),
    ("var ErrorSearchData = {SplitIndex: function () {}}; var ErrorSearch = {lookup: function () { while (true) {} }};",
     "--timeout"),
    ("var kept = []; while (true) kept.push(new Array(100000).fill(1));", "MB of memory"),
    ("var ErrorSearchData = {SplitIndex: function () {}}; var ErrorSearch = {lookup: function () {"
     " var kept = []; while (true) kept.push(new Array(100000).fill(1)); }};", "MB of memory"),
])
def test_a_script_that_loops_or_allocates_forever_is_stopped(tmp_path, engine, said):
    seconds = "2" if said == "--timeout" else "20"  # the memory limit, not the clock, stops an allocation
    refused(run("--site", str(fake_site(tmp_path, engine)), "--timeout", seconds, "some error"), said)


# ---- G. Nothing out of the folder or the base path -----------------------------------------

@pytest.mark.parametrize("linked", ["-/search/meta.json", "-/static/search-engine.js"])
def test_a_symlink_out_of_the_folder_is_refused(built, tmp_path, linked):
    site = copy_of(built, tmp_path)
    outside = tmp_path / "outside" / Path(linked).name
    outside.parent.mkdir()
    (site / linked).rename(outside)  # a good file, but not the site's own
    (site / linked).symlink_to(outside)
    refused(run("--site", str(site), "ERR syntax error"), "link out of the site folder", linked)
    (site / linked).unlink()
    (site / linked).symlink_to(site / "-" / "elsewhere")  # within the site: followed
    outside.rename(site / "-" / "elsewhere")
    done = run("--site", str(site), "ERR syntax error")
    assert done.returncode in (0, 1) and done.stderr == ""


@pytest.mark.parametrize("path", ["../../../etc/passwd", "%2e%2e/%2e%2e/%2E%2E/etc/passwd", "..%2f..%2f..%2fetc/passwd",
                                  "/etc/passwd", "http://example.org/x", "t/../../../etc/passwd"])
def test_a_path_out_of_the_base_path_is_not_fetched(tmp_path, served, path):
    fake_site(tmp_path / "served" / "errors", asking_engine(json.dumps([path])))
    (tmp_path / "served" / "etc").mkdir()
    (tmp_path / "served" / "etc" / "passwd").write_text("root:x:0:0", "utf-8")
    refused(run("--site", served.url, "some error"), "not a path in the site")
    assert [p for p in served.paths if "passwd" in p] == []
    with pytest.raises(FindError, match="not a path in the site"):
        FolderSite(tmp_path / "served" / "errors").read("-/search/" + path, Deadline())


# ---- H. No redirect off the site; a ceiling on a query's files -----------------------------

@pytest.mark.parametrize("target", [
    "http://localhost:{port}/errors/-/search/", "ftp://127.0.0.1:{port}/errors/-/search/",
    "https://127.0.0.1:{port}/errors/-/search/", "/other/-/search/", "/errors/-/search/../../../etc/passwd",
])
def test_a_redirect_off_the_site_is_refused(built, tmp_path, served, target):
    copy_of(built, tmp_path)

    def redirect(handler):
        handler.send_response(302)
        handler.send_header("Location", target.format(port=served.httpd.server_address[1]))
        handler.end_headers()

    served.answers[BASE + "-/search/"] = redirect
    refused(run("--site", served.url, "ERR syntax error"), "off the site")
    assert served.paths == [BASE + "-/search/"]


def test_a_redirect_within_the_site_is_followed(built, tmp_path, served):
    copy_of(built, tmp_path)

    def redirect(handler):
        handler.send_response(301)
        handler.send_header("Location", BASE + "-/search/index.html")
        handler.end_headers()

    served.answers[BASE + "-/search/"] = redirect
    done = run("--site", served.url, "--json", MASK)
    assert done.returncode == 0, done.stderr
    assert served.paths[:2] == [BASE + "-/search/", BASE + "-/search/index.html"]


def test_an_engine_that_asks_for_thousands_of_files_is_refused(tmp_path, served):
    fake_site(tmp_path / "served" / "errors", asking_engine(
        "Array.from({length: 3000}, function (_, i) { return 't/' + Math.random() + '.json'; })"))
    refused(run("--site", served.url, "some error"), f"more than {MAX_FILES:,} files")
    assert [p for p in served.paths if p.startswith(BASE + "-/search/t/")] == []


def test_a_query_of_a_real_site_asks_for_far_fewer_files_than_the_ceiling(built, tmp_path, served):
    copy_of(built, tmp_path)
    assert run("--site", served.url, MASK).returncode == 0
    assert 0 < len([p for p in served.paths if p.startswith(BASE + "-/search/")]) < MAX_FILES / 10


def test_the_reader_refuses_paths_before_any_request(served):
    site = WebSite(served.url)
    for path in ("../x", "a//b", "a/./b", "a\\b", "a?b", "a#b", "%2e%2e/x"):
        with pytest.raises(FindError, match="not a path in the site"):
            site.read(path, Deadline())
    assert served.paths == []
