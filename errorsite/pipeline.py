"""The whole build, top to bottom: load → validate → render → index → write.

Each record file goes through load → validate → render on its own, in worker
processes (records.py); the main process keeps only each record's Summary and
writes pages as they arrive. The global steps (listings, search, sitemap) then
run on the summaries, and the writer swaps the new site in.
"""
from __future__ import annotations

import time
from pathlib import Path, PurePosixPath
from typing import Callable, Iterator, NamedTuple

from . import urls
from .browse import browse_pages, opensearch, robots, sitemap
from .load import find_record_files, load_json, load_static
from .markup import pygments_css
from .model import Page, Problem, Reuse, Summary
from .records import Outcome, Worker, outcomes, render_fingerprint
from .shards import (SHARD_FILE, Shard, ShardEntry, ShardError, check_complete, in_shard, order_key,
                     read_shard, shard_page)
from .validate import Seen
from .render import TEMPLATES, SiteOptions, environment
from .schema import schema_page
from .search import search_pages
from .write import check_output, previous_manifest, write_site

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


class Collected:
    """What the record stage hands the global stages, filled as it runs."""

    def __init__(self) -> None:
        self.summaries: list[Summary] = []
        self.problems: list[Problem] = []
        self.keys: dict[str, str] = {}   # record path → page key, for the next build
        self.html_paths: list[str] = []
        self.entries: list = []          # every file's outcome, in order (a shard writes them out)
        self.reused = 0
        self.timings: dict[str, float] = {}
        self.progress: Callable[[int, int], None] = lambda done, total: None  # records done of total
        self.total = 0


def protected_folders(records_dir: Path | None = None) -> list[tuple[Path, str]]:
    """Folders no build may replace (see write.check_output)."""
    return [*([(records_dir, "the records folder")] if records_dir else []),
            (PROJECT, "the project's own folder"), (STATIC, "the static files' folder"),
            (TEMPLATES, "the templates folder")]


def build(records_dir: Path, out_dir: Path, base_url: str, strict: bool = False,
          report: Callable[[str], None] = print, jobs: int = 1, force: bool = False,
          cache: bool = True, options: SiteOptions = SiteOptions(), shard: Shard | None = None,
          progress: Callable[[int, int], None] | None = None) -> BuildResult:
    """The site from `records_dir` into `out_dir`; with `shard`, only that slice
    of the record stage, into a shard folder for `assemble`.
    Raises write.OutputRefused (before any work) when `out_dir` may not be
    replaced, and write.WriteFailed when writing fails; the old site stays."""
    protected = protected_folders(records_dir)
    check_output(out_dir.absolute(), force, protected)
    site = urls.Site(urls.normalize_base_url(base_url))
    fingerprint = render_fingerprint(site, options, STATIC)
    previous = previous_manifest(out_dir) if cache else {}
    worker = Worker(site, options, records_dir.resolve(), fingerprint,
                    previous.get("pages", {}) if previous.get("fingerprint") == fingerprint else {})
    files = find_record_files(records_dir)
    relative = [PurePosixPath(f.relative_to(records_dir).as_posix()) for f in files]
    if shard:
        files, relative = zip(*[(f, r) for f, r in zip(files, relative) if in_shard(r, shard)]) or ((), ())
    entries = (ShardEntry(r.as_posix(), outcome) for r, outcome in zip(relative, outcomes(worker, list(files), jobs)))
    collected = Collected()
    collected.total = len(files)
    collected.progress = progress or collected.progress
    if shard:
        pages = shard_pages(entries, collected, report, shard, fingerprint)
    else:
        pages = site_pages(site, entries, load_static(STATIC), collected, report, strict, options)
    return write_build(out_dir, pages, collected, fingerprint, force, protected, report)


