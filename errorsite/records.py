"""Step 2 and 3 for each record file: load → validate, then what its page
shows as plain text (pages/plain_text.py) → render, on its own, in worker processes.
What comes back is small (model.Outcome): the problems,
the record's Summary for the global steps, its files (the page and its
permalink, or Reuses of the previous build's), and the key they were made
from (cache.keys.record_key).
"""
from __future__ import annotations

import multiprocessing
import re
import time
import traceback
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

import jinja2

from . import urls
from .cache.keys import record_key
from .load import RawRecord, load_file, read_record_bytes
from .markup import NO_BLOCKS, Blocks, lexing
from .model import Outcome, Page, Problem, Record, Reuse, Summary
from .pages.api import oembed, record_json
from .pages.cards import card_page, has_card
from .pages.links import permalink_page
from .pages.plain_text import shown_plain
from .pages.readable import record_markdown
from .pages.render import SiteOptions, TemplateMissing, environment, record_page, summarize, template_error
from .process.pool import LARGEST_CHUNK, SERIAL_SECONDS, in_processes, serial_then_spread
from .validate import Checked, check


class RenderFailed(Exception):
    """A record that could not be rendered: the message names its file, and the
    template and line or the traceback. It crosses process boundaries whole."""

    def __init__(self, record: str, detail: str):
        super().__init__(record, detail)
        self.record, self.detail = record, detail

    def __str__(self) -> str:
        return f"{self.record}: {self.detail}"


class Worker:
    """What one process needs to turn record files into outcomes."""

    def __init__(self, site: urls.Site, options: SiteOptions, root: Path, fingerprint: str,
                 previous: dict[str, str], versions: dict[str, str] | None = None):
        self.site = site
        self.versions = versions or {}  # of the static files (assets.versions)
        self.options = options
        self.root = root
        self.fingerprint = fingerprint
        self.previous = previous  # record path → key of the previous build's page
        self.env = None           # made in the process that renders: Jinja environments don't pickle

    def __getstate__(self) -> dict:
        return {**self.__dict__, "env": None}

    def __call__(self, path: Path) -> Outcome:
        return self.chunk([path])[0]

    def chunk(self, paths: list[Path]) -> list[Outcome]:
        """Each file's outcome. Each step is taken for the whole chunk in turn
        rather than all of one record's steps: every file read, every record
        validated, what each shows plain worked out (its code highlighted),
        then each kind of file made for every valid record (its page for
        each, then its permalink's…). A worker on bench records, chunks of 32
        against one record at a time, alternated: 1.87-1.96 -> 1.61-1.71
        CPU-ms a record, and 4% less again with validating apart; 10k builds:
        the workers 9.5% less CPU (docs/performance.md). A record's
        highlighted blocks go with it from the check to its files
        (plain_text.Shown), and no other record's."""
        raws = [load_file(path, self.root) for path in paths]
        checks = [None if raw.problem else check(raw.path, raw.data) for raw in raws]
        firsts = [self._shown(path, raw, checked) for path, raw, checked in zip(paths, raws, checks)]
        made = iter(self._outcomes([first for first in firsts if isinstance(first, _Valid)]))
        return [next(made) if isinstance(first, _Valid) else first for first in firsts]

    def _shown(self, path: Path, raw: RawRecord, checked: Checked | None) -> Outcome | _Valid:
        """The record as its page shows it (plain_text.shown_plain: its code
        highlighted, the blocks taken along), or the outcome of a file that
        makes no record."""
        blocks = NO_BLOCKS
        if checked is not None:
            checked, blocks = shown_plain(checked)
        if checked is None or checked.record is None:
            problems = [raw.problem] if checked is None else checked.problems
            return Outcome(problems, None, [], None, raw.digest, claimed_id(path, self.root, raw.data))
        return _Valid(raw.path, checked.record, checked.problems, raw.digest, blocks)

    def _outcomes(self, valids: list[_Valid]) -> list[Outcome]:
        """Each valid record's outcome: its files made anew, or Reuses of the
        previous build's when they were made from its key."""
        keys = [record_key(valid.record, self.fingerprint) for valid in valids]
        summaries = [summarize(valid.record) for valid in valids]
        paths = [record_paths(valid.record, self.options.cards) for valid in valids]
        stale = [index for index, key in enumerate(keys)
                 if any(self.previous.get(path) != key for path in paths[index])]
        made = dict(zip(stale, self._files([valids[index] for index in stale], [summaries[index] for index in stale])))
        return [Outcome(valid.problems, summary, made[index] if index in made else [Reuse(path) for path in own],
                        key, valid.digest)
                for index, (valid, summary, own, key) in enumerate(zip(valids, summaries, paths, keys))]

    def _files(self, valids: list[_Valid], summaries: list[Summary]) -> list[list[Page]]:
        """Each record's own files (record_files'), one kind at a time."""
        if not valids:
            return []
        self.env = self.env or environment(self.site, options=self.options, versions=self.versions)
        by_kind = [[self._made(kind, valid, summary) for valid, summary in zip(valids, summaries)]
                   for kind in record_file_kinds(self.env)]
        return [[page for page in files if page is not None] for files in zip(*by_kind)]

    @staticmethod
    def _made(kind: FileKind, valid: _Valid, summary: Summary) -> Page | None:
        try:
            return kind(valid.record, summary, valid.blocks)
        except TemplateMissing:
            raise  # not this record's fault: every record needs its templates
        except jinja2.TemplateError as error:
            raise RenderFailed(valid.path, f"template error: {template_error(error)}") from None
        except Exception:  # a bug: its traceback, which a pool would not carry back, and the record
            raise RenderFailed(valid.path, f"cannot render:\n{traceback.format_exc()}") from None


