"""`errorsite find`'s edges that need no site: no V8 installed, a site path
outside the site, and the text a terminal shows, its first line the verdict
(tests/test_find.py builds sites and checks the answers)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from errorsite.tools.find import Deadline, FindError, Finder, FolderSite, Found, Result, WebSite, site_path
from errorsite.tools.find.command import explain_lines, text_output


def test_without_mini_racer_it_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "py_mini_racer", None)  # an import of it now fails
    with pytest.raises(FindError, match=r"pip install 'errorsite\[find\]'"):
        Finder(FolderSite(tmp_path))


def test_a_script_outside_the_site_is_refused():
    assert site_path("https://example.org/errors/-/static/a.js?v=1", "https://example.org/errors/") == "-/static/a.js"
    with pytest.raises(FindError, match="outside the site"):
        site_path("https://example.org/other/a.js", "https://example.org/errors/")


def test_a_file_outside_the_folder_is_refused(tmp_path):
    with pytest.raises(FindError, match="not a path in the site"):
        FolderSite(tmp_path).read("../etc/passwd", Deadline())


def test_explain_shows_meaning_and_solutions_on_their_own_lines():
    lines = explain_lines({"record": {"documentation": "It means\nthis.", "solutions": ["Do  a", "Do\nb"]}})
    assert lines == ["", "   What it means:", "     It means", "     this.", "", "   Solutions:", "     1. Do a",
                     "     2. Do b"]
    assert explain_lines({"record": {}}) == []


def results(*messages: str) -> list[Result]:
    return [Result(n, message, "acme/tool", "usage", "", f"https://example.org/errors/acme/tool/{n}/", f"acme/tool/{n}/")
            for n, message in enumerate(messages, 1)]


FOUND = results("accepts at most 1 arg(s), received 2", "duplicate argument {arg}", "ERR syntax error")
LINES = ["1. accepts at most 1 arg(s), received 2", "   acme/tool · usage · https://example.org/errors/acme/tool/1/"]
OTHERS = ["", "Other results:", "2. duplicate argument {arg}", "   acme/tool · usage · https://example.org/errors/acme/tool/2/",
          "3. ERR syntax error", "   acme/tool · usage · https://example.org/errors/acme/tool/3/"]


@pytest.mark.parametrize("match, verdict", [
    ("exact", "This is your error:"),
    ("likely", "Probably this error (the wording differs):"),
])
def test_a_match_is_said_first_then_the_answer_then_the_others(match, verdict):
    assert text_output(Found(FOUND, match, 1)).split("\n") == [verdict, *LINES, *OTHERS]
    assert text_output(Found(FOUND[:1], match, 1)).split("\n") == [verdict, *LINES]  # no others, no heading


def test_no_match_says_so_first_and_lists_the_related_records():
    assert text_output(Found(FOUND, "none", 1)).split("\n") == [
        "No record for this error yet. Related records, not this error:", *LINES, *OTHERS[2:]]
    assert text_output(Found([], "none", 0)) == "No record for this error yet."


def test_the_answer_is_bold_on_a_terminal_and_explained_under_it():
    text = text_output(Found(FOUND[:2], "exact", 1), {"record": {"solutions": ["Quote it"]}}, bold=True)
    assert text.split("\n") == ["This is your error:", f"\x1b[1m{LINES[0]}\x1b[0m", LINES[1],
                                "", "   Solutions:", "     1. Quote it", *OTHERS[:4]]


def test_record_text_cannot_start_a_ci_command():
    for bold in (False, True):
        text = text_output(Found(results("##[error]forged", "x ##vso[task.setvariable]y"), "likely", 1), bold=bold)
        assert "##[" not in text and "##vso[" not in text
        assert "#\u200b#[error]forged" in text and "#\u200b#vso[task.setvariable]y" in text


def test_a_site_read_from_another_address_than_it_names_is_said_once():
    """find's and the bot's links start with the address the site's pages
    name: read from elsewhere (a mirror, a forgotten --base-url), they say so."""
    from errorsite.tools.find import address_note, same_address
    site = WebSite("https://mirror.example.net/errors/")
    assert address_note(site, "http://localhost:8000/") == (
        "note: the site at https://mirror.example.net/errors/ names its address as http://localhost:8000/: "
        "its links below point there")
    assert address_note(site, "https://MIRROR.example.net:443/errors/") is None
    assert address_note(FolderSite(Path("site")), "http://localhost:8000/") is None  # a folder has no address
    assert same_address("http://a.org/x", "http://a.org:80/x/")
    assert not same_address("http://a.org/x/", "https://a.org/x/")
    assert not same_address("http://a.org/x/", "http://a.org/y/")
