"""The whole build, top to bottom: load → validate → render → index → write.

Each record file goes through load → validate → render on its own, in worker
processes (records.py); the main process keeps only each record's Summary and
writes pages as they arrive. The global steps (listings, search, sitemap) then
run on the summaries, and the writer swaps the new site in.
"""
from __future__ import annotations

import json
import multiprocessing
import multiprocessing.connection
import time
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

from . import urls
from .api import api_pages
from .browse import browse_pages, last_modified, opensearch, robots, sitemap
from .feeds import feed_pages
from .links import code_pages, listing_paths
from .redirects import history_key, redirect_pages, served_lists
from .load import (RecordFile, file_digests, load_digests, load_json, load_static, load_url_manifest, printable,
                   record_files, trusted_stats)
from .assets import cache_headers, static_files, versions
from .model import Page, Problem, Reuse, Summary
from .records import PARALLEL_THRESHOLD, Outcome, Worker, outcomes, render_fingerprint
from .shards import (SHARD_FILE, Shard, ShardEntry, ShardError, check_complete, in_shard, order_key,
                     read_shard, shard_page)
from .state import Collected, comparable, global_key, history_digest, stage, unchanged_since
from .validate import Seen
from .render import TEMPLATES, SiteOptions, environment
from .schema import schema_page
from .search import search_pages
from .cache.stored import digests_file, previous_manifest, previous_outcomes, save_digests
from .write import check_output, sweep_leftovers, write_site

PROJECT = Path(__file__).resolve().parent.parent
STATIC = PROJECT / "static"


class BuildResult(NamedTuple):
    records: int
    problems: list[Problem]
    files: int          # 0 when nothing was written
    written: bool
    timings: dict[str, float] = {}
    reused: int = 0     # record pages taken from the previous build unchanged


class StrictFailure(Exception):
    """--strict and a problem: stop before the new site replaces the old."""


def protected_folders(records_dir: Path | None = None) -> list[tuple[Path, str]]:
    """Folders no build may replace (see write.check_output)."""
    return [*([(records_dir, "the records folder")] if records_dir else []),
            (PROJECT, "the project's own folder"), (STATIC, "the static files' folder"),
            (TEMPLATES, "the templates folder")]


def build(records_dir: Path, out_dir: Path, base_url: str, strict: bool = False,
          report: Callable[[str], None] = print, jobs: int = 1, force: bool = False,
          cache: bool = True, options: SiteOptions = SiteOptions(), shard: Shard | None = None,
          progress: Callable[[int, int], None] | None = None,
          previous_urls: Path | None = None) -> BuildResult:
    """The site from `records_dir` into `out_dir`; with `shard`, only that slice
    of the record stage, into a shard folder for `assemble`. Old URLs are kept
    alive from `previous_urls`, or else from the manifest in `out_dir`.
    Raises write.OutputRefused (before any work) when `out_dir` may not be
    replaced, and write.WriteFailed when writing fails; the old site stays."""
    protected = protected_folders(records_dir)
    check_output(out_dir.absolute(), force, protected)
    site = urls.Site(urls.normalize_base_url(base_url))
    fingerprint = render_fingerprint(site, options, STATIC)
    previous = previous_manifest(out_dir) if cache else {}
    static = load_static(STATIC)
    root = records_dir.resolve()
    worker = Worker(site, options, root, fingerprint,
                    previous.get("pages", {}) if previous.get("fingerprint") == fingerprint else {},
                    versions(static_files(static)))
    found = [file for file in record_files(records_dir) if not shard or in_shard(file.relative, shard)]
    names = [printable(file.relative) for file in found]
    collected = Collected()
    collected.total, collected.fingerprint, collected.jobs = len(found), fingerprint, jobs
    collected.previous_global = previous.get("global", {}) if previous.get("fingerprint") == fingerprint else {}
    collected.progress = progress or collected.progress
    collected.own_history = previous_urls is None
    collected.served_inodes, collected.served = previous.get("inodes", {}), previous.get("served")
    collected.records_folder = records_dir.as_posix()
    with stage(collected, "read"):
        kept = load_digests(digests_file(out_dir), root.as_posix()) if cache else {}
        sources = previous.get("sources") if comparable(previous, collected) else None
        collected.sources, settled = file_digests(found, names, kept, time.time_ns(),
                                                  sources if isinstance(sources, dict) else {})
    if not shard and unchanged_since(previous, collected):
        result = previous_site(previous, collected, report, strict)
        sweep_leftovers(out_dir, report)
    else:
        # The URL history only now: a no-op serves its own (at 100k, 0.9 s to read and digest).
        collected.previous_urls = load_url_manifest(previous_urls or urls.output_file(out_dir, urls.URLS_PATH))
        collected.history = history_digest(collected.previous_urls)
        known = known_outcomes(previous, lambda: previous_outcomes(out_dir), collected, found, names) if cache else {}
        previous.clear()  # used up: what is still needed, the worker and `collected` hold (hundreds of MB at 100k)
        files = [None if index in known else file.path for index, file in enumerate(found)]
        entries = remembered(collected, (ShardEntry(name, outcome) for name, outcome
                                         in zip(names, outcomes(worker, files, jobs, known))))
        if shard:
            pages = shard_pages(entries, collected, report, shard, fingerprint)
        else:
            pages = site_pages(site, entries, static, collected, report, strict, options)
        result = write_build(out_dir, pages, collected, fingerprint, force, protected, report)
    stats = trusted_stats(settled, collected.sources)
    if result.written and stats != kept:  # a build that wrote nothing leaves nothing beside the output either
        save_digests(out_dir, root.as_posix(), stats)
    return result


