"""The default number of processes: the CPUs a build may use, a container's
CPU limit included (errorsite/process/cpus.py), read from a control-group tree made
here."""
from __future__ import annotations

import os

from errorsite.process.cpus import cpu_quota, usable_cpus


def tree(tmp_path, own: str, files: dict[str, str]):
    cgroups = tmp_path / "cgroup"
    for name, content in files.items():
        (cgroups / name).parent.mkdir(parents=True, exist_ok=True)
        (cgroups / name).write_text(content)
    cgroups.mkdir(exist_ok=True)
    (tmp_path / "self").write_text(own)
    return cgroups, tmp_path / "self"


def test_a_cgroup_v2_limit_is_read_along_the_group_and_those_above_it(tmp_path):
    cgroups, own = tree(tmp_path, "0::/ci/job\n", {"ci/job/cpu.max": "max 100000\n", "ci/cpu.max": "150000 100000\n",
                                                   "cpu.max": "400000 100000\n"})
    assert cpu_quota(cgroups, own) == 1.5
    assert usable_cpus(cgroups, own) == min(2, len(os.sched_getaffinity(0)))  # rounded up, never over the affinity


def test_inside_a_container_the_groups_path_may_be_the_hosts_and_the_root_holds_the_limit(tmp_path):
    cgroups, own = tree(tmp_path, "0::/kubepods/pod1/abc\n", {"cpu.max": "100000 100000\n"})
    assert cpu_quota(cgroups, own) == 1.0
    assert usable_cpus(cgroups, own) == 1


def test_a_cgroup_v1_quota_of_the_cpu_controller(tmp_path):
    cgroups, own = tree(tmp_path, "4:memory:/x\n3:cpu,cpuacct:/docker/abc\n",
                        {"cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "250000\n",
                         "cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n"})
    assert cpu_quota(cgroups, own) == 2.5


def test_no_limit_set_or_nothing_readable_is_no_limit(tmp_path):
    cgroups, own = tree(tmp_path, "1:cpu:/\n0::/\n", {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n",
                                                      "cpu.max": "max 100000\n"})
    assert cpu_quota(cgroups, own) is None
    assert usable_cpus(cgroups, own) == len(os.sched_getaffinity(0))
    assert cpu_quota(cgroups, tmp_path / "missing") is None
    broken, own = tree(tmp_path / "b", "0::/\n", {"cpu.max": "lots\n"})
    assert cpu_quota(broken, own) is None
    dots, own = tree(tmp_path / "c", "0::/../../etc\n", {"cpu.max": "200000 100000\n"})
    assert cpu_quota(dots, own) == 2.0  # a group path never leads out of the tree


def test_this_machine_gives_at_least_one():
    assert usable_cpus() >= 1