def assemble(shard_dirs: list[Path], out_dir: Path, base_url: str, strict: bool = False,
             report: Callable[[str], None] = print, force: bool = False,
             options: SiteOptions = SiteOptions(), progress: Callable[[int, int], None] | None = None) -> BuildResult:
    """One site from shard folders made by `build(shard=…)`: their record pages
    are linked in, and the global stages run on their summaries.
    Raises shards.ShardError when they do not make one whole site."""
    protected = [*protected_folders(), *((folder, "a shard folder") for folder in shard_dirs)]
    check_output(out_dir.absolute(), force, protected)
    site = urls.Site(urls.normalize_base_url(base_url))
    fingerprint = render_fingerprint(site, options, STATIC)
    shards, entries = [], []
    for folder in shard_dirs:
        try:
            shard, theirs, shard_entries = read_shard(folder.absolute(), load_json(folder / SHARD_FILE))
        except (OSError, ValueError) as error:
            raise ShardError(f"{folder / SHARD_FILE}: cannot read: {error}") from None
        shards.append((folder, shard, theirs))
        entries += shard_entries
    check_complete(shards, fingerprint)
    entries.sort(key=lambda entry: order_key(entry.relative))
    collected = Collected()
    collected.total = len(entries)
    collected.progress = progress or collected.progress
    pages = site_pages(site, iter(entries), load_static(STATIC), collected, report, strict, options)
    return write_build(out_dir, pages, collected, fingerprint, force, protected, report)


def write_build(out_dir: Path, pages: Iterator[Page | Reuse], collected: Collected, fingerprint: str,
                force: bool, protected: list[tuple[Path, str]], report: Callable[[str], None]) -> BuildResult:
    try:
        files = write_site(out_dir, pages, force=force, protected=protected, report=report,
                           manifest=lambda: {"fingerprint": fingerprint, "pages": collected.keys})
    except StrictFailure:
        return BuildResult(len(collected.summaries), collected.problems, 0, False, collected.timings)
    return BuildResult(len(collected.summaries), collected.problems, files, True,
                       collected.timings, collected.reused)


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
            collected.entries.append(entry)
            if outcome.summary is None:
                continue
            collected.summaries.append(outcome.summary)
            collected.keys[outcome.page.path] = outcome.key
            collected.html_paths.append(outcome.page.path)
            collected.reused += isinstance(outcome.page, Reuse) and outcome.page.origin is None
            yield outcome.page


def shard_pages(entries: Iterator[ShardEntry], collected: Collected, report: Callable[[str], None],
                shard: Shard, fingerprint: str) -> Iterator[Page | Reuse]:
    """A shard's files: its record pages and its outcomes, for assemble."""
    yield from record_stage(entries, collected, report)
    yield shard_page(shard, fingerprint, collected.entries)


def site_pages(site: urls.Site, entries: Iterator[ShardEntry], static: dict[str, bytes],
               collected: Collected, report: Callable[[str], None] = print, strict: bool = False,
               options: SiteOptions = SiteOptions()) -> Iterator[Page | Reuse]:
    """Every file of the site, generated lazily so pages never pile up in memory."""
    yield from record_stage(without_duplicates(entries), collected, report)
    if strict and collected.problems:
        raise StrictFailure()
    yield from global_pages(site, collected, static, options)


def without_duplicates(entries: Iterator[ShardEntry]) -> Iterator[ShardEntry]:
    """Drop a record whose id or URL an earlier file already has, as a problem."""
    seen = Seen()
    for entry in entries:
        outcome = entry.outcome
        problem = outcome.summary and seen.duplicate(outcome.summary)
        yield entry._replace(outcome=Outcome([*outcome.problems, problem], None, None, None)) if problem else entry


def global_pages(site: urls.Site, collected: Collected, static: dict[str, bytes],
                 options: SiteOptions = SiteOptions()) -> Iterator[Page]:
    """The pages made from every record's summary: listings, search, sitemap."""
    summaries = sorted(collected.summaries, key=urls.record_path)
    env = environment(site, len(summaries), options)
    with stage(collected, "listings"):
        for page in browse_pages(env, summaries):
            collected.html_paths.append(page.path)
            yield page
    with stage(collected, "search"):
        yield from search_pages(summaries)
    with stage(collected, "static"):
        yield from static_pages(static)
        yield sitemap(site, collected.html_paths)
        yield robots(site)
        yield opensearch(env)
        yield schema_page(site)
        yield Page(".nojekyll", b"")  # GitHub Pages: serve folders and files as they are


class stage:
    """Adds the wall time of a block (writing its pages included) to `collected.timings`."""

    def __init__(self, collected: Collected, name: str):
        self.collected, self.name = collected, name

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc) -> None:
        timings = self.collected.timings
        timings[self.name] = timings.get(self.name, 0.0) + time.perf_counter() - self.start


def static_pages(static: dict[str, bytes]) -> Iterator[Page]:
    for name, content in static.items():
        if name == "style.css":  # one stylesheet: ours, then the Pygments themes
            content = content + b"\n" + pygments_css().encode()
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
