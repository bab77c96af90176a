"""Run one command and measure it: wall time, CPU time, peak memory.

CPU time is user + sys of the process and of every descendant it waited for
(what `os.wait4` reports). Memory is given two ways: `peak_rss`, the largest
resident set of any one process of the tree, as `/usr/bin/time` reports it
("Maximum resident set size"), and `peak_pss`, the largest *sum* over the live
process tree of proportional set sizes, sampled every 50 ms, which is what a
multi-process build really holds at once. Reading smaps_rollup makes the
kernel walk the process's page tables (4 ms for a 10k build's tree, far more
for Hugo's 19 GB at 100k), so the sampler waits at least 50 times as long as
its last sample took: it takes at most 2% of one core from what it measures,
on a machine of two. The command runs under
/usr/bin/time because a child forked from this (large) process would carry
our own resident set into its maximum.
"""
from __future__ import annotations

import gzip, os, re, shutil, statistics, subprocess, tempfile, threading, time
from dataclasses import dataclass, field
from pathlib import Path

TIME = "/usr/bin/time"   # Debian package `time`
STAGE = re.compile(r"^\s*stage\s+(.+?):\s*([0-9.]+)\s*s\s*$", re.M)


@dataclass
class Run:
    wall: float
    cpu: float
    peak_rss: int       # bytes, largest single process
    peak_pss: int       # bytes, largest sum over the live tree (0 if /proc cannot tell)
    returncode: int
    output: str         # stdout + stderr
    stages: dict = field(default_factory=dict)


def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return pids


def _pss(pids: list[int]) -> int:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("Pss:")) * 1024
        except (OSError, StopIteration, ValueError):
            pass
    return total


SAMPLING_SHARE = 0.02  # of one core, at most, for the memory samples


def run(cmd: list[str], cwd: Path | None = None, interval: float = 0.05) -> Run:
    """Run `cmd` to the end, sampling its process tree's memory as it goes,
    every `interval` seconds or less often when a sample is dear. The samples
    are taken in a thread, so the end of the run is seen the moment it comes."""
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as rss:
        timed = [TIME, "-f", "%M", "-o", rss.name, *cmd] if os.access(TIME, os.X_OK) else cmd
        # What the command before wrote (4 GB for our 100k site) is on disk before this one
        # starts, not written back while it runs, at its cost: each command starts as the first did.
        os.sync()
        start = time.perf_counter()
        proc = subprocess.Popen(timed, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        finished, peak_pss = threading.Event(), [0]
        sampler = threading.Thread(target=_sample_memory, args=(proc.pid, interval, finished, peak_pss))
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        finished.set()
        sampler.join()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
        reported = rss.read().split()
        peak_rss = int(reported[-1]) * 1024 if reported and reported[-1].isdigit() else usage.ru_maxrss * 1024
    stages = {name: float(sec) for name, sec in STAGE.findall(text)}
    return Run(wall, usage.ru_utime + usage.ru_stime, peak_rss, peak_pss[0], proc.returncode, text, stages)


def _sample_memory(pid: int, interval: float, finished: threading.Event, peak: list[int]) -> None:
    """Keep the largest PSS of `pid`'s process tree in peak[0] until `finished`."""
    while not finished.is_set():
        began = time.perf_counter()
        peak[0] = max(peak[0], _pss(_tree(pid)))
        finished.wait(max(interval, (time.perf_counter() - began) / SAMPLING_SHARE))


def checked(cmd: list[str], **kwargs) -> Run:
    result = run(cmd, **kwargs)
    if result.returncode != 0:
        raise SystemExit(f"failed ({result.returncode}): {' '.join(map(str, cmd))}\n{result.output[-4000:]}")
    return result


def median_run(runs: list[Run]) -> Run:
    """Each figure's median over the runs (stages too, where every run has them)."""
    stages = {k: statistics.median(r.stages[k] for r in runs) for k in runs[0].stages if all(k in r.stages for r in runs)}
    return Run(statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs),
               int(statistics.median(r.peak_rss for r in runs)), int(statistics.median(r.peak_pss for r in runs)),
               0, "", stages)


def folder_size(folder: Path) -> tuple[int, int]:
    """(bytes, files) of every file under `folder`."""
    return totals(folder_parts(folder))


