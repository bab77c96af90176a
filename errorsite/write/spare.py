"""The spare: the site before the served one, kept as the next build's
starting point (most of its files are hard links to the served site's), with
a listing of its files so a rebuild need not walk it. It lives in the build's
own folder of the cache (cache/folder.py), never beside the output, where a
host would serve it: only where that folder is on the output's file system,
so the spare is taken and given back by a rename."""
from __future__ import annotations

import errno
import itertools
import os
import shutil
from array import array
from pathlib import Path
from typing import Iterable

from ..cache import LISTING, MARKER, SPARE, TWIN
from ..cache.stored import ServedFiles
from ..urls import output_name
from .guard import KEPT, made_by_us
from .staging import STAGING_MARK


def spare_folder(out_dir: Path, state_dir: Path) -> Path | None:
    """Where the spare of `out_dir` is kept: in its build's own folder, when
    that is on the output's file system; else None, and builds start from nothing."""
    try:
        same = os.stat(state_dir).st_dev == os.stat(out_dir.parent).st_dev
    except OSError:
        return None
    return state_dir / SPARE if same else None


def twin_folder(spare: Path) -> Path:
    return spare.with_name(f"{TWIN}-{os.getpid()}")


def take_spare(spare: Path, staging: Path) -> bool:
    """Start the new site (`staging`) from the spare, when there is one of ours."""
    if spare.is_dir() and not spare.is_symlink() and made_by_us(spare):
        if not moved(spare, staging):
            return False
        kept = staging / KEPT  # an older copy: carry_kept copies the current one
        if kept.is_dir() and not kept.is_symlink():
            shutil.rmtree(kept)
        elif kept.exists() or kept.is_symlink():
            kept.unlink()
        return True
    return False


def describe_spare(spare: Path, served: ServedFiles) -> None:
    """Leave in the spare (the site this build replaced) the listing of its files,
    for the next build to start from without walking it (spare_listing). Only
    when the spare is that site, as the served folder was when its files were
    listed: no other build replaced it in between. Best effort."""
    try:
        if os.lstat(spare).st_ino != served.folder or not made_by_us(spare):
            return
        write_listing(spare, served.inodes.items())
    except OSError:
        (spare / LISTING).unlink(missing_ok=True)


def finish_twin(staging: Path, twin: Path, inodes: dict[str, int]) -> None:
    """A first build's twin of its new site (its files linked as they were
    written) made a spare: the new site's marker and the twin's listing, then
    unmarked. From here a build killed leaves it with the marker that says ours.
    `inodes`: its files' by page path (Staging.twin_inodes)."""
    os.link(staging / MARKER, twin / MARKER)
    write_listing(twin, ((output_name(path), inode) for path, inode in inodes.items()))
    (twin / STAGING_MARK).unlink()


def write_listing(folder: Path, entries: Iterable[tuple[str, int]]) -> None:
    """The listing of `folder`'s files: their output names (urls.output_name)
    and inodes, as `entries` gives them. Never served, so not JSON but what
    reads back fastest (listed_files): a head line with their number and the
    names' length, the names joined by NUL, which none holds, then the inodes
    as 8-byte integers. Written a slice at a time, never one string the size
    of the listing; the head last, so a listing cut short is never read."""
    entries, inodes, length = iter(entries), array("q"), 0
    with open(folder / LISTING, "xb") as file:
        file.write(_listing_head(0, 0))
        for index, piece in enumerate(iter(lambda: list(itertools.islice(entries, _LISTED_AT_A_TIME)), [])):
            names = "\0".join(name for name, _ in piece).encode("utf-8", "surrogatepass")
            length += file.write(b"\0" + names if index else names)
            inodes.extend(inode for _, inode in piece)
        file.write(inodes.tobytes())
        file.seek(0)
        file.write(_listing_head(len(inodes), length))


def _listing_head(count: int, length: int) -> bytes:
    return b"%s %020d %020d\n" % (_LISTING_KIND, count, length)


_LISTING_KIND = b"errorsite spare listing 2"
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
            files = listed_files(file.read())
        if files is None:
            return None
        folders = {""}
        for folder in {name.rpartition("/")[0] for name in files}:
            while folder not in folders:  # and its parents, up to the first one already known
                folders.add(folder)
                folder = folder.rpartition("/")[0]
        top = {name for name in files if "/" not in name} | {f for f in folders if f and "/" not in f} \
            | {MARKER, KEPT, STAGING_MARK}
        if any(name not in top for name in os.listdir(staging)):
            return None
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        path.unlink(missing_ok=True)
        return None
    return files, folders


def listed_files(content: bytes) -> dict[str, int] | None:
    """The output names and inodes a listing holds (write_listing), or None
    unless it is one, whole, of names each a file in the folder (no part
    empty, "." or "..", no backslash: the names output_name makes), each once."""
    head, newline, rest = content.partition(b"\n")
    fields = head.rsplit(b" ", 2)
    if not newline or len(fields) != 3 or fields[0] != _LISTING_KIND or not all(f.isdigit() for f in fields[1:]):
        return None
    count, length = int(fields[1]), int(fields[2])
    if count == 0 or len(rest) != length + 8 * count:
        return None
    text = rest[:length].decode("utf-8", "surrogatepass")
    wrapped = "/" + text.replace("\0", "/") + "/"  # each part of each name between slashes, as output_name tests them
    if "//" in wrapped or "/./" in wrapped or "/../" in wrapped or "\\" in wrapped:
        return None
    names, inodes = text.split("\0"), array("q")
    inodes.frombytes(rest[length:])
    files = dict(zip(names, inodes))
    return files if len(names) == len(files) == len(inodes) else None


def keep_as_spare(folder: Path, spare: Path) -> None:
    """Keep `folder`, which after the swap holds the previous site, as the next
    build's start if it is one of ours (not a foreign folder that --force
    replaced). Whatever it holds, the next build trusts only which of its
    files are links to the current site's."""
    if (folder.is_dir() and not folder.is_symlink() and made_by_us(folder)
            and not spare.exists() and not spare.is_symlink()):
        moved(folder, spare)


def moved(source: Path, target: Path) -> bool:
    """Renamed, or False where the two are on one device but not one mount (a
    bind mount): then there is no spare, as on two file systems."""
    try:
        os.rename(source, target)
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
        return False
    return True


def carry_kept(out_dir: Path, staging: Path) -> None:
    """Copy the old site's `.git` into the new one. A copy, not a move: a build
    killed at any moment must leave the original where it was."""
    kept = out_dir / KEPT
    if kept.is_dir() and not kept.is_symlink():
        shutil.copytree(kept, staging / KEPT, symlinks=True)
    elif kept.exists() or kept.is_symlink():
        shutil.copy2(kept, staging / KEPT, follow_symlinks=False)
