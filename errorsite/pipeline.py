"""The whole build, top to bottom:

    plan from the previous build → load and validate → render → the global
    pages (the search index among them) → write → save the next build's state

Each record file goes through load → validate → render on its own, in worker
processes (records.py); the main process keeps only each record's Summary (recorded.py) and
writes pages as they arrive. The global steps (sitewide.py) then run on the
summaries, and the writer (write/) swaps the new site in. Each step takes
values and returns values; a step that streams pages is a generator that
returns its result once its pages are written.
"""
from __future__ import annotations

import collections
import functools
import itertools
import time
from pathlib import Path
from typing import Callable, Generator, Iterable, Iterator, NamedTuple

from . import urls
from .assets import static_files, versions
from .cache.keys import bytes_history_digest, render_fingerprint
from .cache.plan import NO_GLOBAL_PAGES, GlobalPages, NextBuild, PreviousBuild
from .cache.planning import Plan, plan_build, save_trusted_stats, unreadable
from .cache.previous import Keep
from .cache.folder import state_folder
from .cards import card_warnings
from .cache.outcomes import OutcomesRead
from .cache.stored import save_state, served_fingerprint
from .codes import has_codes
from .finished import Finished
from .load import (RecordFile, check_not_empty, load_static, parse_url_manifest, read_url_manifest, scan_records,
                   skipped_notes)
from .load.files import printable
from .model import Outcome, Page, Problem, Reuse, StoredSummary, whole
from .recorded import Progress, RecordsDone, Report, keeping_last_good, record_pages, without_duplicates
from .records import Worker, outcomes, usable_jobs
from .render import TEMPLATES, SiteOptions
from .resources import STATIC
from .shards import Shard, ShardEntry, in_shard, read_shards, shard_pages
from .search import streamed_search
from .sitewide import GlobalInputs, History, SitewideDone, sitewide_pages
from .write import check_output, guard, sweep_leftovers, write_site

PROJECT = Path(__file__).resolve().parent.parent


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


class CodesChanged(Exception):
    """The records say otherwise than the pages were being made with (SiteOptions.codes):
    the build stops, and starts again with `codes`. Raised by a second start, it
    means the record files changed while the site was built."""

    def __init__(self, codes: bool):
        super().__init__("the records' error codes changed while the site was built: build again")
        self.codes = codes


class Start(NamedTuple):
    """What a build and an assemble begin with."""
    site: urls.Site
    options: SiteOptions
    fingerprint: str
    static: dict[str, bytes]
    protected: list[tuple[Path, str]]
    state_dir: Path   # the build's own files for this output, in the cache (cache/folder.py)


def protected_folders(records_dir: Path | None, options: SiteOptions) -> list[tuple[Path, str]]:
    """Folders no build may replace (see write.check_output): the project's,
    the records and the templates the build reads."""
    return [*guard.protected_folders(PROJECT, records_dir, options.templates),
            (STATIC, "the static files' folder"), (TEMPLATES, "the templates folder")]


def start(out_dir: Path, base_url: str, options: SiteOptions, force: bool, records_dir: Path | None,
          cache_dir: Path | None = None, also: Iterable[tuple[Path, str]] = (), guess_codes: bool = False) -> Start:
    """Refuse an output we may not replace before any work (protected_folders,
    and `also`); the site, its fingerprint and static files, and the folder of
    the build's own files (in `cache_dir`, default the user's cache), which
    the output may neither hold nor be inside. `guess_codes`: the options'
    `codes` as the served site's (served_codes), not as given."""
    state_dir = state_folder(out_dir, cache_dir)
    protected = [*protected_folders(records_dir, options), *also,
                 guard.Protected(state_dir.resolve(), "the build's cache folder for it (--cache-dir)", sealed=True)]
    check_output(out_dir.absolute(), force, protected)
    site = urls.Site(urls.normalize_base_url(base_url))
    if guess_codes:
        options = options._replace(codes=served_codes(out_dir, site, options))
    return Start(site, options, render_fingerprint(site, options, STATIC), load_static(STATIC), protected, state_dir)


