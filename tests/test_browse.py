"""pages/browse.py: listings, directories, pagination, home page, sitemap and robots.txt."""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from markupsafe import escape

from errorsite import urls
from errorsite.pages.browse import browse_pages, counted, group, paginate, robots, sitemap
from errorsite.model import Record
from errorsite.pages.render import Link, environment, summarize
from errorsite.validate import validate

GOOD = Path(__file__).parent / "fixtures" / "bad" / "good-dataclass-on-model.json"
SITE = urls.Site("https://example.org/errors/")


def make(i: int, **changes) -> Record:
    data = copy.deepcopy(json.loads(GOOD.read_text(encoding="utf-8")))
    data["record"].update(id=f"r{i:03d}", slug=f"error-{i:03d}", errorMessage=f"Error number {i:03d}",
                          messagePattern=None, tags=["x"])
    data["record"].update(changes)
    record = validate(f"r{i}.json", data)
    assert isinstance(record, Record), record
    return record


def pages_of(records: list[Record]) -> dict[str, str]:
    env = environment(SITE, len(records))
    pages = list(browse_pages(env, [summarize(r) for r in records]))  # as the pipeline passes them
    paths = [page.path for page in pages]
    assert len(paths) == len(set(paths)), "two pages share a path"
    return {page.path: page.content.decode("utf-8") for page in pages}


def record_links(html: str) -> list[str]:
    return re.findall(r'<li><a href="([^"]+)"><bdi>', html)  # macros.record_item


def rel_links(html: str) -> dict[str, str]:
    return dict(re.findall(r'<a rel="(prev|next)" href="([^"]+)">', html))


@pytest.fixture(scope="module")
def many() -> dict[str, str]:
    return pages_of([make(i) for i in range(250)])


# --- pagination -------------------------------------------------------------------

def test_250_records_make_three_pages(many):
    assert {p for p in many if p.startswith("-/tags/x/")} == {"-/tags/x/", "-/tags/x/-/page/2/", "-/tags/x/-/page/3/"}
    assert [len(record_links(many[p])) for p in ("-/tags/x/", "-/tags/x/-/page/2/", "-/tags/x/-/page/3/")] == [100, 100, 50]


def test_pages_are_in_order_and_share_nothing(many):
    links = [link for p in ("-/tags/x/", "-/tags/x/-/page/2/", "-/tags/x/-/page/3/") for link in record_links(many[p])]
    assert links == [f"/errors/pydantic/pydantic/error-{i:03d}/" for i in range(250)]


def test_prev_and_next_links(many):
    assert rel_links(many["-/tags/x/"]) == {"next": "/errors/-/tags/x/-/page/2/"}
    assert rel_links(many["-/tags/x/-/page/2/"]) == {"prev": "/errors/-/tags/x/", "next": "/errors/-/tags/x/-/page/3/"}
    assert rel_links(many["-/tags/x/-/page/3/"]) == {"prev": "/errors/-/tags/x/-/page/2/"}
    assert "Page 1 of 3" in many["-/tags/x/"] and "Page 3 of 3" in many["-/tags/x/-/page/3/"]


def test_page_titles_and_canonicals(many):
    assert "<title>Errors tagged “x” — Error Index</title>" in many["-/tags/x/"]
    assert "<title>Errors tagged “x” (page 2) — Error Index</title>" in many["-/tags/x/-/page/2/"]
    assert '<link rel="canonical" href="https://example.org/errors/-/tags/x/-/page/3/">' in many["-/tags/x/-/page/3/"]


def test_every_grouping_paginates(many):
    for listing in ("pydantic/pydantic/", "-/types/usage/", "-/severities/error/"):
        assert {listing, f"{listing}-/page/2/", f"{listing}-/page/3/"} <= set(many)
        assert f"{listing}-/page/4/" not in many
        assert "<p class=\"intro\">250 error records.</p>" in many[listing]


def test_a_short_listing_has_no_pager():
    pages = pages_of([make(i) for i in range(3)])
    assert "-/tags/x/-/page/2/" not in pages
    assert 'class="pager"' not in pages["-/tags/x/"]


def test_exactly_one_full_page_has_no_second_page():
    pages = pages_of([make(i) for i in range(100)])
    assert "-/tags/x/-/page/2/" not in pages and len(record_links(pages["-/tags/x/"])) == 100


def test_paginate_edges():
    assert [(path, len(chunk), p.previous, p.next) for path, chunk, p in paginate("t/", list(range(101)))] == [
        ("t/", 100, None, "t/-/page/2/"), ("t/-/page/2/", 1, "t/", None)]
    [(path, chunk, pagination)] = paginate("t/", [])
    assert (path, chunk, pagination.count) == ("t/", [], 1)


# --- home and directories ------------------------------------------------------------

