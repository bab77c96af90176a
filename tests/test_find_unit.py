"""`errorsite find`'s edges that need no site: no V8 installed, a site path
outside the site, and the text a terminal shows (tests/test_find.py builds
sites and checks the answers)."""
from __future__ import annotations

import sys

import pytest

from errorsite.find import FindError, Finder, FolderSite, explain_lines, site_path


def test_without_mini_racer_it_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "py_mini_racer", None)  # an import of it now fails
    with pytest.raises(FindError, match=r"pip install 'errorsite\[find\]'"):
        Finder(FolderSite(tmp_path))


def test_a_script_outside_the_site_is_refused():
    assert site_path("https://example.org/errors/-/static/a.js?v=1", "https://example.org/errors/") == "-/static/a.js"
    with pytest.raises(FindError, match="outside the site"):
        site_path("https://example.org/other/a.js", "https://example.org/errors/")


def test_a_file_outside_the_folder_is_refused(tmp_path):
    with pytest.raises(FindError, match="cannot read"):
        FolderSite(tmp_path).read("../etc/passwd")


def test_explain_shows_meaning_and_solutions_on_their_own_lines():
    lines = explain_lines({"record": {"documentation": "It means\nthis.", "solutions": ["Do  a", "Do\nb"]}})
    assert lines == ["", "   What it means:", "     It means", "     this.", "", "   Solutions:", "     1. Do a",
                     "     2. Do b"]
    assert explain_lines({"record": {}}) == []