def served_codes(out_dir: Path, site: urls.Site, options: SiteOptions) -> bool:
    """Whether the site in `out_dir` links the codes' index, as far as its
    marker says: it does when its fingerprint is the one these options make
    with `codes` on. A guess, which the build checks against the records
    (CodesChanged): a wrong one costs time, never the output."""
    return served_fingerprint(out_dir) == render_fingerprint(site, options._replace(codes=True), STATIC)


def build(records_dir: Path, out_dir: Path, base_url: str, strict: bool = False, report: Report = print,
          jobs: int = 1, force: bool = False, cache: bool = True, options: SiteOptions = SiteOptions(),
          shard: Shard | None = None, progress: Progress | None = None,
          previous_manifest: Path | None = None, cache_dir: Path | None = None) -> BuildResult:
    """The site from `records_dir` into `out_dir`; with `shard`, only that slice
    of the record step, into a shard folder for `assemble`. Old URLs are kept
    alive from the URL history in `previous_manifest` (the live site's
    -/urls.json), or else from the one in `out_dir`. The build's own files go
    into `cache_dir` (cache/folder.py).
    Every page links the codes' index only when some record has an error
    code (SiteOptions.codes; `options`' own is not read), which is known only
    once every record is read: the pages are made as the served site's were,
    or with no link on a first build, and when a record says otherwise the
    build stops and starts again with the other (its second start prints no
    line the first one did). A shard, which cannot know the others' records,
    always links it (assemble).
    Raises write.OutputRefused (before any work) when `out_dir` may not be
    replaced, load.NoRecordFiles when `records_dir` holds no record file, and
    write.WriteFailed when writing fails; the old site stays."""
    attempt = functools.partial(build_once, records_dir, out_dir, base_url, strict, jobs=jobs, force=force,
                                cache=cache, shard=shard, progress=progress, previous_manifest=previous_manifest,
                                cache_dir=cache_dir)
    if shard is not None:
        return attempt(report=report, options=options._replace(codes=True))
    printed: list[str] = []
    try:
        return attempt(report=lambda line: (printed.append(line), report(line)), options=options, guess_codes=True)
    except CodesChanged as changed:
        return attempt(report=not_again(printed, report), options=options._replace(codes=changed.codes))


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


def build_once(records_dir: Path, out_dir: Path, base_url: str, strict: bool, report: Report, jobs: int,
               force: bool, cache: bool, options: SiteOptions, shard: Shard | None, progress: Progress | None,
               previous_manifest: Path | None, cache_dir: Path | None, guess_codes: bool = False) -> BuildResult:
    """build, with options.codes as given, or as the served site's with
    `guess_codes`; raises CodesChanged when the records say otherwise."""
    own_history = previous_manifest is None and shard is None  # the URL history is the served site's own
    begun = start(out_dir, base_url, options, force, records_dir, cache_dir, guess_codes=guess_codes)
    jobs = usable_jobs(jobs, report)
    started = time.perf_counter()
    scan = scan_records(records_dir, skip=out_dir.absolute())
    check_not_empty(records_dir, len(scan.files) + len(scan.problems), scan.skipped)
    found = [file for file in scan.files if shard is None or in_shard(file.relative, shard)]
    unread = [problem for problem in scan.problems if shard is None or in_shard(problem.path, shard)]
    plan = plan_build(out_dir, begun.state_dir, records_dir, begun.fingerprint, found, unread, cache, own_history,
                      scan if shard else None)
    timings, digests = {"read": time.perf_counter() - started}, {}
    if plan.unchanged:
        result = unchanged_site(plan.unchanged, report, strict, timings)
        sweep_leftovers(out_dir, begun.state_dir, report)
    else:
        history = url_history(previous_manifest or urls.output_file(out_dir, urls.URLS_PATH), report,
                              plan.history_written)
        entries, total = record_outcomes(begun, plan, found, unread, jobs), len(unread) + len(found)
        pages = Finished(
            shard_files(entries, total, begun, shard, plan, report, progress) if shard
            else site_pages(keeping_last_good(entries, plan.reusable.last_good), total, begun, history,
                            plan.global_pages, strict, jobs, report, progress,
                            plan.reusable.last_good if plan.same_records else None, checked_codes=True))
        result = write_build(out_dir, pages, force, report, timings, begun, plan.keep,
                             lambda: next_build(begun, history, plan.sources, plan.records_folder, *pages.value),
                             plan.outcomes_read)
        digests = pages.value[0].digests if pages.value else {}
        result = result._replace(notes=history_notes(history, out_dir, begun.site, shard))
    if result.written:  # a build that wrote nothing leaves nothing in the cache
        save_trusted_stats(begun.state_dir, plan, digests)
    return result._replace(notes=[*skipped_notes(scan.skipped), *result.notes])


