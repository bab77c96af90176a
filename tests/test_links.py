"""Links that last and data for other tools: permalinks, the error-code
resolver, the JSON API and the Atom feeds (read back with
feedparser, a real feed parser)."""
from __future__ import annotations

import json
from pathlib import Path
from html.parser import HTMLParser

import feedparser
import pytest

from errorsite import urls
from errorsite.pages.feeds import atom_date
from tests.conftest import build_quietly
from tests.test_pipeline import SITE, STATIC, make
from tests.conftest import site_files

BASE = SITE.base_url
RECORDS = [
    make(1, errorCode="E0308", analyzedAt="2026-11-01T10:00:00Z", contentChangedAt="2026-11-20T00:00:00Z"),
    make(2, repo="spf13/cobra", errorCode="e0308", analyzedAt="2026-11-03T10:00:00.123+02:00"),
    make(3, errorCode="ERR_INVALID_ARG_TYPE", analyzedAt=None, contentChangedAt="2026-10-01"),
    make(4, errorCode=None, errorMessage="a <script>alert(1)</script> & \u0001 control", analyzedAt="2026-11-02"),
]


@pytest.fixture(scope="module")
def site() -> dict[str, bytes]:
    return site_files(RECORDS, SITE, STATIC)


def data(site, path):
    text = site[path].decode()
    assert "<" not in text and ">" not in text  # escaped like search.to_json: inert as HTML
    return json.loads(text)


