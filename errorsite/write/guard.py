"""What may be replaced: an output folder is replaced only when it is absent,
empty, or holds the marker a previous build wrote; anything else needs
`force`, and even then never the filesystem root, the home folder, the
current folder, the project's own folders, or a parent of any of them."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Iterable, Iterator

from ..cache import MARKER

KEPT = ".git"               # carried from the old site into the new one, never deleted
_COUNT_LIMIT = 100_000      # stop counting a foreign folder's files here


class OutputRefused(Exception):
    """The output folder may not be replaced; the message is the one line to show."""


def check_output(out_dir: Path, force: bool, protected: Iterable[tuple[Path, str]] = ()) -> None:
    """Raise OutputRefused unless `out_dir` may be replaced by a new site.
    `protected`: (folder, what it is) pairs that are never replaced, nor their parents."""
    shown = str(out_dir)
    if out_dir.is_symlink():
        raise OutputRefused(f"refusing to replace {shown}: it is a symbolic link; give the folder it points to")
    resolved = out_dir.resolve()
    for folder, what in never_replaced(protected):
        if resolved == folder or folder.is_relative_to(resolved):
            raise OutputRefused(f"refusing to replace {shown}: it is {what}"
                                f"{'' if resolved == folder else ' or one of its parents'}, never an output folder")
    if not out_dir.exists():
        return
    if not out_dir.is_dir():
        raise OutputRefused(f"refusing to replace {shown}: it is a file, not a folder")
    if force or made_by_us(out_dir):
        return
    count, example = foreign_files(out_dir)
    if count:
        many = f"over {_COUNT_LIMIT:,}" if count > _COUNT_LIMIT else f"{count:,}"
        raise OutputRefused(f"refusing to replace {shown}: it was not made by build.py (it holds "
                            f"{many} file{'s' if count != 1 else ''}, e.g. {example}); pass --force to replace it")


def never_replaced(protected: Iterable[tuple[Path, str]]) -> Iterator[tuple[Path, str]]:
    yield Path("/").resolve(), "the filesystem root"
    yield Path.home().resolve(), "the home folder"
    yield Path.cwd().resolve(), "the current folder"
    for folder, what in protected:
        yield folder.resolve(), what


# A marker is sorted JSON, so a build's own begins like this: no need to parse
# megabytes of it (the outcomes of every record) to know whose it is.
_MARKER_HEAD = re.compile(rb'\{"files":\d+,"fingerprint":"[0-9a-f]*","generator":"errorsite"[,}]')


def made_by_us(out_dir: Path) -> bool:
    try:
        with open(out_dir / MARKER, "rb") as file:
            if _MARKER_HEAD.match(file.read(512)):
                return True
        return json.loads((out_dir / MARKER).read_text()).get("generator") == "errorsite"
    except (OSError, ValueError, AttributeError):
        return False


def foreign_files(out_dir: Path) -> tuple[int, str]:
    """How many files the folder holds, `.git` aside, and the first one by name."""
    count, example = 0, ""
    for root, dirs, files in os.walk(out_dir):
        dirs[:] = sorted(d for d in dirs if not (root == str(out_dir) and d == KEPT))
        names = sorted(f for f in files if not (root == str(out_dir) and f == KEPT))
        if names and not example:
            example = Path(root, names[0]).relative_to(out_dir).as_posix()
        count += len(names) + sum(1 for d in dirs if Path(root, d).is_symlink())
        if count > _COUNT_LIMIT:
            break
    return count, example