def totals(parts: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """(bytes, files) of a whole site from its parts (folder_parts)."""
    return sum(size for size, _ in parts.values()), sum(files for _, files in parts.values())


# Where a site's bytes go, by path, named alike for ours and Hugo's (bench/hugo.py's
# layout: taxonomies at the top, the search file `index.json`), so that the report can
# set what both sites make beside what only ours does.
PART_PREFIXES = (("-/go/", "links from tools"), ("-/r/", "permanent links"), ("-/search/", "search data"), ("index.json", "search data"),
                 ("-/code/", "error codes"), ("-/feeds/", "feeds"), ("-/api/", "JSON API"),
                 ("-/sitemaps/", "sitemap"), ("sitemap.xml", "sitemap"), ("-/urls.json", "URL history"))
HUGO_LISTINGS = {"tags", "types", "severities", "repos", "page"}  # its taxonomies, and its pagination: …/page/N/
RECORD_PAGE = re.compile(r"([^/]+)/([^/]+)/[^/]+/index\.html")  # owner/repo/slug/index.html


def site_part(relative: str) -> str:
    """The part of a site (PART_PREFIXES, record pages, listings or other) a file's path is in."""
    if relative.startswith("-/r/") and relative.endswith((".json", ".md")):  # issue 41: every record as data
        return "records as JSON" if relative.endswith(".json") else "records as Markdown"
    if relative == "llms.txt":
        return "llms.txt"
    for prefix, part in PART_PREFIXES:
        if relative == prefix or (prefix.endswith("/") and relative.startswith(prefix)):
            return part
    page = RECORD_PAGE.fullmatch(relative)
    if page and page.group(1) != "-" and not HUGO_LISTINGS & {page.group(1), page.group(2)}:
        return "record pages"
    return "listings" if relative.endswith(".html") else "other"


def folder_parts(folder: Path) -> dict[str, tuple[int, int]]:
    """(bytes, files) of each part (site_part) of the files under `folder`."""
    parts: dict[str, list[int]] = {}
    for dirpath, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(dirpath, name)
            sums = parts.setdefault(site_part(os.path.relpath(path, folder).replace(os.sep, "/")), [0, 0])
            sums[0] += os.lstat(path).st_size
            sums[1] += 1
    return {part: (size, files) for part, (size, files) in sorted(parts.items())}


def file_states(folder: Path) -> dict[str, tuple[int, int]]:
    """(inode, mtime in ns) of every file, to tell which ones a rebuild rewrote."""
    states = {}
    for dirpath, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            states[os.path.relpath(path, folder)] = (st.st_ino, st.st_mtime_ns)
    return states


def rewritten(before: dict, after: dict) -> int:
    """Files that are new, or whose inode or mtime changed."""
    return sum(1 for path, state in after.items() if before.get(path) != state)


def gzipped_size(folder: Path) -> tuple[int, int]:
    """(raw bytes, gzip -6 bytes) of every file under `folder`."""
    raw = packed = 0
    for dirpath, _, files in os.walk(folder):
        for name in files:
            data = Path(dirpath, name).read_bytes()
            raw += len(data)
            packed += len(gzip.compress(data, 6))
    return raw, packed


# Old output is never deleted between measured builds, only moved aside and
# deleted when the run is over. On ext4 without a journal, as on this
# machine's disk, the kernel will not hand out an inode freed in the last
# minute (five once its inode table block is dirty: ext4's recently_deleted),
# and skips over each one, so a build that starts right after a large delete
# pays for it in system time: 10,000 records built serially took 84.8 s (35 s
# sys) after removing the previous site and 47.7 s (4.3 s sys) without.
# Whichever tool ran after the larger delete looked the slower.
TRASH_NAME = "trash"
SETTLE_SECONDS = 361  # ext4's RECENTCY_MIN + RECENTCY_DIRTY: 60 + 300 s


def discard(folder: Path, into: Path | None = None) -> None:
    """Move `folder` (if any) into a `trash` folder beside it (or in `into`,
    on the same file system), for empty_trash."""
    if folder.exists() or folder.is_symlink():
        trash = (into or folder.parent) / TRASH_NAME
        trash.mkdir(exist_ok=True)
        os.rename(folder, trash / f"{folder.name}-{time.time_ns()}")


def empty_trash(folder: Path, settle: bool) -> None:
    """Delete what discard moved into `folder`/trash; with `settle`, then wait
    until the kernel hands out the freed inodes again, for a measurement to follow."""
    trash = folder / TRASH_NAME
    if not trash.exists():
        return
    shutil.rmtree(trash)
    if settle:
        # Not a minute after a sync: the measured build dirties those very
        # inode table blocks as it allocates, and a freed inode in a dirty
        # block stays skipped for six (a 10k build 60 s after deleting a
        # site: 23 s of system time in its main process instead of 4.5).
        os.sync()
        print(f"waiting {SETTLE_SECONDS} s after deleting an earlier run's output (see bench/measure.py: discard)",
              flush=True)
        time.sleep(SETTLE_SECONDS)
