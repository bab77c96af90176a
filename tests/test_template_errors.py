"""A template that fails as it runs ends the build with one line naming the
template's file and line, as a typo does (errorsite/pages/template_errors.py): a
division by zero or an undefined macro in a record's template, a macro
calling itself without end in the home page, a failing list item
(macros.html's macro, called from Python); exit 1, nothing written, the
previous site as it was. What Python code called from a template raises
keeps its traceback: it is no fault of the template."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from errorsite.cli import main
from tests.conftest import ROOT

MACROS = (ROOT / "templates" / "macros.html").read_text("utf-8")
RECURSIVE = "{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}"


def extending(name: str, *main_lines: str) -> str:
    """A template replacing `name`'s main block, whose lines start at line 3."""
    return "\n".join([f'{{% extends "builtin/{name}" %}}', "{% block main %}", *main_lines, "{% endblock %}", ""])


@pytest.fixture
def project(tmp_path) -> tuple[Path, Path]:
    """One record, and a site built from it with the built-in templates."""
    base = json.loads(next((ROOT / "records").glob("*.json")).read_text("utf-8"))
    records = tmp_path / "records"
    records.mkdir()
    data = copy.deepcopy(base)
    data["record"].update(id="r0000", slug="error-0")
    (records / "r0000.json").write_text(json.dumps(data), "utf-8")
    out = tmp_path / "site"
    assert main(["--records", str(records), "--out", str(out), "--base-url", "http://127.0.0.1:1/", "-q"]) == 0
    return records, out


def files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


@pytest.mark.parametrize("name, text, says", [
    ("record.html", extending("record.html", "{{ 1/0 }}"),
     "{record}: template error: {theme}/record.html:3: ZeroDivisionError: division by zero"),
    ("record.html", extending("record.html", "<p>", "{{ no_such_macro(1) }}</p>"),
     "{record}: template error: {theme}/record.html:4: 'no_such_macro' is undefined"),
    ("home.html", "\n".join([f'{{% extends "builtin/home.html" %}}', RECURSIVE, "{% block main %}{{ r(1) }}{% endblock %}"]),
     "template error: {theme}/home.html:2: RecursionError: maximum recursion depth exceeded"),
    ("macros.html", MACROS.replace("{% macro record_item(e, in_repo=false) -%}\n<li>",
                                   "{% macro record_item(e, in_repo=false) -%}\n<li>{{ {}.x.y }}"),
     "template error: {theme}/macros.html:11: 'dict object' has no attribute 'x'"),
    ("macros.html", MACROS.replace("{% macro record_item(e, in_repo=false) -%}\n<li>",
                                   "{% macro record_item(e, in_repo=false) -%}\n<li>{{ 1/0 }}"),
     "template error: {theme}/macros.html:11: ZeroDivisionError: division by zero"),
])
def test_a_failing_template_is_told_in_one_line_and_the_previous_site_stays(project, tmp_path, capsys, name, text,
                                                                             says):
    records, out = project
    before = files(out)
    theme = tmp_path / "theme"
    theme.mkdir()
    (theme / name).write_text(text, "utf-8")
    capsys.readouterr()
    status = main(["--records", str(records), "--out", str(out), "--base-url", "http://127.0.0.1:1/",
                   "--templates", str(theme), "-q"])
    err = capsys.readouterr().err
    line = says.format(record=f"{records.as_posix()}/r0000.json", theme=theme)
    assert status == 1 and err.endswith("\nnothing written\n") and err.count("\n") == 2
    first = err.split("\n")[0]
    assert first.startswith(line) if "RecursionError" in line else first == line  # Python words that one variously
    assert files(out) == before


def test_what_python_called_from_a_template_raises_keeps_its_traceback(project, tmp_path, capsys):
    """`href` given a number fails inside urls.py, not in the template's code:
    a bug to find, so its traceback is printed as before."""
    records, out = project
    theme = tmp_path / "theme"
    theme.mkdir()
    (theme / "record.html").write_text(extending("record.html", "{{ 3 | href }}"), "utf-8")
    capsys.readouterr()
    status = main(["--records", str(records), "--out", str(out), "--base-url", "http://127.0.0.1:1/",
                   "--templates", str(theme), "-q"])
    err = capsys.readouterr().err
    assert status == 1 and err.startswith(f"{records.as_posix()}/r0000.json: cannot render:\nTraceback ")
    assert "urls.py" in err and "template error" not in err