def test_home_page_counts(many):
    assert '<p class="counts">250 records · 1 repository · 1 tag</p>' in many[""]
    # Only the home page counts records: a count on every page would change
    # every page whenever a record is added, and no rebuild could be incremental.
    assert "Error Index · <a" in many[""] and "250 error records" not in many[""]


def test_home_page_counts_plural():
    records = [make(0, tags=["a", "b"]), make(1, repo="spf13/cobra", tags=["b"])]
    home = pages_of(records)[""]
    assert '<p class="counts">2 records · 2 repositories · 2 tags</p>' in home


def test_home_page_leaves_out_a_block_of_one_value_and_links_the_error_codes():
    one_severity = pages_of([make(0), make(1, errorCode="E0001")])[""]
    assert 'id="severities"' not in one_severity  # every record is an "error": nothing to choose between
    assert '<a href="/errors/-/code/e0001/">E0001 <span class="count">1</span></a>' in one_severity
    assert '<a href="/errors/-/code/">All 2 error codes</a>' in one_severity
    two = pages_of([make(0), make(1, severity="warning")])[""]
    assert 'id="severities"' in two and "/errors/-/severities/warning/" in two
    for html in (one_severity, two):  # the footer links every directory, error codes among them
        assert '<a href="/errors/-/code/">Error codes</a>' in html


def test_home_page_lists_recent_records_newest_first():
    records = [make(i, analyzedAt=f"2026-01-{i + 1:02d}T00:00:00Z") for i in range(25)]
    links = record_links(pages_of(records)[""])
    assert links == [f"/errors/pydantic/pydantic/error-{i:03d}/" for i in range(24, 4, -1)]


def test_directories_sort_by_count_then_label():
    records = [make(0, repo="o/Rust"), make(1, repo="o/rust"), make(2, repo="o/beta"), make(3, repo="o/alpha"),
               make(4, repo="o/alpha")]
    pages = pages_of(records)
    items = re.findall(r'<li><a href="([^"]+)">([^<]+) <span class="count">(\d+)</span></a></li>', pages["-/repos/"])
    assert items == [("/errors/o/alpha/", "o/alpha", "2"), ("/errors/o/rust/", "o/Rust · o/rust", "2"),
                     ("/errors/o/beta/", "o/beta", "1")]
    tags = re.findall(r'<li><a href="([^"]+)">([^<]+) <span class="count">(\d+)</span></a></li>',
                      pages_of([make(0, tags=["Rust", "beta"]), make(1, tags=["rust", "alpha"])])["-/tags/"])
    assert tags == [("/errors/-/tags/alpha/", "alpha", "1"), ("/errors/-/tags/beta/", "beta", "1"),
                    ("/errors/-/tags/rust/", "Rust · rust", "2")]  # the tags' index is A–Z


def test_labels_sharing_a_url_share_a_page_that_names_each():
    records = [make(0, tags=["Rust"]), make(1, tags=["rust"]), make(2, tags=["Rust"])]
    groups = group(records, lambda r: r.tags, urls.tag_path)
    assert list(groups) == ["-/tags/rust/"]
    labels, members = groups["-/tags/rust/"]
    assert labels == ["Rust", "rust"] and [m.id for m in members] == ["r000", "r001", "r002"]


MARKUP_TAGS = ['"><svg onload=alert(1)>', "'><svg onload=alert(1)>"]  # one URL, svg-onload-alert-1


def test_tags_with_markup_are_shown_as_the_records_have_them_never_one_for_another():
    """Two records of a hostile kit whose tags differ only in markup shared a
    page, which named the first tag for both: the second was shown rewritten."""
    pages = pages_of([make(0, tags=[MARKUP_TAGS[0], "x"]), make(1, tags=[MARKUP_TAGS[1]])])
    escaped = [str(escape(tag)) for tag in MARKUP_TAGS]
    listing = pages["-/tags/svg-onload-alert-1/"]
    assert f"<h1>Errors tagged “{escaped[0]} · {escaped[1]}”</h1>" in listing
    assert f'<a href="/errors/-/tags/svg-onload-alert-1/">{escaped[0]} · {escaped[1]} <span class="count">2</span></a>' \
        in pages["-/tags/"]
    assert "<svg" not in listing and "<svg" not in pages["-/tags/"]


def test_a_page_shared_by_many_texts_names_the_first_five():
    tags = ["a b", "a-b", "A B", "a_b", "A-B", "a  b", "A_B"]
    links = counted(group([make(i, tags=[tag]) for i, tag in enumerate(tags)], lambda r: r.tags, urls.tag_path))
    assert links == [Link("a b · a-b · A B · a_b · A-B and 2 more", "-/tags/a-b/", 7)]


