"""Step 5, write: pages → files, all or nothing, and never over what we did not make.

Pages go into a fresh folder beside the output; only when every file is
written does that folder take the output's place, in one atomic exchange where
the OS offers it. A build that fails or is killed leaves the old site as it was.

This module alone decides what may be replaced or deleted. It replaces an
output folder only when the folder is absent, empty, or holds the marker a
previous build wrote; anything else needs `force`, and even then never the
filesystem root, the home folder, the current folder, the project's own
folders, or a parent of any of them. A `.git` inside the output (a `gh-pages`
worktree) is carried into the new site. Builds into one output take turns on a
lock beside it, and only the leftovers of dead builds are cleaned up.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import errno
import fcntl
import itertools
import json
import os
import re
import shutil
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple

from . import __version__
from .model import Page, Reuse, inert_json_pieces
from .urls import output_name

MARKER = ".errorsite.json"  # written into every site: "this folder is ours to replace"
OUTCOMES = ".errorsite-outcomes.json"  # beside it: each record file's outcome, read only by a rebuild that renders
LISTING = ".errorsite-spare.json"  # in the spare only: its files and their inodes, so a rebuild need not walk it
KEPT = ".git"               # carried from the old site into the new one, never deleted
SPARE = "spare"             # .NAME.spare beside the output: the site before, the next build's start
DIGESTS = "digests"         # .NAME.digests beside the output: the record files' stats and digests
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_COUNT_LIMIT = 100_000      # stop counting a foreign folder's files here


class OutputRefused(Exception):
    """The output folder may not be replaced; the message is the one line to show."""


class WriteFailed(Exception):
    """Writing failed part-way (disk full, read-only…); the previous site is intact."""


def write_site(out_dir: Path, pages: Iterable[Page | Reuse], force: bool = False,
               protected: Iterable[tuple[Path, str]] = (), report: Callable[[str], None] = print,
               manifest: Callable[[], dict] = dict, served_inodes: dict[str, int] | None = None,
               served: ServedFiles | None = None) -> int:
    """Write every page under a new `out_dir`; returns the number of files.
    `manifest()`, called once every page is written, goes into the marker
    for the next build to read (see previous_manifest), which also gave
    `served_inodes` and `served`."""
    out_dir = out_dir.absolute()
    protected = list(protected)
    check_output(out_dir, force, protected)
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        with build_lock(out_dir, report):
            check_output(out_dir, force, protected)  # again: it may have changed while we waited
            remove_leftovers(out_dir)
            return write_and_swap(out_dir, pages, manifest, served_inodes or {}, served)
    except OSError as error:
        raise WriteFailed(f"cannot write {out_dir}: {error.strerror or error}"
                          f"{f' ({error.filename})' if error.filename else ''}; "
                          "the previous site is unchanged") from error


def write_and_swap(out_dir: Path, pages: Iterable[Page | Reuse], manifest: Callable[[], dict],
                   served_inodes: dict[str, int], served: ServedFiles | None = None) -> int:
    staging = out_dir.with_name(f".{out_dir.name}.building-{os.getpid()}")
    spare = out_dir.with_name(f".{out_dir.name}.{SPARE}")
    swapped = False
    try:
        from_spare = take_spare(spare, staging)
        tree = Staging(staging, out_dir, from_spare, served_inodes, spare_listing(staging) if from_spare else None)
        for page in pages:
            tree.put(page)
        tree.remove_stale()
        state = manifest()
        # Apart from the marker, so that a rebuild with nothing to render (and
        # made_by_us) never parses them: at 100k records, 85 of the 120 MB.
        outcomes = state.pop("outcomes", None)
        files = tree.count + 1 + (outcomes is not None)
        if outcomes is not None:
            write_own_file(staging / OUTCOMES, outcomes)
        else:
            (staging / OUTCOMES).unlink(missing_ok=True)  # the spare's
        write_own_file(staging / MARKER, {**state, "generator": "errorsite", "version": __version__, "files": files})
        carry_kept(out_dir, staging)
        swap_into_place(staging, out_dir)
        swapped = True
    finally:
        keep_as_spare(staging, spare)  # the old site after the swap, or this build's unfinished folder
        shutil.rmtree(staging, ignore_errors=True)  # what is not kept
    if swapped and served is not None:
        describe_spare(spare, served)
    return files


def write_own_file(path: Path, value: dict) -> None:
    """The marker or the outcomes, as sorted inert JSON. The spare's copy is
    unlinked first: the staging folder is ours until it is replaced, and its
    files may be links to the served site's."""
    path.unlink(missing_ok=True)
    with open(path, "xb") as file:
        file.writelines(inert_json_pieces(value))
        file.write(b"\n")


