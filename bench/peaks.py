"""The peak resident memory of a command and of each process it starts,
sampled every 0.1 s from /proc (Linux): what `assemble -j 2` needs, whose
process beside makes the search data while the main one renders the
listings. /usr/bin/time gives the largest process's peak alone.

    python bench/peaks.py python build.py assemble s1 s2 s3 s4 -j 2 --out site -q
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

INTERVAL = 0.1


def resident_mib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass  # it ended between the listing and the reading
    return None


def descendants(pid: int) -> list[int]:
    """`pid` and every process under it."""
    found, index = [pid], 0
    while index < len(found):
        try:
            for task in os.listdir(f"/proc/{found[index]}/task"):
                with open(f"/proc/{found[index]}/task/{task}/children") as children:
                    found += [int(child) for child in children.read().split()]
        except OSError:
            pass
        index += 1
    return found


def peaks(command: list[str]) -> tuple[int, dict[int, int]]:
    """The command's exit status, and each process's peak RSS in MiB by its pid."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    highest: dict[int, int] = {}
    while process.poll() is None:
        for pid in descendants(process.pid):
            mib = resident_mib(pid)
            if mib:
                highest[pid] = max(highest.get(pid, 0), mib)
        time.sleep(INTERVAL)
    return process.returncode, highest


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    status, highest = peaks(sys.argv[1:])
    print(f"exit {status}; peak RSS of each process, largest first: "
          + ", ".join(f"{mib} MiB" for mib in sorted(highest.values(), reverse=True)))
    sys.exit(status)
