"""Shards: the record stage of one build, split over machines.

`build.py --shard K/N` runs the record stage on the record files whose stable
hash falls in slice K of N, and writes their pages, `shard.json` (what the
shard is: its slice, fingerprint, record files' digests) and
`shard-entries.jsonl`: each file's outcome (problems, Summary, file paths,
key), one a line, in the order one build makes them. `build.py assemble`
merges the shards' entries as it reads them, so it holds one entry per shard
rather than every outcome, and runs the global stages: the same bytes as one
build. Each shard also records what it was cut from, a digest of every record
file of the whole set (cache.planning.record_set), so that shards cut from different
records are never mixed.

Only the (de)serialization and the check that the shards make one whole site
live here; the pipeline decides what to do with them. A shard is the build's
own output, so an entry it could not have written (a record whose id, repo
or slug validate would refuse, or files at paths other than the ones the
site makes for that record) means it was altered: assemble stops there and
writes nothing. The files themselves are checked where they are linked in
(write.staging: regular files only).
"""
from __future__ import annotations

import hashlib
import heapq
import json
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Iterable, Iterator, NamedTuple

from .cache.outcomes import outcome_json, outcome_of_json
from .load import load_json, read_lines
from .model import Outcome, Page, Summary, inert_json, whole
from .records import record_paths
from .validate import ID_RE
from .validate.formats import repo_problems, slug_problems
from .validate.wording import short

SHARD_FILE = "shard.json"
ENTRIES_FILE = "shard-entries.jsonl"
# 2: each entry lists its files (the page and its record.json); 3: the records folder; 4: the record set;
# 5: the entries in a file of their own, one a line, in order
FORMAT = 5


class Shard(NamedTuple):
    number: int   # from 1
    count: int


class ShardEntry(NamedTuple):
    relative: str          # the record file, relative to the records folder: the build's order
    outcome: Outcome


class ShardError(Exception):
    """Shards that cannot be assembled into one site; the message says why."""


def parse_shard(text: str) -> Shard:
    """"2/3" → Shard(2, 3); ValueError with a message for anything else."""
    number, _, count = text.partition("/")
    if not (number.isdigit() and count.isdigit() and 1 <= int(number) <= int(count)):
        raise ValueError(f"--shard must be K/N with 1 <= K <= N, got {text!r}")
    return Shard(int(number), int(count))


def in_shard(relative: str, shard: Shard) -> bool:
    """A stable slice: the same file (its path relative to the records folder,
    with "/") lands in the same shard on every machine."""
    digest = hashlib.sha256(relative.encode()).digest()
    return int.from_bytes(digest[:8], "big") % shard.count == shard.number - 1


def order_key(relative: str) -> list[str]:
    """The order `load.record_files` gives, so duplicates resolve as in one build."""
    return relative.split("/")


def shard_pages(shard: Shard, fingerprint: str, entries: list[ShardEntry], sources: dict[str, str],
                records_folder: str, cut_from: str) -> list[Page]:
    """The shard's entries, sorted as assemble merges them, and what the shard is."""
    ordered = sorted(entries, key=lambda entry: order_key(entry.relative))
    lines = b"".join(inert_json([entry.relative, *shard_outcome(entry.outcome)]) + b"\n" for entry in ordered)
    about = {"format": FORMAT, "shard": [shard.number, shard.count], "fingerprint": fingerprint,
             "sources": sources, "records_folder": records_folder, "record_set": cut_from, "entries": len(ordered)}
    return [Page(ENTRIES_FILE, lines), Page(SHARD_FILE, inert_json(about))]


def shard_outcome(outcome: Outcome) -> list:
    """outcome_json with the whole summary: a shard's build may have reused its outcomes."""
    problems, summary, paths, key = outcome_json(outcome)
    return [problems, None if summary is None else whole(summary), paths, key]


class ShardFile(NamedTuple):
    folder: Path
    shard: Shard
    fingerprint: str
    record_set: str      # record_set: what it was cut from
    entries: int
    sources: dict[str, str]
    records_folder: str