class Head(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def head(html: bytes) -> list[tuple[str, dict]]:
    parser = Head()
    parser.feed(html.decode())
    return parser.tags


def test_every_record_has_a_permalink_that_leads_to_its_page(site):
    for record in RECORDS:
        path = urls.permalink_path(record)
        assert path == f"-/r/{record.id}/"
        tags = head(site[path])
        target = SITE.href(urls.record_path(record))
        assert ("meta", {"name": "robots", "content": "noindex"}) in tags
        assert ("meta", {"http-equiv": "refresh", "content": f"0; url={target}"}) in tags
        assert ("link", {"rel": "canonical", "href": SITE.absolute(urls.record_path(record))}) in tags
        assert ("a", {"href": target}) in tags  # visible, for when the refresh does not happen
        # A lean page: one script, the site's own, which keeps the fragment; the CSP stays strict.
        scripts = [attrs for tag, attrs in tags if tag == "script"]
        assert scripts == [{"src": SITE.href("-/static/redirect.js"), "data-target": target}]
        assert b"<noscript><meta http-equiv=\"refresh\"" in site[path]
        assert SITE.absolute(path) not in site["sitemap.xml"].decode()


def test_the_record_page_gives_its_permalink():
    from errorsite.pages.render import environment, record_page
    html = record_page(environment(SITE), RECORDS[0]).content.decode()
    assert f'data-permalink="{BASE}-/r/r1/"' in html


def test_a_link_built_from_a_code_opens_its_record_or_its_records(site):
    """-/go/code/<code>/ (issue 41): one record with the code, its page; several, the code's page."""
    assert urls.go_code_path("E0308") == "-/go/code/e0308/" and urls.go_code_path(None) is None
    several = site["-/go/code/e0308/"].decode()
    assert f'data-target="{SITE.href("-/code/e0308/")}"' in several and '<meta name="robots" content="noindex">' in several
    assert "2 error records with code <code>E0308</code>" in several
    one = site["-/go/code/err-invalid-arg-type/"].decode()
    assert f'data-target="{SITE.href(urls.record_path(RECORDS[2]))}"' in one
    assert f'<link rel="canonical" href="{SITE.absolute(urls.record_path(RECORDS[2]))}">' in one
    assert "/-/go/" not in site["sitemap.xml"].decode()
    assert f'data-go-code="{SITE.href("-/go/code/")}"' in site["404.html"].decode()


def test_codes_are_resolved_across_repositories(site):
    path = urls.code_path("E0308")
    assert path == "-/code/e0308/" and urls.code_path("ERR_INVALID_ARG_TYPE") == "-/code/err-invalid-arg-type/"
    assert urls.code_path(None) is None and urls.code_path("!!") is None
    html = site[path].decode()
    assert SITE.href(urls.record_path(RECORDS[0])) in html and SITE.href(urls.record_path(RECORDS[1])) in html
    assert "2 error records with this code, in 2 repositories." in html
    twin = data(site, urls.code_json_path("E0308"))
    assert [r["id"] for r in twin["records"]] == ["r1", "r2"]
    assert twin["records"][1] == {
        "id": "r2", "repo": "spf13/cobra", "slug": "error-2", "message": "Error 2",
        "pattern": RECORDS[1].pattern, "errorCode": "e0308", "url": f"{BASE}spf13/cobra/error-2/",
        "permalink": f"{BASE}-/r/r2/", "json": f"{BASE}-/r/r2.json"}
    assert "-/code/" in site and f"{BASE}{path}" in site["sitemap.xml"].decode()


def test_the_record_page_links_its_code():
    from errorsite.pages.render import environment, record_page
    html = record_page(environment(SITE), RECORDS[0]).content.decode()
    assert f'href="{SITE.href("-/code/e0308/")}"' in html


def test_the_api_lists_repositories_and_their_records(site):
    repos = data(site, urls.API_REPOS_PATH)["repos"]
    assert repos == [
        {"repo": "pydantic/pydantic", "records": 3, "url": f"{BASE}pydantic/pydantic/",
         "api": f"{BASE}-/api/repos/pydantic/pydantic.json"},
        {"repo": "spf13/cobra", "records": 1, "url": f"{BASE}spf13/cobra/",
         "api": f"{BASE}-/api/repos/spf13/cobra.json"}]
    listing = data(site, "-/api/repos/pydantic/pydantic.json")
    assert [(r["id"], r["errorCode"]) for r in listing["records"]] == \
        [("r1", "E0308"), ("r3", "ERR_INVALID_ARG_TYPE"), ("r4", None)]
    assert listing["records"][2]["message"] == RECORDS[3].message  # escaped, not altered


def test_a_record_has_two_files_its_page_and_its_permalink_made_and_reused_by_real_builds(tmp_path):
    """No record.json: the JSON API lists records by repository and by code,
    and unfurlers read the pages' Open Graph card (issue 28: a file a record fewer)."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "a.json").write_text(json.dumps({"record": {**json.loads(
        (Path(__file__).parent / "fixtures/bad/good-dataclass-on-model.json").read_text())["record"]}}))
    out = tmp_path / "out"
    first, _ = build_quietly(records, out)
    pages = sorted(path.relative_to(out).as_posix() for path in out.rglob("index.html")
                   if path.parent.parent.name in ("r", "pydantic") and path.parent.name != "pydantic")
    assert len(pages) == 2 and pages[0].startswith("-/r/") and not list(out.rglob("record.json"))
    inodes = [(out / page).stat().st_ino for page in pages]
    second, _ = build_quietly(records, out)
    assert second.reused == 1 and [(out / page).stat().st_ino for page in pages] == inodes


def test_atom_dates():
    assert atom_date("2026-11-03T10:00:00.123+02:00") == "2026-11-03T08:00:00Z"
    assert atom_date("2026-10-01") == "2026-10-01T00:00:00Z"
    assert atom_date(None) is None and atom_date("soon") is None


def parse(site, path):
    parsed = feedparser.parse(site[path])
    assert not parsed.bozo, parsed.bozo_exception  # well-formed XML, nothing the parser had to guess
    assert parsed.version == "atom10"
    return parsed


def test_feeds_of_newest_and_changed_records(site):
    new = parse(site, urls.feed_path("new"))
    assert [e.link for e in new.entries] == [
        f"{BASE}spf13/cobra/error-2/", f"{BASE}pydantic/pydantic/error-4/", f"{BASE}pydantic/pydantic/error-1/"]
    assert new.feed.updated == "2026-11-03T08:00:00Z"
    assert new.entries[0].id == f"{BASE}-/r/r2/"
    assert new.entries[1].title == "a <script>alert(1)</script> & \ufffd control"
    assert new.entries[0].summary.startswith("spf13/cobra · usage · error — ")
    changed = parse(site, urls.feed_path("changed"))
    assert [e.id for e in changed.entries] == [f"{BASE}-/r/r1/", f"{BASE}-/r/r3/"]
    cobra = parse(site, urls.feed_path("new", "spf13/cobra"))
    assert cobra.feed.title == "Error Index · spf13/cobra: newest records"
    assert [e.id for e in cobra.entries] == [f"{BASE}-/r/r2/"]
    empty = parse(site, urls.feed_path("changed", "spf13/cobra"))
    assert empty.entries == [] and empty.feed.updated == "1970-01-01T00:00:00Z"


def test_pages_link_the_feeds_they_belong_to(site):
    """The site's feeds from the home page, a repository's (and the site's)
    from its page; a record page (one per record) and the other listings
    (thousands at 100,000 records) name none: they are a click away."""
    def feeds(path):
        return [a["href"] for tag, a in head(site[path]) if tag == "link" and a.get("type") == "application/atom+xml"]
    assert feeds("") == [SITE.href("-/feeds/new.xml"), SITE.href("-/feeds/changed.xml")]
    assert feeds("pydantic/pydantic/") == [SITE.href(f"-/feeds/{repo}{kind}.xml") for repo in ("", "pydantic/pydantic/")
                                           for kind in ("new", "changed")]
    assert feeds("pydantic/pydantic/error-1/") == []
    assert feeds("-/tags/") == [] and feeds(urls.tag_path(RECORDS[0].tags[0])) == []  # thousands of listings


def test_listing_paths_foresee_every_listing_made():
    """The global pages' cache key needs the listings' paths before they are
    made (redirects.history_key): links.listing_paths must name exactly the
    listing pages browse_pages, code_pages and go_code_pages make, paginated ones too."""
    from errorsite.pages.browse import browse_pages
    from errorsite.pages.links import code_pages, go_code_pages, listing_paths
    from errorsite.pages.redirects import served_lists
    from errorsite.pages.render import SiteOptions, environment, summarize
    records = [*RECORDS, *(make(10 + i, repo=["a/b", "c/d"][i % 2], tags=[f"t{i % 3}", "x"], errorType=f"k{i % 2}",
                                errorCode=["E1", "E2", None][i % 3]) for i in range(9))]
    summaries = sorted(map(summarize, records), key=urls.record_path)
    env = environment(SITE, len(summaries), SiteOptions(page_size=2))
    made = [page.path for page in [*browse_pages(env, summaries), *code_pages(env, summaries),
                                   *go_code_pages(env, summaries)]]
    lists = listing_paths(summaries, 2)
    assert any("/-/page/3/" in path for path in lists)
    assert lists == served_lists(summaries, [*made, *(urls.record_path(s) for s in summaries)])
