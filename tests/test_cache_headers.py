"""`_headers` (Netlify, Cloudflare Pages): the files whose links carry their
version may be kept by a browser for a year, so a search reuses what an
earlier one fetched (issue 65): the static files, and every search file but
meta.json, which names the version the others are fetched with (`?v=`)."""
from __future__ import annotations

from errorsite import urls
from tests.conftest import ROOT, build_quietly

BASE = "https://example.org/errors/"
YEAR = "  Cache-Control: public, max-age=31536000, immutable"


def test_the_versioned_files_are_cached_for_a_year_and_meta_json_is_not(tmp_path):
    result, _ = build_quietly(ROOT / "records", tmp_path / "site", BASE)
    assert result.written
    site = tmp_path / "site"
    rules = (site / urls.HEADERS_PATH).read_text("utf-8").split("\n")
    folders = ["-/static/", *(f"-/search/{folder}" for folder in urls.SEARCH_VERSIONED)]
    assert rules == [line for folder in folders for line in (f"/errors/{folder}*", YEAR)] + [""]
    search = site / urls.SEARCH_PATH
    unversioned = {path.relative_to(search).as_posix() for path in search.rglob("*") if path.is_file()
                   and not path.relative_to(search).as_posix().startswith(urls.SEARCH_VERSIONED)}
    assert unversioned == {"meta.json", "index.html"}  # a new folder of search files must be named in SEARCH_VERSIONED
