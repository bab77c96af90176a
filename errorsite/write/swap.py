"""Taking turns on a lock in the build's own folder, cleaning up after dead
builds, and the swap that puts a finished site in place."""
from __future__ import annotations

import ctypes
import ctypes.util
import fcntl
import os
import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

from ..cache import DIGESTS, OUTCOME_FILE, STATE, TWIN
from ..cache.folder import make_state_folder
from .guard import made_by_us
from .staging import STAGING_MARK, is_staging

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


@contextmanager
def build_lock(out_dir: Path, report: Callable[[str], None], state_dir: Path):
    """One build at a time per output folder. The lock file, in the output's
    own folder of the cache (never beside the output, where a user's file of
    that name would be), is removed when the build ends (the OS releases a
    killed build's lock), so a lock is only held on the file that is still at that path."""
    path = make_state_folder(state_dir) / "lock"
    waited = False
    while True:
        lock = open(path, "a+")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not waited:
                report(f"waiting for another build into {out_dir} to finish")
                waited = True
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if os.fstat(lock.fileno()).st_ino == os.stat(path).st_ino:
                break  # still the lock file: ours
        except FileNotFoundError:
            pass  # its holder removed it as we waited: take a fresh one
        lock.close()
    try:
        yield
    finally:
        path.unlink(missing_ok=True)
        lock.close()


def remove_leftovers(out_dir: Path, state_dir: Path) -> None:
    """What builds that died left beside the output, each only by its exact
    name and a mark of ours inside: a previous site caught mid-swap (put back
    first) and staging folders; what they left in the build's own folder:
    half-written state files and a first build's twin. A live build's are
    kept, and so is anything merely named like them. Also the spare that
    older versions kept beside the output (`.NAME.spare`), which a host serves."""
    for unfinished in unfinished_state(state_dir):
        if not alive(unfinished):
            unfinished.unlink(missing_ok=True)
    beside_spare = out_dir.with_name(f".{out_dir.name}.spare")
    if beside_spare.is_dir() and not beside_spare.is_symlink() and made_by_us(beside_spare):
        shutil.rmtree(beside_spare, ignore_errors=True)
    dead = [(kind, path) for kind, path in leftovers(out_dir) + dead_twins(state_dir) if not alive(path)]
    if not out_dir.exists():
        for kind, old in dead:
            if kind == "old" and made_by_us(old):
                os.rename(old, out_dir)
                break
    for kind, leftover in dead:
        if leftover.is_symlink():
            continue
        if leftover.is_dir() and (made_by_us(leftover) or (kind != "old" and is_staging(leftover))):
            shutil.rmtree(leftover, ignore_errors=True)
        elif kind != "old":
            _remove_if_bare(leftover)  # killed before it could mark the folder it had just made


def leftovers(out_dir: Path) -> list[tuple[str, Path]]:
    """(kind, path) of what lies beside the output under a name only a build gives:
    `.NAME.building-PID`, `.NAME.twin-PID`, `.NAME.old-PID`."""
    named = re.compile(rf"\.{re.escape(out_dir.name)}\.(building|twin|old)-[0-9]+")
    try:
        names = sorted(os.listdir(out_dir.parent))
    except OSError:
        return []
    return [(match.group(1), out_dir.with_name(name)) for name in names if (match := named.fullmatch(name))]


def dead_twins(state_dir: Path) -> list[tuple[str, Path]]:
    """`twin-PID` in the build's own folder: a first build's twin, begun (spare.twin_folder)."""
    try:
        names = sorted(os.listdir(state_dir))
    except OSError:
        return []
    return [("twin", state_dir / name) for name in names if re.fullmatch(rf"{TWIN}-[0-9]+", name)]


def unfinished_state(state_dir: Path) -> list[Path]:
    """`state-PID`, `outcomes-PID` and `digests-PID` in the build's own folder:
    files a build was writing when it was killed."""
    named = re.compile(rf"(?:{STATE}|{OUTCOME_FILE}|{DIGESTS})-[0-9]+")
    try:
        names = sorted(os.listdir(state_dir))
    except OSError:
        return []
    return [state_dir / name for name in names if named.fullmatch(name) and not (state_dir / name).is_symlink()]


def _remove_if_bare(folder: Path) -> None:
    """Remove a staging folder that holds nothing, or only its mark begun and not
    yet written; anything else in it is not known to be ours."""
    try:
        if os.listdir(folder) == [STAGING_MARK] and os.lstat(folder / STAGING_MARK).st_size == 0:
            os.unlink(folder / STAGING_MARK)
        os.rmdir(folder)
    except OSError:
        pass


def sweep_leftovers(out_dir: Path, state_dir: Path, report: Callable[[str], None] = print) -> None:
    """remove_leftovers, under the lock, for a build that writes no site (a no-op
    rebuild): what killed builds left still goes."""
    out_dir = out_dir.absolute()
    try:
        with build_lock(out_dir, report, state_dir):
            remove_leftovers(out_dir, state_dir)
    except OSError:
        pass  # a read-only parent: nothing to sweep that we could


def alive(leftover: Path) -> bool:
    """Whether the build that made `.NAME.building-PID` (or `.old-PID`) is still running."""
    try:
        pid = int(leftover.name.rsplit("-", 1)[1])
    except ValueError:
        return True  # not one of ours: leave it alone
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# --- the swap -------------------------------------------------------------------------

def swap_into_place(staging: Path, out_dir: Path) -> None:
    """Afterwards `out_dir` holds the new site and `staging` the old one (if any)."""
    if not out_dir.exists():
        os.rename(staging, out_dir)
        return
    if not _exchange(staging, out_dir):
        # No atomic exchange here: two renames, with a moment where out_dir is absent.
        old = out_dir.with_name(f".{out_dir.name}.old-{os.getpid()}")
        os.rename(out_dir, old)
        try:
            os.rename(staging, out_dir)
        except OSError:
            os.rename(old, out_dir)
            raise
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
