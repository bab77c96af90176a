"""The benchmark's measurement of one command: memory seen, exit code kept.

No timing is asserted; what is checked is that the figures are taken at all,
now that the memory samples run in a thread beside the blocking wait.
"""
from __future__ import annotations

import sys

from bench import measure

ALLOCATE = "import time; block = bytearray({size}); block[::4096] = b'x' * len(block[::4096]); time.sleep(2)"  # long enough to be sampled on a loaded machine


def test_memory_of_the_whole_tree_is_seen():
    size = 150 << 20
    child = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {ALLOCATE.format(size=size)!r}])"
    run = measure.run([sys.executable, "-c", child])
    assert run.returncode == 0
    assert run.peak_pss >= size  # the grandchild's pages, summed over the live tree
    assert run.peak_rss >= size


def test_exit_code_and_output_are_kept():
    run = measure.run([sys.executable, "-c", "print('stage records: 1.5 s'); raise SystemExit(3)"])
    assert run.returncode == 3
    assert run.stages == {"records": 1.5}


def test_old_output_is_moved_aside_and_deleted_only_when_the_trash_is_emptied(tmp_path):
    site = tmp_path / "site-10"
    (site / "a").mkdir(parents=True)
    (site / "a" / "index.html").write_text("old")
    measure.discard(site)
    measure.discard(tmp_path / "never-made")
    assert not site.exists()
    [kept] = (tmp_path / measure.TRASH_NAME).iterdir()
    assert (kept / "a" / "index.html").read_text() == "old"
    measure.empty_trash(tmp_path, settle=False)
    assert list(tmp_path.iterdir()) == []
