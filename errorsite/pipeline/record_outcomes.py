"""The record step's outcomes as they come, in the main process: each
record's pages passed on to the writer, its problems reported, and what the
global steps and the next build need of it kept (RecordsDone)."""
from __future__ import annotations

import time
from typing import Callable, Generator, Iterable, Iterator, NamedTuple

from ..cache.outcomes import outcome_json
from ..cache.plan import kept_instead
from ..model import Outcome, Page, Problem, Reuse, StoredSummary, Summary, sharing_values, whole
from ..shards import ShardEntry
from ..validate import flag_duplicates

Report = Callable[[str], None]
Progress = Callable[[int, int], None]


class RecordsDone(NamedTuple):
    """What the record step made, besides its pages."""
    summaries: list[Summary | StoredSummary]  # those read back stored: model.whole reads them
    problems: list[Problem]
    page_files: int              # the record pages, for the next build
    html_paths: list[str]        # the record pages, in the order they were written
    outcomes: dict[str, list]    # record file → outcome_json(), for cache.plan.reusable_outcomes
    digests: dict[str, str]      # record file → the digest of the bytes its worker read
    reused: int
    seconds: float
    entries: list[ShardEntry]    # every file's outcome, when a shard keeps them
    unavailable: set[str]        # ids of records whose files are there but cannot be built
    as_before: bool = False      # every summary is the previous build's (record_pages)


def record_pages(entries: Iterable[ShardEntry], total: int, report: Report, progress: Progress | None,
                 keep_entries: bool = False, last_good: dict[str, Outcome] | None = None
                 ) -> Generator[Page | Reuse, None, RecordsDone]:
    """The record pages, as they come; each record's summary kept for the
    global steps. With `last_good` (site_pages), whether every summary is the
    previous build's: each file read again made the one it had made before."""
    started = time.perf_counter()
    summaries, problems, html_paths, remembered, digests, kept = [], [], [], {}, {}, []
    unavailable = set()
    reused = page_files = 0
    as_before = last_good is not None
    for done, entry in enumerate(entries, 1):
        if progress:
            progress(done, total)
        outcome = entry.outcome
        if outcome.digest is not None:  # the bytes this build read (file_digests left it to the worker)
            digests[entry.relative] = outcome.digest
        for problem in outcome.problems:
            report(str(problem))
        problems += outcome.problems
        if keep_entries:  # a shard writes them out; pages only by path, never their bytes
            kept.append(entry._replace(outcome=outcome._replace(pages=[Reuse(page.path) for page in outcome.pages])))
        if outcome.summary is None:
            as_before = False
            if outcome.claims:
                unavailable.add(outcome.claims)
            continue
        if as_before and not isinstance(outcome.summary, StoredSummary):  # a file read again
            before = last_good.get(entry.relative)
            as_before = before is not None and whole(before.summary) == outcome.summary
        read_back = isinstance(outcome.pages[0], Reuse)  # outcome_of_json's Summary.from_json shared its values already
        if not read_back:
            outcome = outcome._replace(summary=sharing_values(outcome.summary))
        remembered[entry.relative] = outcome_json(outcome)
        summaries.append(outcome.summary)
        page_files += len(outcome.pages)
        html_paths.append(outcome.pages[0].path)
        reused += read_back and outcome.pages[0].origin is None
        yield from outcome.pages
    return RecordsDone(summaries, problems, page_files, html_paths, remembered, digests, reused,
                       time.perf_counter() - started, kept, unavailable, as_before)


def keeping_last_good(entries: Iterable[ShardEntry], last_good: dict[str, Outcome]) -> Iterator[ShardEntry]:
    """A record file that no longer loads or validates keeps the page the
    previous build published for it: a typo never tells readers it was removed."""
    for entry in entries:
        good = last_good.get(entry.relative)
        yield entry if good is None or entry.outcome.summary is not None else \
            entry._replace(outcome=kept_instead(entry.outcome, good))


def without_duplicates(entries: Iterable[ShardEntry]) -> Iterator[ShardEntry]:
    """Drop a record whose id or URL an earlier file already has, as a problem."""
    for entry, problem in flag_duplicates(entries, lambda entry: entry.outcome.summary):
        outcome = entry.outcome
        yield entry._replace(outcome=Outcome([*outcome.problems, problem], None, [], None, outcome.digest)) \
            if problem else entry
