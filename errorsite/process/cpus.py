"""How many processes a build runs by default: one per CPU it may use.

`os.cpu_count()` is the machine's: a CI job in a container limited to two
CPUs on a 64-CPU host would start 64 workers, each with its own copy of the
templates and lexers, and crowd the two CPUs and the container's memory. So
the count is of the CPUs this process may run on (taskset, a container's
cpuset), and no more than its control group's CPU quota allows (docker
`--cpus`, a Kubernetes limit), rounded up: cgroup v2's `cpu.max` along its
group and those above it, or v1's `cpu.cfs_quota_us` over
`cpu.cfs_period_us`. What cannot be read is no limit.
"""
from __future__ import annotations

import math
import os
from pathlib import Path

CGROUPS = Path("/sys/fs/cgroup")
OWN_CGROUPS = Path("/proc/self/cgroup")


def usable_cpus(cgroups: Path = CGROUPS, own: Path = OWN_CGROUPS) -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cpus = os.cpu_count() or 1
    quota = cpu_quota(cgroups, own)
    return max(1, min(cpus, math.ceil(quota)) if quota else cpus)


def cpu_quota(cgroups: Path = CGROUPS, own: Path = OWN_CGROUPS) -> float | None:
    """The CPUs' worth of time this process's control groups allow, the least
    of those read; None where none is set or can be read."""
    try:
        lines = own.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    quotas = []
    for line in lines:
        number, _, rest = line.partition(":")
        controllers, _, group = rest.partition(":")
        if number == "0" and controllers == "":  # cgroup v2: one hierarchy
            quotas += [_v2_quota(folder / "cpu.max") for folder in _up_from(cgroups, group)]
        elif "cpu" in controllers.split(","):     # cgroup v1: the cpu controller's hierarchy
            mounted = cgroups / controllers
            quotas += [_v1_quota(folder) for folder in _up_from(mounted if mounted.is_dir() else cgroups / "cpu", group)]
    found = [quota for quota in quotas if quota]
    return min(found) if found else None


def _up_from(root: Path, group: str) -> list[Path]:
    """The group's folder under `root` and each above it, to `root` itself
    (inside a container the group's path is often the host's, not there)."""
    parts = [part for part in group.strip().split("/") if part and part not in (".", "..")]
    return [root.joinpath(*parts[:count]) for count in range(len(parts), -1, -1)]


def _v2_quota(path: Path) -> float | None:
    try:
        quota, period = path.read_text(encoding="ascii").split()[:2]
        return int(quota) / int(period) if quota != "max" and int(period) > 0 and int(quota) > 0 else None
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def _v1_quota(folder: Path) -> float | None:
    try:
        quota = int((folder / "cpu.cfs_quota_us").read_text(encoding="ascii"))
        period = int((folder / "cpu.cfs_period_us").read_text(encoding="ascii"))
        return quota / period if quota > 0 and period > 0 else None
    except (OSError, ValueError, UnicodeDecodeError):
        return None
