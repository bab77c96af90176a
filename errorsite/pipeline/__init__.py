"""The whole build, top to bottom:

    plan from the previous build → load and validate → render → the global
    pages (the search index among them) → write → save the next build's state

Each record file goes through load → validate → render on its own, in worker
processes (records.py); the main process keeps only each record's Summary (record_outcomes.py) and
writes pages as they arrive. The global steps (pages/sitewide.py) then run on the
summaries, and the writer (write/) swaps the new site in. Each step takes
values and returns values; a step that streams pages is a generator that
returns its result once its pages are written, the next build's state among it.
"""
from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Generator, Iterable, Iterator

from .. import urls
from ..cache.folder import state_folder
from ..cache.keys import bytes_history_digest, render_fingerprint
from ..cache.outcomes import OutcomesRead
from ..cache.plan import NO_GLOBAL_PAGES, GlobalPages, NextBuild, PreviousBuild
from ..cache.planning import Plan, plan_build, save_trusted_stats, unreadable
from ..cache.previous import Keep
from ..cache.stored import save_state
from ..load import (check_not_empty, load_static, parse_url_manifest, read_url_manifest, scan_records,
                    skipped_notes)
from ..load.files import printable
from ..model import Page, Reuse, whole
from ..pages.assets import static_files, versions
from ..pages.cards import card_warnings
from ..pages.render import TEMPLATES, SiteOptions
from ..pages.sitewide import GlobalInputs, History, sitewide_pages
from ..process.generator_result import Finished
from ..records import Worker, outcomes, usable_jobs
from ..resources import STATIC
from ..search import streamed_search
from ..shards import Shard, ShardEntry, in_shard, read_shards, shard_pages
from ..write import check_output, guard, sweep_leftovers, write_site
from .codes_guess import check_codes, codes_settled, served_codes, without_codes
from .record_outcomes import RecordsDone, Report, keeping_last_good, record_pages, without_duplicates
from .values import BuildResult, BuildSettings, Built, Planned, RecordsIn, Start, StrictFailure

PROJECT = Path(__file__).resolve().parent.parent.parent


def protected_folders(records_dir: Path | None, options: SiteOptions) -> list[tuple[Path, str]]:
    """Folders no build may replace (see write.check_output): the project's,
    the records and the templates the build reads."""
    return [*guard.protected_folders(PROJECT, records_dir, options.templates),
            (STATIC, "the static files' folder"), (TEMPLATES, "the templates folder")]


def start(out_dir: Path, base_url: str, settings: BuildSettings, records_dir: Path | None,
          codes: bool | None, also: Iterable[tuple[Path, str]] = ()) -> Start:
    """Refuse an output we may not replace before any work (protected_folders,
    and `also`); the site, its fingerprint and static files, the folder of
    the build's own files (in settings.cache_dir, default the user's cache),
    which the output may neither hold nor be inside, and the processes it may
    use. `codes`: whether the pages link the codes' index; None: as the
    served site's do (codes_guess.served_codes)."""
    state_dir = state_folder(out_dir, settings.cache_dir)
    protected = [*protected_folders(records_dir, settings.options), *also,
                 guard.Protected(state_dir.resolve(), "the build's cache folder for it (--cache-dir)", sealed=True)]
    check_output(out_dir.absolute(), settings.force, protected)
    site = urls.Site(urls.normalize_base_url(base_url))
    options = settings.options._replace(codes=served_codes(out_dir, site, settings.options) if codes is None else codes)
    return Start(site, options, render_fingerprint(site, options, STATIC), load_static(STATIC), protected, state_dir,
                 usable_jobs(settings.jobs, settings.report))


def build(records_dir: Path, out_dir: Path, base_url: str, settings: BuildSettings = BuildSettings()) -> BuildResult:
    """The site from `records_dir` into `out_dir`. Old URLs are kept alive
    from the URL history in settings.previous_manifest (the live site's
    -/urls.json), or else from the one in `out_dir`.
    Every page links the codes' index only when some record has an error
    code, which is known only once every record is read: the build guesses,
    and starts again when the records say otherwise (codes_guess.py).
    Raises write.OutputRefused (before any work) when `out_dir` may not be
    replaced, load.NoRecordFiles when `records_dir` holds no record file, and
    write.WriteFailed when writing fails; the old site stays."""
    return codes_settled(lambda codes, report: build_site(records_dir, out_dir, base_url,
                                                          settings._replace(report=report), codes), settings.report)


