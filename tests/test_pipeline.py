"""pipeline.py: `site_pages` yields every file of the site; `build` writes them or not."""
from __future__ import annotations

import copy
import json
import multiprocessing
import random
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from errorsite import urls
from errorsite.model import Problem, Record, Summary, sharing_values
from errorsite.pipeline import BuildResult, BuildSettings, build
from errorsite.pages.render import summarize
from errorsite.tools.reporting import summary_line
from errorsite.validate import validate
from tests.conftest import build_quietly, search_cards, site_files

FIXTURES = Path(__file__).parent / "fixtures" / "bad"
GOOD = FIXTURES / "good-dataclass-on-model.json"
SITE = urls.Site("https://example.org/errors/")
STATIC = {"style.css": b"body{}", "search-core.js": b"//", "vendor/lunr-2.3.9/lunr.min.js": b"//"}
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def make(i: int, **changes) -> Record:
    data = copy.deepcopy(json.loads(GOOD.read_text(encoding="utf-8")))
    data["record"].update(id=f"r{i}", slug=f"error-{i}", errorMessage=f"Error {i}")
    data["record"].update(changes)
    record = validate(f"r{i}.json", data)
    assert isinstance(record, Record), record
    return record


RECORDS = [make(1, tags=["python", "a"]), make(2, repo="spf13/cobra", tags=["go"]), make(3, errorType="parse")]


def pages(records=RECORDS, site=SITE) -> dict[str, bytes]:
    return site_files(records, site, STATIC)


@pytest.fixture(scope="module")
def site() -> dict[str, bytes]:
    return pages()


def test_every_kind_of_file_is_there(site):
    expected = {
        "", "404.html", "-/search/", "-/search/meta.json", "-/search/t/0.json", "-/search/d/0.json", "-/search/v/0.json",
        "sitemap.xml", "robots.txt", ".nojekyll", "-/static/style.css", "-/static/search-engine.js",
        "-/static/vendor/lunr-2.3.9/lunr.min.js",
        "pydantic/pydantic/error-1/", "pydantic/pydantic/error-3/", "spf13/cobra/error-2/",
        "pydantic/pydantic/", "spf13/cobra/", "-/repos/", "-/tags/", "-/tags/python/", "-/tags/a/", "-/tags/go/",
        "-/tags/pydantic/", "-/types/", "-/types/usage/", "-/types/parse/", "-/severities/", "-/severities/error/",
    }
    assert expected <= set(site)
    assert not {p for p in site if p.endswith("/") and "page/" in p}


def test_every_path_is_a_safe_output_path(site, tmp_path):
    for path in site:
        assert urls.output_file(tmp_path, path).is_relative_to(tmp_path)


def test_sitemap_lists_every_html_page_but_404_as_absolute_urls(site):
    locs = [loc.text for loc in ElementTree.fromstring(site["sitemap.xml"]).findall("s:url/s:loc", NS)]
    html_pages = {p for p in site if (p.endswith("/") or p == "") and not p.startswith(urls.PERMALINKS_PATH)
                  and not p.startswith(urls.GO_PATH)}
    assert locs == sorted(locs)
    assert set(locs) == {"https://example.org/errors/" + p for p in html_pages}
    assert "https://example.org/errors/404.html" not in locs
    assert urls.GO_PATH in site and "https://example.org/errors/" + urls.GO_PATH not in locs  # a redirector, noindex


def test_sitemap_follows_the_base_url():
    other = pages(site=urls.Site("http://127.0.0.1:8000/"))
    locs = [loc.text for loc in ElementTree.fromstring(other["sitemap.xml"]).findall("s:url/s:loc", NS)]
    assert locs[0] == "http://127.0.0.1:8000/"
    assert all(loc.startswith("http://127.0.0.1:8000/") for loc in locs)
    assert b"Sitemap: http://127.0.0.1:8000/sitemap.xml\n" in other["robots.txt"]


def test_robots_nojekyll_and_404(site):
    assert site["robots.txt"] == b"User-agent: *\nAllow: /\nSitemap: https://example.org/errors/sitemap.xml\n"
    assert site[".nojekyll"] == b""
    assert b"<h1>Page not found</h1>" in site["404.html"]


