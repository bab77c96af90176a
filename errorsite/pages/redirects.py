"""Automatic redirects: no URL the site ever served stops working.

Each build publishes `-/urls.json`, the URL manifest: for every record id
ever seen, where it lives now (or last lived, if removed), its message and
every path it had before; and every listing path ever served. The next build
reads the previous manifest (from the output folder, or `--previous-manifest
FILE`), merges it with what it serves now, and for every old URL that is no
longer served writes:

- a redirect page to where the record lives now (slug or repository renamed);
- a "this record was removed" page (`noindex`, a search prefilled with its
  message) for a record no longer in the dataset;
- for a listing that went away, a redirect to the nearest page still served
  (a renamed repository's listing → the new repository's).

Every redirect page sends the reader on with static/redirect.js, which keeps
the URL's fragment and query (`#L84`, `#solutions`): a meta refresh, kept in
<noscript> for readers without JavaScript, would drop them.

History is carried forward, so a URL from ten builds ago still resolves. The
same moves go into `_redirects` (Netlify / Cloudflare Pages) as real 301s
(Cloudflare follows them before its files; Netlify serves the static page at
the old URL first, which lands on the same place). Permalinks are left out:
hosts cap the number of rules, and the permalink page works everywhere.
The previous manifest is untrusted input: url_history.py keeps only what a
build could have written, and a removed record's page shows the start of its
message, so no entry can fail a build or make pages of any size.
"""
from __future__ import annotations

from typing import Generator, NamedTuple
from urllib.parse import urlencode

import jinja2

from .. import urls
from ..cache.keys import bytes_history_digest, history_digest
from ..model import Page, Summary, inert_json_pieces
from .links import redirect_page
from .render import render
from .url_history import MAX_OLD, Known, UrlHistory, manifest

SHOWN_MESSAGE = 300  # characters of a removed record's message its pages show and search for


class Id(NamedTuple):
    id: str


def merge(previous: dict[str, Known], summaries: list[Summary]) -> dict[str, Known]:
    """The history after this build: every id ever seen, where it is now."""
    merged = dict(previous)
    for s in summaries:
        path, before = urls.record_path(s), previous.get(s.id)
        if before is None:  # a first build's every record: nothing to carry
            merged[s.id] = Known(path, s.message, (), False)
        elif before.path == path and not before.old and not before.removed and before.message == s.message:
            merged[s.id] = before  # most records of a rebuild: where they were, as they were
        else:
            old = set(before.old) | {before.path}
            merged[s.id] = Known(path, s.message, tuple(sorted(old - {path})[:MAX_OLD]), False)
    current = {s.id for s in summaries}
    for record_id, known in previous.items():
        if record_id not in current and not known.removed:
            merged[record_id] = known._replace(removed=True)
    return dict(sorted(merged.items()))


def history_key(known: dict[str, Known], old_lists: set[str], lists: set[str]) -> str:
    """All that redirect_pages takes from the URL history, as a digest for a
    cache key: the history merged with this build's records (`known`, from
    merge), and the listings gone since (`old_lists` the history's, `lists`
    this build's). Merging twice changes nothing, so a history that a build of
    these same records wrote gives the key of the history that build started
    from: a rebuild can reuse its pages even though the first build had none.
    Hashed in pieces: the history grows with the records, to megabytes of JSON."""
    return history_digest({"records": known, "lists gone": sorted(old_lists - lists)})


def served_lists(summaries: list[Summary], html_paths: list[str]) -> set[str]:
    """The listing pages among a build's HTML pages (home, search and code pages included)."""
    return {p for p in html_paths if p == urls.HOME_PATH or p.endswith("/")} - {urls.record_path(s) for s in summaries}


def nearest(path: str, served: set[str], renamed: dict[str, str]) -> str:
    """The closest page still served to a listing that went away."""
    for old, new in renamed.items():
        if path.startswith(old):
            path = new + path[len(old):]
            break
    while path and path not in served:
        path = path.rstrip("/").rpartition("/")[0] + "/" if "/" in path.rstrip("/") else urls.HOME_PATH
    return path


def repo_of(path: str) -> str:
    return "/".join(path.split("/")[:2]) + "/"


def redirect_pages(env: jinja2.Environment, summaries: list[Summary], html_paths: list[str],
                   previous: UrlHistory, unavailable: set[str] = frozenset(),
                   known: dict[str, Known] | None = None) -> Generator[Page, None, str]:
    """The manifest, the pages at every old URL, and `_redirects`; returns
    the digest of the URL history served (cache.keys.history_digest). A record
    not served now is "removed" only when no file claims its id: a file that
    is there but cannot be built (`unavailable`) makes it "temporarily unavailable".
    `known`: merge(previous.known, summaries), when the caller has it already."""
    site = env.globals["site"]
    known = merge(previous.known, summaries) if known is None else known
    old_lists = previous.lists
    by_id = {s.id: s for s in summaries}
    served = {p for p in html_paths if p == urls.HOME_PATH or p.endswith("/")}
    lists = served_lists(summaries, html_paths)
    served |= {urls.permalink_path(s) for s in summaries}
    taken, moves = set(served), []
    renamed: dict[str, set[str]] = {}
    for record_id, k in known.items():
        if record_id in by_id:
            for old in k.old:
                if old not in taken:
                    taken.add(old)
                    moves.append((old, k.path))
                    yield redirect_page(env, old, by_id[record_id], moved=True)
                if repo_of(old) != repo_of(k.path):
                    renamed.setdefault(repo_of(old), set()).add(repo_of(k.path))
            continue
        message = k.message[:SHOWN_MESSAGE]
        query = urlencode({"q": message})
        message += "…" if len(k.message) > SHOWN_MESSAGE else ""
        for path in (k.path, *k.old, urls.permalink_path(Id(record_id))):
            if path not in taken:
                taken.add(path)
                yield render(env, "unavailable.html" if record_id in unavailable else "removed.html", path,
                             message=message, query=query)
    unambiguous = {old: next(iter(new)) for old, new in sorted(renamed.items()) if len(new) == 1}
    for path in sorted(old_lists - taken):
        target = nearest(path, served, unambiguous)
        taken.add(path)
        moves.append((path, target))
        yield render(env, "moved.html", path, target=target, canonical=site.absolute(target))
    served_history = manifest(known, lists | old_lists)
    written = b"".join(inert_json_pieces(served_history))
    yield Page(urls.URLS_PATH, written)
    lines = [f"{site.href(old)} {site.href(new)} 301" for old, new in sorted(moves)]
    yield Page(urls.REDIRECTS_PATH, ("\n".join(lines) + "\n" if lines else "").encode())
    return bytes_history_digest(written)

