"""Step 1, load: read every `*.json` under the records folder into raw JSON values.

This is one of the two modules that touch the disk. It never judges a record's
content; it only turns bytes into JSON or into a Problem naming the file.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import sys
from pathlib import Path
from typing import NamedTuple

from .model import Problem

MAX_FILE_BYTES = 5 * 1024 * 1024  # the largest real record is ~30 KB


class RawRecord(NamedTuple):
    path: str        # as shown to the user, e.g. "records/x.json"
    data: object     # parsed JSON, or None when `problem` is set
    problem: Problem | None
    digest: str | None = None  # file_digest of the bytes read, or "unreadable: <why>" if none were


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
    """scan_records' files, without its problems."""
    return scan_records(records_dir).files


class Scan(NamedTuple):
    files: list[RecordFile]
    problems: list[Problem]   # folders that cannot be read, `*.json` that are not files


def scan_records(records_dir: Path, skip: Path | None = None) -> Scan:
    """Every `*.json` below the folder, files and symbolic links (not inside
    linked folders), ordered by their relative paths' parts (shards.order_key),
    and what could not be taken: a folder that cannot be read, a FIFO, device
    or socket named `*.json` (never opened). `skip`, a folder (the output, when
    it lies inside), is not walked into: its files are the site's, not records."""
    found, problems = _walk(records_dir, skip)
    return Scan([RecordFile(records_dir, relative, is_link) for _, relative, is_link in found],
                [problem for _, problem in problems])


def _walk(records_dir: Path, skip: Path | None) -> tuple[list[tuple[list[str], str, bool]],
                                                           list[tuple[list[str], Problem]]]:
    """scan_records' files and problems, each with its sort key. One scandir
    per folder: at 100,000 records, pathlib's rglob, sorting and relative_to
    cost seconds of every rebuild."""
    skipped = _identity(skip)
    found, problems = [], []

    def refuse(relative: str, message: str) -> None:
        shown = printable((records_dir / relative).as_posix())
        problems.append((relative.split("/"), Problem(shown, "file", message)))

    folders = [""]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(os.path.join(records_dir, folder)) as entries:
                entries = list(entries)
        except OSError as error:
            refuse(folder.rstrip("/"), f"cannot read this folder: {error.strerror or error}; its records are skipped")
            continue
        for entry in entries:
            relative = folder + entry.name
            if entry.is_dir(follow_symlinks=False):
                if not _same_folder(entry, skipped):
                    folders.append(relative + "/")
            elif not entry.name.endswith(".json"):
                continue
            elif entry.is_symlink() or entry.is_file(follow_symlinks=False):
                found.append((relative.split("/"), relative, entry.is_symlink()))
            else:  # what no record can be: told from the entry's own stat, never opened
                try:
                    refuse(relative, _refusal(entry.stat(follow_symlinks=False)) or VANISHED)
                except OSError:
                    refuse(relative, VANISHED)
    found.sort()
    problems.sort()
    return found, problems


def _identity(folder: Path | None) -> tuple[int, int] | None:
    if folder is None:
        return None
    try:
        info = os.stat(folder)
    except OSError:
        return None  # not made yet: nothing in it to skip
    return info.st_dev, info.st_ino


def _same_folder(entry: os.DirEntry, identity: tuple[int, int] | None) -> bool:
    if identity is None or entry.inode() != identity[1]:  # inode() is free: scandir read it
        return False
    try:
        return entry.stat(follow_symlinks=False).st_dev == identity[0]
    except OSError:
        return False


def load_records(records_dir: Path, skip: Path | None = None) -> list[RawRecord]:
    """Each record file loaded, and each of scan_records' problems as a file
    that was not, in the order of their paths."""
    found, problems = _walk(records_dir, skip)
    root = Path(os.path.realpath(records_dir))
    raws = [(key, load_file(records_dir / relative, root)) for key, relative, _ in found]
    raws += [(key, RawRecord(problem.path, None, problem, f"unreadable: {problem.message}")) for key, problem in problems]
    raws.sort(key=lambda keyed: keyed[0])
    return [raw for _, raw in raws]


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
        refusal = _refusal(os.stat(target))
        if refusal:
            return None, refusal
        descriptor = os.open(target, OPEN_FLAGS)
    except OSError as error:
        return None, _missing(name, error, opening=True)
    try:
        info = os.fstat(descriptor)
        refusal = _refusal(info)
        if refusal:
            return None, refusal
        data = _read_at_most(descriptor, info.st_size, MAX_FILE_BYTES + 1)
    except OSError as error:
        return None, f"cannot read: {error.strerror or error}"
    finally:
        os.close(descriptor)
    if len(data) > MAX_FILE_BYTES:
        return None, f"file grew over the {MAX_FILE_BYTES // 1048576} MB limit while being read"
    return data, None


def _read_at_most(descriptor: int, size: int, limit: int) -> bytes:
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


def _refusal(info: os.stat_result) -> str | None:
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
    """A short hash of a record file's bytes, to tell whether it changed since
    the last build; for a file load_file would not read, "unreadable: <why>",
    from its stat alone (as load_file's digest, for a file in the records folder)."""
    raw, refusal = read_record_bytes(path, None)
    return f"unreadable: {refusal}" if refusal is not None else bytes_digest(raw)


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
    (what they point to may change), and one that points out of the records
    folder is digested as load_file refuses it, its target never read."""
    settled_before = now - SETTLED_NS
    digests, settled, roots = {}, {}, {}
    for file, name in zip(files, names):
        signature = None if file.is_link else _signature(f"{file.folder}/{file.relative}")  # not os.path.join: 0.7 s at 100k
        entry = known.get(name)
        if signature is not None and isinstance(entry, list) and entry[:-1] == signature:
            digests[name] = entry[-1]
        else:
            digests[name] = None if name not in compared else \
                _link_digest(file, roots) if file.is_link else file_digest(file.path)
        if signature is not None and max(signature[1], signature[2]) < settled_before:
            settled[name] = signature
    return digests, settled


def _link_digest(file: RecordFile, roots: dict[Path, str]) -> str:
    root = roots.get(file.folder) or roots.setdefault(file.folder, os.path.realpath(file.folder))
    raw, refusal = read_record_bytes(file.path, Path(root))
    return f"unreadable: {refusal}" if refusal is not None else bytes_digest(raw)


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
