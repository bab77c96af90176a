"""Atom feeds (RFC 4287) of the newest records (by analyzedAt) and of the most
recently changed ones (by contentChangedAt), site-wide and per repository.

Made from summaries; every value is XML-escaped; an entry's id is its
permalink, so a renamed record stays the same entry in feed readers. A feed's
`updated` is its newest entry's date, never the build's time: the same records
make the same bytes.
"""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterator
from xml.sax.saxutils import escape as xml_escape, quoteattr

from .. import urls
from ..model import Page, Summary
from .api import by_repo
from .share import parse_date

FEED_SIZE = 50
EPOCH = "1970-01-01T00:00:00Z"
TITLES = {"new": "newest records", "changed": "recently changed records"}
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def escape(text: str) -> str:
    """XML-escaped, without the characters XML 1.0 forbids even as references."""
    return xml_escape(NOT_XML.sub("\ufffd", text))


def atom_date(value: str | None) -> str | None:
    """An ISO 8601 date (validated) as an RFC 3339 timestamp in UTC; None if unreadable."""
    moment = parse_date(value)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ") if moment else None


def dated(summaries: list[Summary], kind: str) -> list[tuple[str, Summary]]:
    """Every record with the kind's date, newest first."""
    attr = "analyzed_at" if kind == "new" else "content_changed_at"
    pairs = [(date, s) for s in summaries if (date := atom_date(getattr(s, attr)))]
    pairs.sort(key=lambda pair: (pair[0], urls.record_path(pair[1])), reverse=True)
    return pairs


def feed(site: urls.Site, site_name: str, kind: str, entries: list[tuple[str, Summary]],
         repo: str | None = None) -> Page:
    """The feed of `entries` (dated's, newest first, at most FEED_SIZE): the site's, or `repo`'s."""
    path = urls.feed_path(kind, repo)
    home = urls.repo_path(repo) if repo else urls.HOME_PATH
    title = f"{site_name}{f' · {repo}' if repo else ''}: {TITLES[kind]}"
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             '<feed xmlns="http://www.w3.org/2005/Atom">',
             f"  <title>{escape(title)}</title>",
             f"  <id>{escape(site.absolute(path))}</id>",
             f"  <link rel=\"self\" type=\"application/atom+xml\" href={quoteattr(site.absolute(path))}/>",
             f"  <link rel=\"alternate\" type=\"text/html\" href={quoteattr(site.absolute(home))}/>",
             f"  <updated>{entries[0][0] if entries else EPOCH}</updated>",
             f"  <author><name>{escape(site_name)}</name></author>",
             "  <generator>errorsite</generator>"]
    for date, s in entries:
        summary = " · ".join([s.repo, s.error_type, s.severity]) + (f" — {s.card}" if s.card else "")
        lines += ["  <entry>",
                  f"    <title>{escape(s.message)}</title>",
                  f"    <id>{escape(site.absolute(urls.permalink_path(s)))}</id>",
                  f"    <link rel=\"alternate\" type=\"text/html\" href={quoteattr(site.absolute(urls.record_path(s)))}/>",
                  f"    <updated>{date}</updated>",
                  f"    <author><name>{escape(s.repo)}</name></author>",
                  f"    <summary>{escape(summary)}</summary>",
                  "  </entry>"]
    lines.append("</feed>\n")
    return Page(path, "\n".join(lines).encode())


def feed_pages(site: urls.Site, site_name: str, summaries: list[Summary]) -> Iterator[Page]:
    """The site's feeds, then each repository's. The records are dated and
    ordered once a kind, and a repository's feed is its part of that order:
    the same order, as it is total, for half the dates parsed."""
    newest = {kind: dated(summaries, kind) for kind in urls.FEED_KINDS}
    for kind in urls.FEED_KINDS:
        yield feed(site, site_name, kind, newest[kind][:FEED_SIZE])
    by_repo_newest = {kind: defaultdict(list) for kind in urls.FEED_KINDS}
    for kind, pairs in newest.items():
        for pair in pairs:
            by_repo_newest[kind][urls.repo_path(pair[1].repo)].append(pair)
    for path, members in by_repo(summaries).items():
        for kind in urls.FEED_KINDS:
            yield feed(site, site_name, kind, by_repo_newest[kind][path][:FEED_SIZE], members[0].repo)
