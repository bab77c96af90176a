"""Shared fixtures: paths, a built site, a local HTTP server, and Chromium.

Browser tests use Debian's Chromium through Playwright, the parity and split
tests Node, many tests the real records of ../shared. Where one is missing
they skip with a reason, except under CI (CI set, and not "false" or "0"),
where such a skip is a failure: CI must have them all (see
pytest_runtest_makereport).
"""
from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import threading
from pathlib import Path

import pytest

from errorsite.pages.assets import ENGINE_PARTS
from errorsite.pipeline import BuildSettings, build, build_shard

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SHARED_RECORDS = SHARED / "records"
QUERIES = SHARED / "queries.json"
REAL_QUERIES = SHARED / "queries-real.json"  # pastes from GitHub issues, with their source URLs
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BASE_PATH = "/errors/"  # every served site lives under a sub-path, as on GitHub Pages


def pytest_configure(config):
    """Every build of the session keeps its state in a cache folder of the
    session's (cache/folder.py reads XDG_CACHE_HOME first, on every platform),
    never in the real home's ~/.cache; subprocesses inherit it. Each xdist
    worker has its own."""
    import tempfile
    folder = tempfile.mkdtemp(prefix="errorsite-test-cache-")
    config.stash[TEST_CACHE] = (folder, os.environ.get("XDG_CACHE_HOME"))
    os.environ["XDG_CACHE_HOME"] = folder


TEST_CACHE = pytest.StashKey[tuple]()


def in_ci(environ=os.environ) -> bool:
    return environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


# Why a test may skip on a laptop but never under CI: what CI must provide. Any
# skip whose reason names one of them fails there, whichever file it is in.
NEEDED_IN_CI = re.compile(r"\.\./shared|shared records|chromium|\bnode\b", re.IGNORECASE)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail") and in_ci():
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if NEEDED_IN_CI.search(reason):
            report.outcome = "failed"
            report.longrepr = f"skipped under CI, where it must run: {reason}"


def need_shared() -> None:
    message = f"{SHARED_RECORDS} is absent: tests on the shared real records need ../shared/"
    if not SHARED_RECORDS.is_dir():
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)


def site_files(records, site, static, options=None) -> dict[str, bytes]:
    """Every file of a site made in memory, as the pipeline makes it: the record
    pages and permalinks, then the global pages made from the records' summaries."""
    from errorsite.records import record_files
    from errorsite.pages.render import SiteOptions, environment, summarize
    from errorsite.search import streamed_search
    from errorsite.pages.sitewide import GlobalInputs, History, sitewide_pages
    options = options or SiteOptions()
    env = environment(site, options=options)
    summaries = [summarize(record) for record in records]
    own = [record_files(env, record, summary) for record, summary in zip(records, summaries)]
    html_paths = [files[0].path for files in own]
    made = sitewide_pages(GlobalInputs(site, options, "", static, History.of(None), summaries, html_paths), None,
                          streamed_search)
    result: dict[str, bytes] = {}
    for page in [*(page for files in own for page in files), *made]:
        assert page.path not in result, f"two pages at {page.path}"
        assert isinstance(page.content, bytes)
        result[page.path] = page.content
    return result


def search_cards(read) -> list[list]:
    """Every record's result card, in ref order, from a site's split search
    files; `read(path)` gives a site file's bytes (a dict's get, or a folder's)."""
    import json
    from errorsite import urls
    meta = json.loads(read(urls.SEARCH_PATH + "meta.json"))
    files = -(-meta["records"] // meta["docsPerFile"])
    return [card for n in range(files) for card in json.loads(read(f"{urls.SEARCH_PATH}d/{n}.json"))]


def folder_reader(folder: Path):
    return lambda path: (folder / path).read_bytes()


def build_quietly(records: Path, out: Path, base_url: str = "http://127.0.0.1:1/errors/", **kwargs):
    lines: list[str] = []
    shard = kwargs.pop("shard", None)
    settings = BuildSettings(report=lines.append, **kwargs)
    result = build_shard(records, out, base_url, shard, settings) if shard else build(records, out, base_url, settings)
    return result, lines


class Server:
    """Serves a folder at http://127.0.0.1:PORT/errors/ from a thread."""

    def __init__(self, root: Path):
        self.root = root
        handler = functools.partial(QuietHandler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.paths = []  # every request's path, as the host's access log has it (QuietHandler)
        self.paths: list[str] = self.httpd.paths
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}{BASE_PATH}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def log_request(self, code="-", size="-") -> None:
        getattr(self.server, "paths", []).append(self.path)


def serve_site(tmp: Path, records: Path, jobs: int = 1) -> tuple[Server, Path]:
    """Start a server first (its port is part of the base URL), then build into it."""
    server = Server(tmp)
    result, _ = build_quietly(records, tmp / BASE_PATH.strip("/"), server.base_url, jobs=jobs)
    assert result.written
    return server, tmp / BASE_PATH.strip("/")


@pytest.fixture(scope="session")
def shared_site(tmp_path_factory):
    """The shared real records, built and served under /errors/."""
    need_shared()
    server, out = serve_site(tmp_path_factory.mktemp("shared-site"), SHARED_RECORDS)
    yield server
    server.close()


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        if in_ci():
            pytest.fail(f"{CHROMIUM} is missing in CI: .ci/run must install Debian's chromium")
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run browser tests")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class WatchedPage:
    """A Playwright page that records console errors and uncaught exceptions."""

    def __init__(self, page):
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))


