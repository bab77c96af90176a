"""`check`: load → validate, then what the pages show as plain text (as the
build checks each record: plain_text.check_record), and a report of every
problem, without building.

Every problem of every record in one run, classified as the build does: an
error is a record the build would skip, a warning a value it would drop from
a record it still builds. Errors fail a check (exit 1); warnings only with
`strict` (`--strict`, `--warnings error`, or `strict = true` in the settings,
which makes the build fail on them too).

Three formats of the same problems, one line each: `text` as the build prints
them, `json` (one object per line) for a dataset's own tooling, and `github`,
workflow commands that GitHub Actions shows as annotations on the files.
In each, the record's text can show a CI runner's command but never issue
one (logsafe.defuse).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator, NamedTuple

from ..load import check_not_empty, read_records
from ..model import Problem
from ..pages.plain_text import check_record
from ..process.pool import in_processes, serial_then_spread
from ..validate import Checked, validate_all
from .logsafe import defuse, json_mark

FORMATS = ("text", "json", "github")
JSON_LINE = re.compile(r"invalid JSON at line (\d+) column (\d+)")


class CheckResult(NamedTuple):
    files: int
    records: int            # files that would become pages
    problems: list[Problem]
    skipped: tuple[str, ...] = ()   # folders not read, as the build skips them (load.Scan.skipped)


def check(records_dir: Path, out: Path | None = None, jobs: int = 1) -> CheckResult:
    """Every problem of the records, read as the build reads them into `out`.
    Raises load.NoRecordFiles when there is no record file to check."""
    raws, skipped = read_records(records_dir, out)
    check_not_empty(records_dir, len(raws), skipped)
    records, problems = validate_all(raws, lambda readable: checked_files(readable, jobs))
    return CheckResult(len(raws), len(records), problems, skipped)


def checked_files(raws: list, jobs: int) -> Iterator[Checked]:
    """Each readable file checked, in order: here, and in `jobs` processes
    once that proves slow (process/pool.py), since a record's code may take its
    whole highlighting budget, as in the build."""
    return serial_then_spread(raws, check_file, lambda rest: in_processes(check_file, rest, jobs), jobs)


def check_file(raw) -> Checked:
    """One loaded record file checked (load.RawRecord), in whichever process."""
    return check_record(raw.path, raw.data)


def exit_status(problems: list[Problem], strict: bool) -> int:
    """1 when a record would be skipped, or, with `strict`, when anything would be dropped; else 0."""
    return 1 if any(level(problem) == "error" for problem in problems) or (strict and problems) else 0


def report_lines(problems: list[Problem], format: str) -> list[str]:
    return [FORMATTERS[format](problem) for problem in problems]


def text_line(problem: Problem) -> str:
    return defuse(str(problem))


def json_line(problem: Problem) -> str:
    """One object; a runner's command in it is written as a JSON escape, so
    the values parse back exactly as the record has them."""
    return defuse(json.dumps({"file": problem.path, "field": problem.field, "message": problem.message,
                              "level": level(problem)}, ensure_ascii=False, sort_keys=True), json_mark)


def level(problem: Problem) -> str:
    """A dropped value is a warning (the record is still built); anything else an error."""
    return "warning" if problem.dropped else "error"


def github_line(problem: Problem) -> str:
    """`::error file=…,title=…::message`, escaped as GitHub's toolkit escapes;
    only the line's own start is a command (the values are defused)."""
    properties = {"file": problem.path}
    position = JSON_LINE.search(problem.message) if problem.field == "file" else None
    if position:
        properties.update(line=position[1], col=position[2])
    properties["title"] = problem.field
    props = ",".join(f"{name}={defuse(escape_property(value))}" for name, value in properties.items())
    return f"::{level(problem)} {props}::{defuse(escape_data(problem.message))}"


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


FORMATTERS = {"text": text_line, "json": json_line, "github": github_line}


def summary(result: CheckResult) -> str:
    files = f"{result.files} file{'s' if result.files != 1 else ''}"
    bad = len({problem.path for problem in result.problems})
    if not bad:
        return f"checked {files}: no problems"
    built = f"{result.records} record{'s' if result.records != 1 else ''} would be built"
    return f"checked {files}: {bad} with problems, {built}"