class Staging:
    """The new site's folder, filled page by page. It starts empty, or as the
    spare: the site before the current one, whose files are mostly hard links
    to the current site's. There a file whose bytes did not change is already
    in place (the same inode as the current site's), and only what changed is
    unlinked and written again; files no page claims are removed at the end.
    An existing file is never written into: it may be a link to a served file."""

    def __init__(self, root: Path, current: Path, from_spare: bool, served_inodes: dict[str, int] | None = None,
                 listing: tuple[dict[str, int], set[str]] | None = None):
        self.root, self.current = str(root), str(current)
        self.first_build = not os.path.isdir(self.current)  # nothing to compare a page with
        # The spare's files, as its listing tells them (spare_listing), or else
        # as a walk finds them: at 100k records a walk of 226,000 folders, 3 s
        # when they are cached and 40 s when they are not.
        self.stale, self.folders = (listing or existing_tree(self.root)) if from_spare else ({}, {""})
        # Whether a spare's file is the served one is told by their inodes, as the
        # walk of the spare and the marker's check of the served files found them:
        # no system call per file. Both folders are siblings, so on one device.
        same_device = from_spare and not self.first_build and os.stat(self.root).st_dev == os.stat(self.current).st_dev
        self.served_inodes = (served_inodes or {}) if same_device else {}
        self.used = {""}  # folders that hold a page, and their parents
        self.count = 0

    def put(self, page: Page | Reuse) -> None:
        # Plain string joins: this runs for every file of the site (439,022 at 100k records).
        name = output_name(page.path)
        folder = name.rpartition("/")[0]
        if folder not in self.used:
            self.make_folder(folder)
        target = f"{self.root}/{name}"
        reused = isinstance(page, Reuse)
        served = not (reused and page.origin)  # else a shard's file
        previous = f"{self.current if served else page.origin}/{name}"
        unchanged = reused or (not self.first_build and same_bytes(previous, page.content))
        if name in self.folders:  # a folder in the spare, a file now
            self.remove_folder(name)
        if name in self.stale:
            spare_inode = self.stale.pop(name)
            if unchanged and self.in_place(page.path if served else None, previous, target, spare_inode):
                self.count += 1
                return
            os.unlink(target)
        if unchanged:
            # The previous build's file, linked: its bytes and mtime stay, so a
            # sync (rsync, aws s3 sync) uploads only what changed.
            link_or_copy(previous, target)
        else:
            with open(target, "xb") as file:  # "x": two pages never share a file
                file.write(page.content)
        self.count += 1

    def in_place(self, served_path: str | None, previous: str, target: str, spare_inode: int) -> bool:
        """The spare's file is already the previous one (a hard link to it);
        `served_path` when that one is the served site's."""
        served = self.served_inodes.get(served_path) if served_path is not None else None
        return served == spare_inode if served is not None else same_file(previous, target)

    def make_folder(self, folder: str) -> None:
        """The folder and its parents, those not yet used from the top down."""
        new = []
        while folder not in self.used:
            new.append(folder)
            folder = folder.rpartition("/")[0]
        for prefix in reversed(new):
            if prefix in self.stale:  # a file in the spare, a folder now
                os.unlink(os.path.join(self.root, prefix))
                del self.stale[prefix]
            if prefix not in self.folders:
                os.mkdir(os.path.join(self.root, prefix))
                self.folders.add(prefix)
            self.used.add(prefix)

    def remove_folder(self, folder: str) -> None:
        shutil.rmtree(os.path.join(self.root, folder))
        inside = folder + "/"
        self.stale = {name: inode for name, inode in self.stale.items() if not name.startswith(inside)}
        self.folders = {name for name in self.folders if name != folder and not name.startswith(inside)}

    def remove_stale(self) -> None:
        """The spare's files and folders the new site does not have."""
        for name in self.stale:
            os.unlink(os.path.join(self.root, name))
        for folder in sorted(self.folders - self.used, key=lambda name: -name.count("/")):
            os.rmdir(os.path.join(self.root, folder))  # deepest first, so each is empty by now
        self.stale = {}


