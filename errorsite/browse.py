"""Step 3, render (continued): the pages people browse by — home, repository,
tag, error type and severity listings — plus sitemap, robots.txt, 404 and the
OpenSearch description."""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, NamedTuple

import jinja2

from . import urls
from markupsafe import Markup, escape

from .api import by_code
from .model import Page, Record
from .markup import isolate, shorten
from .render import Link, render

RECENT_COUNT = 20
SHOWN_LABELS = 5  # texts named on a page that several texts share ("Rust", "rust"); the rest are counted
SINGULAR = {"Repositories": "repository", "Tags": "tag", "Error types": "error type", "Severities": "severity"}
HOME_LIST = 12


LIST_MESSAGE = 160  # characters of a message in a list; its page shows it whole


class Entry(NamedTuple):
    message: str
    repo: str
    path: str
    repo_path: str
    error_type: str
    type_path: str

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
                 r.error_type, urls.type_path(r.error_type))


def paginate(listing: str, items: list, size: int = urls.PAGE_SIZE) -> Iterable[tuple[str, list, Pagination]]:
    count = max(1, -(-len(items) // size))
    for number in range(1, count + 1):
        chunk = items[(number - 1) * size: number * size]
        yield urls.page_path(listing, number), chunk, Pagination(
            number, count,
            urls.page_path(listing, number - 1) if number > 1 else None,
            urls.page_path(listing, number + 1) if number < count else None)


def group(records: list[Record], keys_of: Callable[[Record], Iterable[str]],
          path_of: Callable[[str], str]) -> dict[str, tuple[list[str], list[Record]]]:
    """path → (labels, records). Labels that share a URL share a page, which
    names each of them as the records have it, in the order first met; a
    record is listed once however many of them it has."""
    groups: dict[str, tuple[dict[str, None], list[Record]]] = {}
    for record in records:
        listed = set()
        for label in keys_of(record):
            path = path_of(label)
            labels, members = groups.setdefault(path, ({}, []))
            labels.setdefault(label)
            if path not in listed:
                listed.add(path)
                members.append(record)
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
    shown in every list the record is in: its repository's, type's, severity's
    and each of its tags' pages, and the home page's."""

    def __init__(self, env: jinja2.Environment):
        self.render_item = env.get_template("macros.html").module.record_item
        self.made: dict[str, Markup] = {}

    def __call__(self, entries: list[Entry]) -> list[Markup]:
        made = self.made
        for e in entries:
            if e.path not in made:
                made[e.path] = self.render_item(e)
        return [made[e.path] for e in entries]


def listing_pages(env, items: ListItems, listing: str, heading: str, intro: str, records: list[Record],
                  feed_repo: str | None = None) -> Iterator[Page]:
    """`feed_repo`: the repository whose feeds the pages name (a repository's
    listing). A page at a time: a severity's listing can be most of the records."""
    entries = sorted((entry(r) for r in records), key=lambda e: (e.message.casefold(), e.path))
    feeds = {"feed_repo": feed_repo} if feed_repo else {}
    for path, chunk, pagination in paginate(listing, entries, env.globals["page_size"]):
        yield render(env, "listing.html", path, heading=heading, intro=intro, items=items(chunk),
                     pagination=pagination, canonical=env.globals["site"].absolute(path),
                     description=listing_description(heading, intro, chunk, pagination), **feeds)


def listing_description(heading: str, intro: str, entries: list[Entry], pagination: Pagination) -> str:
    """Unique per page: the heading, the page number and the first messages listed."""
    page = f" Page {pagination.number} of {pagination.count}." if pagination.count > 1 else ""
    first = "; ".join(shorten(e.message, 60) for e in entries[:3])
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


def browse_pages(env: jinja2.Environment, records: list[Record]) -> Iterator[Page]:
    """One page at a time: the listings grow with the records, and the
    writer never holds them all at once."""
    site = env.globals["site"]
    kinds = groupings(records)
    items = ListItems(env)
    for groups, title, directory, directory_title in kinds:
        for path, (labels, members) in groups.items():
            intro = f"{len(members)} error record{'s' if len(members) != 1 else ''}."
            yield from listing_pages(env, items, path, title.format(isolate(shown_label(labels))), intro, members,
                                     labels[0] if directory == urls.REPOS_PATH else None)
        by_count = sorted(counted(groups), key=lambda link: (-link.count, link.label.casefold(), link.path))
        noun = directory_title.lower() if len(groups) != 1 else SINGULAR[directory_title]
        yield from directory_pages(env, directory, directory_title,
                                   f"{len(groups)} {noun}, by number of records.", by_count)
    repos, tags, types, severities = (counted(kind[0]) for kind in kinds)
    codes = [Link(members[0].error_code, path, len(members)) for path, members in by_code(records).items()]
    recent = sorted(records, key=lambda r: (r.analyzed_at or "", urls.record_path(r)), reverse=True)
    yield render(
        env, "home.html", urls.HOME_PATH, canonical=site.absolute(urls.HOME_PATH),
        repos=top(repos, HOME_LIST), types=top(types, HOME_LIST), tags=top(tags, HOME_LIST),
        # A block of one value tells a visitor nothing: it is left out.
        severities=top(severities, HOME_LIST) if len(severities) > 1 else [],
        codes=top(codes, HOME_LIST), code_count=len(codes),
        repo_count=len(repos), tag_count=len(tags),
        recent=items([entry(r) for r in recent[:RECENT_COUNT]]))
    yield render(env, "search.html", urls.SEARCH_PATH, canonical=site.absolute(urls.SEARCH_PATH))
    yield render(env, "go.html", urls.GO_PATH, canonical=site.absolute(urls.GO_PATH))
    yield render(env, "404.html", "404.html")


def top(links: list[Link], count: int) -> list[Link]:
    return sorted(links, key=lambda link: (-link.count, link.label.casefold()))[:count]


# The sitemap protocol's limits for one file (sitemaps.org/protocol.html).
SITEMAP_URLS = 50_000
SITEMAP_BYTES = 50 * 1000 * 1000
_URLSET = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']


def sitemap(site: urls.Site, paths: list[str], lastmod: dict[str, str] | None = None,
            most_urls: int = SITEMAP_URLS, most_bytes: int = SITEMAP_BYTES) -> list[Page]:
    """Every HTML page but the 404 and /-/go/ (a redirector, noindex), as absolute URLs; a record page with the
    day its record last changed (`lastmod`: path → YYYY-MM-DD). One file while
    it holds, else a sitemap index at the same URL and its parts, each within
    the protocol's limits."""
    lastmod = lastmod or {}
    entries = []
    for path in sorted(p for p in paths if (p.endswith("/") or p == "") and p != urls.GO_PATH):
        day = f"<lastmod>{escape(lastmod[path])}</lastmod>" if path in lastmod else ""
        entries.append(f"  <url><loc>{escape(site.absolute(path))}</loc>{day}</url>")
    parts = split_within(entries, most_urls, most_bytes - 200)  # room for the urlset's own lines
    if len(parts) == 1:
        return [Page(urls.SITEMAP_PATH, "\n".join([*_URLSET, *parts[0], "</urlset>\n"]).encode())]
    pages = [Page(urls.sitemap_part_path(n), "\n".join([*_URLSET, *part, "</urlset>\n"]).encode())
             for n, part in enumerate(parts, 1)]
    index = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
             *(f"  <sitemap><loc>{escape(site.absolute(page.path))}</loc></sitemap>" for page in pages),
             "</sitemapindex>\n"]
    return [Page(urls.SITEMAP_PATH, "\n".join(index).encode()), *pages]


def split_within(lines: list[str], most_lines: int, most_bytes: int) -> list[list[str]]:
    """The lines in order, in as few runs as keep each within both limits (one run at least)."""
    runs, size = [[]], 0
    for line in lines:
        length = len(line.encode()) + 1
        if runs[-1] and (len(runs[-1]) == most_lines or size + length > most_bytes):
            runs.append([])
            size = 0
        runs[-1].append(line)
        size += length
    return runs


def robots(site: urls.Site) -> Page:
    return Page("robots.txt", f"User-agent: *\nAllow: /\nSitemap: {site.absolute(urls.SITEMAP_PATH)}\n".encode())


def opensearch(env: jinja2.Environment) -> Page:
    """Lets a browser add the site as a search engine: its keyword, then the
    pasted error, lands on the search page with `?q=`."""
    return render(env, "opensearch.xml", urls.OPENSEARCH_PATH,
                  short_name=env.globals["site_name"][:16])  # the format allows 16 characters


def last_modified(summaries) -> dict[str, str]:
    """Record path → the day of its record's latest date (analysed or content changed)."""
    days = {}
    for s in summaries:
        dates = [d[:10] for d in (s.analyzed_at, s.content_changed_at) if d]
        if dates:
            days[urls.record_path(s)] = max(dates)
    return days
