"""`-/code/E0382/`, a code's page as the code is printed (issue 62, item 7):
a redirect to `-/code/e0382/` where the two differ in case alone, which a
case-sensitive host tells apart; where the file system takes both for one
folder, the writer keeps the page and skips the redirect."""
from __future__ import annotations

import json
import os

import pytest

from errorsite import urls
from errorsite.pages.links import code_alias_pages
from errorsite.model import Page
from errorsite.pages.render import environment
from errorsite.write import write_site
from errorsite.write.staging import Staging
from tests.test_codes import SITE, summary
from tests.test_codes_link import codeless, write_record
from tests.conftest import build_quietly


@pytest.mark.parametrize("code, alias", [
    ("E0382", "-/code/E0382/"), ("TS2345", "-/code/TS2345/"), ("CS0246", "-/code/CS0246/"),
    ("Json.Parse_Error", "-/code/Json-Parse-Error/"),
    ("e0382", None),            # printed as its page is named
    ("parse_error.101", None),  # no capital
    ("CON", None),              # its page is con-/ (a Windows device name): more than case apart
    ("E" + "1" * 70, None),     # its page's name is cut at 64 characters
    ("--", None), (None, None),  # no page at all
])
def test_an_alias_only_where_the_code_as_printed_differs_from_its_page_in_case(code, alias):
    assert urls.code_alias_path(code) == alias
    if alias:
        assert alias.lower() == urls.code_path(code)


def test_each_spelling_of_a_code_sends_to_the_one_page_of_the_code():
    env = environment(SITE, 4)
    summaries = [summary("rust-lang/rust", "E0382", 1), summary("other/rust", "E0382", 2),
                 summary("a/b", "e0382", 3), summary("a/b", "Ts2345", 4), summary("c/d", "TS2345", 5)]
    pages = {page.path: page.content.decode() for page in code_alias_pages(env, summaries)}
    assert sorted(pages) == ["-/code/E0382/", "-/code/TS2345/", "-/code/Ts2345/"]
    assert 'data-target="/errors/-/code/e0382/"' in pages["-/code/E0382/"]
    assert '<meta name="robots" content="noindex">' in pages["-/code/E0382/"]
    assert 'data-target="/errors/-/code/ts2345/"' in pages["-/code/Ts2345/"]


def test_a_file_system_that_tells_the_spellings_apart_gets_both(tmp_path):
    out = tmp_path / "site"
    write_site(out, [Page("-/code/e0382/", b"page"), Page("-/code/E0382/", b"alias")], report=lambda line: None)
    assert (out / "-/code/e0382/index.html").read_bytes() == b"page"
    assert (out / "-/code/E0382/index.html").read_bytes() == b"alias"


def test_where_the_file_system_takes_both_spellings_for_one_folder_the_page_stays(tmp_path):
    root = tmp_path / "staging"
    root.mkdir()
    staging = Staging(root, tmp_path / "none", from_spare=False)
    staging.put(Page("-/code/e0382/", b"page"))
    # As a case-insensitive file system does, E0382/ names the folder e0382/ (a symbolic link here).
    os.symlink("e0382", root / "-" / "code" / "E0382")
    staging.put(Page("-/code/E0382/", b"alias"))
    assert (root / "-/code/e0382/index.html").read_bytes() == b"page"
    assert staging.count == 1


def test_a_build_writes_the_alias_and_keeps_it_out_of_the_sitemap(tmp_path):
    records = codeless(tmp_path / "records", 2)
    write_record(records, 9, "E0382")
    result, lines = build_quietly(records, tmp_path / "site", "https://example.org/errors/")
    assert result.written and lines == []
    site = tmp_path / "site"
    alias = (site / "-" / "code" / "E0382" / "index.html").read_text("utf-8")
    assert 'data-target="/errors/-/code/e0382/"' in alias
    assert (site / "-" / "code" / "e0382" / "index.html").is_file()
    assert "E0382/" not in (site / "sitemap.xml").read_text("utf-8")
    assert "E0382/" not in json.dumps(json.loads((site / "-" / "urls.json").read_text("utf-8"))["lists"])