def existing_tree(root: str) -> tuple[dict[str, int], set[str]]:
    """The files (with their inodes) and folders under `root`, relative to it
    ("" for itself), but the marker, the outcomes and the kept `.git`, which the build replaces whole."""
    files, folders = {}, {""}
    pending = [("", root)]
    while pending:
        relative, folder = pending.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                name = f"{relative}/{entry.name}" if relative else entry.name
                if not relative and entry.name in (MARKER, OUTCOMES, LISTING, KEPT):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    folders.add(name)
                    pending.append((name, entry.path))
                else:
                    files[name] = entry.inode()  # from the directory listing: no system call
    return files, folders


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


class ServedFiles(NamedTuple):
    """Every file of the served site, as previous_manifest found them: the
    inode of each page's file by its path (the manifest's `inodes` itself, not
    a copy: 436,000 entries at 100k), and the served folder's own inode, which
    tells whether another build replaced the site since."""
    folder: int
    inodes: dict[str, int]


def describe_spare(spare: Path, served: ServedFiles) -> None:
    """Leave in the spare (the site this build replaced) the listing of its files,
    for the next build to start from without walking it (spare_listing). Only
    when the spare is that site, as the served folder was when its files were
    listed: no other build replaced it in between. Best effort."""
    try:
        if os.lstat(spare).st_ino != served.folder or not made_by_us(spare):
            return
        with open(spare / LISTING, "x", encoding="utf-8") as file:
            # Never served, so plain JSON; in slices, so never one 25 MB string
            # (nor json.dump's 400,000 pieces).
            file.write('{"pages":{')
            items = iter(served.inodes.items())
            for index, piece in enumerate(iter(lambda: dict(itertools.islice(items, _LISTED_AT_A_TIME)), {})):
                file.write(("," if index else "") + json.dumps(piece, separators=(",", ":"))[1:-1])
            file.write("}}")
    except OSError:
        (spare / LISTING).unlink(missing_ok=True)


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
            | {MARKER, OUTCOMES, KEPT}
        if any(name not in top for name in os.listdir(staging)):
            return None
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        path.unlink(missing_ok=True)
        return None
    return files, folders


def keep_as_spare(folder: Path, spare: Path) -> None:
    """Keep `folder` as the next build's start if it is one of ours: after the
    swap it holds the previous site (not kept if it was a foreign folder that
    --force replaced); after a failure, the spare this build began from.
    Whatever it holds, the next build trusts only which of its files are
    links to the current site's."""
    if (folder.is_dir() and not folder.is_symlink() and made_by_us(folder)
            and not spare.exists() and not spare.is_symlink()):
        os.rename(folder, spare)


def same_file(a: str, b: str) -> bool:
    try:
        first, second = os.lstat(a), os.lstat(b)
    except OSError:
        return False
    return (first.st_ino, first.st_dev) == (second.st_ino, second.st_dev) and stat.S_ISREG(first.st_mode)


def link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError as error:
        if error.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
            raise
        shutil.copy2(source, target)  # another file system (a shard elsewhere): copy, mtime kept


def same_bytes(path: str, content: bytes) -> bool:
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(content):
            return False
        with open(path, "rb") as file:
            return file.read() == content
    except OSError:
        return False


def previous_manifest(out_dir: Path) -> dict:
    """The manifest an earlier build left in `out_dir` ({} if none), with only
    the pages whose files are still there, (`inodes`) those files' inodes, and
    (`served`) the ServedFiles, or None unless every file of the site was found."""
    try:
        manifest = json.loads((out_dir / MARKER).read_text())
        folder = os.lstat(out_dir).st_ino  # before the files: see describe_spare
    except (OSError, ValueError):
        return {}
    if not isinstance(manifest, dict) or manifest.get("generator") != "errorsite":
        return {}
    pages = manifest.get("pages") if isinstance(manifest.get("pages"), dict) else {}
    shared = manifest.get("global")
    paths = shared.get("paths") if isinstance(shared, dict) else None
    # The inodes are for this build only: never written back.
    manifest["pages"], manifest["inodes"] = {}, {}
    for path, key in pages.items():
        inode = served_inode(out_dir, path)
        if inode is not None:
            manifest["pages"][path], manifest["inodes"][path] = key, inode
    found = [served_inode(out_dir, p) for p in paths] if isinstance(paths, list) else [None]
    if None in found:
        manifest["global"] = {}
    manifest["inodes"].update((path, inode) for path, inode in zip(paths if isinstance(paths, list) else (), found)
                              if inode is not None)
    # The served files are all listed when they count as many as the build that
    # wrote the site made: none of them missing, none listed twice.
    own = 1 + os.path.lexists(out_dir / OUTCOMES)
    complete = len(manifest["inodes"]) + own == manifest.get("files")
    manifest["served"] = ServedFiles(folder, manifest["inodes"]) if complete else None
    return manifest


