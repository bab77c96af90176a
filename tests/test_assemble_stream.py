"""assemble reads the shards' entries as a merge of sorted streams: one entry
per shard at a time, in the order one build makes them, and refuses an
entries file that was cut short or reordered, writing nothing."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from errorsite.model import Outcome, Summary
from errorsite.pipeline import BuildSettings, assemble, build, build_shard
from errorsite.shards import ENTRIES_FILE, SHARD_FILE, Shard, ShardEntry, ShardError, merged, order_key
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
        assert build_shard(records, folder, BASE_URL, Shard(k, 3), BuildSettings(report=quiet, jobs=1)).written
    assert build(records, root / "one", BASE_URL, BuildSettings(report=quiet, jobs=1)).written
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
        assert assemble(shards, tmp_path / f"site-{jobs}", BASE_URL, BuildSettings(report=quiet, jobs=jobs)).written
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
        assemble(copies, tmp_path / "site", BASE_URL, BuildSettings(report=quiet))
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
                     "sitemap", "streamed_search"]
    assert out.stdout.splitlines()[-1].startswith("24 records: peak ")
    assert (tmp_path / "site" / "index.html").is_file()


# --- a malformed shard: one line naming it and the problem, never a traceback (issue 40) -----------

def changed(entry: list, index: int, value) -> list:
    return [*entry[:index], value, *entry[index + 1:]]


def in_summary(name: str, value):
    return lambda entry: changed(entry, 2, changed(entry[2], Summary._fields.index(name), value))


# Each of these assembled with exit 0 or ended in a 25-61-line traceback.
@pytest.mark.parametrize("damage, message", [
    (in_summary("message", 5), "its summary's message is not what a build writes"),        # was a traceback
    (in_summary("tags", [5, None]), "its summary's tags is not what a build writes"),       # was a traceback
    (in_summary("error_type", None), "its summary's error_type is not what a build writes"),  # was a traceback
    (in_summary("analyzed_at", 5), "its summary's analyzed_at is not what a build writes"),  # was a traceback
    (lambda entry: changed(entry, 1, [["a", "b", "c", "d"]]), "its problems are not what a build writes"),  # built
    (lambda entry: changed(entry, 1, [[1, 2, 3]]), "its problems are not what a build writes"),  # was built
    (lambda entry: changed(entry, 4, [1]), "line 1: not an entry"),                          # was built
    (lambda entry: changed(entry, 2, {"a": 1}), "its summary is not what a build writes"),
    (lambda entry: "[" * 100_000 + "]" * 100_000, "line 1: nested too deeply: not an entry"),  # was a traceback
])
def test_a_malformed_entry_is_refused_in_one_line(shards, tmp_path, damage, message):
    copies = copied(shards, tmp_path)
    path = copies[0] / ENTRIES_FILE
    first, *rest = path.read_bytes().splitlines(keepends=True)
    entry = json.loads(first)
    assert entry[2] is not None  # a record that was built
    damaged = damage(entry)
    path.write_bytes(b"".join([(damaged if isinstance(damaged, str) else json.dumps(damaged)).encode() + b"\n", *rest]))
    with pytest.raises(ShardError, match=re.escape(message)) as refused:
        assemble(copies, tmp_path / "site", BASE_URL, BuildSettings(report=quiet))
    assert str(refused.value).startswith(f"{path}: cannot read: line 1: ") and "\n" not in str(refused.value)
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("change, message", [
    ({"shard": ["1", "3"]}, "shard is not [K, N]"),                   # was a traceback
    ({"shard": [3, 1]}, "shard is not [K, N]"),
    ({"sources": {"a.json": [1]}}, "sources is not an object of strings"),  # was assembled
    ({"entries": True}, "entries is not a count"),
    ({"fingerprint": 7}, "fingerprint is not a string"),
])
def test_a_malformed_shard_file_is_refused_in_one_line(shards, tmp_path, change, message):
    copies = copied(shards, tmp_path)
    path = copies[0] / SHARD_FILE
    path.write_text(json.dumps({**json.loads(path.read_text()), **change}))
    with pytest.raises(ShardError) as refused:
        assemble(copies, tmp_path / "site", BASE_URL, BuildSettings(report=quiet))
    assert str(refused.value) == f"{path}: {message}: not a shard file of this version"
    assert not (tmp_path / "site").exists()


def test_a_deeply_nested_shard_file_is_one_line_and_exit_1(shards, tmp_path):
    """Was a 35-line RecursionError traceback."""
    copies = copied(shards, tmp_path)
    (copies[0] / SHARD_FILE).write_text("[" * 100_000 + "]" * 100_000)
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "assemble", *map(str, copies),
                           "--out", str(tmp_path / "site"), "--base-url", BASE_URL],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"build.py: {copies[0] / SHARD_FILE}: cannot read: nested too deeply: not a shard file\n"
    assert not (tmp_path / "site").exists()


def copied(folders, tmp_path):
    copies = []
    for folder in folders:
        copy = tmp_path / folder.name
        subprocess.run(["cp", "-a", str(folder), str(copy)], check=True)
        copies.append(copy)
    return copies
