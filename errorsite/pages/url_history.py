"""The URL history a build starts from (`-/urls.json`, see redirects.py), read
as untrusted input: only what a build of this site could have written is
kept, under ceilings, and each entry that is not is dropped with a reason.

The history comes from the output folder or from `--previous-manifest`,
fetched from the site as deployed; either may have been edited, cut short or
made by hand. Every path it names becomes a page, so a path the site itself
could never make (`404.html/` and `-/feeds/new.xml/` are files of the site, a
segment of 300 bytes is no file name, a lone surrogate no text) would fail
the write of every later build. A history this tool wrote is read back
unchanged, so its digest is the one the build that wrote it kept.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from .. import urls
from ..validate import ID_RE, MAX_MESSAGE, MAX_PROBLEMS
from ..validate.formats import normalized_slug, repo_problems, slug_problems
from ..validate.wording import describe, short

FORMAT = 1
MAX_RECORDS = 1_000_000   # record ids: a history is about 170 bytes a record, and this many is already 170 MB
MAX_LISTS = 1_000_000     # listing paths
MAX_OLD = 32              # earlier paths of one record: each is a rename, and each a page
MAX_PATH = 2_000          # characters: a record's path is at most 39 + 100 + 255 bytes, a listing's less
PAGE_NUMBER = re.compile(r"[1-9][0-9]{0,8}")


class Known(NamedTuple):
    """One record id in the history."""

    path: str
    message: str
    old: tuple[str, ...]   # the paths it had before, never its current one
    removed: bool


class UrlHistory(NamedTuple):
    """What a history holds that the next build uses: every record id ever
    seen, and every listing path ever served."""
    known: dict[str, Known]
    lists: frozenset[str]


NO_HISTORY = UrlHistory({}, frozenset())


class Read(NamedTuple):
    """A history as read: what was kept, and why entries were dropped."""
    history: UrlHistory
    found: bool             # a history of this format was there (even if every entry was dropped)
    dropped: list[str]      # at most MAX_PROBLEMS reasons, `records.ID: why` or `lists[N]: why`
    more: int               # entries dropped beyond those


def read_history(data: object) -> Read:
    """The records and listing paths of a previous history that a build could
    have written; each other entry dropped, with why."""
    if data is None:
        return Read(NO_HISTORY, False, [], 0)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return Read(NO_HISTORY, False, [f"not a URL history of format {FORMAT}: ignored"], 0)
    reasons = Reasons()
    records = data.get("records", {})
    if not isinstance(records, dict):
        reasons.add(f"records: expected an object, got {describe(records)}")
        records = {}
    known: dict[str, Known] = {}
    for record_id, entry in records.items():
        if len(known) == MAX_RECORDS:
            reasons.add(f"records: over {MAX_RECORDS:,} ids: the rest dropped", len(records) - MAX_RECORDS)
            break
        kept = read_record(record_id, entry, reasons)
        if kept is not None:
            known[record_id] = kept
    lists = data.get("lists", [])
    if not isinstance(lists, list):
        reasons.add(f"lists: expected a list, got {describe(lists)}")
        lists = []
    paths = set()
    for index, path in enumerate(lists):
        if len(paths) == MAX_LISTS:
            reasons.add(f"lists: over {MAX_LISTS:,} paths: the rest dropped", len(lists) - index)
            break
        if listing_shape(path):
            paths.add(path)
        else:
            reasons.add(f"lists[{index}]: dropped: {describe(path)} is not a listing page's path")
    return Read(UrlHistory(dict(sorted(known.items())), frozenset(paths)), True, reasons.shown, reasons.more)


def read_record(record_id: object, entry: object, reasons: "Reasons") -> Known | None:
    """One record's entry, or None (and why, in `reasons`)."""
    if not (isinstance(record_id, str) and ID_RE.fullmatch(record_id)):
        reasons.add(f"records: dropped: {describe(record_id)} is not a record id")
        return None
    where = f"records.{record_id}"
    if not isinstance(entry, dict):
        reasons.add(f"{where}: dropped: expected an object, got {describe(entry)}")
        return None
    path, message, old = entry.get("path"), entry.get("message"), entry.get("old")
    if not record_shape(path):
        reasons.add(f"{where}: dropped: path {describe(path)} is not a record page's path")
        return None
    if not isinstance(message, str) or not isinstance(old, list):
        reasons.add(f"{where}: dropped: expected a message (a string) and old paths (a list)")
        return None
    if not is_text(message):
        reasons.add(f"{where}: dropped: message {short(message)} holds half a UTF-16 pair (a lone surrogate)")
        return None
    if len(message) > MAX_MESSAGE:  # no record's message is longer: the rest is not the site's text
        reasons.add(f"{where}: message cut to {MAX_MESSAGE:,} characters (it had {len(message):,})")
        message = message[:MAX_MESSAGE]
    paths = {p for p in old if record_shape(p)} - {path}
    if len(paths) + (path in old) < len(old):
        reasons.add(f"{where}: old: dropped {len(old) - len(paths) - (path in old)} that are not record "
                    f"pages' paths")
    if len(paths) > MAX_OLD:
        reasons.add(f"{where}: old: kept {MAX_OLD} of {len(paths)} paths")
    return Known(path, message, tuple(sorted(paths)[:MAX_OLD]), entry.get("removed") is True)


