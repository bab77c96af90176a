"""The files the generator supplies or an earlier build wrote: the static
assets, a shard's outcomes, the URL history."""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Iterator

from .files import read_at_most

# A history is about 170 bytes a record: this is over a million records' worth,
# and json.loads makes several times its size of objects.
MAX_HISTORY_BYTES = 256 * 2**20


def load_static(static_dir: Path) -> dict[str, bytes]:
    """The site's own assets (CSS, JS, vendored lunr.js), by path below static/."""
    return {path.relative_to(static_dir).as_posix(): path.read_bytes()
            for path in sorted(static_dir.rglob("*")) if path.is_file()}


def load_json(path: Path) -> object:
    """A file the build itself wrote (a shard's outcomes), parsed; OSError or ValueError if unreadable."""
    return json.loads(path.read_text(encoding="utf-8"))


def read_lines(path: Path) -> Iterator[bytes]:
    """A file the build wrote one JSON value a line (a shard's entries), a line at a
    time, so that a large one is never held whole; OSError if unreadable."""
    with path.open("rb") as file:
        yield from file


def load_url_manifest(path: Path) -> tuple[object, str | None]:
    """The previous build's URL manifest (see pages/redirects.py) as JSON, or None
    and why it was not read; (None, None) when there is none. History is
    best effort: only a regular file of at most MAX_HISTORY_BYTES is read,
    and no file stops a build."""
    raw, unread = read_url_manifest(path)
    return (None, unread) if raw is None else parse_url_manifest(raw)


def read_url_manifest(path: Path) -> tuple[bytes | None, str | None]:
    """The bytes of the URL manifest at `path`, as load_url_manifest reads
    them, or None and why not."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, None
    except OSError as error:
        return None, f"cannot read: {error.strerror or error}: ignored"
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):  # a FIFO would wait for ever, a device never end
            return None, "not a regular file: ignored"
        if info.st_size > MAX_HISTORY_BYTES:
            return None, f"{info.st_size / 2**20:,.0f} MiB, over the {MAX_HISTORY_BYTES // 2**20} MiB limit: ignored"
        raw = read_at_most(descriptor, info.st_size, MAX_HISTORY_BYTES + 1)
    except OSError as error:
        return None, f"cannot read: {error.strerror or error}: ignored"
    finally:
        os.close(descriptor)
    if len(raw) > MAX_HISTORY_BYTES:
        return None, f"grew over the {MAX_HISTORY_BYTES // 2**20} MiB limit while being read: ignored"
    return raw, None


def parse_url_manifest(raw: bytes) -> tuple[object, str | None]:
    """A URL manifest's bytes as JSON, or None and why not."""
    try:
        return json.loads(raw.decode("utf-8")), None
    except UnicodeDecodeError as error:
        return None, f"not valid UTF-8 (byte {error.start}): ignored"
    except RecursionError:  # json's parser stops at about a thousand levels; a history has four
        return None, "invalid JSON: nested too deeply: ignored"
    except ValueError as error:
        return None, f"invalid JSON: {error}: ignored"