def record_outcomes(begun: Start, plan: Plan, found: list[RecordFile], unread: list[Problem],
                    jobs: int) -> Iterator[ShardEntry]:
    """Each record file's outcome, in order: the unreadable ones first, then
    the reused ones and the ones rendered now (in worker processes), as they come."""
    known = plan.reusable.known
    worker = Worker(begun.site, begun.options, Path(plan.records_root), begun.fingerprint, plan.reusable.page_keys,
                    versions(static_files(begun.static)))
    files = [None if index in known else file.path for index, file in enumerate(found)]
    made = (ShardEntry(name, outcome) for name, outcome in zip(plan.names, outcomes(worker, files, jobs, known)))
    return itertools.chain((ShardEntry(f"?{problem.path}", unreadable(problem)) for problem in unread), made)


def history_notes(history: History, out_dir: Path, site: urls.Site, shard: Shard | None) -> list[str]:
    if history.found or shard or site.is_local():
        return []
    return [f"note: no URL history in {out_dir} nor --previous-manifest: old URLs of renamed or removed "
            "records will not be redirected; pass --previous-manifest with the live site's -/urls.json"]


def assemble(shard_dirs: list[Path], out_dir: Path, base_url: str, strict: bool = False, report: Report = print,
             force: bool = False, options: SiteOptions = SiteOptions(), progress: Progress | None = None,
             previous_manifest: Path | None = None, jobs: int = 1, cache_dir: Path | None = None) -> BuildResult:
    """One site from shard folders made by `build(shard=…)`: their record pages
    are linked in, and the global steps run on their summaries, with `jobs`
    processes. The shards' entries are merged as they are read, never all
    held at once. Its pages link the codes' index, as its shards' do (build),
    which says so when no record has a code.
    Raises shards.ShardError when they do not make one whole site."""
    options = options._replace(codes=True)
    begun = start(out_dir, base_url, options, force, None, cache_dir,
                  also=[(folder, "a shard folder") for folder in shard_dirs])
    jobs = usable_jobs(jobs, report)
    assembled = read_shards(shard_dirs, begun.fingerprint, options.cards)
    history = url_history(previous_manifest or urls.output_file(out_dir, urls.URLS_PATH), report)
    pages = Finished(site_pages(assembled.entries, assembled.count, begun, history, None, strict, jobs,
                                report, progress))
    return write_build(out_dir, pages, force, report, {}, begun, Keep(),
                       lambda: next_build(begun, history, assembled.sources, assembled.records_folder, *pages.value))


def url_history(path: Path, report: Report, written: str = "") -> History:
    """The URL history in `path`, as far as a build could have written it; each
    entry dropped is a warning, and no history stops a build. `written`: the
    digest of the history the previous build wrote with this same code
    (Plan.history_written); a file of those very bytes is taken as written."""
    raw, unread = read_url_manifest(path)
    if raw is not None and written and bytes_history_digest(raw) == written:
        return History.as_written(raw)
    data, unread = (None, unread) if raw is None else parse_url_manifest(raw)
    history = History.of(data, printable(path.as_posix()), unread)
    for line in history.dropped:
        report(f"warning: {line}")
    return history