def assemble(shard_dirs: list[Path], out_dir: Path, base_url: str, strict: bool = False,
             report: Callable[[str], None] = print, force: bool = False,
             options: SiteOptions = SiteOptions(), progress: Callable[[int, int], None] | None = None,
             previous_urls: Path | None = None) -> BuildResult:
    """One site from shard folders made by `build(shard=…)`: their record pages
    are linked in, and the global stages run on their summaries.
    Raises shards.ShardError when they do not make one whole site."""
    protected = [*protected_folders(), *((folder, "a shard folder") for folder in shard_dirs)]
    check_output(out_dir.absolute(), force, protected)
    site = urls.Site(urls.normalize_base_url(base_url))
    fingerprint = render_fingerprint(site, options, STATIC)
    shards, entries, folders = [], [], set()
    collected = Collected()
    for folder in shard_dirs:
        try:
            shard, theirs, shard_entries, sources, records_folder = read_shard(folder.absolute(),
                                                                              load_json(folder / SHARD_FILE))
        except (OSError, ValueError) as error:
            raise ShardError(f"{folder / SHARD_FILE}: cannot read: {error}") from None
        shards.append((folder, shard, theirs))
        entries += shard_entries
        collected.sources.update(sources)
        folders.add(records_folder)
    check_complete(shards, fingerprint)
    collected.records_folder = folders.pop() if len(folders) == 1 else ""  # shards made on one machine, or not
    entries.sort(key=lambda entry: order_key(entry.relative))
    collected.total, collected.fingerprint = len(entries), fingerprint
    collected.progress = progress or collected.progress
    collected.previous_urls = load_url_manifest(previous_urls or urls.output_file(out_dir, urls.URLS_PATH))
    collected.history = history_digest(collected.previous_urls)
    pages = site_pages(site, remembered(collected, iter(entries)), load_static(STATIC), collected, report,
                       strict, options)
    return write_build(out_dir, pages, collected, fingerprint, force, protected, report)