def test_a_record_with_a_tag_twice_is_listed_once():
    pages = pages_of([make(0, tags=["x", "X", "x"])])
    assert len(record_links(pages["-/tags/x/"])) == 1


def test_fixed_pages():
    pages = pages_of([make(0)])
    assert {"", "-/search/", "404.html", "-/repos/", "-/tags/", "-/types/", "-/severities/"} <= set(pages)
    assert "<h1>Page not found</h1>" in pages["404.html"]
    assert 'href="/errors/"' in pages["404.html"]  # absolute: the 404 is served at any depth
    assert 'rel="canonical"' not in pages["404.html"]


# --- sitemap and robots.txt ----------------------------------------------------------------

def test_sitemap_lists_folders_as_absolute_urls():
    [page] = sitemap(SITE, ["b/", "", "a/x/", "404.html", "-/search/index.json", "-/tags/a&b/"])
    assert page.path == "sitemap.xml"
    root = ElementTree.fromstring(page.content)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    assert [loc.text for loc in root.findall("s:url/s:loc", ns)] == [
        "https://example.org/errors/", "https://example.org/errors/-/tags/a%26b/",
        "https://example.org/errors/a/x/", "https://example.org/errors/b/"]


NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def valid_urlset(content: bytes) -> list[str]:
    """The URLs of one sitemap file, checked against the protocol: the urlset
    element of its namespace, url entries holding one absolute loc each (and an
    optional lastmod), at most 50,000 of them and 50 MB."""
    assert len(content) <= 50 * 1000 * 1000
    root = ElementTree.fromstring(content)
    assert root.tag == NS + "urlset"
    locs = []
    for url in root:
        assert url.tag == NS + "url" and [child.tag for child in url][0] == NS + "loc"
        assert {child.tag for child in url} <= {NS + "loc", NS + "lastmod"}
        locs.append(url.find(NS + "loc").text)
    assert len(locs) <= 50_000 and all(loc.startswith("https://example.org/errors/") for loc in locs)
    return locs


def test_a_sitemap_past_50000_urls_is_an_index_of_valid_parts():
    paths = [f"r/{n:06d}/" for n in range(120_001)]
    pages = sitemap(SITE, paths, {paths[0]: "2026-11-01"})
    files = {page.path: page.content for page in pages}
    index = ElementTree.fromstring(files["sitemap.xml"])
    assert index.tag == NS + "sitemapindex"
    parts = [entry.find(NS + "loc").text for entry in index]
    assert parts == [f"https://example.org/errors/-/sitemaps/{n}.xml" for n in (1, 2, 3)]
    locs = [loc for n in (1, 2, 3) for loc in valid_urlset(files[f"-/sitemaps/{n}.xml"])]
    assert locs == [SITE.absolute(path) for path in paths]
    assert b"<lastmod>2026-11-01</lastmod>" in files["-/sitemaps/1.xml"]


def test_a_sitemap_part_also_keeps_within_its_bytes():
    pages = sitemap(SITE, [f"{'x' * 900}/{n}/" for n in range(30)], most_bytes=10_000)
    assert len(pages) > 2 and all(len(page.content) <= 10_000 for page in pages[1:])
    assert sum(len(valid_urlset(page.content)) for page in pages[1:]) == 30


def test_robots_txt_points_to_the_sitemap():
    assert robots(SITE).content == (b"User-agent: *\nAllow: /\n"
                                    b"Sitemap: https://example.org/errors/sitemap.xml\n")


# --- the first solution on list rows, and a repository's overview (issue 42) ---------

def test_first_fix_is_one_plain_line_of_the_first_solution_trimmed():
    from errorsite.pages.describe import FIX_LIMIT, first_fix
    assert first_fix(make(1, solutions=["Use `model_dump()` **instead**. Then retry.\n\nMore."])) == \
        "Use model_dump() instead."
    long = first_fix(make(2, solutions=["word " * 80]))
    assert len(long) <= FIX_LIMIT and long.endswith("…") and "\n" not in long
    assert first_fix(make(3, solutions=None)) == ""


def test_list_rows_show_the_first_fix_and_a_repository_page_does_not_repeat_its_name():
    pages = pages_of([make(1), make(2, solutions=None), make(3, repo="other/repo", tags=["x", "y"])])
    tag = pages["-/tags/x/"]
    assert tag.count('<span class="fix"><span class="fix-label">Fix:</span> <bdi>Remove the decorator') == 2
    assert tag.count('class="fix"') == 2  # none for the record without a solution
    assert tag.count(">pydantic/pydantic</a>") == 2
    repo = pages["pydantic/pydantic/"]
    assert ">pydantic/pydantic</a>" not in repo.split("<main", 1)[1]  # the heading names it once
    assert repo.count('class="fix"') == 1


