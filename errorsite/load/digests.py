"""The record files' digests, to tell which changed since the last build, and
the stats that let a rebuild trust a file unchanged without reading it."""
from __future__ import annotations

import os
from pathlib import Path

from .files import bytes_digest, read_record_bytes
from .scan import RecordFile


def file_digest(path: Path) -> str:
    """A short hash of a record file's bytes, to tell whether it changed since
    the last build; for a file load_file would not read, "unreadable: <why>",
    from its stat alone (as load_file's digest, for a file in the records folder)."""
    raw, refusal = read_record_bytes(path, None)
    return f"unreadable: {refusal}" if refusal is not None else bytes_digest(raw)


# A file changed this soon before its stat was taken may change again within the
# granularity of its timestamps (2 s on FAT, a clock tick on ext4) and keep them.
SETTLED_NS = 2_000_000_000


def file_digests(files: list[RecordFile], names: list[str], known: dict[str, list], now: int,
                 compared: dict) -> tuple[dict[str, str | None], dict[str, list[int]]]:
    """Each record file's digest (file_digest) by name, as far as the build
    needs it before rendering, and the stats of the files settled by `now`
    (time.time_ns() before the first stat), for trusted_stats. A file whose
    stat (size, mtime, ctime, inode, device) is the one `known` holds for it
    is not read again, as git trusts its index; nor is one that `compared`,
    the previous build's digests, does not name: no earlier outcome can stand
    for it, so it is rendered, and its digest (None here) is taken from the
    bytes its worker reads (Outcome.digest). Symbolic links are never trusted
    (what they point to may change), and one that points out of the records
    folder is digested as load_file refuses it, its target never read."""
    settled_before = now - SETTLED_NS
    digests, settled, roots = {}, {}, {}
    for file, name in zip(files, names):
        signature = None if file.is_link else _signature(f"{file.folder}/{file.relative}")  # not os.path.join: this runs once per record file
        entry = known.get(name)
        if signature is not None and isinstance(entry, list) and entry[:-1] == signature:
            digests[name] = entry[-1]
        else:
            digests[name] = None if name not in compared else \
                _link_digest(file, roots) if file.is_link else file_digest(file.path)
        if signature is not None and max(signature[1], signature[2]) < settled_before:
            settled[name] = signature
    return digests, settled


def _link_digest(file: RecordFile, roots: dict[Path, str]) -> str:
    root = roots.get(file.folder) or roots.setdefault(file.folder, os.path.realpath(file.folder))
    raw, refusal = read_record_bytes(file.path, Path(root))
    return f"unreadable: {refusal}" if refusal is not None else bytes_digest(raw)


def trusted_stats(settled: dict[str, list[int]], digests: dict[str, str | None]) -> dict[str, list]:
    """What the next build's file_digests may trust: each settled file's stat and digest."""
    return {name: [*signature, digests[name]] for name, signature in settled.items()
            if digests.get(name) is not None and not digests[name].startswith("unreadable")}


def _signature(path: str) -> list[int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]