def read_shard(folder: Path, data: object) -> ShardFile:
    """What `shard.json` in `folder` says; ShardError, naming the first value
    that is not what a build writes, unless it is a shard file of this version."""
    where = folder / SHARD_FILE
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ShardError(f"{where}: not a shard file of this version (format {FORMAT})")
    for key, (is_valid, what) in SHARD_VALUES.items():
        if not is_valid(data.get(key)):
            raise ShardError(f"{where}: {key} is not {what}: not a shard file of this version")
    return ShardFile(folder, Shard(*data["shard"]), data["fingerprint"], data["record_set"], data["entries"],
                     data["sources"], data["records_folder"])


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


# What a build writes, as JSON gives it back: shard.json's values, and each of
# an entry's (relative, problems, summary, pages, key) and its summary's.
SHARD_VALUES = {
    "shard": (lambda v: isinstance(v, list) and len(v) == 2 and all(map(_count, v)) and 1 <= v[0] <= v[1], "[K, N]"),
    "fingerprint": (lambda v: isinstance(v, str), "a string"),
    "record_set": (lambda v: isinstance(v, str), "a string"),
    "entries": (_count, "a count"),
    "sources": (lambda v: isinstance(v, dict) and all(isinstance(d, str) for d in v.values()), "an object of strings"),
    "records_folder": (lambda v: isinstance(v, str), "a string"),
}
_BY_ANNOTATION = {"str": lambda v: isinstance(v, str), "str | None": lambda v: v is None or isinstance(v, str),
                  "tuple[str, ...]": _strings}
SUMMARY_VALUES = [(name, _BY_ANNOTATION[getattr(kind, "__forward_arg__", kind)])  # from Summary's own annotations
                  for name, kind in Summary.__annotations__.items()]


def entry_problem(values: object) -> str | None:
    """Why a line of shard-entries.jsonl is not an entry as a build writes it, or None."""
    if not (isinstance(values, list) and len(values) == 5):
        return "not an entry"
    relative, problems, summary, pages, key = values
    if not isinstance(relative, str) or not _strings(pages) or not (key is None or isinstance(key, str)):
        return "not an entry"
    if not isinstance(problems, list) or not all(
            isinstance(p, list) and 3 <= len(p) <= 5 and _strings(p[:3]) and all(isinstance(b, bool) for b in p[3:])
            for p in problems):
        return f"{shown(relative)}: its problems are not what a build writes"
    if summary is not None:
        if not (isinstance(summary, list) and len(summary) == len(SUMMARY_VALUES)):
            return f"{shown(relative)}: its summary is not what a build writes"
        for (name, is_valid), value in zip(SUMMARY_VALUES, summary):
            if not is_valid(value):
                return f"{shown(relative)}: its summary's {name} is not what a build writes"
    return None


def shard_entries(about: ShardFile, cards: bool = False) -> Iterator[ShardEntry]:
    """The shard's entries as they are read, one line at a time; its pages are
    Reuses from its folder. ShardError for a line that is not an entry, an
    entry the build could not have made (unmade_entry; `cards`: the build made
    a card image per record), entries out of order, or fewer or more of them
    than `shard.json` says."""
    path, origin = about.folder / ENTRIES_FILE, str(about.folder.absolute())
    count, last = 0, None
    try:
        for count, line in enumerate(read_lines(path), 1):
            values = json.loads(line)
            if (why := entry_problem(values)) is not None:
                raise ValueError(f"line {count}: {why}")
            relative, *outcome = values
            entry = ShardEntry(relative, outcome_of_json(outcome, origin))
            pages = [page.path for page in entry.outcome.pages]
            if (why := unmade_entry(entry.outcome.summary, pages, cards)) is not None:
                raise ShardError(f"{about.folder}: {relative}: {why}; a shard holds only what its build made, "
                                 "so this one was altered: nothing written")
            order = order_key(relative)
            if last is not None and not last < order:
                raise ValueError(f"line {count}: {relative} is out of order")
            last = order
            yield entry
    except (OSError, TypeError, ValueError) as error:
        raise ShardError(f"{path}: cannot read: {error}") from None
    except RecursionError:  # JSON nested deeper than any entry a build writes
        raise ShardError(f"{path}: cannot read: line {count}: nested too deeply: not an entry") from None
    if count != about.entries:
        raise ShardError(f"{path}: {count:,} entries, where {about.folder / SHARD_FILE} says {about.entries:,}")