class _Valid(NamedTuple):
    """A valid record between the check and its files (Worker.chunk)."""
    path: str          # as shown to the user
    record: Record
    problems: list[Problem]
    digest: str | None
    blocks: Blocks     # its code, highlighted by its check (plain_text.Shown)


CLAIMED_ID = re.compile(rb'"id"\s*:\s*"([A-Za-z0-9_-]{1,64})"')


def claimed_id(path: Path, root: Path, data: object) -> str | None:
    """The record id a file that cannot be built seems to hold: its old URLs
    then say the record is temporarily unavailable, not removed. From the
    JSON when it parsed, else from the first `"id": "…"` in its bytes."""
    record = data.get("record") if isinstance(data, dict) else None
    if isinstance(record, dict):
        value = record.get("id")
        return value if isinstance(value, str) and CLAIMED_ID.fullmatch(f'"id":"{value}"'.encode()) else None
    raw, _ = read_record_bytes(path, root)
    found = CLAIMED_ID.search(raw) if raw else None
    return found[1].decode() if found else None


def record_paths(record: Record, cards: bool = False) -> list[str]:
    """A record's own files; its card image with `cards` on, unless the card's font lacks its script."""
    return [urls.record_path(record), urls.permalink_path(record), urls.record_json_path(record),
            urls.record_markdown_path(record), *([urls.record_card_path(record)] if cards and has_card(record) else [])]


def record_files(env, record: Record, summary: Summary, blocks: Blocks = NO_BLOCKS) -> list[Page]:
    """A record's own files, made from it alone: its page, its permalink,
    the record as JSON (also its oEmbed response) and as Markdown, and its
    card image when `cards` is on (the order of record_paths). `blocks`: its
    code as its check highlighted it, else its page highlights it."""
    return [page for kind in record_file_kinds(env) if (page := kind(record, summary, blocks)) is not None]


FileKind = Callable[[Record, Summary, Blocks], "Page | None"]


def record_file_kinds(env) -> list[FileKind]:
    """What makes each of record_files', in their order; the card's makes
    None for a record whose card's font lacks its script (has_card)."""
    site, site_name, image_of = env.globals["site"], env.globals["site_name"], env.globals["unfurl_image_of"]
    kinds = [lambda record, summary, blocks: record_page(env, record, summary, blocks),
             lambda record, summary, blocks: permalink_page(env, summary),
             lambda record, summary, blocks: record_json(site, record,
                                                         oembed(site, site_name, record, image_of(record))),
             lambda record, summary, blocks: record_markdown(site, record)]
    if env.globals["cards"]:  # its bytes depend on its inputs alone: the writer keeps an unchanged one
        kinds.append(lambda record, summary, blocks: card_page(record, site_name) if has_card(record) else None)
    return kinds


