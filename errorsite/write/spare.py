"""The spare: the site before the served one, kept beside it as the next
build's starting point (most of its files are hard links to the served
site's), with a listing of its files so a rebuild need not walk it."""
from __future__ import annotations

import itertools
import json
import os
import shutil
from pathlib import Path

from ..cache import LISTING, MARKER
from ..cache.stored import ServedFiles
from ..urls import output_name
from .guard import KEPT, made_by_us
from .staging import STAGING_MARK


def take_spare(spare: Path, staging: Path) -> bool:
    """Start the new site from the spare, when there is one of ours; else from nothing."""
    if spare.is_dir() and not spare.is_symlink() and made_by_us(spare):
        os.rename(spare, staging)
        kept = staging / KEPT  # an older copy: carry_kept copies the current one
        if kept.is_dir() and not kept.is_symlink():
            shutil.rmtree(kept)
        elif kept.exists() or kept.is_symlink():
            kept.unlink()
        return True
    staging.mkdir()
    return False


def describe_spare(spare: Path, served: ServedFiles) -> None:
    """Leave in the spare (the site this build replaced) the listing of its files,
    for the next build to start from without walking it (spare_listing). Only
    when the spare is that site, as the served folder was when its files were
    listed: no other build replaced it in between. Best effort."""
    try:
        if os.lstat(spare).st_ino != served.folder or not made_by_us(spare):
            return
        write_listing(spare, served.inodes)
    except OSError:
        (spare / LISTING).unlink(missing_ok=True)


def finish_twin(staging: Path, twin: Path, inodes: dict[str, int]) -> None:
    """A first build's twin of its new site (its files linked as they were
    written) made a spare: the new site's marker and the twin's listing, then
    unmarked. From here a build killed leaves it with the marker that says ours."""
    os.link(staging / MARKER, twin / MARKER)
    write_listing(twin, inodes)
    (twin / STAGING_MARK).unlink()


def write_listing(folder: Path, inodes: dict[str, int]) -> None:
    with open(folder / LISTING, "x", encoding="utf-8") as file:
        # Never served, so plain JSON; in slices, so never one string the
        # size of the site's listing (nor json.dump's piece per value).
        file.write('{"pages":{')
        items = iter(inodes.items())
        for index, piece in enumerate(iter(lambda: dict(itertools.islice(items, _LISTED_AT_A_TIME)), {})):
            file.write(("," if index else "") + json.dumps(piece, separators=(",", ":"))[1:-1])
        file.write("}}")


_LISTED_AT_A_TIME = 10_000


def spare_listing(staging: Path) -> tuple[dict[str, int], set[str]] | None:
    """The files (with their inodes) and folders of the spare just taken, as the
    build that made it the spare listed them, or None: then it is walked. The
    listing is removed first, so a build that fails after changing the spare
    leaves none behind. Names at the top the listing does not explain (a file
    added by hand) make it untrusted."""
    path = staging / LISTING
    try:
        with open(path, "rb") as file:
            os.unlink(path)
            pages = json.load(file)["pages"]
        files = {output_name(page): inode for page, inode in pages.items()}
        if len(files) != len(pages) or not all(isinstance(inode, int) for inode in files.values()):
            return None
        folders = {""}
        for name in files:
            folder = name.rpartition("/")[0]
            while folder not in folders:  # and its parents, up to the first one already known
                folders.add(folder)
                folder = folder.rpartition("/")[0]
        top = {name for name in files if "/" not in name} | {f for f in folders if f and "/" not in f} \
            | {MARKER, KEPT, STAGING_MARK}
        if any(name not in top for name in os.listdir(staging)):
            return None
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        path.unlink(missing_ok=True)
        return None
    return files, folders


def keep_as_spare(folder: Path, spare: Path) -> None:
    """Keep `folder`, which after the swap holds the previous site, as the next
    build's start if it is one of ours (not a foreign folder that --force
    replaced). Whatever it holds, the next build trusts only which of its
    files are links to the current site's."""
    if (folder.is_dir() and not folder.is_symlink() and made_by_us(folder)
            and not spare.exists() and not spare.is_symlink()):
        os.rename(folder, spare)


def carry_kept(out_dir: Path, staging: Path) -> None:
    """Copy the old site's `.git` into the new one. A copy, not a move: a build
    killed at any moment must leave the original where it was."""
    kept = out_dir / KEPT
    if kept.is_dir() and not kept.is_symlink():
        shutil.copytree(kept, staging / KEPT, symlinks=True)
    elif kept.exists() or kept.is_symlink():
        shutil.copy2(kept, staging / KEPT, follow_symlinks=False)