def test_search_files_are_json_with_one_card_per_record(site):
    assert len(search_cards(site.get)) == len(RECORDS)
    assert json.loads(site["-/search/meta.json"])["records"] == len(RECORDS)
    names = {key: runs for n in range(len(json.loads(site["-/search/meta.json"])["buckets"]))
             for key, runs in json.loads(site[f"-/search/t/{n}.json"])[1].items()}
    assert names["spf13/cobra"] == names["cobra"] == [2, 3]  # the records of spf13/cobra, [first, end)
    for path, raw in site.items():
        if path.startswith("-/search/") and path.endswith(".json"):
            json.loads(raw)
            assert b"<" not in raw and b">" not in raw, path


def test_stylesheet_carries_the_pygments_themes(site):
    css = site["-/static/style.css"].decode()
    assert css.startswith("body{}\n")
    assert ".highlight" in css and "prefers-color-scheme: dark" in css


def test_search_docs_are_in_url_order_whatever_the_file_order():
    docs = search_cards(pages(list(reversed(RECORDS))).get)
    assert [doc[2] for doc in docs] == ["pydantic/pydantic/error-1/", "pydantic/pydantic/error-3/",
                                        "spf13/cobra/error-2/"]


def test_same_records_same_bytes_in_any_order():
    first = pages()
    shuffled = RECORDS[:]
    random.Random(7).shuffle(shuffled)
    assert pages(list(reversed(RECORDS))) == first
    assert pages(shuffled) == first


def test_no_records_still_makes_a_site():
    empty = pages([])
    assert {"", "404.html", "-/search/", "sitemap.xml", "robots.txt", "-/search/meta.json"} <= set(empty)
    assert search_cards(empty.get) == []


# --- build and summary_line ---------------------------------------------------------------

def test_build_writes_the_same_bytes_twice(tmp_path):
    first, _ = build_quietly(FIXTURES, tmp_path / "one", "https://example.org/errors/")
    second, _ = build_quietly(FIXTURES, tmp_path / "two", "https://example.org/errors/")
    assert first.written and second.written and first.files == second.files
    files_one = {p.relative_to(tmp_path / "one"): p.read_bytes() for p in (tmp_path / "one").rglob("*") if p.is_file()}
    files_two = {p.relative_to(tmp_path / "two"): p.read_bytes() for p in (tmp_path / "two").rglob("*") if p.is_file()}
    assert files_one == files_two
    assert len(files_one) == first.files


def test_build_normalizes_the_base_url(tmp_path):
    result, _ = build_quietly(FIXTURES, tmp_path / "out", "https://example.org/errors")
    assert result.written
    assert b"Sitemap: https://example.org/errors/sitemap.xml" in (tmp_path / "out" / "robots.txt").read_bytes()


def test_strict_build_with_problems_writes_nothing(tmp_path):
    result, lines = build_quietly(FIXTURES, tmp_path / "out", strict=True)
    assert not result.written and result.files == 0
    assert len(lines) == 10
    assert not (tmp_path / "out").exists()
    assert list(tmp_path.iterdir()) == []  # no staging folder left either


def test_report_receives_every_problem_line(tmp_path):
    seen = []
    build(FIXTURES, tmp_path / "out", "http://x.org/", BuildSettings(report=seen.append))
    assert len(seen) == 10 and all(isinstance(line, str) for line in seen)


@pytest.mark.parametrize("result, line", [
    (BuildResult(34, [], 150, True), "built 34 records"),
    (BuildResult(1, [], 20, True), "built 1 record"),
    (BuildResult(0, [], 12, True), "built 0 records"),
    (BuildResult(1, [Problem("a.json", "x", "m"), Problem("a.json", "y", "m"), Problem("b.json", "x", "m")], 20, True),
     "built 1 record, skipped 2 — see above"),
    (BuildResult(3, [Problem("a.json", "x", "m")], 0, False), "nothing written: 1 bad record file (--strict)"),
    (BuildResult(3, [Problem("a.json", "x", "m"), Problem("b.json", "x", "m")], 0, False),
     "nothing written: 2 bad record files (--strict)"),
])
def test_summary_line(result, line):
    assert summary_line(result) == line


def failing_records(folder: Path, count: int) -> tuple[Path, Path]:
    """`count` records, and a theme whose record template fails on line 2 for every one."""
    base = json.loads(next((Path(__file__).parent.parent / "records").glob("*.json")).read_text("utf-8"))
    records = folder / "records"
    records.mkdir()
    for i in range(count):
        data = copy.deepcopy(base)
        data["record"].update(id=f"r{i:04d}", slug=f"error-{i}")
        (records / f"r{i:04d}.json").write_text(json.dumps(data), "utf-8")
    theme = folder / "theme"
    theme.mkdir()
    (theme / "record.html").write_text("<p>\n{{ record.no_such_field }}</p>\n", "utf-8")
    return records, theme


