"""`build.py check`: the same problems as the build, every one of each record, in three formats;
exit 1 on an error, or on a warning with --strict."""
from __future__ import annotations

import json
import re
import shutil

import pytest

from errorsite.tools.check import check, escape_data, escape_property, github_line, json_line, summary
from errorsite.model import Problem
from tests.test_cli import BAD, GOOD
from tests.test_config import run
from tests.test_validate import BAD_LINES, DROPPED_LINES

ALL_LINES = {**BAD_LINES, **DROPPED_LINES}

SHOWN = "tests/fixtures/bad"  # as given on the command line, run from the repository root


def test_text_is_one_build_line_per_problem_and_exit_1(tmp_path):
    done = run("check", "--records", SHOWN)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [f"{SHOWN}/{name}: {line}" for name, line in sorted(ALL_LINES.items())]
    assert done.stderr == "checked 11 files: 10 with problems, 3 records would be built\n"
    assert list(tmp_path.iterdir()) == []


def test_json_is_one_object_per_problem():
    done = run("check", "--records", SHOWN, "--format", "json")
    assert done.returncode == 1
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    assert objects == [
        {"file": f"{SHOWN}/{name}", "field": line.split(": ", 1)[0],
         "message": line.split(": ", 1)[1].removeprefix("dropped: "),
         "level": "warning" if name in DROPPED_LINES else "error"}
        for name, line in sorted(ALL_LINES.items())]


def test_github_annotations():
    done = run("check", "--records", SHOWN, "--format", "github")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert len(lines) == len(ALL_LINES)
    assert f"::error file={SHOWN}/solutions-item-not-a-string.json,title=solutions[1]::expected a string, got 3" in lines
    assert f"::error file={SHOWN}/invalid-json.json,line=26,col=5,title=file::" \
           "invalid JSON at line 26 column 5: Expecting value" in lines
    assert f"::warning file={SHOWN}/line-number-outside-range.json,title=lineNumber::" \
           "200 is outside sourceCodeStart..sourceCodeEnd (118..153)" in lines
    assert all(line.startswith(("::error file=", "::warning file=")) for line in lines)


@pytest.mark.parametrize("format", ["text", "json", "github"])
def test_good_records_exit_0_and_print_no_problem(format, tmp_path):
    shutil.copy(GOOD, tmp_path / GOOD.name)
    done = run("check", "--records", tmp_path, "--format", format)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "checked 1 file: no problems\n")


def test_check_builds_nothing(tmp_path):
    shutil.copy(GOOD, tmp_path / GOOD.name)
    before = sorted(tmp_path.rglob("*"))
    assert run("check", "--records", tmp_path).returncode == 0
    assert sorted(tmp_path.rglob("*")) == before


def test_check_reads_the_records_folder_from_the_config(tmp_path):
    (tmp_path / "data").mkdir()
    shutil.copy(BAD / "record-missing.json", tmp_path / "data" / "x.json")
    (tmp_path / "site.toml").write_text('records = "data"\n')
    done = run("check", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "data/x.json: record: is missing\n")


def test_usage_errors_exit_2():
    assert run("check", "--format", "xml").returncode == 2
    done = run("check", "--records", "/nonexistent")
    assert done.returncode == 2 and "--records: /nonexistent is not a folder" in done.stderr


def test_the_check_finds_what_the_build_reports():
    result = check(BAD)
    assert (result.files, result.records, len(result.problems)) == (11, 3, 10)
    assert summary(result) == "checked 11 files: 10 with problems, 3 records would be built"


def test_github_escaping():
    """A message cannot end the annotation early or forge a second one."""
    problem = Problem("a,b:c.json", "tags[0]", "100% bad\n::error file=x::forged\r")
    line = github_line(problem)
    assert line == "::error file=a%2Cb%3Ac.json,title=tags[0]::100%25 bad%0A::error file=x::forged%0D"
    assert "\n" not in line and "\r" not in line
    assert escape_property("a:b,c%") == "a%3Ab%2Cc%25" and escape_data("a:b,c") == "a:b,c"