def known_outcomes(previous: dict, read_outcomes: Callable[[], dict], collected: Collected,
                   files: list[RecordFile], names: list[str]) -> dict[int, Outcome]:
    """The outcomes the previous build left (`read_outcomes()`, called only if
    they can be used) for record files whose bytes did not change, by their
    place in `files`: with the same code and settings, loading, validating and
    rendering them again would give the same problems, summary and pages, so
    they are not read at all. A symbolic link is always read: what it points to
    decides whether it may be loaded."""
    if not comparable(previous, collected):
        return {}
    sources = collected.sources
    digests, pages, cached = previous.get("sources", {}), previous.get("pages", {}), read_outcomes()
    known = {}
    for index, (file, name) in enumerate(zip(files, names)):
        entry = cached.get(name) if sources[name] is not None and digests.get(name) == sources[name] else None
        try:
            problems, summary, paths, key = entry
            if summary is None or not all(pages.get(path) == key for path in paths) or file.is_link:
                continue
            known[index] = Outcome([Problem(*problem) for problem in problems], Summary.from_json(summary),
                                   [Reuse(path) for path in paths], key)
        except (TypeError, ValueError):
            continue  # no entry, or not one this version wrote
        collected.outcomes[name] = entry  # what remembered() would make of it again
    return known


def remembered(collected: Collected, entries: Iterator[ShardEntry]) -> Iterator[ShardEntry]:
    """Each record file's outcome (and the digest its worker read), kept for the
    next build (known_outcomes), but those known_outcomes took from the previous
    build: they are kept as they were."""
    for entry in entries:
        outcome = entry.outcome
        if outcome.digest is not None:  # the bytes this build read (file_digests left it to the worker)
            collected.sources[entry.relative] = outcome.digest
        if outcome.summary is not None and entry.relative not in collected.outcomes:
            # The Summary and Problems themselves, not lists of their values: JSON
            # writes a tuple as the same array, and at 100k the copies cost 20 MB.
            collected.outcomes[entry.relative] = [outcome.problems, outcome.summary,
                                                  [page.path for page in outcome.pages], outcome.key]
        yield entry


def previous_site(previous: dict, collected: Collected, report: Callable[[str], None],
                  strict: bool) -> BuildResult:
    """A build with nothing to do: the site in the output is already what this
    build would write, file for file, so it is left as it is; the problems
    found last time are reported again, and no record is read."""
    with stage(collected, "unchanged"):
        collected.problems = [Problem(*problem) for problem in previous["problems"]]
        for problem in collected.problems:
            report(str(problem))
    records = previous["records"]
    if strict and collected.problems:
        return BuildResult(records, collected.problems, 0, False, collected.timings)
    return BuildResult(records, collected.problems, previous.get("files", 0), True, collected.timings, records)


def write_build(out_dir: Path, pages: Iterator[Page | Reuse], collected: Collected, fingerprint: str,
                force: bool, protected: list[tuple[Path, str]], report: Callable[[str], None]) -> BuildResult:
    try:
        files = write_site(out_dir, pages, force=force, protected=protected, report=report,
                           manifest=collected.manifest, served_inodes=collected.served_inodes,
                           served=collected.served)
    except StrictFailure:
        return BuildResult(collected.records, collected.problems, 0, False, collected.timings)
    return BuildResult(collected.records, collected.problems, files, True, collected.timings, collected.reused)


def record_stage(entries: Iterator[ShardEntry], collected: Collected,
                 report: Callable[[str], None]) -> Iterator[Page | Reuse]:
    """The record pages, as they come; each record's summary kept for the global stages."""
    with stage(collected, "records"):
        for done, entry in enumerate(entries, 1):
            collected.progress(done, collected.total)
            outcome = entry.outcome
            for problem in outcome.problems:
                report(str(problem))
            collected.problems += outcome.problems
            if collected.keep_entries:  # a shard writes them out; pages only by path, never their bytes
                collected.entries.append(entry._replace(outcome=outcome._replace(
                    pages=[Reuse(page.path) for page in outcome.pages])))
            if outcome.summary is None:
                continue
            collected.summaries.append(outcome.summary)
            collected.records += 1
            page = outcome.pages[0]
            collected.keys.update((p.path, outcome.key) for p in outcome.pages)
            collected.html_paths.append(page.path)
            collected.reused += isinstance(page, Reuse) and page.origin is None
            yield from outcome.pages


