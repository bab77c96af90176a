"""Finding the record files: every `*.json` below the records folder, in a
stable order, and loading them all."""
from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from ..urls import MARKER
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


# Folders below the records folder that hold no records, whatever `*.json`
# they have: a package manager's (node_modules), every dot-folder (.git,
# .github, .venv, a build's own .NAME.spare), and a site a build made (it
# holds the MARKER), wherever its --out was: `--records .` reads a project.
NOT_RECORDS = frozenset({"node_modules"})
OUTPUT_SHOWN, SITE_SHOWN = " (the output)", " (a built site)"


class Scan(NamedTuple):
    files: list[RecordFile]
    problems: list[Problem]   # folders that cannot be read, `*.json` that are not files
    skipped: tuple[str, ...] = ()   # folders not read (see NOT_RECORDS), relative, with "/" and why


class NoRecordFiles(ValueError):
    """A records folder with no record file in it: a wrong path, or a dataset
    not checked out. A build of it would replace the site with an empty one."""


def scan_records(records_dir: Path, skip: Path | None = None) -> Scan:
    """Every `*.json` below the folder, files and symbolic links (not inside
    linked folders), ordered by their relative paths' parts (shards.order_key),
    and what could not be taken: a folder that cannot be read, a FIFO, device
    or socket named `*.json` (never opened). `skip`, a folder (the output, when
    it lies inside), is not walked into, nor are dot-folders, NOT_RECORDS and
    built sites: their files are not records. The folders a build keeps beside its output
    (`.NAME.spare`, `.NAME.building-…`) are left out of `skipped` too: they
    are the build's own."""
    found, problems, skipped = _walk(records_dir, skip)
    return Scan([RecordFile(records_dir, relative, is_link) for _, relative, is_link in found],
                [problem for _, problem in problems], skipped)


def _walk(records_dir: Path, skip: Path | None) -> tuple[list[tuple[list[str], str, bool]],
                                                           list[tuple[list[str], Problem]], tuple[str, ...]]:
    """scan_records' files and problems, each with its sort key, and the
    folders skipped. One scandir per folder, and plain strings: pathlib's
    rglob, sorting and relative_to would cost every rebuild a Path per record file."""
    output = _identity(skip)
    beside, own_prefix = _beside(records_dir, skip), f".{skip.name}." if skip is not None else ""
    found, problems, skipped = [], [], []

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
        if folder and any(entry.name == MARKER for entry in entries):
            skipped.append(folder + SITE_SHOWN)
            continue
        for entry in entries:
            relative = folder + entry.name
            if entry.is_dir(follow_symlinks=False):
                if folder == beside and entry.name.startswith(own_prefix):
                    continue
                if _same_folder(entry, output):
                    skipped.append(relative + "/" + OUTPUT_SHOWN)
                elif entry.name.startswith(".") or entry.name in NOT_RECORDS:
                    skipped.append(relative + "/")
                else:
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
    return found, problems, tuple(sorted(skipped))


def skipped_note(skipped: tuple[str, ...], most: int = 5) -> str | None:
    """One line naming the folders a scan did not read, or None."""
    if not skipped:
        return None
    more = f" and {len(skipped) - most} more" if len(skipped) > most else ""
    return f"not read as records: {', '.join(printable(name) for name in skipped[:most])}{more}"


def skipped_notes(skipped: tuple[str, ...]) -> list[str]:
    """skipped_note as a list of notes: one, or none."""
    note = skipped_note(skipped)
    return [note] if note else []


def check_not_empty(records_dir: Path, found: int, skipped: tuple[str, ...]) -> None:
    """NoRecordFiles when the scan `found` no `*.json` at all (not even an unreadable one)."""
    if not found:
        beyond = " outside the folders skipped" if skipped else ""
        raise NoRecordFiles(f"--records: no record files (*.json) in {printable(records_dir.as_posix())}{beyond}")


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
    return read_records(records_dir, skip)[0]


def read_records(records_dir: Path, skip: Path | None = None) -> tuple[list[RawRecord], tuple[str, ...]]:
    """load_records, and the folders skipped (Scan.skipped)."""
    found, problems, skipped = _walk(records_dir, skip)
    root = Path(os.path.realpath(records_dir))
    raws = [(key, load_file(records_dir / relative, root)) for key, relative, _ in found]
    raws += [(key, RawRecord(problem.path, None, problem, f"unreadable: {problem.message}")) for key, problem in problems]
    raws.sort(key=lambda keyed: keyed[0])
    return [raw for _, raw in raws], skipped