def test_json_escapes_what_it_must():
    problem = Problem('records/"x".json', "id", "line\nbreak")
    assert json.loads(json_line(problem)) == {"file": 'records/"x".json', "field": "id",
                                             "message": "line\nbreak", "level": "error"}


# --- every problem at once, and what fails a check ----------------------------------

def with_changes(folder, name, **changes):
    data = json.loads(GOOD.read_text("utf-8"))
    data["record"].update(changes)
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(json.dumps(data), "utf-8")


def test_every_problem_of_a_record_in_one_run(tmp_path):
    with_changes(tmp_path / "records", "x.json", severity=3, lineNumber=200, tags=["😀", "python"])
    done = run("check", "--records", "records", cwd=tmp_path)
    assert done.stdout.splitlines() == [
        "records/x.json: severity: expected a string, got 3",
        'records/x.json: tags[0]: dropped: "😀" has no letters or digits',
        "records/x.json: lineNumber: dropped: 200 is outside sourceCodeStart..sourceCodeEnd (118..153)",
    ]
    assert done.returncode == 1  # the severity: the build would skip this record
    assert done.stderr == "checked 1 file: 1 with problems, 0 records would be built\n"


def test_warnings_alone_pass_unless_strict(tmp_path):
    with_changes(tmp_path / "records", "x.json", lineNumber=200, tags=["😀", "python"])
    plain = run("check", "--records", "records", cwd=tmp_path)
    assert plain.returncode == 0 and len(plain.stdout.splitlines()) == 2
    assert plain.stderr == "checked 1 file: 1 with problems, 1 record would be built\n"
    for strict in (["--strict"], ["--warnings", "error"]):
        done = run("check", "--records", "records", *strict, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (1, plain.stdout)
    assert run("check", "--records", "records", "--warnings", "warning", cwd=tmp_path).returncode == 0
    (tmp_path / "site.toml").write_text("strict = true\n")  # as for the build, whose --strict fails on them
    assert run("check", "--records", "records", cwd=tmp_path).returncode == 1
    assert run("check", "--records", "records", "--no-strict", cwd=tmp_path).returncode == 0
    assert run("check", "--records", "records", "--warnings", "warning", cwd=tmp_path).returncode == 0
    assert run("check", "--strict", "--warnings", "warning", cwd=tmp_path).returncode == 2


def test_check_help_lists_only_what_check_reads():
    done = run("check", "--help")
    assert done.returncode == 0
    options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", done.stdout))
    assert options == {"--help", "--config", "--records", "--jobs", "--format", "--strict", "--no-strict", "--warnings"}
    assert "exit status:" in done.stdout and "1  an error, or a warning with --strict" in done.stdout


# --- what check reads, and a folder with nothing to check (issue 40) -------------------------

def a_project(folder):
    """A project checked with `--records .`: its records, a built site, node_modules and .github."""
    with_changes(folder / "records", "x.json")
    for name in ("site/.errorsite.json", "site/-/urls.json", "node_modules/pkg/package.json",
                 ".github/workflows/ci.json"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("{}")


def test_check_of_a_project_skips_the_site_node_modules_and_dot_folders_and_says_so(tmp_path):
    """Before: exit 1 under --strict, one problem a line for every file of them."""
    a_project(tmp_path)
    done = run("check", "--records", ".", "--strict", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr == ("not read as records: .github/, node_modules/, site/ (the output)\n"
                           "checked 1 file: no problems\n")


@pytest.mark.parametrize("format", ["text", "json", "github"])
def test_check_of_an_empty_folder_is_an_error(tmp_path, format):
    """Before: `checked 0 files: no problems`, exit 0."""
    (tmp_path / "empty").mkdir()
    done = run("check", "--records", "empty", "--format", format, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "build.py check: --records: no record files (*.json) in empty\n"
