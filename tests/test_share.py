"""The record page's tools for issue trackers, as pure functions: the Markdown
snippet, GitHub's issue links, and the staleness notice."""
from __future__ import annotations

import dataclasses
from urllib.parse import parse_qs, urlsplit

from errorsite import urls
from errorsite.pages import share
from errorsite.pages.render import environment, line_url, record_page
from tests.test_pipeline import SITE, make

GOOD = make(1)


def test_snippet_links_the_message_to_the_permalink():
    text = share.snippet(GOOD, "https://example.org/errors/-/r/r1/", line_url(GOOD))
    lines = text.splitlines()
    assert lines[0] == "**[Error 1](https://example.org/errors/-/r/r1/)**"
    assert lines[1] == "pydantic/pydantic · usage · error"
    assert lines[3] == f"First solution: {' '.join(GOOD.solutions[0].split())}"
    assert lines[5] == f"Source: [{GOOD.file_path}#L{GOOD.line_number}]({line_url(GOOD)})"


def test_snippet_links_the_line_through_the_permalink_when_the_page_shows_it():
    permalink = "https://example.org/errors/-/r/r1/"
    text = share.snippet(GOOD, permalink, line_url(GOOD), GOOD.line_number)
    assert text.splitlines()[5] == (f"Source: [{GOOD.file_path}#L{GOOD.line_number}]({permalink}#L{GOOD.line_number})"
                                    f" · [on GitHub]({line_url(GOOD)})")
    html = record_page(environment(SITE), GOOD).content.decode()
    assert f"({SITE.absolute(urls.permalink_path(GOOD))}#L{GOOD.line_number}) · [on GitHub]" in html
    without_source = dataclasses.replace(GOOD, source_code=None)
    assert "[on GitHub]" not in record_page(environment(SITE), without_source).content.decode()


def test_snippet_escapes_what_would_become_markup():
    hostile = dataclasses.replace(GOOD, message="x](javascript:alert(1)) *bold* <b>\n`tick`",
                                  github_url="https://github.com/a/b/blob/x/f(1).py")
    first = share.snippet(hostile, "https://example.org/-/r/r1/", "https://github.com/a/b/blob/x/f(1).py#L3")
    assert first.splitlines()[0] == \
        r"**[x\](javascript:alert(1)) \*bold\* \<b\> \`tick\`](https://example.org/-/r/r1/)**"
    assert first.splitlines()[-1].endswith("(https://github.com/a/b/blob/x/f%281%29.py#L3)")


def test_issue_links():
    search = urlsplit(share.issue_search_url(GOOD))
    assert search.netloc == "github.com" and search.path == "/pydantic/pydantic/issues"
    assert parse_qs(search.query) == {"q": ["Error 1"]}


def test_staleness_when_the_content_changed_after_analysis():
    stale = dataclasses.replace(GOOD, analyzed_at="2026-11-01T00:00:00Z", content_changed_at="2026-11-05T00:00:00Z")
    notice = share.staleness(stale, "https://pinned")
    assert notice == share.Staleness(
        "https://pinned", f"https://github.com/pydantic/pydantic/blob/HEAD/{GOOD.file_path}#L{GOOD.line_number}")
    fresh = dataclasses.replace(stale, content_changed_at="2026-10-01T00:00:00Z")
    assert share.staleness(fresh, "x") is None
    assert share.staleness(dataclasses.replace(stale, analyzed_at=None), "x") is None
    html = record_page(environment(SITE), stale).content.decode()
    assert 'class="notice stale"' in html and "/blob/HEAD/" in html and f'href="{line_url(GOOD)}"' in html
    assert 'class="notice stale"' not in record_page(environment(SITE), fresh).content.decode()


def test_record_page_has_the_tools():
    html = record_page(environment(SITE), GOOD).content.decode()
    assert 'id="solution-2"' in html and 'aria-live="polite"' in html
    # Upstream, a search of its issues; never a prefilled new issue: the page
    # has often just explained that the mistake is the caller's.
    assert "Search upstream issues" in html and "Open an issue" not in html and "/issues/new" not in html
    assert f'src="{SITE.href(urls.STATIC_PATH + "record-tools.js")}"' in html
    assert "<script>" not in html  # scripts only from static files: the CSP stays strict
