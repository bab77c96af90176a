"""The highlighting budget is a record's, not a block's, and it is paid in
parallel (issue 40, item 5). Ten records with five code blocks each that stall
Pygments' Scala lexer once took 104 s to build and 102 s to `check`, -j 2 or
not: each block had 2 s of its own, and so few records were built in one
process. Now a record's blocks share one budget, the block that runs out and
every one after it are shown plain with one warning, and a build or check
that proves slow hands the records left to -j processes (process/pool.py).

No test here times anything: how many times a lexer is started, which
process does the work, and what is reported say it."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from errorsite.pages import plain_text
from errorsite.tools import check as errorsite_check
from errorsite import records as errorsite_records
from errorsite.tools.check import check as check_folder
from errorsite.markup import code as markup_code, lexer_for
from errorsite.process import budget, pool
from errorsite.process.pool import in_processes, serial_then_spread
from errorsite.pages.plain_text import check_record as check
from errorsite.validate import check as validate
from tests.conftest import build_quietly

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "hostile" / "bounds"
BASE_URL = "http://127.0.0.1:1/errors/"
STALLED = "highlighting with the Scala lexer took over the 2 s the record's code shares; shown as plain text"
ALL_FIVE = ("source_code", "example_fix", "validation_code", "type_guard", "try_catch_pattern")
# A hang guard, not a timing: a stalling lexer under the budget stops within
# it (0.2 s here, 2 s plus a process start at most); ten times that means the
# budget was not applied and the lexer backtracks for hours.
HANG_GUARD = 20

_spec = importlib.util.spec_from_file_location("bounds_generate", FIXTURES / "generate.py")
generate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(generate)


@pytest.fixture
def lexer_runs(monkeypatch):
    """Every budget a lexer is started with, in seconds."""
    runs = []
    real = budget.run

    def counted(seconds, function, *args):
        runs.append(seconds)
        return real(seconds, function, *args)
    monkeypatch.setattr(markup_code.budget, "run", counted)
    return runs


def five_stalling(stem: str = "five-stalling-blocks") -> dict:
    return generate.five_stalling_blocks(stem)


def test_short_code_that_stalls_the_lexer_is_stopped_too():
    """However short the code, it is highlighted under the budget: a lexer
    backtracks exponentially on a few dozen characters (issue 43). In a
    process of its own under the hang guard: a regex backtracking in C holds
    the GIL, so pytest-timeout's thread could not stop it here."""
    stalling = 'val s = "' + "\\" * 60
    assert len(stalling) < 80
    program = ("import sys; from errorsite.markup import code, lexer_for; lexer = lexer_for('src/Main.scala'); "
               f"sys.exit(0 if code.highlight_stalls({stalling!r}, lexer, 0.2) "
               "and not code.highlight_stalls('val ok = 1', lexer, 0.2) else 3)")
    try:
        done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True,
                              timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hang guard: highlighting {len(stalling)} characters ran past {HANG_GUARD} s, not stopped "
                    "by the budget")
    assert done.returncode == 0, done.stderr


@pytest.mark.slow  # waits out a budget or a deadline on purpose: the whole suite runs it
def test_five_stalling_blocks_share_one_budget_and_get_one_warning(lexer_runs):
    checked = check("five.json", five_stalling())
    assert [str(problem) for problem in checked.problems] == [
        f"five.json: sourceCode: dropped: {STALLED}, and so are exampleFix, validationCode, typeGuard and "
        "tryCatchPattern"]
    assert checked.record.plain_code == ALL_FIVE
    assert lexer_runs == [2.0]  # the first block spent the record's budget; the others were never started


def test_blocks_before_the_stall_keep_their_highlighting(lexer_runs):
    stalling = five_stalling()["record"]["sourceCode"]
    data = generate.record("late-stall", filePath="src/Main.scala", sourceCode="val ok = 1", sourceCodeStart=1,
                           sourceCodeEnd=1, lineNumber=1, exampleFix="val fine = 2", validationCode=stalling,
                           typeGuard="val guard = 3", tryCatchPattern=None)
    checked = check("late.json", data)
    assert [str(problem) for problem in checked.problems] == [
        f"late.json: validationCode: dropped: {STALLED}, and so is typeGuard"]
    assert checked.record.plain_code == ("validation_code", "type_guard")
    assert lexer_runs == [2.0]  # one timer for the record's blocks, each started with what the ones before left


