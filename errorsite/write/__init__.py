"""Step 5, write: pages → files, all or nothing, and never over what we did not make.

Pages go into a fresh folder beside the output (staging.py), started from the
spare where there is one (spare.py): the site before, kept in the build's own
folder of the cache, never beside the output. Only when every file is written
does that folder take the output's place, in one atomic exchange where the OS
offers it (swap.py), and the site it replaced becomes the spare. A build that fails or is killed leaves the old site as it was; one
that fails removes its unfinished folder (so a disk it filled is freed), and
the next build removes what a killed one left, by the marks inside it.

This package alone decides what may be replaced or deleted (guard.py). A
`.git` inside the output (a `gh-pages` worktree) is carried into the new site.
Builds into one output take turns on a lock in the build's own folder
(cache/folder.py), and only the leftovers of dead builds are cleaned up.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable, Iterable

from ..cache import MARKER
from ..cache.folder import make_state_folder, state_folder
from ..cache.previous import Keep
from ..cache.stored import marker
from ..model import Page, Reuse
from ..process.generator_result import Finished
from .guard import OutputRefused, check_output, made_by_us
from .spare import (carry_kept, describe_spare, finish_twin, keep_as_spare, spare_folder, spare_listing, take_spare,
                    twin_folder)
from .staging import Staging, mark_staging, unmark_staging, write_own_file
from .swap import build_lock, remove_leftovers, sweep_leftovers, swap_into_place

__all__ = ["MARKER", "OutputRefused", "WriteFailed", "check_output", "made_by_us", "sweep_leftovers", "write_site"]


class WriteFailed(Exception):
    """Writing failed part-way (disk full, read-only…); the previous site is intact."""


def write_site(out_dir: Path, pages: Iterable[Page | Reuse], force: bool = False,
               protected: Iterable[tuple[Path, str]] = (), report: Callable[[str], None] = print,
               finish: Callable[[object], dict] = lambda returned: {}, keep: Keep = Keep(),
               state_dir: Path | None = None) -> int:
    """Write every page under a new `out_dir`; returns the number of files.
    `finish(returned)`, called with what `pages` returned (None for an
    iterable that is no generator) once every page is written and before the
    new site is swapped in, keeps what the next build reads and returns the
    fields that tie the site's marker to it (cache.stored.save_state). `keep`: the
    served files that may be linked instead of written again, from the
    build's plan. `state_dir`: the build's own folder (default: the output's
    folder in the user's cache), where the lock is taken."""
    out_dir = out_dir.absolute()
    state_dir = state_dir or state_folder(out_dir)
    protected = list(protected)
    check_output(out_dir, force, protected)
    try:
        make_state_folder(state_dir)
    except OSError as error:
        raise WriteFailed(f"cannot make the build's cache folder {state_dir}: {error.strerror or error}; "
                          "pass --cache-dir DIR; the previous site is unchanged") from error
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        with build_lock(out_dir, report, state_dir):
            check_output(out_dir, force, protected)  # again: it may have changed while we waited
            remove_leftovers(out_dir, state_dir)
            return write_and_swap(out_dir, pages, finish, keep, spare_folder(out_dir, state_dir))
    except OSError as error:
        raise WriteFailed(f"cannot write {out_dir}: {error.strerror or error}"
                          f"{f' ({error.filename})' if error.filename else ''}; "
                          "the previous site is unchanged") from error


def write_and_swap(out_dir: Path, pages: Iterable[Page | Reuse], finish: Callable[[object], dict], keep: Keep,
                   spare: Path | None) -> int:
    """`spare`: where the site before is kept for the next build, or None (the
    cache is on another file system, where a rename cannot take it)."""
    staging = out_dir.with_name(f".{out_dir.name}.building-{os.getpid()}")
    twin = None if spare is None else twin_folder(spare)
    swapped, twin_made = False, False
    try:
        from_spare = spare is not None and take_spare(spare, staging)
        if not from_spare:
            staging.mkdir()
        mark_staging(staging)
        if twin is not None and not from_spare and not out_dir.exists() and not spare.exists() \
                and not spare.is_symlink():
            # No site for the swap to leave as the spare: the new site's twin
            # will be, so the next build finds every unchanged file in place.
            twin.mkdir()
            twin_made = True
            mark_staging(twin)
        tree = Staging(staging, out_dir, from_spare, keep.inodes, spare_listing(staging) if from_spare else None,
                       twin if twin_made else None)
        pages = Finished(pages)
        for page in pages:
            tree.put(page)
        tree.remove_stale()
        files = tree.count + 1
        write_own_file(staging / MARKER, marker(finish(pages.value), files))
        carry_kept(out_dir, staging)
        if tree.twin is not None:
            finish_twin(staging, twin, tree.twin_inodes)
        unmark_staging(staging)
        swap_into_place(staging, out_dir)
        swapped = True
    finally:
        if swapped and spare is not None:
            keep_as_spare(staging, spare)  # the old site, if it was ours
            if twin_made and tree.twin is not None:
                keep_as_spare(twin, spare)
        # Whatever was not kept goes: the old site where there is no spare, or
        # after a failure this build's unfinished folder (begun from the spare
        # or not), which could fill the disk that made the build fail.
        shutil.rmtree(staging, ignore_errors=True)
        if twin_made:
            shutil.rmtree(twin, ignore_errors=True)  # gone if it became the spare
    if swapped and spare is not None and keep.served is not None:
        describe_spare(spare, keep.served)
    return files