def build_site(records_dir: Path, out_dir: Path, base_url: str, settings: BuildSettings,
               codes: bool | None) -> BuildResult:
    """build, its pages linking the codes' index as `codes` says, or as the
    served site's with None; raises CodesChanged when the records say otherwise."""
    begun = start(out_dir, base_url, settings, records_dir, codes)
    planned = plan_records(records_dir, out_dir, begun, settings, None)
    plan = planned.plan
    if plan.unchanged:
        return left_as_it_is(out_dir, begun, settings, planned)
    history = url_history(settings.previous_manifest or urls.output_file(out_dir, urls.URLS_PATH), settings.report,
                          plan.history_written)
    given = RecordsIn(len(planned.unread) + len(planned.found), plan.sources, plan.records_folder, plan.global_pages,
                      plan.reusable.last_good if plan.same_records else None)
    entries = keeping_last_good(record_outcomes(begun, planned), plan.reusable.last_good)
    result = written(out_dir, site_pages(entries, begun, history, given, settings, True), begun, settings, planned)
    return result._replace(notes=[*result.notes, *history_notes(history, out_dir, begun.site)])


def build_shard(records_dir: Path, out_dir: Path, base_url: str, shard: Shard,
                settings: BuildSettings = BuildSettings()) -> BuildResult:
    """Slice `shard` of the record step into `out_dir`, a shard folder for
    `assemble`: its record pages and its outcomes. Its pages link the codes'
    index, as it cannot know the other shards' records (an assembled site
    whose records have no code says so in the index). Raises as build does."""
    begun = start(out_dir, base_url, settings, records_dir, True)
    planned = plan_records(records_dir, out_dir, begun, settings, shard)
    plan = planned.plan
    given = RecordsIn(len(planned.unread) + len(planned.found), plan.sources, plan.records_folder)
    pages = shard_files(record_outcomes(begun, planned), begun, shard, given, plan.record_set, settings)
    return written(out_dir, pages, begun, settings, planned)


def plan_records(records_dir: Path, out_dir: Path, begun: Start, settings: BuildSettings,
                 shard: Shard | None) -> Planned:
    """The record files (`shard`'s slice of them), and the plan of what the
    previous build gives this one (cache.planning.plan_build)."""
    started = time.perf_counter()
    scan = scan_records(records_dir, skip=out_dir.absolute())
    check_not_empty(records_dir, len(scan.files) + len(scan.problems), scan.skipped)
    found = [file for file in scan.files if shard is None or in_shard(file.relative, shard)]
    unread = [problem for problem in scan.problems if shard is None or in_shard(problem.path, shard)]
    own_history = settings.previous_manifest is None and shard is None  # the URL history is the served site's own
    plan = plan_build(out_dir, begun.state_dir, records_dir, begun.fingerprint, found, unread, settings.cache,
                      own_history, scan if shard else None)
    return Planned(found, unread, plan, scan.skipped, {"read": time.perf_counter() - started})


def written(out_dir: Path, pages: Generator[Page | Reuse, None, Built], begun: Start, settings: BuildSettings,
            planned: Planned) -> BuildResult:
    """write_build, then the record files' trusted stats saved for the next
    build: a build that wrote nothing leaves nothing in the cache."""
    result, built = write_build(out_dir, pages, begun, settings, planned.plan)
    if result.written:
        save_trusted_stats(begun.state_dir, planned.plan, built.records.digests)
    return result._replace(timings={**planned.timings, **result.timings}, notes=skipped_notes(planned.skipped))


def left_as_it_is(out_dir: Path, begun: Start, settings: BuildSettings, planned: Planned) -> BuildResult:
    """unchanged_site; the leftovers of dead builds swept, and the trusted
    stats saved, as after a build that writes."""
    result = unchanged_site(planned.plan.unchanged, settings, planned.timings)
    sweep_leftovers(out_dir, begun.state_dir, settings.report)
    if result.written:
        save_trusted_stats(begun.state_dir, planned.plan, {})
    return result._replace(notes=skipped_notes(planned.skipped))


def record_outcomes(begun: Start, planned: Planned) -> Iterator[ShardEntry]:
    """Each record file's outcome, in order: the unreadable ones first, then
    the reused ones and the ones rendered now (in worker processes), as they come."""
    plan = planned.plan
    known = plan.reusable.known
    worker = Worker(begun.site, begun.options, Path(plan.records_root), begun.fingerprint, plan.reusable.page_keys,
                    versions(static_files(begun.static)))
    files = [None if index in known else file.path for index, file in enumerate(planned.found)]
    made = (ShardEntry(name, outcome) for name, outcome in zip(plan.names, outcomes(worker, files, begun.jobs, known)))
    return itertools.chain((ShardEntry(f"?{problem.path}", unreadable(problem)) for problem in planned.unread), made)


def history_notes(history: History, out_dir: Path, site: urls.Site) -> list[str]:
    if history.found or site.is_local():
        return []
    return [f"note: no URL history in {out_dir} nor --previous-manifest: old URLs of renamed or removed "
            "records will not be redirected; pass --previous-manifest with the live site's -/urls.json"]


