"""The keys that say whether something the previous build made may be reused.

Rendering is a pure function of the record and of the render fingerprint
(the generator's code, templates, static files, library versions, settings
and base URL), so a page whose record and fingerprint are unchanged is the
previous build's page, byte for byte: that is what makes incremental builds
correct by construction.
"""
from __future__ import annotations

import hashlib
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__, urls
from ..model import Record, Summary, inert_json_pieces
from ..resources import TEMPLATES

if TYPE_CHECKING:  # an annotation only: the previous build's keys sit below the render step
    from ..pages.render import SiteOptions

PACKAGE = Path(__file__).resolve().parent.parent
LIBRARIES = ("jinja2", "markdown-it-py", "pygments", "lunr", "markupsafe", "pillow")


def render_fingerprint(site: urls.Site, options: SiteOptions, static_dir: Path) -> str:
    """Everything besides the record that a record page depends on."""
    digest = hashlib.sha256(f"{__version__}\0{site.base_url}\0{options!r}\0".encode())
    for name in LIBRARIES:
        try:
            digest.update(f"{name}={version(name)}\0".encode())
        except PackageNotFoundError:
            digest.update(f"{name}=?\0".encode())
    for folder in (PACKAGE, TEMPLATES, static_dir, *([options.templates] if options.templates else [])):
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def record_key(record: Record, fingerprint: str) -> str:
    """A record page's cache key: its validated record, and the fingerprint."""
    return hashlib.sha256(f"{fingerprint}\0{record!r}".encode()).hexdigest()[:32]


def summaries_key(fingerprint: str, summaries: list[Summary], extra: str = "") -> str:
    """A key for what depends on `fingerprint`, every summary (in order) and `extra`."""
    digest = hashlib.sha256(fingerprint.encode())
    for summary in summaries:
        digest.update(repr(summary).encode() + b"\0")
    digest.update(extra.encode())
    return digest.hexdigest()[:32]


def history_digest(previous_urls: object) -> str:
    """The URL history a build starts from (redirect pages depend on it): the
    digest of its bytes as `-/urls.json` holds them, hashed a piece at a time
    (a history is about 180 bytes a record, and one string of it several times that)."""
    digest = hashlib.sha256()
    for piece in inert_json_pieces(previous_urls):
        digest.update(piece)
    return digest.hexdigest()[:24]


def bytes_history_digest(written: bytes) -> str:
    """history_digest of the history a build wrote as these bytes (the
    served `-/urls.json` is inert_json_pieces of it, joined)."""
    return hashlib.sha256(written).hexdigest()[:24]


def file_key(relative: str) -> str:
    """A record file's key in the build's state: its path relative to the records
    folder, itself when it is valid Unicode, else its bytes in hex behind a NUL,
    which no file name holds. Never a printed form: two names that print alike
    (a newline, and a backslash and an n) are two files."""
    try:
        relative.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes, kept by the file system encoding's surrogateescape
        return "\0" + os.fsencode(relative).hex()
    return relative
