"""The files a build puts into its new site: written new, linked from the
served site or a shard, or copied where a link cannot be made."""
from __future__ import annotations

import errno
import os
import shutil
import stat

from ..shards import ShardError

# Mode bits a file the build writes never has: execute, setuid, setgid, sticky.
NOT_A_PAGE_MODE = 0o7111


class ForeignFile(ShardError):
    """A shard's file that no build writes (a symbolic link, a FIFO, a device,
    a folder, or a file reached through a linked folder): the shard was
    altered, so the assemble stops and nothing is written."""



# O_EXCL: two pages never share a file. os.open rather than open(): Python's
# file object costs a fstat, an ioctl and a lseek a file, a sixth of writing it.
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC


def write_new(path: str, content: bytes) -> None:
    """`content` into a new file at `path` (mode 0o666 less the umask, as open() makes it)."""
    descriptor = os.open(path, _NEW_FILE, 0o666)
    try:
        view = memoryview(content)
        while view:
            view = view[os.write(descriptor, view):]
    finally:
        os.close(descriptor)


def same_file(a: str, b: str) -> bool:
    """The same regular file, with a mode the build writes."""
    try:
        first, second = os.lstat(a), os.lstat(b)
    except OSError:
        return False
    return (first.st_ino, first.st_dev) == (second.st_ino, second.st_dev) and stat.S_ISREG(first.st_mode) \
        and not first.st_mode & NOT_A_PAGE_MODE


def link_shard_file(source: str, target: str) -> None:
    """A shard's file into the site: a regular file only, and never with a
    mode the build does not write. It is linked (never through a symbolic
    link), then what was linked is looked at, so a file swapped meanwhile is
    caught too; one with an odd mode (execute bits) is copied instead, with
    the mode a written page gets. ForeignFile for anything else."""
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError as error:
        if error.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
            raise
        copy_regular(source, target)
        return
    info = os.lstat(target)
    if stat.S_ISREG(info.st_mode) and not info.st_mode & NOT_A_PAGE_MODE:
        return
    os.unlink(target)
    if not stat.S_ISREG(info.st_mode):
        raise ForeignFile(not_a_file(source, info.st_mode))
    copy_regular(source, target)


def copy_regular(source: str, target: str) -> None:
    """The bytes and mtime of `source`, a regular file (not followed if a
    link, not waited on if a FIFO), into a new file; ForeignFile otherwise."""
    try:
        descriptor = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as error:
        if error.errno == errno.ELOOP:  # O_NOFOLLOW met a symbolic link
            raise ForeignFile(not_a_file(source, stat.S_IFLNK)) from None
        raise
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode):
        os.close(descriptor)
        raise ForeignFile(not_a_file(source, info.st_mode))
    with open(descriptor, "rb") as file, open(target, "xb") as copy:
        shutil.copyfileobj(file, copy)
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))  # as linked: a sync uploads only what changed


def not_a_file(path: str, mode: int) -> str:
    kinds = {stat.S_IFLNK: "a symbolic link", stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a device",
             stat.S_IFBLK: "a device", stat.S_IFSOCK: "a socket", stat.S_IFDIR: "a folder"}
    return (f"{path}: {kinds.get(stat.S_IFMT(mode), 'not a regular file')}, not a file a build writes; "
            "a shard holds only what its build wrote, so this one was altered: nothing written")


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
