"""Shards: the record stage of one build, split over machines.

`build.py --shard K/N` runs the record stage on the record files whose stable
hash falls in slice K of N, and writes their pages plus `shard.json`: each
file's outcome (problems, Summary, file paths, key). `build.py assemble`
reads the shards' outcomes back, in the order one build would have made them,
and runs the global stages: the same bytes as one build.

Only the (de)serialization and the check that the shards make one whole site
live here; the pipeline decides what to do with them.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import NamedTuple

from .load import load_json
from .model import Outcome, Page, Problem, Reuse, Summary, inert_json

SHARD_FILE = "shard.json"
FORMAT = 3  # 2: each entry lists its files (the page and its record.json); 3: the records folder


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


def shard_page(shard: Shard, fingerprint: str, entries: list[ShardEntry], sources: dict[str, str],
               records_folder: str) -> Page:
    data = {"format": FORMAT, "shard": [shard.number, shard.count], "fingerprint": fingerprint,
            "sources": sources, "records_folder": records_folder,
            "entries": [[e.relative, [list(p) for p in e.outcome.problems],
                         e.outcome.summary.to_json() if e.outcome.summary else None,
                         [p.path for p in e.outcome.pages], e.outcome.key]
                        for e in entries]}
    return Page(SHARD_FILE, inert_json(data))


def read_shard(folder: Path, data: object) -> tuple[Shard, str, list[ShardEntry], dict[str, str], str]:
    """The shard's slice, fingerprint, entries, record files' digests and
    records folder; its pages are Reuses from `folder`."""
    try:
        assert isinstance(data, dict) and data["format"] == FORMAT
        shard, fingerprint, sources = Shard(*data["shard"]), data["fingerprint"], dict(data["sources"])
        records_folder = str(data["records_folder"])
        entries = [ShardEntry(relative, Outcome(
            [Problem(*p) for p in problems],
            Summary.from_json(summary) if summary else None,
            [Reuse(page, str(folder)) for page in pages], key))
            for relative, problems, summary, pages, key in data["entries"]]
    except (AssertionError, KeyError, TypeError, ValueError) as error:
        raise ShardError(f"{folder / SHARD_FILE}: not a shard file of this version ({error!r})") from None
    return shard, fingerprint, entries, sources, records_folder


def check_complete(shards: list[tuple[Path, Shard, str]], fingerprint: str) -> None:
    """All N slices of one split, each once, made with this code and these settings."""
    counts = {shard.count for _, shard, _ in shards}
    if len(counts) != 1:
        raise ShardError(f"the shards come from different splits: {sorted(counts)} slices")
    count = counts.pop()
    numbers = sorted(shard.number for _, shard, _ in shards)
    if numbers != list(range(1, count + 1)):
        missing = sorted(set(range(1, count + 1)) - set(numbers))
        raise ShardError(f"shards of {count}: missing {', '.join(f'{n}/{count}' for n in missing) or 'none'}"
                         f"{', and some given twice' if len(numbers) != len(set(numbers)) else ''}")
    for folder, _, theirs in shards:
        if theirs != fingerprint:
            raise ShardError(f"{folder}: built with other code, templates, settings or base URL than this "
                             "assemble; build every shard and assemble with the same ones")


class Assembled(NamedTuple):
    """The shards' outcomes, in the order one build would have made them."""
    entries: list[ShardEntry]
    sources: dict[str, str]
    records_folder: str      # "" when the shards were made from different records folders


def read_shards(folders: list[Path], fingerprint: str) -> Assembled:
    """Every shard's outcomes, once all N slices of one split made with
    `fingerprint` are there; ShardError otherwise."""
    shards, entries, sources, records_folders = [], [], {}, set()
    for folder in folders:
        try:
            shard, theirs, shard_entries, shard_sources, records_folder = read_shard(
                folder.absolute(), load_json(folder / SHARD_FILE))
        except (OSError, ValueError) as error:
            raise ShardError(f"{folder / SHARD_FILE}: cannot read: {error}") from None
        shards.append((folder, shard, theirs))
        entries += shard_entries
        sources.update(shard_sources)
        records_folders.add(records_folder)
    check_complete(shards, fingerprint)
    entries.sort(key=lambda entry: order_key(entry.relative))
    return Assembled(entries, sources, records_folders.pop() if len(records_folders) == 1 else "")
