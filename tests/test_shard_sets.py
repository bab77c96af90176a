"""Shards know the record set they were cut from: assemble refuses shards of
different sets of record files, naming the odd one, even when its own slice
is the same, since a site assembled from them would silently miss records."""
from __future__ import annotations

import json

import pytest

from errorsite.pipeline import BuildSettings, assemble, build, build_shard
from errorsite.shards import SHARD_FILE, Shard, ShardError, in_shard
from tests.test_incremental import record_data, tree, write_records

BASE_URL = "http://127.0.0.1:1/errors/"


def quiet(line: str) -> None:
    pass


def shards_of(records, folders, count=4):
    for k, folder in enumerate(folders, 1):
        assert build_shard(records, folder, BASE_URL, Shard(k, count), BuildSettings(report=quiet, jobs=1)).written


def test_a_shard_of_another_record_set_is_refused_by_name(tmp_path):
    one = write_records(tmp_path / "one", 12)
    other = write_records(tmp_path / "other", 12)
    # The other corpus differs in one file, outside the fourth slice: that slice's own files are the same.
    changed = next(path for path in sorted(other.glob("*.json")) if not in_shard(path.name, Shard(4, 4)))
    changed.write_text(json.dumps(record_data(99)), "utf-8")
    shards = [tmp_path / f"shard-{k}" for k in (1, 2, 3, 4)]
    shards_of(one, shards[:3])
    build_shard(other, shards[3], BASE_URL, Shard(4, 4), BuildSettings(report=quiet, jobs=1))
    with pytest.raises(ShardError) as refused:
        assemble(shards, tmp_path / "site", BASE_URL, BuildSettings(report=quiet))
    assert str(refused.value) == (f"{shards[3]}: cut from other record files than the other shards (3 of 4 agree); "
                                  "build every shard from the same records")
    assert not (tmp_path / "site").exists()

    build_shard(one, shards[3], BASE_URL, Shard(4, 4), BuildSettings(report=quiet, jobs=1))
    assert assemble(shards, tmp_path / "site", BASE_URL, BuildSettings(report=quiet)).written
    assert build(one, tmp_path / "whole", BASE_URL, BuildSettings(report=quiet, jobs=1)).written
    assert tree(tmp_path / "site") == tree(tmp_path / "whole")


def test_every_shard_records_the_whole_set_not_its_slice(tmp_path):
    records = write_records(tmp_path / "records", 6)
    shards = [tmp_path / f"shard-{k}" for k in (1, 2)]
    shards_of(records, shards, count=2)
    cut_from = {json.loads((folder / SHARD_FILE).read_text())["record_set"] for folder in shards}
    assert len(cut_from) == 1
    (records / "r0000.json").write_text(json.dumps(record_data(0, errorMessage="Changed")), "utf-8")
    shards_of(records, shards[:1], count=2)
    assert json.loads((shards[0] / SHARD_FILE).read_text())["record_set"] not in cut_from


def test_a_shard_given_twice_is_refused_though_every_number_is_there(tmp_path):
    """`assemble s1 s1 s2` once exited 0: the numbers compared as a set (issue 43)."""
    from errorsite.shards import ShardFile, check_complete

    def made(number: int, folder: str) -> ShardFile:
        return ShardFile(tmp_path / folder, Shard(number, 2), "fp", "cut", 0, {}, "records")
    check_complete([made(1, "s1"), made(2, "s2")], "fp")
    for given in ([made(1, "s1"), made(1, "s1"), made(2, "s2")], [made(2, "s2"), made(1, "s1"), made(2, "b")]):
        with pytest.raises(ShardError, match="some given twice"):
            check_complete(given, "fp")
