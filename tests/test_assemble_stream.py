"""assemble reads the shards' entries as a merge of sorted streams: one entry
per shard at a time, in the order one build makes them, and refuses an
entries file that was cut short or reordered, writing nothing."""
from __future__ import annotations

import subprocess
import sys

import pytest

from errorsite.model import Outcome
from errorsite.pipeline import assemble, build
from errorsite.shards import ENTRIES_FILE, Shard, ShardEntry, ShardError, merged, order_key
from tests.conftest import ROOT
from tests.test_incremental import tree, write_records

BASE_URL = "http://127.0.0.1:1/errors/"


def quiet(line: str) -> None:
    pass


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    root = tmp_path_factory.mktemp("assemble")
    records = write_records(root / "records", 24)
    folders = [root / f"shard-{k}" for k in (1, 2, 3)]
    for k, folder in enumerate(folders, 1):
        assert build(records, folder, BASE_URL, report=quiet, jobs=1, shard=Shard(k, 3)).written
    assert build(records, root / "one", BASE_URL, report=quiet, jobs=1).written
    return folders


def entry(relative: str) -> ShardEntry:
    return ShardEntry(relative, Outcome([], None, [], None))


def test_the_merge_takes_one_entry_of_each_shard_at_a_time():
    taken = []

    def stream(names):
        for name in names:
            taken.append(name)
            yield entry(name)

    streams = [stream(["a.json", "c/x.json", "d.json"]), stream(["b.json", "c.json", "e.json"]),
               stream(["c/a/b.json", "z.json"])]
    merge = merged(streams)
    assert [next(merge).relative for _ in range(2)] == ["a.json", "b.json"]
    assert taken == ["a.json", "b.json", "c/a/b.json", "c/x.json"]  # each stream's first, and the one after a.json
    rest = [item.relative for item in merge]
    assert rest == ["c/a/b.json", "c/x.json", "c.json", "d.json", "e.json", "z.json"]
    assert rest == sorted(rest, key=order_key)


def test_shard_entries_are_written_in_the_merge_order(shards):
    for folder in shards:
        names = [line.split('"')[1] for line in (folder / ENTRIES_FILE).read_text("utf-8").splitlines()]
        assert names == sorted(names, key=order_key) and names


def test_assembled_with_the_search_data_beside_equals_one_build(shards, tmp_path):
    # jobs=2 makes the search data in another process once there are enough records; at 24 the same code
    # runs here: the equality at 204 records and -j 2 is in test_shards.
    for jobs in (1, 2):
        assert assemble(shards, tmp_path / f"site-{jobs}", BASE_URL, report=quiet, jobs=jobs).written
        assert tree(tmp_path / f"site-{jobs}") == tree(shards[0].parent / "one")


@pytest.mark.parametrize("damage, message", [
    (lambda lines: lines[:-1], "entries, where .* says"),
    (lambda lines: lines[::-1], "out of order"),
    (lambda lines: [*lines[:-1], b"[1, 2]\n"], "cannot read"),
])
def test_a_damaged_entries_file_is_refused_and_nothing_written(shards, tmp_path, damage, message):
    copies = []
    for folder in shards:
        copy = tmp_path / folder.name
        subprocess.run(["cp", "-a", str(folder), str(copy)], check=True)
        copies.append(copy)
    path = copies[1] / ENTRIES_FILE
    path.write_bytes(b"".join(damage(path.read_bytes().splitlines(keepends=True))))
    with pytest.raises(ShardError, match=message) as refused:
        assemble(copies, tmp_path / "site", BASE_URL, report=quiet)
    assert str(refused.value).startswith(str(path))
    assert not (tmp_path / "site").exists()


def test_the_command_takes_jobs(shards, tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "assemble", *map(str, shards), "-j", "2",
                           "--out", str(tmp_path / "site"), "--base-url", BASE_URL],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert tree(tmp_path / "site") == tree(shards[0].parent / "one")


def test_the_memory_benchmark_traces_each_step_of_an_assemble(shards, tmp_path):
    """bench/assemble_memory.py, the tool issue 27's figures come from: a line
    for the record step and each global step, and the peak, on a real assemble."""
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "assemble_memory.py"), "--out", str(tmp_path / "site"),
                          "--base-url", BASE_URL, *map(str, shards)], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    steps = [line.split()[0] for line in out.stdout.splitlines()[:-1]]
    assert steps == ["record_pages", "browse_pages", "code_pages", "api_pages", "feed_pages", "redirect_pages",
                     "streamed_search", "sitemap"]
    assert out.stdout.splitlines()[-1].startswith("24 records: peak ")
    assert (tmp_path / "site" / "index.html").is_file()