def unchanged_site(previous: PreviousBuild, report: Report, strict: bool, timings: dict[str, float]) -> BuildResult:
    """A build with nothing to do: the site in the output is already what this
    build would write, file for file, so it is left as it is; the problems
    found last time are reported again, and no record is read."""
    started = time.perf_counter()
    for problem in previous.problems:
        report(str(problem))
    timings = {**timings, "unchanged": time.perf_counter() - started}
    if strict and previous.problems:
        return BuildResult(previous.records, previous.problems, 0, False, timings)
    return BuildResult(previous.records, previous.problems, previous.files, True, timings, previous.records)


def site_pages(entries: Iterable[ShardEntry], total: int, begun: Start, history: History,
               previous: GlobalPages | None, strict: bool, jobs: int, report: Report,
               progress: Progress | None, last_good: dict[str, Outcome] | None = None, checked_codes: bool = False
               ) -> Generator[Page | Reuse, None, tuple[RecordsDone, SitewideDone]]:
    """Every file of the site, generated lazily so pages never pile up in memory.
    `last_good`: the previous outcomes of the files read again, when the
    record files are the previous build's (Plan.same_records). `checked_codes`:
    raise CodesChanged when the records' codes say otherwise than the pages
    (begun.options.codes); assemble, which cannot make its record pages again, does not."""
    entries = without_duplicates(entries)
    codes = begun.options.codes
    records = yield from record_pages(entries if codes or not checked_codes else without_codes(entries),
                                      total, report, progress, last_good=last_good)
    if strict and records.problems:
        raise StrictFailure(records)
    # Summaries as the previous build's were made with the same fingerprint, so with the same codes
    # (Plan.same_records), and are not read again.
    if checked_codes and not records.as_before and has_codes(map(whole, records.summaries)) != codes:
        raise CodesChanged(not codes)
    given = GlobalInputs(begun.site, begun.options, begun.fingerprint, begun.static, history, records.summaries,
                         records.html_paths, records.unavailable)
    sitewide = yield from sitewide_pages(given, previous, streamed_search, jobs, records.as_before)
    cards = card_warnings(map(whole, records.summaries)) if begun.options.cards else []
    for warning in [*sitewide.warnings, *cards]:
        report(f"warning: {warning}")
    return records, sitewide


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


def shard_files(entries: Iterable[ShardEntry], total: int, begun: Start, shard: Shard, plan: Plan,
                report: Report, progress: Progress | None) -> Generator[Page | Reuse, None, tuple[RecordsDone, None]]:
    """A shard's files: its record pages and its outcomes, for assemble."""
    records = yield from record_pages(entries, total, report, progress, keep_entries=True)
    yield from shard_pages(shard, begun.fingerprint, records.entries, {**plan.sources, **records.digests},
                           plan.records_folder, plan.record_set)
    return records, None


def write_build(out_dir: Path, pages: "Finished", force: bool, report: Report, timings: dict[str, float],
                begun: Start, keep: Keep, next_state: Callable[[], dict],
                unchanged: OutcomesRead = OutcomesRead()) -> BuildResult:
    """Write the pages; once they are written, `next_state()` is kept in the
    build's own folder for the next build (the `unchanged` outcomes as they
    were read), and the marker ties the site to it."""
    try:
        files = write_site(out_dir, pages, force=force, protected=begun.protected, report=report, keep=keep,
                           finish=lambda: save_state(begun.state_dir, next_state(), unchanged),
                           state_dir=begun.state_dir)
    except StrictFailure as failure:
        records = failure.records
        return BuildResult(len(records.summaries), records.problems, 0, False, {**timings, "records": records.seconds})
    records, sitewide = pages.value
    timings = {**timings, "records": records.seconds, **(sitewide.timings if sitewide else {})}
    return BuildResult(len(records.summaries), records.problems, files, True, timings, records.reused)


def next_build(begun: Start, history: History, sources: dict[str, str], records_folder: str,
               records: RecordsDone, sitewide: SitewideDone | None) -> dict:
    """What the next build reads back (cache.plan.PreviousBuild)."""
    return NextBuild(begun.fingerprint, records.page_files, len(records.summaries), history.digest,
                     sitewide.pages if sitewide else NO_GLOBAL_PAGES, {**sources, **records.digests},
                     records.outcomes, records_folder, records.problems).to_json()
