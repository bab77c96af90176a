"""Reading one record file safely: only a regular file of bounded size inside
the records folder is ever opened, and its bytes become JSON or a Problem
naming the file."""
from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import sys
from pathlib import Path
from typing import NamedTuple

from ..model import Problem


MAX_FILE_BYTES = 5 * 1024 * 1024  # the largest real record is ~30 KB


class RawRecord(NamedTuple):
    path: str        # as shown to the user, e.g. "records/x.json"
    data: object     # parsed JSON, or None when `problem` is set
    problem: Problem | None
    digest: str | None = None  # file_digest of the bytes read, or "unreadable: <why>" if none were


# Why a record file was not read. Each is one line of the report, and, as
# "unreadable: <message>", the file's digest: the outcome of a file that is
# not read depends on that message alone.
OUTSIDE = "points outside the records folder"
VANISHED = "no longer exists: removed while the build ran"
LOOP = "symbolic link loop: it never reaches a file"
DANGLING = "symbolic link to nothing: its target does not exist"
CHANGED = "replaced while being read: skipped"
KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
         (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))
# Opening never waits (a FIFO without a writer) nor follows a link swapped in
# after realpath; the descriptor's own fstat is what decides it is a file.
OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_NOCTTY | os.O_CLOEXEC


def load_file(path: Path, root: Path) -> RawRecord:
    """A record file's JSON, or the Problem that says why it was not read; its
    digest either way (see read_record_bytes)."""
    shown = printable(path.as_posix())
    raw, refusal = read_record_bytes(path, root)
    if refusal is not None:
        return RawRecord(shown, None, Problem(shown, "file", refusal), f"unreadable: {refusal}")
    parsed = parse_json(shown, raw)
    return RawRecord(parsed.path, parsed.data, parsed.problem, bytes_digest(raw))


def read_record_bytes(path: Path, root: Path | None) -> tuple[bytes | None, str | None]:
    """The bytes of a record file, or (None, why they were not read). Only a
    regular file of at most MAX_FILE_BYTES is ever opened, and only, if `root`
    is given, one whose real path lies inside it: a FIFO, device, socket,
    symbolic link loop or oversized file is refused from its stat alone."""
    name = os.fspath(path)
    try:
        target = os.path.realpath(name, strict=True)
    except OSError as error:
        return None, _missing(name, error)
    if root is not None and not _inside(target, os.fspath(root)):
        return None, OUTSIDE
    try:
        refusal = stat_refusal(os.stat(target))
        if refusal:
            return None, refusal
        descriptor = os.open(target, OPEN_FLAGS)
    except OSError as error:
        return None, _missing(name, error, opening=True)
    try:
        info = os.fstat(descriptor)
        refusal = stat_refusal(info)
        if refusal:
            return None, refusal
        data = read_at_most(descriptor, info.st_size, MAX_FILE_BYTES + 1)
    except OSError as error:
        return None, f"cannot read: {error.strerror or error}"
    finally:
        os.close(descriptor)
    if len(data) > MAX_FILE_BYTES:
        return None, f"file grew over the {MAX_FILE_BYTES // 1048576} MB limit while being read"
    return data, None


def read_at_most(descriptor: int, size: int, limit: int) -> bytes:
    """Up to `limit` bytes; a file of the size its fstat gave takes one read and
    the short read that tells its end."""
    chunks, left, want = [], limit, min(size + 1, limit)
    while left > 0:
        chunk = os.read(descriptor, min(left, want))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
        want = 1 << 20
    return b"".join(chunks)


def stat_refusal(info: os.stat_result) -> str | None:
    """Why a file of this stat is not read, or None if it may be."""
    if stat.S_ISREG(info.st_mode):
        if info.st_size > MAX_FILE_BYTES:
            return f"file is {info.st_size / 1048576:.1f} MB, over the {MAX_FILE_BYTES // 1048576} MB limit"
        return None
    kind = next((kind for test, kind in KINDS if test(info.st_mode)), "not a regular file")
    return f"is {kind}, not a regular file: skipped"


def _missing(name: str, error: OSError, opening: bool = False) -> str:
    if error.errno == errno.ELOOP:
        return CHANGED if opening else LOOP
    if error.errno == errno.ENOENT:
        return DANGLING if os.path.islink(name) and not opening else VANISHED
    return f"cannot read: {error.strerror or error}"


def _inside(target: str, root: str) -> bool:
    return target == root or target.startswith(root.rstrip("/") + "/")


def parse_json(shown: str, raw: bytes) -> RawRecord:
    """Bytes → JSON value. A UTF-8 byte-order mark is tolerated: editors add it."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return _fail(shown, f"not valid UTF-8 (byte {error.start})")
    try:
        return RawRecord(shown, json.loads(text), None)
    except json.JSONDecodeError as error:
        return _fail(shown, f"invalid JSON at line {error.lineno} column {error.colno}: {error.msg}")
    except RecursionError:
        return _fail(shown, "invalid JSON: nested too deeply")
    except ValueError:  # the only other one json raises: Python's cap on integer digits
        return _fail(shown, f"invalid JSON: a number has more than {sys.get_int_max_str_digits()} digits")


def printable(text: str) -> str:
    """Text for one line of a report: what a terminal would act on or hide
    (newlines, escapes, bidi controls, lone surrogates) is written as an escape."""
    if text.isprintable():  # nearly always: every character is
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def _fail(shown: str, message: str) -> RawRecord:
    return RawRecord(shown, None, Problem(shown, "file", message))


def bytes_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]
