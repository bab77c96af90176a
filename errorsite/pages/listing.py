"""The listing machinery the browse pages (browse.py) and the code pages
(links.py) share: a record's list entry and item, pagination, grouping by
repository, tag, type and severity, and the listing and directory pages."""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, NamedTuple

import jinja2
from markupsafe import Markup

from .. import urls
from ..markup import shorten
from ..model import Page, Record
from ..text import isolate
from .render import Link, render
from .template_errors import template_code

SHOWN_LABELS = 5  # texts named on a page that several texts share ("Rust", "rust"); the rest are counted
LIST_MESSAGE = 160  # characters of a message in a list; its page shows it whole


class Entry(NamedTuple):
    message: str
    repo: str
    path: str
    repo_path: str
    error_type: str
    type_path: str
    fix: str = ""

    @property
    def short(self) -> str:
        return shorten(self.message, LIST_MESSAGE)


class Pagination(NamedTuple):
    number: int
    count: int
    previous: str | None
    next: str | None


def entry(r: Record) -> Entry:
    return Entry(r.message, r.repo, urls.record_path(r), urls.repo_path(r.repo),
                 r.error_type, urls.type_path(r.error_type), r.fix)


def paginate(listing: str, items: list, size: int = urls.PAGE_SIZE) -> Iterable[tuple[str, list, Pagination]]:
    count = max(1, -(-len(items) // size))
    for number in range(1, count + 1):
        chunk = items[(number - 1) * size: number * size]
        yield urls.page_path(listing, number), chunk, Pagination(
            number, count,
            urls.page_path(listing, number - 1) if number > 1 else None,
            urls.page_path(listing, number + 1) if number < count else None)


def packed(items: Iterable, weight: Callable[[object], int], most: int) -> list[list]:
    """The items in order, in as few runs as keep each run's weight within
    `most`; an item heavier than `most` has a run of its own. One run at least."""
    runs: list[list] = [[]]
    size = 0
    for item in items:
        heavy = weight(item)
        if runs[-1] and size + heavy > most:
            runs.append([])
            size = 0
        runs[-1].append(item)
        size += heavy
    return runs


def group(records: list[Record], keys_of: Callable[[Record], Iterable[str]],
          path_of: Callable[[str], str]) -> dict[str, tuple[list[str], list[Record]]]:
    """path → (labels, records). Labels that share a URL share a page, which
    names each of them as the records have it, in the order first met; a
    record is listed once however many of them it has."""
    groups: dict[str, tuple[dict[str, None], list[Record]]] = {}
    paths: dict[str, str] = {}  # label → path, worked out once a label
    for record in records:
        listed = set()
        for label in keys_of(record):
            path = paths.get(label)
            if path is None:  # first met
                path = paths[label] = path_of(label)
                groups.setdefault(path, ({}, []))[0][label] = None
            if path not in listed:
                listed.add(path)
                groups[path][1].append(record)
    return {path: (list(labels), members) for path, (labels, members) in sorted(groups.items())}


def shown_label(labels: list[str]) -> str:
    """The texts that share a page, each as a record has it, the first
    SHOWN_LABELS of them; never one text in place of another. Several are
    each isolated, so that one cannot reorder the others (one alone is
    isolated where it is shown, as any label)."""
    if len(labels) == 1:
        return labels[0]
    shown = " · ".join(isolate(label) for label in labels[:SHOWN_LABELS])
    return shown + (f" and {len(labels) - SHOWN_LABELS} more" if len(labels) > SHOWN_LABELS else "")


class ListItems:
    """Each record's list item (macros.html's record_item), rendered once and
    shown in every list the record is in: its type's, severity's and each of
    its tags' pages, and the home page's. Its repository's page shows it
    without the repository (`in_repo`), which the page names once. A list's
    order, by message and then path, is also worked out once for them all."""

    def __init__(self, env: jinja2.Environment, records: Iterable[Record] = ()):
        self.env = env
        with template_code(env):  # macros.html's top-level code runs here
            self.render_item = env.get_template("macros.html").module.record_item
        self.made: tuple[dict[str, Markup], dict[str, Markup]] = ({}, {})  # by record id; [in_repo]
        rank = {r.id: n for n, r in enumerate(sorted(records, key=lambda r: (r.message.casefold(),
                                                                              urls.record_path(r))))}
        self.rank = lambda r: rank[r.id]  # by id: hashing the whole record takes twice as long

    def in_order(self, records: list[Record]) -> list[Record]:
        """`records` (all of them among those given at the start) in a list's order."""
        return sorted(records, key=self.rank)

    def __call__(self, records: list[Record], in_repo: bool = False) -> Markup:
        """The records' items in their order, one run of markup for record_list:
        joined here, not in a template loop, which escapes each item again
        (every record is an item of several listings)."""
        made = self.made[in_repo]
        shown = []
        with template_code(self.env):  # a macro called from here, outside any render
            for r in records:
                item = made.get(r.id)
                if item is None:
                    item = made[r.id] = self.render_item(entry(r), in_repo)
                shown.append(item)
        # One join of the items themselves: formatting each into "\n{item}" first took 8 times as long.
        return Markup("\n" + "\n".join(shown)) if shown else Markup("")


def listing_pages(env, items: ListItems, listing: str, heading: str, intro: str, records: list[Record],
                  feed_repo: str | None = None, overview: list = ()) -> Iterator[Page]:
    """`feed_repo`: the repository whose feeds the pages name (a repository's
    listing), whose first page opens with its overview. A page at a time: a
    severity's listing can be most of the records."""
    ordered = items.in_order(records)
    feeds = {"feed_repo": feed_repo} if feed_repo else {}
    for path, chunk, pagination in paginate(listing, ordered, env.globals["page_size"]):
        yield render(env, "listing.html", path, heading=heading, intro=intro, items=items(chunk, bool(feed_repo)),
                     pagination=pagination, canonical=env.globals["site"].absolute(path),
                     overview=overview if pagination.number == 1 else [],
                     description=listing_description(heading, intro, chunk, pagination), **feeds)


def listing_description(heading: str, intro: str, records: list[Record], pagination: Pagination) -> str:
    """Unique per page: the heading, the page number and the first messages listed."""
    page = f" Page {pagination.number} of {pagination.count}." if pagination.count > 1 else ""
    first = "; ".join(shorten(r.message, 60) for r in records[:3])
    return shorten(f"{heading}: {intro}{page} {first}".rstrip(), 200)


def directory_pages(env, listing: str, heading: str, intro: str, items: list[Link]) -> Iterator[Page]:
    for path, chunk, pagination in paginate(listing, items, env.globals["page_size"]):
        yield render(env, "directory.html", path, heading=heading, intro=intro, items=chunk,
                     pagination=pagination, canonical=env.globals["site"].absolute(path))


def counted(groups: dict[str, tuple[list[str], list[Record]]]) -> list[Link]:
    return [Link(shown_label(labels), path, len(members)) for path, (labels, members) in groups.items()]


def groupings(records: list[Record]) -> tuple:
    """(groups, listing title, directory path, directory title) per kind of listing."""
    return (
        (group(records, lambda r: [r.repo], urls.repo_path), "Errors raised in {}", urls.REPOS_PATH, "Repositories"),
        (group(records, lambda r: r.tags, urls.tag_path), "Errors tagged “{}”", urls.TAGS_PATH, "Tags"),
        (group(records, lambda r: [r.error_type], urls.type_path), "{} errors", urls.TYPES_PATH, "Error types"),
        (group(records, lambda r: [r.severity], urls.severity_path), "Errors of severity {}", urls.SEVERITIES_PATH, "Severities"),
    )
