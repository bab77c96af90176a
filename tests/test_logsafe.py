"""Record text can show a CI runner's command but never issue one: every line
the commands print goes through logsafe.defuse, in every format (issue 40)."""
from __future__ import annotations

import json
import re

import pytest

from errorsite.tools.check import github_line, json_line, text_line
from errorsite.tools.logsafe import ZERO_WIDTH_SPACE, defuse, json_mark
from errorsite.model import Problem
from tests.test_check import with_changes
from tests.test_config import run

# GitHub's runner reads each line (split at \r or \n) for `::name…` at its start,
# after white space (ActionCommand.TryParseV2), and then for `##[name…]` anywhere
# in it (TryParse); Azure Pipelines for `##vso[…]`.
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def runner_commands(output: str, own: tuple[str, ...] = ()) -> list[str]:
    """The lines a runner would act on, but for those starting with `own`."""
    acted = []
    for line in LINE_BREAK.split(output):
        if line.startswith(own) and own:
            after = line.split("::", 2)[-1]  # an annotation's own data: only a `##[` in it could still act
            if "##[" in after or "##vso[" in after:
                acted.append(line)
        elif line.lstrip().startswith("::") or "##[" in line or "##vso[" in line:
            acted.append(line)
    return acted


@pytest.mark.parametrize("text", [
    "##[add-mask]secret", "x ##[error]forged", "###[stop-commands]t", "##vso[task.setvariable variable=x]1",
    "::add-mask::secret", "  \t::error::x", "a\n::warning::b", "a\r::warning::b", "a\r\n  ::x::y",
    "::a:: then ##[b] and\n::c::",
])
def test_nothing_a_runner_acts_on_survives(text):
    assert runner_commands(text)  # the input is a command
    assert runner_commands(defuse(text)) == []
    assert defuse(text).replace(ZERO_WIDTH_SPACE, "") == text  # only a zero-width space added
    assert defuse(defuse(text)) == defuse(text)


def test_a_line_that_other_viewers_break_is_defused_too():
    assert defuse("a\u2028::x::y\x85::z") == f"a\u2028:{ZERO_WIDTH_SPACE}:x::y\x85:{ZERO_WIDTH_SPACE}:z"


@pytest.mark.parametrize("text", ["plain", "a::b mid-line", "# one [x]", "#[", "C# [x]", "x: y", "#", ":"])
def test_other_text_is_left_as_it_is(text):
    assert defuse(text) == text


def test_json_lines_escape_so_they_parse_back_exactly():
    problem = Problem("##[add-mask]b.json", "githubUrl", '"::add-mask::y\u2028::stop-commands::z ##vso[x]"')
    line = json_line(problem)
    assert runner_commands(line) == [] and ZERO_WIDTH_SPACE not in line
    assert json.loads(line) == {"file": "##[add-mask]b.json", "field": "githubUrl", "level": "error",
                                "message": '"::add-mask::y\u2028::stop-commands::z ##vso[x]"'}
    assert json_mark("#") == "\\u0023"


def test_github_annotations_keep_their_own_start_and_defuse_the_rest():
    problem = Problem("##[add-mask]a.json", "tags[0]", "##[stop-commands]tok is bad")
    line = github_line(problem)
    assert line.startswith("::error file=#")
    assert runner_commands(line, own=("::error ", "::warning ")) == []
    assert "##[" not in line


def test_text_lines_start_with_no_command():
    assert runner_commands(text_line(Problem("::add-mask::a.json", "severity", "expected a string, got 3"))) == []


# --- the commands, end to end, on the records that drove a runner ---------------------------

@pytest.fixture
def hostile_records(tmp_path):
    folder = tmp_path / "records"
    with_changes(folder, "::add-mask::a.json", severity=3)
    with_changes(folder, "##[add-mask]b.json", severity=3)
    with_changes(folder, "e.json", id="e3", slug="e-slug", githubUrl="##[add-mask]secret")
    with_changes(folder, "f.json", id="f4", slug="f-slug", githubUrl="x\r::add-mask::y")
    return folder


@pytest.mark.parametrize("format", ["text", "json", "github"])
def test_check_prints_no_runner_command_in_any_format(hostile_records, format):
    done = run("check", "--records", ".", "--format", format, cwd=hostile_records)
    assert done.returncode == 1 and len(done.stdout.splitlines()) == 4
    assert runner_commands(done.stdout + done.stderr, own=("::error ", "::warning ") if format == "github" else ()) \
        == []


def test_build_prints_no_runner_command(hostile_records, tmp_path):
    done = run("--records", ".", "--out", tmp_path / "site", "--base-url", "http://localhost:8000/",
               cwd=hostile_records)
    assert done.returncode == 0 and done.stdout == "built 0 records, skipped 4 — see above\n"
    assert len(done.stderr.splitlines()) == 4 and runner_commands(done.stdout + done.stderr) == []
