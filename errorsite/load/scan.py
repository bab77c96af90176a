"""Finding the record files: every `*.json` below the records folder, in a
stable order, and loading them all."""
from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from ..model import Problem
from .files import VANISHED, RawRecord, load_file, printable, stat_refusal


class RecordFile(NamedTuple):
    folder: Path     # the records folder, as given
    relative: str    # to it, with "/"
    is_link: bool    # a symbolic link: what it points to decides whether it may be loaded

    @property
    def path(self) -> Path:
        # Made when asked for: a rebuild that reads a few of many files needs only a few Paths.
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
    it lies inside), is not walked into, nor are the folders a build keeps
    beside it (`.NAME.spare`, `.NAME.building-…`): their files are the site's,
    not records."""
    found, problems = _walk(records_dir, skip)
    return Scan([RecordFile(records_dir, relative, is_link) for _, relative, is_link in found],
                [problem for _, problem in problems])


def _walk(records_dir: Path, skip: Path | None) -> tuple[list[tuple[list[str], str, bool]],
                                                           list[tuple[list[str], Problem]]]:
    """scan_records' files and problems, each with its sort key. One scandir
    per folder, and plain strings: pathlib's rglob, sorting and relative_to
    would cost every rebuild a Path per record file."""
    skipped = _identity(skip)
    beside, own_prefix = _beside(records_dir, skip), f".{skip.name}." if skip is not None else ""
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
                if not _same_folder(entry, skipped) and not (folder == beside and entry.name.startswith(own_prefix)):
                    folders.append(relative + "/")
            elif not entry.name.endswith(".json"):
                continue
            elif entry.is_symlink() or entry.is_file(follow_symlinks=False):
                found.append((relative.split("/"), relative, entry.is_symlink()))
            else:  # what no record can be: told from the entry's own stat, never opened
                try:
                    refuse(relative, stat_refusal(entry.stat(follow_symlinks=False)) or VANISHED)
                except OSError:
                    refuse(relative, VANISHED)
    found.sort()
    problems.sort()
    return found, problems


def _beside(records_dir: Path, skip: Path | None) -> str | None:
    """The folder holding `skip`, relative to the records folder as _walk names
    folders ("" or "a/b/"), or None when it is not inside it."""
    if skip is None:
        return None
    relative = os.path.relpath(os.path.realpath(skip.parent), os.path.realpath(records_dir))
    if relative == os.curdir:
        return ""
    return None if relative.startswith(os.pardir) else relative.replace(os.sep, "/") + "/"


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