@pytest.fixture
def page(browser):
    context = browser.new_context()
    watched = WatchedPage(context.new_page())
    yield watched
    context.close()


AXE = ROOT / "tests" / "vendor" / "axe-core-4.14.1" / "axe.min.js"   # unmodified from npm, with its licenses


@pytest.fixture(scope="session")
def axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def copy_records(names: list[str], dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(SHARED_RECORDS / name, dest / name)
    return dest


# ---- Error messages mined from the installed Python, ahead of the tests that use them ----
MINE = """import pickle, sys
from bench.mine import mine_messages
with open(sys.argv[1], "wb") as file:
    pickle.dump(mine_messages(), file)
"""


class MiningAhead:
    """bench.mine.mine_messages() run in another process from the end of the
    collection on, for the tests whose distractors are mined: walking the
    installed Python's sources takes ~30 s of one core, which the tests before
    them (one process, most of the time) leave idle on two."""

    def __init__(self) -> None:
        import subprocess
        import sys
        import tempfile
        self.folder = Path(tempfile.mkdtemp(prefix="errorsite-mined-"))
        with open(self.folder / "stderr", "wb") as errors:
            self.process = subprocess.Popen([sys.executable, "-c", MINE, str(self.folder / "mined.pickle")], cwd=ROOT,
                                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)

    def messages(self) -> list:
        import pickle
        self.process.wait()
        assert self.process.returncode == 0, (self.folder / "stderr").read_text(errors="replace")
        return pickle.loads((self.folder / "mined.pickle").read_bytes())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


MINING = pytest.StashKey[MiningAhead]()


def pytest_collection_finish(session):
    if any("mined_messages" in getattr(item, "fixturenames", ()) for item in session.items):
        session.config.stash[MINING] = MiningAhead()


def pytest_unconfigure(config):
    if MINING in config.stash:
        config.stash[MINING].close()
    if TEST_CACHE in config.stash:
        folder, before = config.stash[TEST_CACHE]
        shutil.rmtree(folder, ignore_errors=True)
        if before is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = before


@pytest.fixture(scope="session")
def mined_messages(request):
    """Every error message bench/mine.py finds in the installed Python, mined
    in another process since the collection: for the rest of the session what
    bench.corpus makes its records from, as if mined here (its mine_messages is
    cached for the process too)."""
    import bench.corpus
    ahead = request.config.stash.get(MINING, None)
    messages = ahead.messages() if ahead else bench.corpus.mine_messages()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bench.corpus, "mine_messages", lambda: messages)
        yield messages


SLOW_BY_NAME = {  # slow without a browser: real processes killed, builds racing, disks filled
    "test_a_build_killed_at_any_moment_leaves_the_previous_site_untouched",
    "test_a_second_build_waits_for_the_first",
    "test_two_builds_at_once_both_succeed_and_leave_one_whole_site",
    "test_a_full_disk_leaves_the_previous_site",
    "test_a_full_disk_is_freed_when_the_build_fails_and_the_next_build_succeeds",
    "test_a_read_only_output_parent_leaves_the_previous_site",
    "test_two_builds_are_byte_identical",
    "test_an_absent_an_empty_and_an_earlier_site_are_replaced",  # ~3 s: three build.py runs in a row
    "test_strict_with_a_bad_record_exits_1_and_leaves_out_untouched",  # ~3 s: two of the shared records
}
SLOW_MODULES = {"test_serve"}  # starts servers and waits for rebuilds


def pytest_collection_modifyitems(items):
    """`pytest -m "not slow"` is the fast loop: it leaves out every test that
    drives Chromium, every property test and the few named above."""
    for item in items:
        browser = "browser" in getattr(item, "fixturenames", ())
        if browser:
            item.add_marker(pytest.mark.browser)
        if (browser or getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
                or item.originalname in SLOW_BY_NAME or item.module.__name__.rsplit(".", 1)[-1] in SLOW_MODULES):
            item.add_marker(pytest.mark.slow)


def pytest_terminal_summary(terminalreporter):
    """Search-quality figures, when those tests ran."""
    from tests import test_search_quality, test_search_suite
    if test_search_suite.FIGURES:
        terminalreporter.section("search-quality suite (bench/quality.py)")
        for name, text in test_search_suite.FIGURES.items():
            terminalreporter.write_line(f"{name}:")
            terminalreporter.write_line(text)
    if not test_search_quality.FIGURES:
        return
    terminalreporter.section("search quality")
    for corpus, kinds in test_search_quality.FIGURES.items():
        for kind, f in kinds.items():
            terminalreporter.write_line(
                f"{corpus:45} {kind:8} n={f['queries']:3}  top-1 {f['top1']:6.1%}  "
                f"top-3 {f['top3']:6.1%}  MRR {f['mrr']:.3f}")


SEARCH_SCRIPTS = ["vendor/lunr-2.3.9/lunr.min.js", *ENGINE_PARTS]  # the parts of base.html's search-engine.js, in its order


@pytest.fixture(scope="session")
def search_core(browser):
    """A blank page with lunr.js and the search code of static/ loaded: call it
    directly with `search_core.evaluate(...)`."""
    page = browser.new_page()
    page.set_content("<!doctype html><title>search core</title>")
    for script in SEARCH_SCRIPTS:
        page.add_script_tag(path=str(ROOT / "static" / script))
    yield page
    page.close()