def unmade_entry(summary: Summary | None, pages: list, cards: bool) -> str | None:
    """Why a build cannot have made an entry with this summary and these
    files, or None. Its id, repo and slug pass validate's rules (the slug's
    characters as they stand, not only once normalized); its files are the
    record's own, at the paths the site makes for it (records.record_paths),
    in that order; a record that was not built has none."""
    if summary is None:
        return f"a record that was not built lists files, first {shown(pages[0])}" if pages else None
    if not (isinstance(summary.id, str) and ID_RE.fullmatch(summary.id)):
        return f"{shown(summary.id)} is not a record id"
    if not isinstance(summary.repo, str) or repo_problems(summary.repo):
        return f"{shown(summary.repo)} is not a GitHub owner/name"
    if not isinstance(summary.slug, str) or slug_problems(summary.slug) \
            or not all(c == "-" or unicodedata.category(c)[0] in "LMN" for c in summary.slug):
        return f"{shown(summary.slug)} is not a slug the build makes"
    expected = record_paths(summary, cards)
    if pages != expected:
        odd = next((page for page in pages if page not in expected), None)
        return (f"lists {shown(odd)}, a path the site does not make for record {summary.id}" if odd is not None
                else f"lists {', '.join(pages) or 'no files'} where the site makes {', '.join(expected)} "
                     f"for record {summary.id}")
    return None


def shown(value: object) -> str:
    """A value from a shard, quoted and cut short for a one-line message."""
    return short(value) if isinstance(value, str) else short(repr(value))


def check_complete(shards: list[ShardFile], fingerprint: str) -> None:
    """All N slices of one split, each once, made with this code and these
    settings, and cut from one set of record files."""
    counts = {about.shard.count for about in shards}
    if len(counts) != 1:
        raise ShardError(f"the shards come from different splits: {sorted(counts)} slices")
    count = counts.pop()
    numbers = sorted(about.shard.number for about in shards)
    if numbers != list(range(1, count + 1)):
        missing = sorted(set(range(1, count + 1)) - set(numbers))
        raise ShardError(f"shards of {count}: missing {', '.join(f'{n}/{count}' for n in missing) or 'none'}"
                         f"{', and some given twice' if len(numbers) != len(set(numbers)) else ''}")
    for about in shards:
        if about.fingerprint != fingerprint:
            raise ShardError(f"{about.folder}: built with other code, templates, settings or base URL than this "
                             "assemble; build every shard and assemble with the same ones")
    # The set most shards were cut from (the first shard's on a tie) is the one; any other shard is odd.
    sets = Counter(about.record_set for about in shards)
    common = max(sets, key=lambda cut_from: (sets[cut_from], cut_from == shards[0].record_set))
    for about in shards:
        if about.record_set != common:
            raise ShardError(f"{about.folder}: cut from other record files than the other shards "
                             f"({sets[common]} of {len(shards)} agree); build every shard from the same records")


class Assembled(NamedTuple):
    """The shards' outcomes, merged in the order one build would have made them as they are read."""
    entries: Iterator[ShardEntry]
    count: int
    sources: dict[str, str]
    records_folder: str      # "" when the shards were made from different records folders


def read_shards(folders: list[Path], fingerprint: str, cards: bool = False) -> Assembled:
    """Every shard's outcomes, once all N slices of one split made with
    `fingerprint` (and `cards`, one of its settings) are there; ShardError
    otherwise, also while the entries are read."""
    shards = []
    for folder in folders:
        try:
            data = load_json(folder / SHARD_FILE)
        except (OSError, ValueError) as error:
            raise ShardError(f"{folder / SHARD_FILE}: cannot read: {error}") from None
        except RecursionError:  # JSON nested deeper than a shard file is
            raise ShardError(f"{folder / SHARD_FILE}: cannot read: nested too deeply: not a shard file") from None
        shards.append(read_shard(folder, data))
    check_complete(shards, fingerprint)
    sources = {}
    for about in shards:
        sources.update(about.sources)
    records_folders = {about.records_folder for about in shards}
    streams = [shard_entries(about._replace(sources={}), cards) for about in shards]  # the sources once, merged
    return Assembled(merged(streams), sum(about.entries for about in shards), sources,
                     records_folders.pop() if len(records_folders) == 1 else "")


def merged(streams: Iterable[Iterator[ShardEntry]]) -> Iterator[ShardEntry]:
    """Sorted streams of entries as one: each record file is in one shard only."""
    return heapq.merge(*streams, key=lambda entry: order_key(entry.relative))