@pytest.mark.slow  # waits out a budget or a deadline on purpose: the whole suite runs it
def test_off_the_main_thread_the_blocks_before_the_stall_keep_their_highlighting_too():
    """There the blocks go to a helper process (process/budget.py), which answers
    with the ones it made before the budget ran out."""
    stalling = five_stalling()["record"]["sourceCode"]
    data = generate.record("late-stall", filePath="src/Main.scala", sourceCode="val ok = 1", sourceCodeStart=1,
                           sourceCodeEnd=1, lineNumber=1, exampleFix="val fine = 2", validationCode=stalling,
                           typeGuard="val guard = 3", tryCatchPattern=None)
    shown = []
    thread = threading.Thread(target=lambda: shown.append(plain_text.shown_plain(validate("late.json", data))))
    thread.start()
    thread.join(HANG_GUARD)
    assert not thread.is_alive(), "hang guard: the helper process was not stopped by the budget"
    checked, blocks = shown[0]
    assert [str(problem) for problem in checked.problems] == [
        f"late.json: validationCode: dropped: {STALLED}, and so is typeGuard"]
    assert checked.record.plain_code == ("validation_code", "type_guard")
    assert {code for code, _ in blocks} == {"val ok = 1", "val fine = 2"}


def test_a_block_a_record_holds_twice_is_lexed_once(lexer_runs, monkeypatch):
    lexed = []
    real = markup_code._highlight_anew
    monkeypatch.setattr(markup_code, "_highlight_anew", lambda code, *rest: lexed.append(code) or real(code, *rest))
    data = generate.record("twice", filePath="src/Main.scala", sourceCode="val ok = 1", sourceCodeStart=1,
                           sourceCodeEnd=1, lineNumber=1, exampleFix="val ok = 1", validationCode=None,
                           tryCatchPattern=None)
    checked, blocks = plain_text.shown_plain(validate("twice.json", data))
    assert checked.record.plain_code == () and lexed == ["val ok = 1"] and len(blocks) == 1
    assert lexer_runs == [2.0]


def test_a_block_another_record_made_is_made_again(lexer_runs, monkeypatch):
    """No block is kept from one record to the next: what a record shows,
    and whether its budget ran out, depends on that record alone."""
    data = generate.record("made", filePath="src/Main.scala", sourceCode="val ok = 1", sourceCodeStart=1,
                           sourceCodeEnd=1, lineNumber=1)
    assert check("made.json", data).record.plain_code == ()
    monkeypatch.setattr(plain_text, "HIGHLIGHT_SECONDS", 0.0)  # nothing left for a lexer to start with
    markup_code.highlight_stalls("val ok = 1", lexer_for("src/Main.scala"))
    assert check("made.json", data).record.plain_code == ("source_code", "example_fix", "validation_code",
                                                           "try_catch_pattern")


def test_a_budget_spent_starts_no_work_and_a_tiny_one_still_stops_it():
    with pytest.raises(budget.OverBudget):
        budget.run(0, pytest.fail, "started with no budget")
    stalling = five_stalling()["record"]["sourceCode"]
    lexer = lexer_for("src/Main.scala")
    with pytest.raises(budget.OverBudget):  # a timer of 0 µs would never fire: the lexer would run on
        budget.run(1e-9, markup_code._highlight_anew, stalling, type(lexer), lexer.options)


# ---- pool: serial while cheap, then in processes --------------------------------------

def test_quick_work_stays_in_this_process():
    spread_to = []
    done = list(serial_then_spread([1, 2, 3], lambda n: n * 10, lambda rest: spread_to.extend(rest) or iter(()),
                                   jobs=2, seconds=60))
    assert done == [10, 20, 30] and spread_to == []


def test_slow_work_hands_the_rest_to_processes_in_order():
    here = []
    done = list(serial_then_spread([1, 2, 3, 4], lambda n: here.append(n) or n * 10,
                                   lambda rest: (n * 100 for n in rest), jobs=2, seconds=-1))
    assert here == [1] and done == [10, 200, 300, 400]


def test_one_job_never_spreads():
    done = list(serial_then_spread([1, 2], lambda n: n, lambda rest: pytest.fail("spread"), jobs=1, seconds=-1))
    assert done == [1, 2]


