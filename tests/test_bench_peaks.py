"""bench/peaks.py: each process's peak memory, the main one's and those it starts."""
from __future__ import annotations

import sys

import pytest

from bench.peaks import peaks

CHILD_AND_PARENT = """
import multiprocessing, time

def child():
    held = bytearray(160 * 2**20)
    time.sleep(1)

if __name__ == "__main__":
    held = bytearray(80 * 2**20)
    process = multiprocessing.get_context("spawn").Process(target=child)
    process.start()
    process.join()
    raise SystemExit(process.exitcode + 3)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_each_process_has_its_own_peak(tmp_path):
    script = tmp_path / "both.py"
    script.write_text(CHILD_AND_PARENT)
    status, highest = peaks([sys.executable, str(script)])
    assert status == 3
    largest, second = sorted(highest.values(), reverse=True)[:2]
    assert 160 <= largest < 240 and 80 <= second < 160, highest