def test_a_repository_page_opens_with_its_overview():
    records = [make(1, tags=["a", "b"]), make(2, tags=["a"], errorType="state"), make(3, tags=["a"], severity="warning"),
               *(make(i, repo="other/repo") for i in range(4, 6))]
    page = pages_of(records)["pydantic/pydantic/"]
    overview = page.split('<dl class="overview">', 1)[1].split("</dl>", 1)[0]
    names = re.findall(r"<dt>([^<]+)</dt>", overview)
    assert names == ["Error types", "Severities", "Most common tags", "Error codes"]
    assert '<a href="/errors/-/code/-/in/pydantic/pydantic/">1 code, in order</a>' in overview
    counts = re.findall(r'<a href="/errors/-/([^"]+)">[^<]+ <span class="count">(\d+)</span></a>', overview)
    assert counts == [("types/usage/", "2"), ("types/state/", "1"), ("severities/error/", "2"),
                      ("severities/warning/", "1"), ("tags/a/", "3"), ("tags/b/", "1")]
    assert '<dl class="overview">' not in pages_of(records)["-/tags/a/"]  # only a repository's page has one


def test_a_result_card_carries_the_first_fix_only_when_there_is_one():
    from errorsite.pages.render import summarize
    from errorsite.search import result_doc
    assert result_doc(summarize(make(1)))[8] == "Remove the decorator and keep the class as a BaseModel"
    assert len(result_doc(summarize(make(2, solutions=None)))) == 8


# --- the tags' index: A–Z, counts, a filter box, pages under 100 KB (issue 42, item 3) ---

def test_the_tags_index_is_a_to_z_under_initials_with_counts_and_a_filter_box():
    records = [make(1, tags=["beta", "Alpha", "42x"]), make(2, tags=["beta", "zeta"]), make(3, tags=["beta"])]
    page = pages_of(records)["-/tags/"]
    assert re.findall(r"<h2>([^<]+)</h2>", page) == ["#", "A", "B", "Z"]
    items = re.findall(r'<li><a href="/errors/-/tags/([^/]+)/">([^<]+) <span class="count">(\d+)</span></a></li>', page)
    assert items == [("42x", "42x", "1"), ("alpha", "Alpha", "1"), ("beta", "beta", "3"), ("zeta", "zeta", "1")]
    assert '<input id="filter-tags" type="search" data-filter="tags"' in page
    assert "A–Z, each with its number of records." in page
    assert '<nav class="index-pages"' not in page  # one page: nothing to link


def test_thousands_of_tags_split_into_pages_under_100_kb_that_link_each_other():
    from errorsite.pages.browse import tag_index_pages
    from errorsite.pages.tag_index import index_runs
    links = [Link(f"tag-{i:05d}-{'long' * (i % 12)}", urls.tag_path(f"tag-{i:05d}-{'long' * (i % 12)}"), i % 97 + 1)
             for i in range(30_000)]
    env = environment(SITE, 1)
    pages = list(tag_index_pages(env, "30000 tags.", links))
    assert [p.path for p in pages][:2] == ["-/tags/", "-/tags/-/page/2/"] and len(pages) == len(index_runs(links))
    assert max(len(p.content) for p in pages) < 100_000
    print(f"{len(pages)} pages of tags, the largest {max(len(p.content) for p in pages):,} B")
    first, second = pages[0].content.decode(), pages[1].content.decode()
    assert first.count('<li><a href="/errors/-/tags/') + second.count('<li><a href="/errors/-/tags/') < 30_000
    nav = re.findall(r'<li>(?:<a href="([^"]+)">|<span aria-current="page">)([^<]+)<',
                     first.split('<nav class="index-pages"')[1].split("</nav>")[0])
    assert len(nav) == len(pages) and nav[0][0] == "" and nav[0][1].startswith("tag-00000- – ")
    assert nav[1][0] == "/errors/-/tags/-/page/2/"
    labels = re.findall(r'<li><a href="/errors/-/tags/(?!-/)[^"]+">([^<]+) <span class="count">', "".join(p.content.decode() for p in pages))
    assert labels == sorted(labels, key=str.casefold) and len(labels) == 30_000


def test_listing_paths_know_the_tags_index_pages():
    from errorsite.pages.links import listing_paths
    from errorsite.pages.tag_index import TAG_INDEX_BYTES, item_bytes
    tags = [f"t{i:04d}" for i in range(TAG_INDEX_BYTES // item_bytes(Link("t0000", urls.tag_path("t0000"))) + 5)]
    records = [make(i, tags=tags[i * 30:(i + 1) * 30]) for i in range(len(tags) // 30 + 1)]
    made = pages_of(records)
    assert "-/tags/-/page/2/" in made
    assert {p for p in made if p.startswith("-/tags/-/")} <= listing_paths([summarize(r) for r in records], 100)