def previous_outcomes(out_dir: Path) -> dict:
    """Each record file's outcome as the build that wrote `out_dir` left it ({} if none).
    Read only after previous_manifest found the folder's marker ours."""
    try:
        outcomes = json.loads((out_dir / OUTCOMES).read_text())
    except (OSError, ValueError):
        return {}
    return outcomes if isinstance(outcomes, dict) else {}


def served_inode(out_dir: Path, path: object) -> int | None:
    """The inode of the page's file, if it is a regular file (not a link to one): one system call."""
    try:
        info = os.lstat(f"{out_dir}/{output_name(path)}")
    except (ValueError, TypeError, AttributeError, OSError):
        return None
    return info.st_ino if stat.S_ISREG(info.st_mode) else None


def digests_file(out_dir: Path) -> Path:
    return out_dir.absolute().with_name(f".{out_dir.name}.{DIGESTS}")


def save_digests(out_dir: Path, records_folder: str, files: dict[str, list]) -> None:
    """Keep the record files' stats and digests (load.file_digests) beside the
    output for the next build. Not in the site: they are this machine's, and
    the site must be the same bytes wherever it is built. Best effort, atomic,
    and only over a file of ours."""
    path = digests_file(out_dir)
    temporary = path.with_name(f"{path.name}-{os.getpid()}")
    try:
        if path.is_symlink() or (path.exists() and not _is_digests_file(path)):
            return
        file = open(temporary, "xb")
    except OSError:
        return  # only a slower next build
    try:
        with file:
            file.writelines(inert_json_pieces({"generator": "errorsite", "records": records_folder, "stats": files}))
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)


def _is_digests_file(path: Path) -> bool:
    with open(path, "rb") as file:
        return file.read(32).startswith(_DIGESTS_HEAD)


_DIGESTS_HEAD = b'{"generator":"errorsite",'


# --- what may be replaced ------------------------------------------------------------

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


def carry_kept(out_dir: Path, staging: Path) -> None:
    """Copy the old site's `.git` into the new one. A copy, not a move: a build
    killed at any moment must leave the original where it was."""
    kept = out_dir / KEPT
    if kept.is_dir() and not kept.is_symlink():
        shutil.copytree(kept, staging / KEPT, symlinks=True)
    elif kept.exists() or kept.is_symlink():
        shutil.copy2(kept, staging / KEPT, follow_symlinks=False)


# --- taking turns, and cleaning up after dead builds ------------------------------------

@contextmanager
def build_lock(out_dir: Path, report: Callable[[str], None]):
    """One build at a time per output folder. The lock file beside it is
    removed when the build ends (the OS releases a killed build's lock), so a
    lock is only held on the file that is still at that path."""
    path = out_dir.with_name(f".{out_dir.name}.lock")
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


def remove_leftovers(out_dir: Path) -> None:
    """Staging folders of builds that died before they could clean up; a
    previous site caught mid-swap is put back first. A live build's are kept."""
    dead = [p for p in sorted(out_dir.parent.glob(f".{out_dir.name}.*-*"))
            if p.name.rsplit(".", 1)[-1].split("-")[0] in ("building", "old", DIGESTS) and not alive(p)]
    if not out_dir.exists():
        for old in (p for p in dead if ".old-" in p.name):
            os.rename(old, out_dir)
            dead.remove(old)
            break
    for leftover in dead:
        if f".{DIGESTS}-" in leftover.name:  # save_digests' unfinished file
            if leftover.is_file() and not leftover.is_symlink():
                leftover.unlink(missing_ok=True)
        else:
            shutil.rmtree(leftover, ignore_errors=True)


def sweep_leftovers(out_dir: Path, report: Callable[[str], None] = print) -> None:
    """remove_leftovers, under the lock, for a build that writes no site (a no-op
    rebuild): what killed builds left beside the output still goes."""
    out_dir = out_dir.absolute()
    try:
        with build_lock(out_dir, report):
            remove_leftovers(out_dir)
    except OSError:
        pass  # a read-only parent: nothing to sweep that we could


def alive(leftover: Path) -> bool:
    """Whether the build that made `.NAME.building-PID` is still running."""
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
