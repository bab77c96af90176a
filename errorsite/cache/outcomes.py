"""An Outcome on disk, in its two layouts, and the outcomes file.

An Outcome is written as the JSON list [problems, summary, paths, key]
(outcome_json) and read back by outcome_of_json: the Problems and the Summary
as JSON writes their tuples (arrays of their values), the summary null for a
rejected record, its files by path alone (never their bytes), read back as
Reuses of the files at those paths, in a shard's folder or the previous
build. A shard's entries (shards.py) are this list after the record file's
key, its summary whole; the record step hands the next build's outcomes on
in it (RecordsDone.outcomes), where a summary read back stays a StoredSummary.

The outcomes file holds each record file's outcome as a build left it, one
line a file, sorted by file key: inert_json's [file key, problems, paths,
page key, the summary's STORED_FIELDS (null for none)], a tab, the summary's
JSON as inert_json writes it (`null` for none), and a newline (outcome_line).
A line is found by its first bytes (line_start), and read back without its
summary (outcome_of_line: a StoredSummary reads that JSON from the file when
a step needs it). The next build reads the file (previous_outcomes); save_state
(stored.py) writes it, copying the lines of the outcomes that did not change
(outcome_lines)."""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, TypeVar

from ..model import STORED_FIELDS, Outcome, Problem, Reuse, StoredSummary, Summary, inert_json
from . import OUTCOME_FILE

T = TypeVar("T")


class OutcomesAltered(Exception):
    """The outcomes file is not the one the state names: none of it is reused."""


class StoredOutcomes(NamedTuple):
    """The outcomes file as previous_outcomes opened it."""
    file: tuple[int, int, int, int] | None  # its identity(); None: no file, or none the state names
    entries: Iterator[tuple[str, list]]     # read a line at a time as they are asked for


def previous_outcomes(state_dir: Path, digest: str) -> StoredOutcomes:
    """Each record file's outcome as the build that wrote the output left it in
    `state_dir`, a line at a time (the file grows with the records, and is
    never parsed whole): its file key, and [problems, summary, paths, key], the
    summary a StoredSummary whose JSON is left in the file, kept open for it
    (OpenedFile). `digest` is the file's, as the state names it (save_state):
    at the end, or at a line that is not one, OutcomesAltered if the file is
    not that one. The file is opened here, so its identity is known before
    any entry is read (OutcomesRead).
    Read only after previous_manifest found the folder's marker ours."""
    kept = _opened(state_dir, digest)
    if kept is None:
        return StoredOutcomes(None, iter(()))
    return StoredOutcomes(identity(os.fstat(kept.descriptor)), _read(state_dir, kept, digest, outcome_of_line))


def outcome_paths(state_dir: Path, digest: str) -> Iterator[list]:
    """The files each outcome of previous_outcomes names, its summary left unread."""
    kept = _opened(state_dir, digest)
    return iter(()) if kept is None else _read(state_dir, kept, digest, paths_of_line)


def _opened(state_dir: Path, digest: str) -> OpenedFile | None:
    """The outcomes file the state names by `digest`, open; None for none (a
    state that names no outcomes file, an older version's) or no file."""
    if not digest:
        return None
    try:
        return OpenedFile(os.open(state_dir / OUTCOME_FILE, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)))
    except OSError:
        return None


def _read(state_dir: Path, kept: OpenedFile, digest: str,
          parse: Callable[[bytes, "OpenedFile", int], T]) -> Iterator[T]:
    """Each line of the outcomes file `kept` `parse`d, with the file, kept open, and
    the line's offset in it; OutcomesAltered at the end, or at a line `parse`
    rejects (ValueError, TypeError), if the file is not the one whose `digest`
    the state names."""
    read, at = hashlib.sha256(), 0
    try:
        with os.fdopen(kept.descriptor, "rb", closefd=False) as lines:
            for line in lines:
                read.update(line)
                yield parse(line, kept, at)
                at += len(line)
    except (OSError, ValueError, TypeError) as error:
        raise OutcomesAltered(f"{state_dir / OUTCOME_FILE}: {error}") from error
    if read.hexdigest()[:24] != digest:  # as write_kept makes it
        raise OutcomesAltered(f"{state_dir / OUTCOME_FILE}: not the file the state names")


class OpenedFile:
    """A file kept open while what was read from it may be read again, closed
    once nothing needs it: a file renamed over it (write_kept) leaves its
    bytes as they were. The outcomes' summaries are read from it, not held."""

    def __init__(self, descriptor: int):
        self.descriptor = descriptor

    def read(self, offset: int, length: int) -> bytes:
        return os.pread(self.descriptor, length, offset)  # never moves the file's position: it may be read on

    def __del__(self, close=os.close) -> None:  # os itself may be gone by then, at the interpreter's exit
        close(self.descriptor)


