"""The plan of a build: what it takes from the previous one, decided once,
before any record is read, as one frozen value (plan_build → Plan).

This is where the cache's own files are read (through stored.py) and the
record files' digests taken (load.file_digests); what may be reused is then
decided by the pure functions of plan.py.
"""
from __future__ import annotations

import hashlib
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from ..load import RecordFile, Scan, file_digests, trusted_stats
from ..model import Outcome, Problem
from .keys import file_key
from .plan import GlobalPages, PreviousBuild, Reusable, comparable, reusable_outcomes, still_served, unchanged
from .previous import Keep
from .outcomes import OutcomesRead, StoredOutcomes, previous_outcomes
from .stored import digests_file, load_digests, read_previous_build, save_digests


@dataclass(frozen=True)
class Plan:
    """What a build takes from the previous one."""
    records_folder: str                 # as given: problems and the state name files by it
    records_root: str                   # resolved: the digests file names the folder by it
    names: list[str]                    # each record file's key (keys.file_key), in the order given
    sources: dict[str, str | None]      # record file → digest of its bytes; None: its worker reads them
    settled: dict[str, list[int]]       # the stats the next build may trust (load.trusted_stats)
    stats: dict[str, list]              # the stats and digests the previous build left, as trusted here
    unchanged: PreviousBuild | None     # the served site is what this build would write: nothing to do
    reusable: Reusable = Reusable({}, {})
    global_pages: GlobalPages | None = None  # the previous global pages, if they are still served
    keep: Keep = Keep()                 # what the writer may link from the served site instead of writing it
    record_set: str = ""                # a shard's: what it is cut from (record_set), for assemble to compare
    outcomes_read: OutcomesRead = OutcomesRead()  # the reused outcomes, as the next build's state may copy them
    history_written: str = ""           # the digest of the URL history the previous build wrote, with this same code
    same_records: bool = False          # the same record files as the previous build, read with this same code


def plan_build(out_dir: Path, state_dir: Path, records_dir: Path, fingerprint: str, files: list[RecordFile],
               unread: list[Problem], use_cache: bool, own_history: bool, whole: Scan | None = None) -> Plan:
    """The plan of a build of `files` (and of the `unread` ones: what could
    not be read of them) from `records_dir` into `out_dir`, with this render
    `fingerprint`; the build's own files are in `state_dir`.
    Without `use_cache`, nothing is reused. `own_history`: the URL history
    is the one the served site holds (no --previous-manifest). `whole`: the
    scan of every record file, when `files` are a shard's slice of it."""
    records_folder, records_root = records_dir.as_posix(), records_dir.resolve().as_posix()
    with read_previous_build(out_dir, state_dir) if use_cache else nullcontext() as stated:
        # What the state claims decides until the lookup of the served files
        # beside it confirms it: their lstats are paid while the outcomes are read.
        claimed = stated.claimed if stated else PreviousBuild()
        names = [file_key(file.relative) for file in files]
        stats = load_digests(digests_file(state_dir), records_root) if use_cache else {}
        sources, settled = file_digests(files, names, stats, time.time_ns(),
                                        claimed.sources if comparable(claimed, fingerprint, records_folder) else {})
        sources.update((f"?{problem.path}", unreadable(problem).digest) for problem in unread)
        if unchanged(claimed, fingerprint, records_folder, sources, own_history):
            previous = stated.confirmed(inodes=False)
            if unchanged(previous, fingerprint, records_folder, sources, own_history):
                return Plan(records_folder, records_root, names, sources, settled, stats, previous)
        # Another fingerprint's outcomes are never read.
        stored = previous_outcomes(state_dir, claimed.outcomes_digest) \
            if use_cache and claimed.fingerprint == fingerprint else StoredOutcomes(None, iter(()))
        reusable = reusable_outcomes(claimed, fingerprint, records_folder, names, [file.is_link for file in files],
                                     sources, stored.entries)
        previous = stated.confirmed() if stated else PreviousBuild()
    reusable = still_served(reusable, previous.missing)
    read = OutcomesRead(stored.file, frozenset(names[index] for index in reusable.known)) if stored.file \
        else OutcomesRead()
    return Plan(records_folder, records_root, names, sources, settled, stats, None, reusable,
                previous.global_pages, previous.keep,
                record_set(whole, stats) if whole else "", read, history_written(previous, fingerprint),
                comparable(previous, fingerprint, records_folder) and (previous.sources or {}).keys() == sources.keys())


def history_written(previous: PreviousBuild, fingerprint: str) -> str:
    """The digest of the URL history the previous build served, when the same
    code made it: that code reads those bytes back unchanged (pages/url_history.py)."""
    if previous.fingerprint != fingerprint or previous.global_pages is None:
        return ""
    return previous.global_pages.history_served


def record_set(scan: Scan, trusted: dict[str, list]) -> str:
    """What a shard is cut from: a digest of the sorted list of every record
    file of the whole set, not only the shard's slice, each with the digest of
    its bytes (unreadable ones with why). Every shard reads every file for it,
    or trusts its stat as the build does (`trusted`, load.file_digests)."""
    names = [file_key(file.relative) for file in scan.files]
    digests, _ = file_digests(scan.files, names, trusted, time.time_ns(), dict.fromkeys(names))
    digests.update((f"?{problem.path}", unreadable(problem).digest) for problem in scan.problems)
    whole = hashlib.sha256()
    for name, digest in sorted(digests.items()):
        whole.update(f"{name}\0{digest}\0".encode())
    return whole.hexdigest()[:32]


def unreadable(problem: Problem) -> Outcome:
    """The outcome of a file the scan could not read; its digest says why."""
    return Outcome([problem], None, [], None, f"unreadable: {problem.message}")


def save_trusted_stats(state_dir: Path, plan: Plan, digests: dict[str, str]) -> None:
    """Keep for the next build the stats of the settled files and their digests
    (the plan's, and `digests`: those the workers read), when they changed."""
    stats = trusted_stats(plan.settled, {**plan.sources, **digests})
    if stats != plan.stats:
        save_digests(state_dir, plan.records_root, stats)
