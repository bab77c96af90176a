"""The files the generator supplies or an earlier build wrote: the static
assets, a shard's outcomes, the URL history."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator


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


def load_url_manifest(path: Path) -> object:
    """The previous build's URL manifest (see redirects.py) as JSON, or None
    when there is none or it cannot be read: history is best effort."""
    try:
        return load_json(path)
    except (OSError, ValueError):
        return None
