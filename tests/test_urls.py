"""urls.py: every URL and output path, called directly."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

from errorsite import urls
from errorsite.urls import Site, normalize_base_url, output_file, output_name, page_path, record_path, url_segment

SUB = Site("https://example.org/errors/")
ROOT_SITE = Site("http://localhost:8000/")


def record(repo: str, slug: str):
    return SimpleNamespace(repo=repo, slug=slug)


def test_record_path_is_lowercased_repo_then_slug():
    assert record_path(record("huggingface/candle", "kv-cache")) == "huggingface/candle/kv-cache/"
    assert record_path(record("PyDantic/Pydantic", "x")) == "pydantic/pydantic/x/"


def test_listing_paths():
    assert urls.repo_path("Spf13/Cobra") == "spf13/cobra/"
    assert urls.tag_path("Kv Cache") == "-/tags/kv-cache/"
    assert urls.type_path("validation") == "-/types/validation/"
    assert urls.severity_path("Error") == "-/severities/error/"


@pytest.mark.parametrize("value, segment", [
    ("rust", "rust"),
    ("Rust", "rust"),
    ("kv-cache", "kv-cache"),
    ("kv_cache", "kv-cache"),
    ("C++", "c"),
    ("  spaced  out  ", "spaced-out"),
    ("../../etc", "etc"),
    ("a/b\\c", "a-b-c"),
    ("!!!", ""),
    ("___", ""),
    ("con", "con-"),        # a Windows device name gets a suffix
    ("LPT1", "lpt1-"),
    ("console", "console"),
    ("x" * 100, "x" * 64),
    ("a" * 63 + "-b", "a" * 63),  # cut to 64, then no trailing hyphen
])
def test_url_segment(value, segment):
    assert url_segment(value) == segment


def test_page_path():
    assert page_path("-/tags/x/", 1) == "-/tags/x/"
    assert page_path("-/tags/x/", 2) == "-/tags/x/-/page/2/"
    assert page_path("-/repos/", 10) == "-/repos/-/page/10/"


@pytest.mark.parametrize("url, expected", [
    ("https://example.org/errors/", "https://example.org/errors/"),
    ("https://example.org/errors", "https://example.org/errors/"),
    ("http://127.0.0.1:8000", "http://127.0.0.1:8000/"),
    ("http://localhost:8000/", "http://localhost:8000/"),
])
def test_normalize_base_url_accepts_http_and_adds_the_slash(url, expected):
    assert normalize_base_url(url) == expected


@pytest.mark.parametrize("url", [
    "not-a-url",
    "example.org/errors/",
    "/errors/",
    "ftp://example.org/",
    "javascript:alert(1)",
    "https://",
    "https://example.org/errors/?x=1",
    "https://example.org/errors/#top",
    "https://example.org/errors/?",   # an empty query would end up inside every URL
    "https://example.org/errors/#",
])
def test_normalize_base_url_refuses(url):
    with pytest.raises(ValueError, match="--base-url must be an absolute http"):
        normalize_base_url(url)


def test_site_under_a_sub_path():
    assert SUB.base_path == "/errors/"
    assert SUB.href("") == "/errors/"
    assert SUB.href("-/tags/x/") == "/errors/-/tags/x/"
    assert SUB.href("-/static/style.css") == "/errors/-/static/style.css"
    assert SUB.absolute("") == "https://example.org/errors/"
    assert SUB.absolute("huggingface/candle/kv-cache/") == "https://example.org/errors/huggingface/candle/kv-cache/"
    assert SUB.absolute("sitemap.xml") == "https://example.org/errors/sitemap.xml"


def test_site_at_the_root():
    assert ROOT_SITE.base_path == "/"
    assert ROOT_SITE.href("-/repos/") == "/-/repos/"
    assert ROOT_SITE.absolute("-/repos/") == "http://localhost:8000/-/repos/"


def test_href_percent_encodes_but_keeps_slashes():
    assert SUB.href("-/tags/über alles/") == "/errors/-/tags/%C3%BCber%20alles/"
    assert SUB.absolute("a b/") == "https://example.org/errors/a%20b/"
    assert SUB.href("-/tags/a?b#c/") == "/errors/-/tags/a%3Fb%23c/"


def test_output_file_maps_folders_to_index_html(tmp_path):
    assert output_file(tmp_path, "") == tmp_path / "index.html"
    assert output_file(tmp_path, "-/tags/x/") == tmp_path / "-" / "tags" / "x" / "index.html"
    assert output_file(tmp_path, "404.html") == tmp_path / "404.html"
    assert output_file(tmp_path, "-/search/index.json") == tmp_path / "-" / "search" / "index.json"
    assert output_file(tmp_path, ".nojekyll") == tmp_path / ".nojekyll"


@pytest.mark.parametrize("path", [
    "../x/",
    "a/../../x/",
    "..",
    "a/..",
    "/etc/passwd",
    "/tmp/x/",
    "a\\..\\b/",
    "..\\x.html",
    "a/b\\c/",
    "a/\0/",
])
def test_output_file_refuses_paths_that_could_escape(path):
    with pytest.raises(ValueError, match="unsafe output path"):
        output_file(Path("/out"), path)


@settings(max_examples=800, deadline=None)
@given(st.text(alphabet="ab./\\\0", max_size=12))
def test_output_name_refuses_exactly_the_paths_with_an_unsafe_part(path):
    name = path + "index.html" if path == "" or path.endswith("/") else path
    unsafe = any(part in ("", ".", "..") or "\\" in part or "\0" in part for part in name.split("/"))
    if unsafe:
        with pytest.raises(ValueError, match="unsafe output path"):
            output_name(path)
    else:
        assert output_name(path) == name


@given(st.text(max_size=40))
def test_links_quote_every_path_as_urllib_does(path):
    """href and absolute skip quote() for the paths it leaves as they are; any path quotes as urllib's."""
    from urllib.parse import quote
    site = Site("https://example.org/errors/")
    assert site.href(path) == "/errors/" + quote(path)
    assert site.absolute(path) == "https://example.org/errors/" + quote(path)