def outcome_json(outcome: Outcome) -> list:
    """The JSON list of `outcome`: the Problems and the Summary themselves, not
    lists of their values (JSON writes a tuple as the same array, and copies
    would grow with the records); a StoredSummary as it is (the outcomes file
    takes its bytes back; shards.py makes it whole)."""
    return [outcome.problems, outcome.summary, [page.path for page in outcome.pages], outcome.key]


def outcome_of_json(values: object, origin: str | None = None) -> Outcome:
    """The Outcome outcome_json wrote, its pages Reuses of the files at their
    paths (in `origin`, a shard's folder, or else the previous build).
    TypeError or ValueError unless `values` has outcome_json's shape."""
    problems, summary, paths, key = values
    return Outcome([Problem(*problem) for problem in problems],
                   summary if summary is None or isinstance(summary, StoredSummary) else Summary.from_json(summary),
                   [Reuse(path, origin) for path in paths], key)


def outcome_line(key: str, outcome: list) -> bytes:
    """The outcomes file's line for one record file, from its outcome_json
    list; a StoredSummary's JSON the bytes it was read from."""
    problems, summary, paths, page_key = outcome
    if summary is None:
        fields, text = None, b"null"
    else:
        fields = [getattr(summary, name) for name in STORED_FIELDS]
        text = summary.json() if isinstance(summary, StoredSummary) else inert_json(summary)
    return inert_json([key, problems, paths, page_key, fields]) + b"\t" + text + b"\n"


def outcome_of_line(line: bytes, kept: OpenedFile, at: int) -> tuple[str, list]:
    """What outcome_line wrote, the line at `at` in the file `kept`; ValueError
    or TypeError for anything else. Its summary's JSON is left in the file."""
    head, tab, text = line.partition(b"\t")
    if not tab or not text.endswith(b"\n"):
        raise ValueError("a line that is not an outcome")
    key, problems, paths, page_key, fields = _json_value(head)
    stored = functools.partial(kept.read, at + len(head) + 1, len(text) - 1)
    summary = None if fields is None else StoredSummary(*fields, stored=stored)
    return str(key), [problems, summary, paths, page_key]


def _json_value(head: bytes, decode=json.JSONDecoder().raw_decode) -> object:
    """json.loads(head) for the one value outcome_line writes, without its
    steps for any other input (a tenth of reading the outcomes at 100,000 records)."""
    text = head.decode("utf-8", "surrogatepass")
    value, end = decode(text)
    if end != len(text):
        raise ValueError("more than one JSON value")
    return value


def paths_of_line(line: bytes, *_) -> list:
    """The files an outcome_line names, its summary left unread."""
    head, tab, _ = line.partition(b"\t")
    paths = _json_value(head)[2] if tab else None
    if not isinstance(paths, list):
        raise ValueError("a line that is not an outcome")
    return paths


class OutcomesRead(NamedTuple):
    """Outcomes that stand as the previous build left them, by record file
    key, and the identity of the file they were read from (identity()): its
    lines for them are this build's, byte for byte, while it is that file."""
    file: tuple[int, int, int, int] | None = None
    names: frozenset[str] = frozenset()


def identity(info: os.stat_result) -> tuple[int, int, int, int]:
    """A file told apart from any that replaced it (write_kept renames a new file in)."""
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


@contextmanager
def outcomes_before(path: Path, read: tuple[int, int, int, int] | None) -> Iterator[Iterator[bytes]]:
    """The lines of the outcomes file at `path` if it is the one read
    (`read`, its identity()); else none."""
    try:
        file = open(path, "rb") if read is not None else None
    except OSError:
        file = None
    if file is None or identity(os.fstat(file.fileno())) != read:
        if file is not None:
            file.close()
        yield iter(())
        return
    with file:
        yield iter(file)


def outcome_lines(outcomes: dict[str, list], unchanged: frozenset[str], before: Iterator[bytes]) -> Iterator[bytes]:
    """One line an outcome, sorted by file key: for an unchanged one, its
    line in `before` (which holds them, sorted the same way), else made."""
    for key in sorted(outcomes):
        kept = None
        if key in unchanged:
            start = line_start(key)
            for line in before:
                if line.startswith(start):
                    kept = line
                    break
        yield kept if kept is not None else outcome_line(key, outcomes[key])


def line_start(key: str) -> bytes:
    """How outcome_line begins for the file `key`: `[`, inert_json(key), `,`."""
    return b'["' + key.encode() + b'",' if _PLAIN.fullmatch(key) else b"[" + inert_json(key) + b","


# A key inert_json writes as it is, between quotes: one json.dumps less a line.
_PLAIN = re.compile(r'[^"\\<>&\x00-\x1f]*')