def assemble(shard_dirs: list[Path], out_dir: Path, base_url: str,
             settings: BuildSettings = BuildSettings()) -> BuildResult:
    """One site from shard folders made by `build_shard`: their record pages
    are linked in, and the global steps run on their summaries, with
    settings.jobs processes. The shards' entries are merged as they are read,
    never all held at once. Its pages link the codes' index, as its shards'
    do (build_shard), which says so when no record has a code.
    Raises shards.ShardError when they do not make one whole site."""
    begun = start(out_dir, base_url, settings, None, True, also=[(folder, "a shard folder") for folder in shard_dirs])
    assembled = read_shards(shard_dirs, begun.fingerprint, begun.options.cards)
    history = url_history(settings.previous_manifest or urls.output_file(out_dir, urls.URLS_PATH), settings.report)
    given = RecordsIn(assembled.count, assembled.sources, assembled.records_folder)
    return write_build(out_dir, site_pages(assembled.entries, begun, history, given, settings), begun, settings)[0]


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


def unchanged_site(previous: PreviousBuild, settings: BuildSettings, timings: dict[str, float]) -> BuildResult:
    """A build with nothing to do: the site in the output is already what this
    build would write, file for file, so it is left as it is; the problems
    found last time are reported again, and no record is read."""
    started = time.perf_counter()
    for problem in previous.problems:
        settings.report(str(problem))
    timings = {**timings, "unchanged": time.perf_counter() - started}
    if settings.strict and previous.problems:
        return BuildResult(previous.records, previous.problems, 0, False, timings)
    return BuildResult(previous.records, previous.problems, previous.files, True, timings, previous.records)


def site_pages(entries: Iterable[ShardEntry], begun: Start, history: History, given: RecordsIn,
               settings: BuildSettings, checked_codes: bool = False) -> Generator[Page | Reuse, None, Built]:
    """Every file of the site, generated lazily so pages never pile up in memory.
    `checked_codes`: raise CodesChanged when the records' codes say otherwise
    than the pages (begun.options.codes); assemble, which cannot make its
    record pages again, does not."""
    entries, codes = without_duplicates(entries), begun.options.codes
    records = yield from record_pages(entries if codes or not checked_codes else without_codes(entries),
                                      given.total, settings.report, settings.progress, last_good=given.last_good)
    if settings.strict and records.problems:
        raise StrictFailure(records)
    if checked_codes:
        check_codes(records, codes)
    sitewide = yield from sitewide_pages(GlobalInputs(begun.site, begun.options, begun.fingerprint, begun.static,
                                                      history, records.summaries, records.html_paths,
                                                      records.unavailable),
                                         given.previous, streamed_search, begun.jobs, records.as_before)
    cards = card_warnings(map(whole, records.summaries)) if begun.options.cards else []
    for warning in [*sitewide.warnings, *cards]:
        settings.report(f"warning: {warning}")
    return Built(records, sitewide, next_build(begun, history.digest, given, records, sitewide.pages))


def shard_files(entries: Iterable[ShardEntry], begun: Start, shard: Shard, given: RecordsIn, record_set: str,
                settings: BuildSettings) -> Generator[Page | Reuse, None, Built]:
    """A shard's files: its record pages and its outcomes, for assemble."""
    records = yield from record_pages(entries, given.total, settings.report, settings.progress, keep_entries=True)
    yield from shard_pages(shard, begun.fingerprint, records.entries, {**given.sources, **records.digests},
                           given.records_folder, record_set)
    return Built(records, None, next_build(begun, History.of(None).digest, given, records, NO_GLOBAL_PAGES))


def write_build(out_dir: Path, pages: Generator[Page | Reuse, None, Built], begun: Start, settings: BuildSettings,
                plan: Plan | None = None) -> tuple[BuildResult, Built | None]:
    """Write the pages; once they are written, the next build's state they
    return is kept in the build's own folder (with the outcomes `plan` reused,
    as they were read), and the marker ties the site to it."""
    unchanged = plan.outcomes_read if plan else OutcomesRead()
    pages = Finished(pages)
    try:
        files = write_site(out_dir, pages, force=settings.force, protected=begun.protected, report=settings.report,
                           keep=plan.keep if plan else Keep(), state_dir=begun.state_dir,
                           finish=lambda built: save_state(begun.state_dir, built.next.to_json(), unchanged))
    except StrictFailure as failure:
        records = failure.records
        return BuildResult(len(records.summaries), records.problems, 0, False, {"records": records.seconds}), None
    records, sitewide, _ = built = pages.value
    timings = {"records": records.seconds, **(sitewide.timings if sitewide else {})}
    return BuildResult(len(records.summaries), records.problems, files, True, timings, records.reused), built


def next_build(begun: Start, history: str, given: RecordsIn, records: RecordsDone,
               global_pages: GlobalPages) -> NextBuild:
    """What the next build reads back (cache.plan.PreviousBuild); `history`:
    the digest of the URL history this build started from."""
    return NextBuild(begun.fingerprint, records.page_files, len(records.summaries), history, global_pages,
                     {**given.sources, **records.digests}, records.outcomes, given.records_folder, records.problems)
