"""The values the build's steps hand on: its settings, its start, what it
planned and read, what it made, and its result."""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from .. import urls
from ..cache.plan import GlobalPages, NextBuild
from ..cache.planning import Plan
from ..load import RecordFile
from ..model import Outcome, Problem
from ..pages.render import SiteOptions
from ..pages.sitewide import SitewideDone
from .record_outcomes import Progress, RecordsDone, Report


class BuildSettings(NamedTuple):
    """How a build runs, besides what it reads and where it writes: the command's flags."""
    strict: bool = False                   # any problem: fail, and write nothing
    jobs: int = 1                          # processes rendering record pages
    force: bool = False                    # replace an output no build made (write.check_output)
    cache: bool = True                     # take what the previous build made that still stands
    options: SiteOptions = SiteOptions()   # its `codes` is the build's to find out (codes_guess.py)
    previous_manifest: Path | None = None  # the live site's -/urls.json; else the one in the output
    cache_dir: Path | None = None          # where the build's own files go (cache/folder.py)
    report: Report = print
    progress: Progress | None = None


class BuildResult(NamedTuple):
    records: int
    problems: list[Problem]
    files: int          # 0 when nothing was written
    written: bool
    timings: dict[str, float] = {}
    reused: int = 0     # record pages taken from the previous build unchanged
    notes: list[str] = []  # about the build as a whole, for the person running it


class StrictFailure(Exception):
    """--strict and a problem: stop before the new site replaces the old."""

    def __init__(self, records: RecordsDone):
        super().__init__("--strict")
        self.records = records


class Start(NamedTuple):
    """What a build and an assemble begin with."""
    site: urls.Site
    options: SiteOptions
    fingerprint: str
    static: dict[str, bytes]
    protected: list[tuple[Path, str]]
    state_dir: Path   # the build's own files for this output, in the cache (cache/folder.py)
    jobs: int         # the processes it may start (records.usable_jobs)


class Planned(NamedTuple):
    """The record files a build reads (a shard's slice of them), and what it takes from the previous build."""
    found: list[RecordFile]
    unread: list[Problem]      # what could not be read of them
    plan: Plan
    skipped: tuple[str, ...]   # folders the scan passed over (load.skipped_notes)
    timings: dict[str, float]


class RecordsIn(NamedTuple):
    """What the record and site steps take from the plan (assemble: from the shards)."""
    total: int                              # record files, for the progress bar
    sources: dict[str, str | None]          # record file → digest of its bytes, for the next build
    records_folder: str                     # as given: problems name files by it
    previous: GlobalPages | None = None     # the previous build's global pages, if they may stand
    last_good: dict[str, Outcome] | None = None  # the record files are the previous build's (Plan.same_records)


class Built(NamedTuple):
    """What the record and site steps made besides their pages."""
    records: RecordsDone
    sitewide: SitewideDone | None   # a shard's: none
    next: NextBuild                 # what the next build reads back
