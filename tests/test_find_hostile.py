"""`errorsite find` trusts no site (issue 63, item B): a record's text starts
no CI command in any format, and an error the site causes is one inert line.

Sites are built or written in temporary folders."""
from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from errorsite.logsafe import _LINE_BREAKS
from tests.conftest import ROOT, build_quietly

BASE = "/errors/"
MASK = "##[add-mask]hunter2 is the token"
ANNOTATION = "Failed to connect\u2028::error::forged annotation"
DOCUMENTATION = "It fails.\n::error file=app.py::forged from the documentation\n##[error]forged too"
STOPPED = 60  # seconds: a guard against a hang, not a measure of speed


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
