"""Builds are atomic and reproducible.

A build killed with SIGKILL at any moment leaves the previous site exactly as
it was; the next build cleans up after it. Two builds of the same records are
byte-identical, whatever the hash seed or the output folder. --strict with a
bad record writes nothing. Builds run as `python build.py` subprocesses, as a
user or CI runs them.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from errorsite import write
from errorsite.cache.folder import state_folder
from errorsite.model import Page
from tests.conftest import ROOT, SHARED_RECORDS, need_shared
from tests.test_hostile import FIXTURES, RENDERED, copy_fixtures

BASE_URL = "https://example.org/errors/"
CORPUS = 300  # ~2,100 files and folders: time enough to kill its build at each moment below


def build_command(records: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, str(ROOT / "build.py"), "--records", str(records), "--out", str(out),
            "--base-url", BASE_URL, "-q", *extra]


# A hang guard: a build here takes seconds; none in two minutes has hung.
HANG_GUARD = 120


def run_build(records: Path, out: Path, *extra: str, seed: str = "0") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.run(build_command(records, out, *extra), capture_output=True, text=True, env=env,
                          timeout=HANG_GUARD)


def tree(root: Path) -> dict[str, str]:
    """Every file and folder below root: path → sha256 of its bytes ("dir" for folders)."""
    return {path.relative_to(root).as_posix(): "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(root.rglob("*"))}


def make_corpus(dest: Path, count: int = CORPUS) -> Path:
    """`count` copies of the shared records, each with its own id and slug."""
    sources = sorted(SHARED_RECORDS.glob("*.json"))
    dest.mkdir(parents=True)
    for i in range(count):
        data = json.loads(sources[i % len(sources)].read_text("utf-8"))
        data["record"]["id"] = f"{data['record']['id']}-{i}"
        data["record"]["slug"] = f"{data['record']['slug']}-copy-{i}"
        (dest / f"copy-{i:04d}.json").write_text(json.dumps(data), "utf-8")
    return dest


def copy_records(dest: Path) -> Path:
    """The shared records, copied file by file (shared/ may be read-only)."""
    dest.mkdir(parents=True)
    for path in SHARED_RECORDS.glob("*.json"):
        shutil.copyfile(path, dest / path.name)
    return dest


def leftovers(out: Path) -> list[str]:
    """What a build left beside its output: nothing. The lock, the record files'
    digests, the build's state and outcomes and the spare (the previous site,
    the next build's start) are in its cache folder."""
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


def dead_pid() -> int:
    """The pid of a process that has finished (and been reaped)."""
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """A small good site's records, a 300-record corpus, and the corpus built once
    for reference, over the small site's URL history (as a build over it has)."""
    need_shared()
    tmp = tmp_path_factory.mktemp("atomic")
    small = copy_records(tmp / "small")
    big = make_corpus(tmp / "big")
    assert run_build(small, tmp / "small-site").returncode == 0
    reference = tmp / "reference"
    history = str(tmp / "small-site" / "-" / "urls.json")
    assert run_build(big, reference, "--previous-manifest", history).returncode == 0
    return small, big, tree(reference)


def staged(process: subprocess.Popen, out: Path, entries: int) -> bool:
    """True once the build has written `entries` files and folders into its staging folder."""
    staging = out.with_name(f".{out.name}.building-{process.pid}")
    return staging.is_dir() and (entries == 0 or at_least(staging, entries))


def at_least(folder: Path, entries: int) -> bool:
    """Whether `folder` holds `entries` files and folders, at any depth. Counted
    with os.scandir and no further than needed: the walk is done every few
    milliseconds while the build runs, and a slow one (Path.rglob) took a core
    the build needed on a loaded machine."""
    count, folders = 0, [str(folder)]
    while folders:
        try:
            with os.scandir(folders.pop()) as found:
                for entry in found:
                    count += 1
                    if count >= entries:
                        return True
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(entry.path)
        except (FileNotFoundError, NotADirectoryError):  # removed under the walk: counted next time
            pass
    return False


# Each kill waits on an event, never on a clock: the build's staging folder holding
# that share of the site's files and folders (0: the folder has just appeared).
# One moment in each phase of the write (a build writes the record pages, then
# the site-wide ones, the search files last): the staging folder just made, the
# first record pages, half of them, the site-wide pages begun (the tag pages),
# the search files nearly all written. Each kill costs a build up to its
# moment: 0.25 and 0.9 (phases already sampled) were left out to save ~8 s.
KILL_MOMENTS = [0.0, 0.1, 0.5, 0.75, 0.95]