def record_shape(path: object) -> bool:
    """Whether `path` is one urls.record_path could give: `owner/name/slug/`,
    lower-case, each part valid as the record's validation holds it."""
    if not isinstance(path, str) or len(path) > MAX_PATH or path.count("/") != 3 or not path.endswith("/") \
            or not is_text(path):
        return False
    owner, name, slug, _ = path.split("/")
    return (not repo_problems(f"{owner}/{name}") and f"{owner}/{name}" == f"{owner}/{name}".lower()
            and slug_problems(slug) is None and normalized_slug(slug) == slug)


def listing_shape(path: object) -> bool:
    """Whether `path` is shaped as a listing page the site makes: the home
    page, a page of its own under `-/` (`-/tags/`, `-/tags/json/`, `-/search/`),
    a repository's listing (`owner/name/`) or its codes (`-/code/-/in/owner/name/`),
    any of them past its first page
    (`…/-/page/2/`). Each segment under `-/` is one urls.url_segment makes,
    so it holds no dot: every file the site writes does (`404.html`,
    `new.xml`, `index.html`), and no listing takes a file's place."""
    if not isinstance(path, str) or len(path) > MAX_PATH or not is_text(path) \
            or not (path == urls.HOME_PATH or path.endswith("/")):
        return False
    if path == urls.HOME_PATH:
        return True
    base, number = re.fullmatch(r"(.*?)(?:-/page/([^/]*)/)?", path).groups()
    if number is not None and not (PAGE_NUMBER.fullmatch(number) and number != "1"):
        return False
    parts = base.split("/")[:-1]
    if parts[:4] == ["-", "code", "-", "in"]:  # urls.code_repo_path
        return len(parts) == 6 and record_shape("/".join(parts[4:]) + "/x/")
    if parts[:1] == ["-"]:  # `-/go/code/<code>/` is the one four deep
        deepest = 4 if base.startswith(urls.GO_CODE_PATH) and number is None else 3
        return 2 <= len(parts) <= deepest and all(part and urls.url_segment(part) == part for part in parts[1:])
    return len(parts) == 2 and record_shape(f"{base}x/")  # a repository's: `owner/name/`


def is_text(text: str) -> bool:
    """Whether `text` can be written as UTF-8: no half of a UTF-16 pair."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Reasons:
    """The first MAX_PROBLEMS reasons, and a count of the rest."""

    def __init__(self) -> None:
        self.shown: list[str] = []
        self.more = 0

    def add(self, reason: str, count: int = 1) -> None:
        if len(self.shown) < MAX_PROBLEMS:
            self.shown.append(reason)
            count -= 1
        self.more += count


def manifest(known: dict[str, Known], lists: set[str] | frozenset[str]) -> dict:
    """The URL history as `-/urls.json` holds it."""
    return {"format": FORMAT, "lists": sorted(lists),
            "records": {i: {"path": k.path, "message": k.message, "old": list(k.old), "removed": k.removed}
                        for i, k in known.items()}}