def shard_pages(entries: Iterator[ShardEntry], collected: Collected, report: Callable[[str], None],
                shard: Shard, fingerprint: str) -> Iterator[Page | Reuse]:
    """A shard's files: its record pages and its outcomes, for assemble."""
    collected.keep_entries = True
    yield from record_stage(entries, collected, report)
    yield shard_page(shard, fingerprint, collected.entries, collected.sources, collected.records_folder)


def site_pages(site: urls.Site, entries: Iterator[ShardEntry], static: dict[str, bytes],
               collected: Collected, report: Callable[[str], None] = print, strict: bool = False,
               options: SiteOptions = SiteOptions()) -> Iterator[Page | Reuse]:
    """Every file of the site, generated lazily so pages never pile up in memory."""
    yield from record_stage(without_duplicates(entries), collected, report)
    if strict and collected.problems:
        raise StrictFailure()
    yield from global_pages(site, collected, static, options)
    for warning in collected.warnings:
        report(f"warning: {warning}")


def without_duplicates(entries: Iterator[ShardEntry]) -> Iterator[ShardEntry]:
    """Drop a record whose id or URL an earlier file already has, as a problem."""
    seen = Seen()
    for entry in entries:
        outcome = entry.outcome
        problem = outcome.summary and seen.duplicate(outcome.summary)
        yield entry._replace(outcome=Outcome([*outcome.problems, problem], None, [], None, outcome.digest)) \
            if problem else entry


def global_pages(site: urls.Site, collected: Collected, static: dict[str, bytes],
                 options: SiteOptions = SiteOptions()) -> Iterator[Page | Reuse]:
    """The pages made from every record's summary: listings, code pages, permalinks,
    the JSON API, feeds, redirects, search, sitemap. They are a pure function of
    the summaries, the render fingerprint and the URL history, so when none
    changed the previous build's files are linked instead."""
    summaries = sorted(collected.summaries, key=urls.record_path)
    collected.summaries_key = global_key(collected.fingerprint, summaries)
    previous = collected.previous_global
    reusable = bool(previous.get("key") and previous.get("paths"))
    if reusable and (previous.get("summaries"), previous.get("history served")) == (collected.summaries_key,
                                                                                    collected.history):
        # The same summaries, and the URL history the previous build served: merging them into
        # it again changes nothing (history_key), so neither does the key. Merging costs seconds.
        yield from reused_global_pages(collected, previous)
        return
    lists = listing_paths(summaries, options.page_size)
    history = history_key(collected.previous_urls, summaries, lists)
    collected.global_key = global_key(collected.summaries_key + history, [])  # the summaries are in summaries_key
    if reusable and previous["key"] == collected.global_key:
        yield from reused_global_pages(collected, previous)
        return
    for page in made_global_pages(site, collected, summaries, static, options):
        collected.global_paths.append(page.path)
        if page.path == urls.URLS_PATH:
            collected.history_served = history_digest(json.loads(page.content))
        yield page
    if served_lists(summaries, collected.html_paths) != lists:  # listing_paths is out of step: reuse nothing
        collected.global_key = collected.summaries_key = "never: the listings made are not those links.listing_paths foresaw"


def reused_global_pages(collected: Collected, previous: dict) -> Iterator[Reuse]:
    with stage(collected, "global pages reused"):
        collected.global_key, collected.global_paths = previous["key"], list(previous["paths"])
        collected.history_served = previous.get("history served", "")
        yield from (Reuse(path) for path in collected.global_paths)


