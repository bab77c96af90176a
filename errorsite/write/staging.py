"""The new site's folder, filled page by page beside the served one."""
from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path

from ..cache import LISTING, MARKER
from ..model import Page, Reuse, inert_json_pieces
from ..urls import output_name
from .files import ForeignFile, link_or_copy, link_shard_file, same_bytes, same_file, write_new
from .guard import KEPT

# In a staging folder from its first moment until just before the swap: "a
# build's unfinished site, removable once that build is dead". It holds the
# folder's own name, so a folder copied or renamed by hand is never taken for one.
STAGING_MARK = ".errorsite-staging"
def mark_staging(staging: Path) -> None:
    (staging / STAGING_MARK).unlink(missing_ok=True)
    with open(staging / STAGING_MARK, "xb") as file:
        file.write(os.fsencode(staging.name))


def unmark_staging(staging: Path) -> None:
    """Just before the swap: the site holds only its pages and the marker by then,
    so a build killed at any moment leaves a folder with one mark or the other."""
    (staging / STAGING_MARK).unlink()


def is_staging(folder: Path) -> bool:
    """Whether `folder` is a build's staging folder, by the mark inside it."""
    try:
        with open(folder / STAGING_MARK, "rb") as file:
            return file.read(4096) == os.fsencode(folder.name)
    except OSError:
        return False


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
                 listing: tuple[dict[str, int], set[str]] | None = None, twin: Path | None = None):
        self.root, self.current = str(root), str(current)
        # A second, empty folder that gets a hard link to each file as it is
        # put, and each folder: the new site's twin, which becomes the next
        # build's spare where the swap leaves none (a first build).
        assert twin is None or not from_spare
        self.twin = None if twin is None else str(twin)
        # page path → its file's inode, the twin's listing: the paths are the pages' own strings,
        # where output names would be new ones, a few a record, held through the build's peak.
        self.twin_inodes: dict[str, int] = {}
        self.first_build = not os.path.isdir(self.current)  # nothing to compare a page with
        # The spare's files, as its listing tells them (spare_listing), or else
        # as a walk finds them: the listing spares a walk of every folder of
        # the site, which grows with the records.
        self.stale, self.folders = (listing or existing_tree(self.root)) if from_spare else ({}, {""})
        # Whether a spare's file is the served one is told by their inodes, as the
        # walk of the spare and the marker's check of the served files found them:
        # no system call per file. Both folders are siblings, so on one device.
        same_device = from_spare and not self.first_build and os.stat(self.root).st_dev == os.stat(self.current).st_dev
        self.served_inodes = (served_inodes or {}) if same_device else {}
        self.used = {""}  # folders that hold a page, and their parents
        self.shard_folders: set[tuple[str, str]] = set()  # (shard, folder) found to be real folders
        self.count = 0

    def put(self, page: Page | Reuse) -> None:
        # Plain string joins: this runs for every file of the site.
        name = output_name(page.path)
        if not name.islower() and self.taken_as_lower(name):
            return
        folder = name.rpartition("/")[0]
        if folder not in self.used:
            self.make_folder(folder)
        if type(page) is Reuse and page.origin is None:  # most files of a rebuild: one test each
            spare_inode = self.stale.get(name)
            if spare_inode is not None and spare_inode == self.served_inodes.get(name):
                del self.stale[name]  # the spare's file is the served one, linked: already in place
                self.count += 1
                return
        target = f"{self.root}/{name}"
        reused = isinstance(page, Reuse)
        served = not (reused and page.origin)  # else a shard's file
        previous = f"{self.current if served else page.origin}/{name}"
        unchanged = reused or (not self.first_build and same_bytes(previous, page.content))
        if not served:
            self.check_shard_folders(page.origin, folder)
        if name in self.folders:  # a folder in the spare, a file now
            self.remove_folder(name)
        if name in self.stale:
            spare_inode = self.stale.pop(name)
            if unchanged and self.in_place(name if served else None, previous, target, spare_inode):
                self.count += 1
                return
            os.unlink(target)
        if not served:
            link_shard_file(previous, target)
        elif unchanged:
            # The previous build's file, linked: its bytes and mtime stay, so a
            # sync (rsync, aws s3 sync) uploads only what changed.
            link_or_copy(previous, target)
        else:
            write_new(target, page.content)
        if self.twin is not None:
            self.link_twin(target, name, page.path)
        self.count += 1

    def taken_as_lower(self, name: str) -> bool:
        """Whether `name` is, on this file system, the file its lower-case
        spelling names (a case-insensitive one: macOS's, Windows'), which a page
        put earlier holds: a second spelling of a page (links.code_alias_pages)
        would replace it, where the host serves it at either spelling anyway."""
        lower = name.lower()
        if lower == name:
            return False
        try:
            return os.path.samefile(f"{self.root}/{name}", f"{self.root}/{lower}")
        except OSError:  # no such file yet: the file system tells the spellings apart
            return False

    def link_twin(self, target: str, name: str, path: str) -> None:
        try:
            os.link(target, f"{self.twin}/{name}")
        except OSError as error:
            if error.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP):
                raise
            self.twin = None  # a file system without hard links: no twin, and the next build starts from nothing
            return
        self.twin_inodes[path] = os.lstat(target).st_ino

    def in_place(self, served_name: str | None, previous: str, target: str, spare_inode: int) -> bool:
        """The spare's file is already the previous one (a hard link to it);
        `served_name` when that one is the served site's."""
        served = self.served_inodes.get(served_name) if served_name is not None else None
        return served == spare_inode if served is not None else same_file(previous, target)

    def check_shard_folders(self, origin: str, folder: str) -> None:
        """Each folder between a shard's root and its file is a folder of the
        shard, not a link to one elsewhere; each is looked at once."""
        while (origin, folder) not in self.shard_folders and folder:
            path = f"{origin}/{folder}"
            try:
                if not stat.S_ISDIR(os.lstat(path).st_mode):
                    raise ForeignFile(f"{path}: not a folder (a symbolic link?); a shard holds only what its build "
                                      "wrote, so this one was altered: nothing written")
            except FileNotFoundError:
                return  # linking the file says it is missing
            self.shard_folders.add((origin, folder))
            folder = folder.rpartition("/")[0]

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
                if self.twin is not None:
                    os.mkdir(os.path.join(self.twin, prefix))
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
    ("" for itself), but the build's own files and the kept `.git`, which the build replaces whole."""
    files, folders = {}, {""}
    pending = [("", root)]
    while pending:
        relative, folder = pending.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                name = f"{relative}/{entry.name}" if relative else entry.name
                if not relative and entry.name in (MARKER, LISTING, STAGING_MARK, KEPT):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    folders.add(name)
                    pending.append((name, entry.path))
                else:
                    files[name] = entry.inode()  # from the directory listing: no system call
    return files, folders
