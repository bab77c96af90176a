"""Crawl a whole built site: every link and asset resolves, every #fragment
names an element, external links are http(s), and the sitemap lists exactly
the HTML pages.

The site is ../shared/records plus the repo's demo records/, built under the
sub-path /errors/ as on GitHub Pages. Files are checked on disk (no server):
a URL maps to a file as a static host would map it. A permalink's page
(`noindex`, meta refresh) must point its canonical link at its target.
"""
from __future__ import annotations

import re

import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlsplit
from xml.etree import ElementTree

import pytest

from tests.conftest import ROOT, SHARED_RECORDS, build_quietly, need_shared

pytestmark = pytest.mark.slow  # builds the example site and the real records, and crawls every page

BASE_URL = "http://127.0.0.1:8000/errors/"
BASE_PATH = "/errors/"
URL_ATTRS = {"href", "src", "action"}
ALLOWED_DATA_URLS = {"data:,"}  # the empty favicon, which stops a request for /favicon.ico


class Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls: list[tuple[str, str, str]] = []   # (tag, attribute, value)
        self.ids: list[str] = []
        self.noindex = False    # a permalink's redirect page: not for the sitemap
        self.refresh: str | None = None
        self.canonical: list[str] = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "link" and values.get("rel") == "canonical":
            self.canonical.append(values.get("href"))
        if tag == "meta" and values.get("name") == "robots" and "noindex" in (values.get("content") or ""):
            self.noindex = True
        if tag == "meta" and values.get("http-equiv") == "refresh":
            self.refresh = values["content"].split("url=", 1)[1]
        for name, value in attrs:
            if name in URL_ATTRS and value is not None:
                self.urls.append((tag, name, value))
            if name == "id" and value is not None:
                self.ids.append(value)

    handle_startendtag = handle_starttag


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    need_shared()
    tmp = tmp_path_factory.mktemp("crawl")
    records = tmp / "records"
    shutil.copytree(SHARED_RECORDS, records / "shared")
    demo = records / "demo"
    demo.mkdir()
    for path in sorted((ROOT / "records").glob("*.json")):
        if not (SHARED_RECORDS / path.name).exists():  # the same record in both would be a duplicate
            shutil.copy(path, demo / path.name)
    result, problems = build_quietly(records, tmp / "site", BASE_URL)
    assert problems == [] and result.written
    return tmp / "site"


@pytest.fixture(scope="module")
def parsed(site) -> dict[Path, Links]:
    pages = {}
    for path in sorted(site.rglob("*.html")):
        links = Links()
        links.feed(path.read_text(encoding="utf-8"))
        links.close()
        pages[path] = links
    return pages


def page_url(site: Path, file: Path) -> str:
    """The URL a static host serves `file` at (folders end with '/')."""
    relative = file.relative_to(site).as_posix()
    relative = relative.removesuffix("index.html")
    return BASE_URL + quote(relative)


def target_file(site: Path, path: str) -> Path | None:
    """URL path under /errors/ → the file a static host would send, or None."""
    assert path.startswith(BASE_PATH)
    relative = unquote(path[len(BASE_PATH):])
    target = site / relative if relative else site
    if target.is_dir():
        target = target / "index.html"
    return target if target.is_file() else None


def test_site_is_big_enough_to_mean_something(parsed):
    assert len(parsed) > 100


def test_ids_are_unique_on_every_page(site, parsed):
    for file, links in parsed.items():
        duplicates = {i for i in links.ids if links.ids.count(i) > 1}
        assert not duplicates, f"{file.relative_to(site)}: duplicate ids {sorted(duplicates)}"


def test_every_link_resolves(site, parsed):
    failures: list[str] = []
    checked = fragments = 0
    for file, links in parsed.items():
        here = page_url(site, file)
        where = file.relative_to(site).as_posix()
        for tag, attr, value in links.urls:
            if value in ALLOWED_DATA_URLS and tag == "link":
                continue
            absolute = urljoin(here, value)
            parts = urlsplit(absolute)
            if parts.scheme not in ("http", "https"):
                failures.append(f"{where}: <{tag} {attr}={value!r}>: not an http(s) link")
                continue
            if not absolute.startswith(BASE_URL.removesuffix("/")):
                if urlsplit(value).scheme == "":
                    failures.append(f"{where}: <{tag} {attr}={value!r}>: a site link that leaves {BASE_PATH}")
                continue  # external: its scheme is all we can check offline
            if value.startswith(("http:", "https:")) and tag == "a":
                failures.append(f"{where}: <a href={value!r}>: internal link written as an absolute URL")
            target = target_file(site, parts.path)
            checked += 1
            if target is None:
                failures.append(f"{where}: <{tag} {attr}={value!r}>: no file at {parts.path}")
                continue
            if parts.fragment and target.relative_to(site).as_posix() == "-/search/index.html" \
                    and re.match(r"(q|repo|owner|lang|type|severity)=", parts.fragment):
                continue  # the search page's fragment is its query and filters, no element's id
            if parts.fragment:
                fragments += 1
                ids = parsed[target].ids if target in parsed else []
                if unquote(parts.fragment) not in ids:
                    failures.append(f"{where}: <{tag} {attr}={value!r}>: no id {parts.fragment!r} "
                                    f"in {target.relative_to(site)}")
    assert not failures, "\n".join(failures[:50])
    assert checked > 1000 and fragments > 500  # "On this page" and the line links of every record page


def test_external_links_are_http_or_https(parsed):
    schemes = set()
    for links in parsed.values():
        for tag, attr, value in links.urls:
            parts = urlsplit(value)
            if parts.netloc and not value.startswith(BASE_URL):
                schemes.add(parts.scheme)
    assert schemes <= {"http", "https"}


def test_canonical_urls_are_absolute_and_point_to_the_page_itself(site, parsed):
    for file, links in parsed.items():
        if file.name == "404.html":
            continue
        canonical = links.canonical
        assert all(url.startswith(BASE_URL) for url in canonical), file
        if links.refresh:  # a redirect page: canonical is where it sends the reader
            assert canonical == [urljoin(page_url(site, file), links.refresh)], file
        else:
            assert canonical == [page_url(site, file)], file


def test_sitemap_lists_every_page_and_nothing_else(site, parsed):
    root = ElementTree.fromstring((site / "sitemap.xml").read_bytes())
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = [loc.text for loc in root.findall("s:url/s:loc", ns)]
    assert len(locs) == len(set(locs))
    pages = {page_url(site, path) for path in site.rglob("index.html") if not parsed[path].noindex}
    assert set(locs) == pages
    assert all(loc.startswith(BASE_URL) for loc in locs)
    assert f"{BASE_URL}404.html" not in locs


def test_robots_txt_names_the_sitemap(site):
    assert (site / "robots.txt").read_text().endswith(f"Sitemap: {BASE_URL}sitemap.xml\n")