def test_a_consumer_that_stops_closes_the_processes():
    closed = []

    def rest_of(items):
        try:
            yield from items
        finally:
            closed.append(True)
    made = serial_then_spread([1, 2, 3], lambda n: n, rest_of, jobs=2, seconds=-1)
    assert next(made) == 1 and next(made) == 2
    made.close()
    assert closed == [True]


def test_processes_give_results_in_order_and_raise_a_failure():
    assert list(in_processes(abs, [-3, 2, -1, 0], 2)) == [3, 2, 1, 0]
    items = list(range(200, 0, -1))  # chunks of 6: each sorted by the function, given whole
    size = pool.chunk_size(len(items), 2)
    assert size > 1
    assert list(in_processes(sorted, items, 2, by_chunk=True)) == [
        item for start in range(0, len(items), size) for item in sorted(items[start:start + size])]
    with pytest.raises(ValueError):
        list(in_processes(int, ["1", "x", "3"], 2))


# ---- whole checks and builds -----------------------------------------------------------

def stalling_records(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True)
    (folder / "good.json").write_text(json.dumps(generate.record("good")), "utf-8")
    for i in range(count):
        (folder / f"stalling-{i}.json").write_text(json.dumps(five_stalling(f"stalling-{i}")), "utf-8")
    return folder


def warned(folder: Path, count: int) -> list[str]:
    return [f"{folder.as_posix()}/stalling-{i}.json: sourceCode: dropped: {STALLED}, and so are exampleFix, "
            "validationCode, typeGuard and tryCatchPattern" for i in range(count)]


@pytest.mark.slow  # waits out a budget or a deadline on purpose: the whole suite runs it
def test_check_spread_over_processes_reports_as_one_process_does(tmp_path, monkeypatch):
    records = stalling_records(tmp_path / "records", 2)
    spread_files = []

    def recorded(function, items, jobs):
        spread_files.extend(Path(raw.path).name for raw in items)
        return in_processes(function, items, jobs)
    monkeypatch.setattr(pool, "SERIAL_SECONDS", -1)  # the first file here, the others in processes
    monkeypatch.setattr(errorsite_check, "in_processes", recorded)
    result = check_folder(records, jobs=2)
    assert spread_files == ["stalling-0.json", "stalling-1.json"]  # good.json was checked here
    assert [str(problem) for problem in result.problems] == warned(records, 2)
    assert (result.files, result.records) == (3, 3)


@pytest.mark.slow  # waits out a budget or a deadline on purpose: the whole suite runs it
def test_a_small_build_that_proves_slow_renders_the_rest_in_processes(tmp_path, monkeypatch):
    records = stalling_records(tmp_path / "records", 2)
    spread_files = []

    def recorded(function, items, jobs, *start, **chunks):
        spread_files.extend(path.name for path in items)
        return in_processes(function, items, jobs, *start, **chunks)
    monkeypatch.setattr(pool, "SERIAL_SECONDS", -1)  # the first file here, the others in processes
    monkeypatch.setattr(errorsite_records, "in_processes", recorded)
    result, lines = build_quietly(records, tmp_path / "out", BASE_URL, jobs=2)
    assert spread_files == ["stalling-0.json", "stalling-1.json"]  # good.json was rendered here
    assert result.written and result.records == 3
    assert lines == warned(records, 2)
    page = (tmp_path / "out" / "redis/redis/stalling-1/index.html").read_text("utf-8")
    assert 'val stalling_1_fix = "' + "\\" * 60 in page  # shown plain: escaped, no spans


@pytest.mark.slow
def test_ten_records_of_five_stalling_blocks_build_and_check_with_one_warning_each(tmp_path):
    """The issue's case: 104 s to build and 102 s to check before; each record
    now costs one budget, paid two at a time under -j 2."""
    records = stalling_records(tmp_path / "records", 10)
    result, lines = build_quietly(records, tmp_path / "out", BASE_URL, jobs=2)
    assert result.written and result.records == 11
    assert lines == warned(records, 10)
    page = (tmp_path / "out" / "redis/redis/stalling-0/index.html").read_text("utf-8")
    assert 'val stalling_0_fix = "' + "\\" * 60 in page  # shown plain: escaped, no spans
    checked = check_folder(records, jobs=2)
    assert [str(problem) for problem in checked.problems] == warned(records, 10)