def kill_build(records: Path, out: Path, share: float, site_entries: int, *extra: str) -> bool:
    """Start a build, kill -9 it once its staging folder holds `share` of the site;
    whether the kill landed (else the build had finished first, or never staged)."""
    process = subprocess.Popen(build_command(records, out, *extra), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={**os.environ, "PYTHONHASHSEED": "0"})
    deadline = time.monotonic() + 60
    entries = int(share * site_entries)
    while process.poll() is None and not staged(process, out, entries) and time.monotonic() < deadline:
        time.sleep(0.001)
    process.send_signal(signal.SIGKILL)
    return process.wait() == -signal.SIGKILL


def test_a_build_killed_at_any_moment_leaves_the_previous_site_untouched(sites, tmp_path):
    small, big, reference = sites
    out = tmp_path / "site"
    assert run_build(small, out).returncode == 0
    previous = tree(out)
    killed_mid_build = 0
    for share in KILL_MOMENTS:
        killed = kill_build(big, out, share, len(reference))
        now = tree(out)
        # Whole old site or whole new one (if the build won the race to its last rename).
        assert now in (previous, reference), f"killed at {share:.0%} staged: out/ is neither the old site nor the new"
        if not killed:
            assert now == reference, f"finished before the kill ({share:.0%} staged) but the new site is not whole"
        killed_mid_build += killed and now == previous != reference
        previous = now
    # Every kill but the last two waited for a share that leaves much of the site to write.
    assert killed_mid_build >= len(KILL_MOMENTS) - 2, "the corpus builds too fast to be killed mid-way: make it larger"
    # The next build sweeps up what the killed ones left beside out/, and replaces the site.
    # A build that finished before its kill leaves nothing, and makes the next ones no-ops,
    # which stage nothing: then kill one that renders everything again mid-way.
    for _ in range(3):
        if not leftovers(out):
            kill_build(big, out, 0.5, len(reference), "--no-cache")
    assert leftovers(out)
    assert run_build(big, out).returncode == 0
    assert tree(out) == reference
    assert leftovers(out) == []


def test_a_site_caught_between_two_renames_is_put_back(tmp_path):
    """Where the OS has no atomic exchange, the old site is renamed aside for a
    moment; a build killed right then leaves it as .site.old-PID, and the next
    build puts it back before anything else."""
    out = tmp_path / "site"
    pid = dead_pid()
    old = tmp_path / f".site.old-{pid}"
    (old / "a").mkdir(parents=True)
    (old / "a" / "index.html").write_bytes(b"old site")
    (old / write.MARKER).write_text('{"generator": "errorsite"}')
    (tmp_path / f".site.building-{pid}").mkdir()  # the new site, emptied by hand: nothing to lose
    write.remove_leftovers(out, state_folder(out))
    assert (out / "a" / "index.html").read_bytes() == b"old site"
    assert leftovers(out) == []


def test_without_an_atomic_exchange_the_site_is_still_replaced_whole(tmp_path, monkeypatch):
    out = tmp_path / "site"
    write.write_site(out, [Page("index.html", b"one"), Page("a/", b"a")])
    monkeypatch.setattr(write.swap, "_exchange", lambda a, b: False)
    write.write_site(out, [Page("index.html", b"two")])
    assert set(tree(out)) == {"index.html", write.MARKER}
    assert (out / "index.html").read_bytes() == b"two"
    assert leftovers(out) == []


def test_two_builds_are_byte_identical(tmp_path):
    """Different hash seeds, different output folders, same bytes."""
    need_shared()
    records = copy_fixtures(tmp_path / "records", sorted(RENDERED))
    for path in SHARED_RECORDS.glob("*.json"):
        shutil.copy(path, records / path.name)
    first, second = tmp_path / "one" / "site", tmp_path / "two" / "out"
    assert run_build(records, first, seed="1").returncode == 0
    assert run_build(records, second, seed="2").returncode == 0
    assert len(tree(first)) > 300
    assert tree(first) == tree(second)


def test_strict_with_a_bad_record_exits_1_and_leaves_out_untouched(tmp_path):
    need_shared()
    records = copy_records(tmp_path / "records")
    out = tmp_path / "site"
    assert run_build(records, out).returncode == 0
    before = tree(out)
    shutil.copy(FIXTURES / "path-repo-dotdot.json", records / "bad.json")
    result = run_build(records, out, "--strict")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f'{records.as_posix()}/bad.json: repo: "../../etc" is not a GitHub owner/name',
        "nothing written: 1 bad record file (--strict)"]
    assert tree(out) == before
    assert leftovers(out) == []
    without_strict = run_build(records, out)  # skips the bad record: the very same site
    assert without_strict.returncode == 0
    # ... but for the marker, which remembers the new file and its problem for the next build
    assert {k: v for k, v in tree(out).items() if k != write.MARKER} == \
        {k: v for k, v in before.items() if k != write.MARKER}
