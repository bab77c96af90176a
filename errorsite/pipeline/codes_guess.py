"""Whether every page links the codes' index (SiteOptions.codes) is known only
once every record is read: some record has an error code. A build makes its
pages as the served site's were (served_codes), with no link on a first
build, and when a record says otherwise (CodesChanged) it stops and starts
again with the other, printing no line the first start printed (not_again).
A wrong guess costs time, never the output."""
from __future__ import annotations

import collections
from pathlib import Path
from typing import Callable, Iterable, Iterator, TypeVar

from .. import urls
from ..cache.keys import render_fingerprint
from ..cache.stored import served_fingerprint
from ..model import StoredSummary, whole
from ..pages.codes import has_codes
from ..pages.render import SiteOptions
from ..resources import STATIC
from ..shards import ShardEntry
from .record_outcomes import RecordsDone, Report

Result = TypeVar("Result")


class CodesChanged(Exception):
    """The records say otherwise than the pages were being made with (SiteOptions.codes):
    the build stops, and starts again with `codes`. Raised by a second start, it
    means the record files changed while the site was built."""

    def __init__(self, codes: bool):
        super().__init__("the records' error codes changed while the site was built: build again")
        self.codes = codes


def codes_settled(attempt: Callable[[bool | None, Report], Result], report: Report) -> Result:
    """`attempt(None, report)`, which makes the pages as the served site's
    were; when the records say otherwise, `attempt(codes, report)` with what
    they say, whose `report` skips the lines the first attempt printed."""
    printed: list[str] = []
    try:
        return attempt(None, lambda line: (printed.append(line), report(line)))
    except CodesChanged as changed:
        return attempt(changed.codes, not_again(printed, report))


def served_codes(out_dir: Path, site: urls.Site, options: SiteOptions) -> bool:
    """Whether the site in `out_dir` links the codes' index, as far as its
    marker says: it does when its fingerprint is the one these options make
    with `codes` on."""
    return served_fingerprint(out_dir) == render_fingerprint(site, options._replace(codes=True), STATIC)


def not_again(printed: list[str], report: Report) -> Report:
    """`report` for a second attempt, which skips the lines the first one
    `printed`, as long as it prints them again in the same order."""
    left = collections.deque(printed)

    def once(line: str) -> None:
        if left and left[0] == line:
            left.popleft()
            return
        left.clear()
        report(line)
    return once


def without_codes(entries: Iterable[ShardEntry]) -> Iterator[ShardEntry]:
    """The entries of pages made with no link to the codes' index; a record
    with an error code stops the build as it comes (CodesChanged), not once
    every page is made. A summary read back from the previous build has none:
    that build's pages had no link either (its fingerprint is this one)."""
    for entry in entries:
        summary = entry.outcome.summary
        if summary is not None and not isinstance(summary, StoredSummary) and has_codes([summary]):
            raise CodesChanged(True)
        yield entry


def check_codes(records: RecordsDone, codes: bool) -> None:
    """Raises CodesChanged when the records' codes say otherwise than `codes`.
    Summaries as the previous build's were made with the same fingerprint, so
    with the same codes (RecordsDone.as_before), and are not read again."""
    if not records.as_before and has_codes(map(whole, records.summaries)) != codes:
        raise CodesChanged(not codes)
