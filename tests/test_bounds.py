"""No record stalls a build or blows it up: lexers run under a
time budget, in a serial build, in pool workers and in a build run from a
thread; sizes, counts and line numbers have ceilings; the problems reported
for one record are capped, and so is what a rebuild keeps of them.

The records are in tests/fixtures/hostile/bounds/ (see generate.py there);
the large ones are written into the test's temporary folder.
"""
from __future__ import annotations

import importlib.util
import json
import shutil
import threading
import time
from pathlib import Path

import pytest
from markupsafe import Markup

from tests.conftest import build_quietly
from errorsite.tools.check import check as check_folder
from errorsite.markup import HIGHLIGHT_SECONDS, highlight_lines
from errorsite.markup.code import _PLAIN_LEXER
from errorsite.pages.plain_text import check_record as check
from errorsite.validate import MAX_PROBLEMS

HANG_GUARD = 120  # seconds: what no build of these few records takes unless it hangs; not a timing

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "hostile" / "bounds"
ROOT = Path(__file__).resolve().parent.parent
BASE_URL = "http://127.0.0.1:1/errors/"
PAGE_LIMIT = 1_000_000  # bytes: what a record page stays well within

_spec = importlib.util.spec_from_file_location("bounds_generate", FIXTURES / "generate.py")
generate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(generate)

STALLED = "highlighting with the Scala lexer took over the 2 s the record's code shares; shown as plain text"
SCALA = f"sourceCode: dropped: {STALLED}"
SNIPPET = f"exampleFix: dropped: {STALLED}"
EXPECTED = {  # file name → its problems, "field: message"
    # A record's blocks share its budget: the one that runs out, and those after it, are shown plain.
    "scala-backslashes.json": [f"{SCALA}, and so are exampleFix, validationCode and tryCatchPattern"],
    "snippet-backslashes.json": [f"{SNIPPET}, and so are validationCode and tryCatchPattern"],
    "five-stalling-blocks.json": [f"{SCALA}, and so are exampleFix, validationCode, typeGuard and tryCatchPattern"],
    "start-4000-digits.json": [
        "sourceCode: dropped: is 39999 characters long, at most 8000 allowed",
        "lineNumber: dropped: a 4001-digit number is not a line number (at most 10000000)",
        "sourceCodeStart: dropped: a 4001-digit number is not a line number (at most 10000000)",
        "sourceCodeEnd: dropped: a 4001-digit number is not a line number (at most 10000000)"],
    "start-1000-digits.json": [
        "sourceCode: dropped: is 39999 characters long, at most 8000 allowed",
        "lineNumber: dropped: a 1000-digit number is not a line number (at most 10000000)",
        "sourceCodeStart: dropped: a 1000-digit number is not a line number (at most 10000000)",
        "sourceCodeEnd: dropped: a 1000-digit number is not a line number (at most 10000000)"],
    "newlines-199999.json": ["sourceCode: dropped: is 199999 characters long, at most 8000 allowed"],
    "source-600-lines.json": ["sourceCode: dropped: has 600 lines, at most 500 allowed"],
    "references-1000.json": ["documentation: dropped: its Markdown makes 946007 characters of HTML, over 59084: "
                             "shown as plain text"],
    "every-field-at-its-limit.json": [],
    "tags-500000-invalid.json": [*(f'tags[{i}]: dropped: "\\udc00" is not valid Unicode (an unpaired surrogate)'
                                   for i in range(MAX_PROBLEMS)),
                                 "tags: dropped: and 499990 more problems in this field, not listed"],
}
SLOW = {"scala-backslashes.json", "snippet-backslashes.json", "five-stalling-blocks.json"}


def good_record(folder: Path, stem: str = "good") -> None:
    data = generate.record(stem)
    (folder / f"{stem}.json").write_text(json.dumps(data), "utf-8")


def records_with(folder: Path, *names: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    good_record(folder)
    small = [name for name in names if name in generate.SMALL]
    for name in small:
        shutil.copy(FIXTURES / name, folder / name)
    generate.write(folder, [name for name in names if name not in small])
    return folder


def lines_of(records: Path, name: str) -> list[str]:
    return [f"{records.as_posix()}/{name}: {problem}" for problem in EXPECTED[name]]


def page_of(out: Path, name: str) -> Path:
    return out / "redis/redis" / Path(name).stem / "index.html"


def test_the_committed_fixtures_are_what_generate_makes():
    for name, make in generate.SMALL.items():
        assert json.loads((FIXTURES / name).read_text("utf-8")) == make(), f"run {FIXTURES / 'generate.py'}"


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - SLOW))
def test_each_bound_drops_what_is_over_it_and_builds_the_record(tmp_path, name):
    records = records_with(tmp_path / "records", name)
    start = time.perf_counter()
    result, lines = build_quietly(records, tmp_path / "out", BASE_URL)
    assert time.perf_counter() - start < HANG_GUARD
    assert lines == lines_of(records, name)
    assert result.written and result.records == 2
    page = page_of(tmp_path / "out", name)
    assert page.stat().st_size < PAGE_LIMIT