def made_global_pages(site: urls.Site, collected: Collected, summaries: list[Summary], static: dict[str, bytes],
                      options: SiteOptions) -> Iterator[Page]:
    static = static_files(static)
    env = environment(site, len(summaries), options, versions(static))
    # The search data is the largest global step and needs nothing the others make:
    # with more than one process, it is made in another one while this one renders the listings.
    search = Beside(search_items, summaries) if collected.jobs > 1 and len(summaries) >= PARALLEL_THRESHOLD \
        else search_items(summaries)
    try:
        with stage(collected, "listings"):
            for page in browse_pages(env, summaries):
                collected.html_paths.append(page.path)
                yield page
            for page in code_pages(env, summaries):
                collected.html_paths.append(page.path)
                yield page
        with stage(collected, "links"):  # the JSON API and the feeds
            yield from api_pages(site, summaries)
            yield from feed_pages(site, options.title, summaries)
        with stage(collected, "redirects"):  # every URL an earlier build served still lands somewhere
            yield from redirect_pages(env, summaries, collected.html_paths, collected.previous_urls)
        with stage(collected, "search"):
            collected.warnings += next(search)
            yield from search
    finally:
        search.close()  # a build that failed before the search stage stops the process beside
    with stage(collected, "static"):
        yield from static_pages(static)
        yield cache_headers(site)
        yield sitemap(site, collected.html_paths, last_modified(summaries))
        yield robots(site)
        yield opensearch(env)
        yield schema_page(site)
        yield Page(".nojekyll", b"")  # GitHub Pages: serve folders and files as they are


def search_items(summaries: list[Summary]) -> Iterator[list[str] | Page]:
    """The search data's warnings, then its files one by one."""
    files = search_pages(summaries)
    yield files.warnings
    yield from files.pages


class Beside:
    """The items of `function(*args)`, made in a process of its own started now,
    and handed over one at a time as they are asked for: the asking process
    never holds them all (a future's result would arrive whole, and be
    unpickled beside its own bytes: at 100k records, 70 MB of search data
    twice, at the build's peak)."""

    def __init__(self, function: Callable[..., Iterator], *args):
        context = multiprocessing.get_context("spawn")
        self.receiving, sending = context.Pipe(duplex=False)
        # A daemon: a build that fails before asking leaves no process waiting to send.
        self.process = context.Process(target=send_items, args=(sending, function, *args), daemon=True)
        self.process.start()
        sending.close()  # the child's end: receiving sees EOF if the child dies

    def __iter__(self) -> "Beside":
        return self

    def __next__(self):
        try:
            kind, value = self.receiving.recv()
        except EOFError:
            self.close()
            raise RuntimeError(f"the process beside ended ({self.process.exitcode}) before its last item") from None
        if kind == "item":
            return value
        self.process.join()  # it ends once it has sent this
        self.close()
        if kind == "error":
            raise value
        raise StopIteration

    def close(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join()
        self.receiving.close()


def send_items(sending: multiprocessing.connection.Connection, function: Callable[..., Iterator], *args) -> None:
    """Beside's other end: each item, then the end or the error."""
    try:
        for item in function(*args):
            sending.send(("item", item))
    except Exception as error:
        sending.send(("error", error))
    else:
        sending.send(("end", None))
    sending.close()


def static_pages(static: dict[str, bytes]) -> Iterator[Page]:
    """The static files as served (assets.static_files)."""
    for name, content in static.items():
        yield Page(urls.STATIC_PATH + name, content)


def summary_line(result: BuildResult) -> str:
    skipped = len({p.path for p in result.problems if not p.dropped})
    dropped = sum(p.dropped for p in result.problems)
    if not result.written:
        files = len({p.path for p in result.problems})
        return f"nothing written: {plural(files, 'bad record file')} (--strict)"
    tail = "".join([f", skipped {skipped}" if skipped else "",
                    f", dropped {plural(dropped, 'value')}" if dropped else ""])
    return f"built {plural(result.records, 'record')}{tail}{' — see above' if tail else ''}"


def timing_lines(result: BuildResult) -> list[str]:
    """-v: one line per stage, as `stage <name>: <seconds> s`."""
    lines = [f"stage {name}: {seconds:.2f} s" for name, seconds in result.timings.items()]
    return lines + [f"record pages reused from the previous build: {result.reused:,} of {result.records:,}"]


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"
