"""The benchmark's corpus generator: reproducible, and every record valid and filled.

Uses whichever of the source trees of bench/sources.py are installed (at least
the Python standard library on Debian); no timing is measured here.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from bench.repos import repositories
from bench.shaped import LANGUAGES, pool, render_message, write_corpus
from errorsite.load import load_records
from errorsite.validate import validate_all
from tests.conftest import ROOT

# The tests marked slow read the source trees (~12 s, and as long again in the
# other process): the fast loop keeps the pure test at the end.
CODE_FIELDS = ("sourceCode", "exampleFix", "validationCode", "typeGuard", "tryCatchPattern")


@pytest.fixture(scope="module")
def languages():
    found = tuple(lang for lang in LANGUAGES if pool(lang))
    if not found:
        pytest.skip("no source tree of bench/sources.py is installed (see docs/performance.md)")
    return found


@pytest.mark.slow
def test_same_size_and_seed_give_the_same_bytes_in_another_process(tmp_path, languages):
    write_corpus(tmp_path / "here", 50, seed=3)
    subprocess.run([sys.executable, str(ROOT / "bench" / "shaped.py"), "--count", "50", "--seed", "3",
                    "--out", str(tmp_path / "there")], check=True, capture_output=True)
    here = {p.name: p.read_bytes() for p in (tmp_path / "here").iterdir()}
    there = {p.name: p.read_bytes() for p in (tmp_path / "there").iterdir()}
    assert len(here) == 50
    assert here == there


@pytest.mark.slow
def test_another_seed_gives_another_corpus(tmp_path, languages):
    write_corpus(tmp_path / "a", 20, seed=0)
    write_corpus(tmp_path / "b", 20, seed=1)
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) != sorted(p.name for p in (tmp_path / "b").iterdir())


@pytest.mark.slow
def test_records_validate_and_fill_every_field(tmp_path, languages):
    write_corpus(tmp_path, 50)
    raws = load_records(tmp_path)
    records, problems = validate_all(raws)
    assert [str(p) for p in problems] == []
    assert len(records) == 50
    for raw in raws:
        rec = raw.data["record"]
        assert all(rec[field] for field in CODE_FIELDS), rec["filePath"]
        assert all(rec[field] for field in ("documentation", "triggerScenarios", "commonSituations", "tags"))
        assert len(rec["solutions"]) == 3 and len(rec["preventionTips"]) == 3
        lines = rec["sourceCode"].split("\n")
        assert 30 <= len(lines) <= 36
        assert rec["sourceCodeEnd"] - rec["sourceCodeStart"] + 1 == len(lines)
        assert rec["sourceCodeStart"] <= rec["lineNumber"] <= rec["sourceCodeEnd"]
    assert {r.file_path.rsplit(".", 1)[-1] for r in records} >= {"py"}  # several languages where installed
    assert {r.tags[0] for r in records} <= set(languages)
    # each repository has one language, so a small corpus holds only some: the
    # repositories of a large one hold them all
    assert {repo.language for repo in repositories(10_000, 0, languages)} == set(languages)


def test_format_directives_become_values_and_placeholders():
    assert render_message("bad %s at %d", "x")[1] == "bad {arg0} at {n}"
    assert render_message("unknown ${name}", "x")[1] == "unknown {name}"
    assert render_message("100%% of {{x}}", "x") == ("100% of {x}", "100% of {x}")
    message, pattern = render_message('say \\"hi\\" to {:?}', "x")
    assert pattern == 'say "hi" to {arg0}' and "{" not in message
