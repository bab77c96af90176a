"""Step 5, write: pages → files, all or nothing.

Pages go into a fresh folder beside the output; only when every file is
written does that folder take the output's place, in one atomic exchange where
the OS offers it. A build that fails or is killed leaves the old site as it was.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
from pathlib import Path
from typing import Iterable

from .model import Page
from .urls import output_file

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def write_site(out_dir: Path, pages: Iterable[Page]) -> int:
    """Write every page under a new `out_dir`; returns the number of files."""
    out_dir = out_dir.absolute()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(out_dir)
    staging = out_dir.with_name(f".{out_dir.name}.building-{os.getpid()}")
    staging.mkdir()
    try:
        count = 0
        for page in pages:
            target = output_file(staging, page.path)
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "xb") as file:  # "x": two pages never share a file
                file.write(page.content)
            count += 1
        swap_into_place(staging, out_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return count


def swap_into_place(staging: Path, out_dir: Path) -> None:
    """Afterwards `out_dir` holds the new site and `staging` the old one (if any)."""
    if not out_dir.exists():
        os.rename(staging, out_dir)
        return
    if not _exchange(staging, out_dir):
        # No atomic exchange here: two renames, with a moment where out_dir is absent.
        old = out_dir.with_name(f".{out_dir.name}.old-{os.getpid()}")
        os.rename(out_dir, old)
        os.rename(staging, out_dir)
        os.rename(old, staging)


def _exchange(a: Path, b: Path) -> bool:
    libc_name = ctypes.util.find_library("c")
    if not libc_name:
        return False
    libc = ctypes.CDLL(libc_name, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0


def remove_leftovers(out_dir: Path) -> None:
    """Staging folders of builds that were killed before they could clean up;
    a previous site caught mid-swap is put back first."""
    if not out_dir.exists():
        for old in sorted(out_dir.parent.glob(f".{out_dir.name}.old-*")):
            os.rename(old, out_dir)
            break
    for leftover in out_dir.parent.glob(f".{out_dir.name}.building-*"):
        shutil.rmtree(leftover, ignore_errors=True)
    for leftover in out_dir.parent.glob(f".{out_dir.name}.old-*"):
        shutil.rmtree(leftover, ignore_errors=True)
