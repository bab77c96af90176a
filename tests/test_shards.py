"""Shards: three slices of the record stage, assembled, give the same bytes as
one build; assemble refuses shards that do not make one whole site."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from errorsite.pipeline import BuildSettings, assemble, build, build_shard
from errorsite.shards import Shard, ShardError, in_shard, parse_shard
from tests.conftest import ROOT
from tests.test_incremental import record_data, tree, write_records

pytestmark = pytest.mark.slow  # real multi-process builds

BASE_URL = "http://127.0.0.1:1/errors/"


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = write_records(tmp_path_factory.mktemp("shards") / "records", 204)
    (folder / "zz-duplicate-id.json").write_text(json.dumps(record_data(5, slug="another-slug")))  # id r0005 again
    (folder / "sub").mkdir()
    (folder / "sub" / "bad.json").write_text('{"record": {"id": 3}}')
    (folder / "sub" / "dropped.json").write_text(json.dumps(record_data(7000, tags=["🔥", "ok"])))
    return folder


def quiet(lines):
    return lines.append


def test_three_shards_assembled_equal_one_build(records, tmp_path):
    one_lines, shard_lines, assembled_lines = [], [], []
    one = build(records, tmp_path / "one", BASE_URL, BuildSettings(report=one_lines.append, jobs=2))
    shards = [tmp_path / f"shard-{k}" for k in (1, 2, 3)]
    for k, folder in enumerate(shards, 1):
        assert build_shard(records, folder, BASE_URL, Shard(k, 3), BuildSettings(report=shard_lines.append, jobs=2)).written
    result = assemble(list(reversed(shards)), tmp_path / "site", BASE_URL, BuildSettings(report=assembled_lines.append, jobs=2))
    assert result.written and (result.records, len(result.problems)) == (one.records, len(one.problems))
    assert tree(tmp_path / "site") == tree(tmp_path / "one")
    assert assembled_lines == one_lines  # the same problems, in the same order (duplicates included)
    assert sorted(shard_lines) == sorted(line for line in one_lines if "duplicate" not in line)


def test_every_file_is_in_exactly_one_shard(records):
    files = [p.relative_to(records).as_posix() for p in records.rglob("*.json")]
    for count in (1, 2, 3, 7):
        for path in files:
            assert sum(in_shard(path, Shard(k, count)) for k in range(1, count + 1)) == 1


def test_a_missing_or_foreign_shard_is_refused(records, tmp_path):
    shards = [tmp_path / f"shard-{k}" for k in (1, 2)]
    for k, folder in enumerate(shards, 1):
        build_shard(records, folder, BASE_URL, Shard(k, 3), BuildSettings(report=lambda line: None, jobs=2))
    with pytest.raises(ShardError, match="shards of 3: missing 3/3"):
        assemble(shards, tmp_path / "site", BASE_URL, BuildSettings(report=lambda line: None))
    build_shard(records, tmp_path / "shard-3", "https://elsewhere.example/", Shard(3, 3), BuildSettings(report=lambda line: None, jobs=2))
    with pytest.raises(ShardError, match="built with other code, templates, settings or base URL"):
        assemble([*shards, tmp_path / "shard-3"], tmp_path / "site", BASE_URL, BuildSettings(report=lambda line: None))
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("text", ["0/3", "4/3", "a/b", "3", "1/0"])
def test_bad_shard_options(text):
    with pytest.raises(ValueError, match="--shard must be K/N"):
        parse_shard(text)


def test_the_command_line_shards_and_assembles(records, tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, str(ROOT / "build.py"), *map(str, args)], capture_output=True,
                              text=True, cwd=tmp_path, timeout=300)
    for k in (1, 2):
        done = run("--records", records, "--out", tmp_path / f"s{k}", "--shard", f"{k}/2", "--base-url", BASE_URL)
        assert done.returncode == 0, done.stderr
    done = run("assemble", tmp_path / "s1", tmp_path / "s2", "--out", tmp_path / "site", "--base-url", BASE_URL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("built 205 records, skipped 2, dropped 1 value")
    assert (tmp_path / "site" / "index.html").is_file()
    done = run("assemble", tmp_path / "s1", "--out", tmp_path / "other", "--base-url", BASE_URL)
    assert done.returncode == 1 and "missing 2/2" in done.stderr
    assert run("--shard", "5/2").returncode == 2