@pytest.mark.parametrize("jobs, count", [(1, 3), pytest.param(2, 204, marks=pytest.mark.slow)])
def test_a_render_failure_names_the_record_file_and_the_template_line(tmp_path, capsys, monkeypatch, jobs, count):
    """Serial or in worker processes, the message names the record being rendered
    and the template's line; nothing is written. The worker processes end on
    their own, none killed: a process killed while it holds the lock of a queue
    to the build hangs the build (issue 40)."""
    from errorsite.cli import main
    records, theme = failing_records(tmp_path, count)
    started = []
    start = multiprocessing.process.BaseProcess.start
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start",
                        lambda process: (started.append(process), start(process))[1])
    status = main(["--records", str(records), "--out", str(tmp_path / "site"), "--templates", str(theme),
                   "-j", str(jobs), "-q", "--base-url", "https://example.org/"])
    error = capsys.readouterr().err
    assert status == 1 and not (tmp_path / "site").exists()
    assert f"{records.as_posix()}/r0000.json: template error: " in error and "record.html:2:" in error, error
    assert "nothing written" in error
    assert len(started) == (jobs if jobs > 1 else 0)
    assert [process.exitcode for process in started] == [0] * len(started)


# Failing -j 2 builds, one after another in one process, each given `limit`
# seconds (about 1 s is usual, a few on a loaded machine): a build that hangs
# prints every thread's stack and ends the process.
FAILING_BUILDS = """
import contextlib, faulthandler, io, sys
from errorsite.cli import main
records, theme, out, runs, limit = sys.argv[1:]
for run in range(1, int(runs) + 1):
    faulthandler.dump_traceback_later(float(limit), exit=True)
    with contextlib.redirect_stderr(io.StringIO()) as error:
        status = main(["--records", records, "--out", out, "--templates", theme, "-j", "2", "-q",
                       "--base-url", "https://example.org/"])
    faulthandler.cancel_dump_traceback_later()
    assert status == 1 and "r0000.json: template error: " in error.getvalue(), error.getvalue()
    print(run, flush=True)
"""


@pytest.mark.slow
def test_a_failing_parallel_build_never_hangs_on_a_busy_machine(tmp_path):
    """Issue 40: a -j 2 build whose render fails ends, every time, with the
    machine's cores taken by another busy process. Under multiprocessing.Pool
    about one such build in one to two hundred hung for good (its exit killed
    workers while its task thread still needed their queue's lock), so this
    catches that kind of hang only now and then; the render failure test
    above catches a killed worker every time."""
    records, theme = failing_records(tmp_path, 204)
    runs, limit = 20, 60
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        done = subprocess.run([sys.executable, "-c", FAILING_BUILDS, str(records), str(theme),
                               str(tmp_path / "site"), str(runs), str(limit)],
                              cwd=Path(__file__).parent.parent, capture_output=True, text=True, timeout=runs * limit)
    finally:
        busy.kill()
        busy.wait()
    finished = done.stdout.split()
    assert done.returncode == 0 and finished == [str(run) for run in range(1, runs + 1)], \
        f"build {len(finished) + 1} of {runs} did not end in {limit} s:\n{done.stderr}"


def test_the_summaries_kept_share_the_values_records_have_alike():
    # Two records' summaries as a worker's pickle gives them: every string a copy of its own.
    made = [json.loads(json.dumps(summarize(make(i, errorMessage="Timeout")))) for i in (1, 2)]
    first, second = (Summary._make(values)._replace(tags=tuple(values[Summary._fields.index("tags")]))
                     for values in made)
    assert first.repo is not second.repo
    kept = [sharing_values(summary) for summary in (first, second)]
    assert kept == [first, second]
    # and as a shard's or the previous build's JSON gives them: Summary.from_json shares them itself
    read_back = [Summary.from_json(values) for values in made]
    assert read_back == kept
    for summaries in (kept, read_back):
        for attr in ("repo", "message", "error_type", "severity"):
            assert getattr(summaries[0], attr) is getattr(summaries[1], attr), attr
        assert summaries[0].tags[0] is summaries[1].tags[0]