# Record files are independent and rendering them is the bulk of a build, so a
# large build spreads them over worker processes (pool.in_processes, which
# never kills one: a worker killed while it holds a lock of the queues would
# leave the build waiting for ever); their outcomes come back in order, so the
# output stays deterministic whatever the number of processes.
PARALLEL_THRESHOLD = 200
_worker: Worker | None = None


def outcomes(worker: Worker, files: list[Path | None], jobs: int, known: dict[int, Outcome] | None = None) -> Iterator[Outcome]:
    """Each file's outcome, in order; those in `known` (by index) are not worked out again (their file may be None)."""
    known = known or {}
    todo = [file for index, file in enumerate(files) if index not in known]
    if jobs <= 1:  # in this process, a chunk at a time as a worker process takes them
        in_turn = serially(worker)
        chunks = (todo[start:start + LARGEST_CHUNK] for start in range(0, len(todo), LARGEST_CHUNK))
        yield from _in_order(len(files), known, (outcome for chunk in chunks for outcome in in_turn(chunk)))
        return
    if len(todo) < PARALLEL_THRESHOLD:  # in this process, a record at a time, unless it proves slow (process/pool.py)
        in_turn = serially(worker)
        yield from _in_order(len(files), known, serial_then_spread(
            todo, lambda path: in_turn([path])[0],
            lambda rest: in_processes(_chunk_in_worker, rest, jobs, _start_worker, (worker,), by_chunk=True), jobs))
        return
    made = in_processes(_chunk_in_worker, todo, jobs, _start_worker, (worker,), by_chunk=True)
    try:
        yield from _in_order(len(files), known, made)
    finally:
        made.close()  # a consumer that stops early (a write failed) ends the processes now, not when collected


def serially(worker: Worker, after: float = SERIAL_SECONDS) -> Callable[[list[Path]], list[Outcome]]:
    """`worker`'s chunks in this process, with our lexing (markup/lexing.py)
    installed once it has taken longer than `after`: a serial build (`-j 1`,
    or one CPU) of thousands of records then highlights as fast as a worker
    does, and a small one never pays for reading the lexers' rules. With more
    jobs, the records left go to worker processes by then
    (pool.serial_then_spread)."""
    started = time.monotonic()

    def chunk(paths: list[Path]) -> list[Outcome]:
        if time.monotonic() - started > after:
            lexing.install()  # its first call puts it in place; then a check
        return worker.chunk(paths)
    return chunk


def usable_jobs(jobs: int, report: Callable[[str], None]) -> int:
    """`jobs`, or 1 in a daemonic process (a multiprocessing pool's worker, a
    Dask worker), which may not start processes of its own. That serial build
    still installs our lexing (markup/lexing.py), as a pool's worker would have."""
    if jobs <= 1 or not multiprocessing.current_process().daemon:
        return jobs
    ours = lexing.install()
    report(f"-j {jobs}: this is a daemonic process (a pool's or a cluster's worker), which may not start "
           f"others: building in it, serially{', with our lexing' if ours else ''}")
    return 1


def _in_order(count: int, known: dict[int, Outcome], made: Iterator[Outcome]) -> Iterator[Outcome]:
    """The known outcomes and the made ones (in order), merged back into file
    order. Each known one is taken out as it is passed on: what the record
    step keeps of it is its summary and its line for the next build, not
    its pages (100,000 outcomes with their 400,000 at 100k records)."""
    return (known.pop(index) if index in known else next(made) for index in range(count))


def _start_worker(worker: Worker) -> None:
    global _worker
    _worker = worker
    # Our lexing (markup/lexing.py) reads each rule's pattern once a process, when its
    # state is first entered: repaid here, where a process renders thousands of
    # records, not needed in a small serial build.
    lexing.install()


def _chunk_in_worker(paths: list[Path]) -> list[Outcome]:
    return _worker.chunk(paths)
