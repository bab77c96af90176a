"""Step 1, load: read every `*.json` under the records folder into raw JSON values.

This is one of the two modules that touch the disk. It never judges a record's
content; it only turns bytes into JSON or into a Problem naming the file.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import NamedTuple

from .model import Problem

MAX_FILE_BYTES = 5 * 1024 * 1024  # the largest real record is ~30 KB


class RawRecord(NamedTuple):
    path: str        # as shown to the user, e.g. "records/x.json"
    data: object     # parsed JSON, or None when `problem` is set
    problem: Problem | None
    digest: str | None = None  # file_digest of the bytes read, None if none were


class RecordFile(NamedTuple):
    folder: Path     # the records folder, as given
    relative: str    # to it, with "/"
    is_link: bool    # a symbolic link: what it points to decides whether it may be loaded

    @property
    def path(self) -> Path:
        # Made when asked for: a rebuild that reads a few of 100,000 files needs a few Paths.
        return self.folder / self.relative


def find_record_files(records_dir: Path) -> list[Path]:
    """Every `*.json` below the folder, in a stable order."""
    return [file.path for file in record_files(records_dir)]


def record_files(records_dir: Path) -> list[RecordFile]:
    """Every `*.json` below the folder, files and symbolic links (not inside
    linked folders), ordered by their relative paths' parts (shards.order_key).
    One scandir per folder: at 100,000 records, pathlib's rglob, sorting and
    relative_to cost seconds of every rebuild."""
    found: list[tuple[list[str], str, bool]] = []
    folders = [""]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(os.path.join(records_dir, folder)) as entries:
                entries = list(entries)
        except OSError:
            continue  # unreadable: as rglob, whose walk skips it
        for entry in entries:
            relative = folder + entry.name
            if entry.is_dir(follow_symlinks=False):
                folders.append(relative + "/")
            elif entry.name.endswith(".json") and (entry.is_symlink() or entry.is_file()):
                found.append((relative.split("/"), relative, entry.is_symlink()))
    found.sort()
    return [RecordFile(records_dir, relative, is_link) for _, relative, is_link in found]


def load_records(records_dir: Path) -> list[RawRecord]:
    root = records_dir.resolve()
    return [load_file(path, root) for path in find_record_files(records_dir)]


def load_file(path: Path, root: Path) -> RawRecord:
    shown = printable(path.as_posix())
    try:
        resolved = path.resolve()
        if not resolved.is_relative_to(root) or not resolved.is_file():
            return _fail(shown, "points outside the records folder")
        size = resolved.stat().st_size
        if size > MAX_FILE_BYTES:
            return _fail(shown, f"file is {size / 1048576:.1f} MB, over the "
                                f"{MAX_FILE_BYTES // 1048576} MB limit")
        raw = resolved.read_bytes()
    except OSError as error:
        return _fail(shown, f"cannot read: {error.strerror or error}")
    parsed = parse_json(shown, raw)
    return RawRecord(parsed.path, parsed.data, parsed.problem, bytes_digest(raw))


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


def load_static(static_dir: Path) -> dict[str, bytes]:
    """The site's own assets (CSS, JS, vendored lunr.js), by path below static/."""
    return {path.relative_to(static_dir).as_posix(): path.read_bytes()
            for path in sorted(static_dir.rglob("*")) if path.is_file()}


def load_json(path: Path) -> object:
    """A file the build itself wrote (a shard's outcomes), parsed; OSError or ValueError if unreadable."""
    return json.loads(path.read_text(encoding="utf-8"))


def load_url_manifest(path: Path) -> object:
    """The previous build's URL manifest (see redirects.py) as JSON, or None
    when there is none or it cannot be read: history is best effort."""
    try:
        return load_json(path)
    except (OSError, ValueError):
        return None


def file_digest(path: Path) -> str:
    """A short hash of a file's bytes, to tell whether it changed since the last build."""
    try:
        return bytes_digest(path.read_bytes())
    except OSError as error:
        return f"unreadable: {error.strerror or error}"


def bytes_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


# A file changed this soon before its stat was taken may change again within the
# granularity of its timestamps (2 s on FAT, a clock tick on ext4) and keep them.
SETTLED_NS = 2_000_000_000


def file_digests(files: list[RecordFile], names: list[str], known: dict[str, list], now: int,
                 compared: dict) -> tuple[dict[str, str | None], dict[str, list[int]]]:
    """Each record file's digest (file_digest) by name, as far as the build
    needs it before rendering, and the stats of the files settled by `now`
    (time.time_ns() before the first stat), for trusted_stats. A file whose
    stat (size, mtime, ctime, inode, device) is the one `known` holds for it
    is not read again, as git trusts its index; nor is one that `compared`,
    the previous build's digests, does not name: no earlier outcome can stand
    for it, so it is rendered, and its digest (None here) is taken from the
    bytes its worker reads (Outcome.digest). Symbolic links are never trusted
    (what they point to may change)."""
    settled_before = now - SETTLED_NS
    digests, settled = {}, {}
    for file, name in zip(files, names):
        signature = None if file.is_link else _signature(f"{file.folder}/{file.relative}")  # not os.path.join: 0.7 s at 100k
        entry = known.get(name)
        if signature is not None and isinstance(entry, list) and entry[:-1] == signature:
            digests[name] = entry[-1]
        else:
            digests[name] = file_digest(file.path) if name in compared else None
        if signature is not None and max(signature[1], signature[2]) < settled_before:
            settled[name] = signature
    return digests, settled


def trusted_stats(settled: dict[str, list[int]], digests: dict[str, str | None]) -> dict[str, list]:
    """What the next build's file_digests may trust: each settled file's stat and digest."""
    return {name: [*signature, digests[name]] for name, signature in settled.items()
            if digests.get(name) is not None and not digests[name].startswith("unreadable")}


def _signature(path: str) -> list[int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]


def load_digests(path: Path, records_folder: str) -> dict[str, list]:
    """The record files' stats and digests an earlier build left (write.save_digests),
    if it read the same records folder; {} if none or unreadable."""
    try:
        saved = load_json(path)
    except (OSError, ValueError):
        return {}
    if not isinstance(saved, dict) or saved.get("records") != records_folder or not isinstance(saved.get("stats"), dict):
        return {}
    return saved["stats"]