@pytest.mark.slow  # waits out a budget or a deadline on purpose: the whole suite runs it
def test_a_stalling_lexer_is_stopped_and_its_blocks_shown_as_plain_text(tmp_path):
    records = records_with(tmp_path / "records", "scala-backslashes.json", "snippet-backslashes.json")
    start = time.perf_counter()
    result, lines = build_quietly(records, tmp_path / "out", BASE_URL)
    assert time.perf_counter() - start < HANG_GUARD  # a hang guard: the budget counts CPU time, a busy machine stretches the clock
    assert sorted(lines) == sorted(lines_of(records, "scala-backslashes.json") + lines_of(records, "snippet-backslashes.json"))
    assert result.written and result.records == 3
    html = page_of(tmp_path / "out", "scala-backslashes.json").read_text("utf-8")
    code = generate.scala_backslashes()["record"]["sourceCode"]
    plain = highlight_lines(code, _PLAIN_LEXER, marked=1)[0]
    assert plain.html == Markup('val s = "' + "\\" * 60)  # escaped, no spans: an unhighlighted block
    assert f'<span id="L1" class="raised">{plain.html}\n</span>' in html
    snippet = page_of(tmp_path / "out", "snippet-backslashes.json").read_text("utf-8")
    assert 'aria-label="Example fix"><pre><code>val s = "' + "\\" * 60 + "</code></pre>" in snippet


@pytest.mark.slow  # waits out a budget or a deadline on purpose: the whole suite runs it
def test_check_reports_a_stalling_lexer_as_the_build_does(tmp_path):
    records = records_with(tmp_path / "records", "scala-backslashes.json")
    result = check_folder(records)
    assert [str(problem) for problem in result.problems] == lines_of(records, "scala-backslashes.json")
    assert result.records == 2


@pytest.mark.slow  # waits out a budget or a deadline on purpose: the whole suite runs it
def test_a_stalling_lexer_is_stopped_in_a_build_run_from_a_thread(tmp_path):
    """As `serve` rebuilds: no signals there, so the lexer runs in a helper process."""
    records = records_with(tmp_path / "records", "scala-backslashes.json")
    done = {}
    thread = threading.Thread(target=lambda: done.update(built=build_quietly(records, tmp_path / "out", BASE_URL)))
    start = time.perf_counter()
    thread.start()
    thread.join(120)
    assert not thread.is_alive() and time.perf_counter() - start < HANG_GUARD
    result, lines = done["built"]
    assert lines == lines_of(records, "scala-backslashes.json")
    assert result.written and result.records == 2


@pytest.mark.slow
def test_a_stalling_lexer_is_stopped_in_pool_workers(tmp_path):
    """A build large enough to render in worker processes (records.PARALLEL_THRESHOLD)."""
    records = records_with(tmp_path / "records", "scala-backslashes.json")
    for i in range(220):
        good_record(records, f"good-{i:03}")
    start = time.perf_counter()
    result, lines = build_quietly(records, tmp_path / "out", BASE_URL, jobs=2)
    assert time.perf_counter() - start < HANG_GUARD
    assert lines == lines_of(records, "scala-backslashes.json")
    assert result.written and result.records == 222


def test_the_problems_of_one_record_are_capped_in_output_and_state(tmp_path):
    name = "tags-500000-invalid.json"
    records = records_with(tmp_path / "records", name)
    out = tmp_path / "out"
    first = build_quietly(records, out, BASE_URL)
    again = build_quietly(records, out, BASE_URL)  # a no-op rebuild reports them again, from the state
    assert first[1] == again[1] == lines_of(records, name)
    built = sum(path.stat().st_size for path in tmp_path.rglob("*") if path.is_file() and records not in path.parents)
    assert built < 3_000_000  # the whole site and its state (57 MB of state alone before the cap)


def test_no_real_record_trips_a_bound():
    folders = [ROOT / "records", ROOT.parent / "shared" / "records"]
    files = [path for folder in folders if folder.is_dir() for path in sorted(folder.rglob("*.json"))]
    assert files
    for path in files:
        checked = check(path.name, json.loads(path.read_text("utf-8")))
        assert checked.record is not None and checked.problems == [], path
        assert checked.record.plain_code == ()
