"""Step 3, render (continued): the pages people browse by — home, repository,
tag, error type and severity listings — plus sitemap, robots.txt, 404 and the
OpenSearch description."""
from __future__ import annotations

from typing import Callable, Iterable, Iterator

import jinja2

from .. import urls
from markupsafe import escape

from ..model import Page, Record
from ..text import isolate
from . import tag_index
from .api import by_code
from .listing import (ListItems, counted, directory_pages, group, groupings, listing_pages, paginate,
                      shown_label)
from .render import Link, render

__all__ = ["browse_pages", "counted", "group", "last_modified", "opensearch", "paginate", "robots", "sitemap"]

RECENT_COUNT = 20
SINGULAR = {"Repositories": "repository", "Tags": "tag", "Error types": "error type", "Severities": "severity"}
HOME_LIST = 12


OVERVIEW_TAGS = 8  # the most common tags a repository's page names


def repo_overview(records: list[Record]) -> list[tuple[str, list[Link]]]:
    """What a repository's page says before its list: its records' error
    types, severities and most common tags, each with its count, most first."""
    def counts(keys_of: Callable[[Record], Iterable[str]], path_of: Callable[[str], str], most: int | None = None):
        return top(counted(group(records, keys_of, path_of)), most or len(records))
    rows = [("Error types", counts(lambda r: [r.error_type], urls.type_path)),
            ("Severities", counts(lambda r: [r.severity], urls.severity_path)),
            ("Most common tags", counts(lambda r: r.tags, urls.tag_path, OVERVIEW_TAGS))]
    codes = len({urls.code_path(r.error_code) for r in records} - {None})
    if codes:
        rows.append(("Error codes", [Link(f"{codes} code{'s' if codes != 1 else ''}, in order", urls.code_repo_path(records[0].repo))]))
    return [(name, links) for name, links in rows if links]


def tag_index_pages(env, intro: str, links: list[Link]) -> Iterator[Page]:
    """`-/tags/` and its further pages (tag_index.py): the tags A–Z under
    their initials, a filter box, and links to every page by its range."""
    runs = tag_index.index_runs(links)
    pages = [(path, tag_index.run_label(run)) for (path, _, _), run in zip(paginate(urls.TAGS_PATH, runs, 1), runs)]
    for path, (run,), pagination in paginate(urls.TAGS_PATH, runs, 1):
        yield render(env, "tags.html", path, heading="Tags", intro=intro, initials=tag_index.by_initial(run),
                     pages=pages if len(pages) > 1 else [], pagination=pagination,
                     canonical=env.globals["site"].absolute(path))


def browse_pages(env: jinja2.Environment, records: list[Record], items: ListItems | None = None) -> Iterator[Page]:
    """One page at a time: the listings grow with the records, and the
    writer never holds them all at once. `items`: the records' list items,
    shared with the code pages."""
    site = env.globals["site"]
    kinds = groupings(records)
    items = items or ListItems(env, records)
    for groups, title, directory, directory_title in kinds:
        for path, (labels, members) in groups.items():
            intro = f"{len(members)} error record{'s' if len(members) != 1 else ''}."
            repo = labels[0] if directory == urls.REPOS_PATH else None
            yield from listing_pages(env, items, path, title.format(isolate(shown_label(labels))), intro, members,
                                     repo, repo_overview(members) if repo else [])
        noun = directory_title.lower() if len(groups) != 1 else SINGULAR[directory_title]
        if directory == urls.TAGS_PATH:
            yield from tag_index_pages(env, f"{len(groups)} {noun}, A–Z, each with its number of records.",
                                       counted(groups))
            continue
        by_count = sorted(counted(groups), key=lambda link: (-link.count, link.label.casefold(), link.path))
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
        recent=items(recent[:RECENT_COUNT]))
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
    for path in sorted(p for p in paths if (p.endswith("/") or p == "") and not p.startswith(urls.GO_PATH)):
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
