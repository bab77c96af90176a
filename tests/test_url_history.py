"""The URL history read as untrusted input (pages/url_history.py, load_url_manifest):
every entry a build could not have written is dropped with one warning line,
under ceilings, and no history fails a build. Each case is an input that
failed every later build, or made pages without bound, before."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from errorsite import pipeline, urls
from errorsite.pages import url_history
from errorsite.cache.keys import bytes_history_digest
from errorsite.load import own_files
from errorsite.load.own_files import load_url_manifest
from errorsite.model import inert_json_pieces
from errorsite.pages.render import SiteOptions
from errorsite.pages.sitewide import History
from errorsite.pages.url_history import listing_shape, manifest, read_history, record_shape
from tests.conftest import ROOT, build_quietly

RECORDS = ROOT / "records"
BASE = "https://example.org/errors/"
GOOD = {"path": "gone/repo/a-record/", "message": "m", "old": [], "removed": True}


def history(**records) -> dict:
    return {"format": 1, "lists": [], "records": {"keep": GOOD, **records}}


def entry(path: str, message: str = "gone", old: tuple = ()) -> dict:
    return {"path": path, "message": message, "old": list(old), "removed": True}


@pytest.mark.parametrize("path, why", [
    ("404.html/", "the site's 404 page is a file"),
    ("-/feeds/new.xml/", "a feed is a file"),
    ("python/cpython/extra-data/index.html/", "a record's page is a file"),
    ("a/b/" + "x" * 256 + "/", "a segment over 255 bytes"),
    ("a/b/" + "é" * 128 + "/", "256 bytes in 128 characters"),
    ("a/b/\ud800/", "a lone surrogate"),
    ("A/b/c/", "upper case: a second folder on a case-sensitive disk, the same one elsewhere"),
    ("a/b/../", "outside"),
    ("a/b/c", "not a folder"),
    ("-/r/abc/", "a permalink is made from the id, never kept"),
])
def test_a_path_no_build_makes_is_dropped_with_one_line(path, why):
    read = read_history(history(bad=entry(path)))
    assert list(read.history.known) == ["keep"], why
    assert len(read.dropped) == 1 and read.dropped[0].startswith("records.bad: dropped: path ")
    assert read.dropped[0].endswith(" is not a record page's path")


def test_the_longest_slug_a_record_may_have_is_kept():
    path = "a/b/" + "é" * 127 + "/"  # 254 bytes
    assert record_shape(path) and not record_shape("a/b/" + "é" * 128 + "/")


def test_bad_old_paths_and_listings_are_dropped_one_line_each():
    data = history(moved=entry("a/b/now/", old=("a/b/before/", "404.html/", "a/b/now/", 3)))
    data["lists"] = ["", "-/tags/json/", "-/tags/json/-/page/2/", "-/feeds/new.xml/", "-/tags/json/-/page/1/",
                     "a/b/", "a/b/-/page/3/", "-/search/", "-/code/e0308/", "-/code/e0308/index.json/"]
    read = read_history(data)
    assert read.history.known["moved"].old == ("a/b/before/",)
    assert read.history.lists == {"", "-/tags/json/", "-/tags/json/-/page/2/", "a/b/", "a/b/-/page/3/",
                                  "-/search/", "-/code/e0308/"}
    assert read.dropped == [
        "records.moved: old: dropped 2 that are not record pages' paths",
        'lists[3]: dropped: "-/feeds/new.xml/" is not a listing page\'s path',
        'lists[4]: dropped: "-/tags/json/-/page/1/" is not a listing page\'s path',
        'lists[9]: dropped: "-/code/e0308/index.json/" is not a listing page\'s path']


def test_a_lone_surrogate_in_a_message_drops_its_entry():
    read = read_history(history(bad=entry("a/b/c/", "half a pair: \udc00")))
    assert list(read.history.known) == ["keep"]
    assert read.dropped == ['records.bad: dropped: message "half a pair: \\udc00" holds half a UTF-16 pair '
                            '(a lone surrogate)']


def test_deep_nesting_inside_an_entry_drops_it_and_past_the_parser_ignores_the_file(tmp_path):
    nested = json.loads("[" * 500 + "]" * 500)
    read = read_history(history(bad={**entry("a/b/c/"), "old": nested}, worse={**entry("a/b/d/"), "path": nested}))
    assert list(read.history.known) == ["bad", "keep"] and read.history.known["bad"].old == ()
    assert len(read.dropped) == 2
    deep = tmp_path / "urls.json"
    deep.write_text('{"format": 1, "records": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    assert load_url_manifest(deep) == (None, "invalid JSON: nested too deeply: ignored")


def test_a_long_message_is_cut_to_what_a_record_may_hold():
    read = read_history(history(big=entry("a/b/c/", "m" * 1_000_000)))
    assert read.history.known["big"].message == "m" * 2_000
    assert read.dropped == ["records.big: message cut to 2,000 characters (it had 1,000,000)"]


def test_entries_past_the_ceilings_are_dropped_and_counted(monkeypatch):
    monkeypatch.setattr(url_history, "MAX_RECORDS", 3)
    monkeypatch.setattr(url_history, "MAX_OLD", 2)
    records = {f"r{n}": entry(f"a/b/r{n}/") for n in range(5)}
    records["r0"] = entry("a/b/r0/", old=("a/b/x/", "a/b/y/", "a/b/z/"))
    read = read_history({"format": 1, "lists": [], "records": records})
    assert list(read.history.known) == ["r0", "r1", "r2"] and read.history.known["r0"].old == ("a/b/x/", "a/b/y/")
    assert read.dropped == ["records.r0: old: kept 2 of 3 paths", "records: over 3 ids: the rest dropped"]
    assert read.more == 1


def test_warnings_stop_at_ten_lines_and_count_the_rest():
    records = {f"r{n}": entry("404.html/") for n in range(25)}
    made = History.of({"format": 1, "lists": [], "records": records}, "urls.json")
    assert len(made.dropped) == 11 and made.dropped[-1] == "urls.json: 15 more entries dropped"
    assert made.found and made.previous.known == {}


def test_a_history_a_build_wrote_reads_back_unchanged():
    known = {"a": url_history.Known("o/n/s/", "é <b>", ("o/n/t/",), True),
             "b": url_history.Known("o/n/u/", "x" * 2000, (), False)}
    lists = {"", "-/tags/é/", "o/n/", "o/n/-/page/2/", "-/types/-/page/3/"}
    written = json.loads(json.dumps(manifest(known, lists)))
    read = read_history(written)
    assert read.dropped == [] and read.history == (known, lists)
    assert History.of(written).digest == History.of(manifest(*read.history)).digest


def test_the_bytes_this_code_wrote_are_taken_as_written_and_any_other_read_in_full(tmp_path):
    """A rebuild does not validate a history it wrote itself (a second at a
    million entries): the same bytes read back unchanged (the test above),
    so their digest alone says what reading them would give."""
    known = {"a": url_history.Known("o/n/s/", "m", ("o/n/t/",), True)}
    written = b"".join(inert_json_pieces(manifest(known, {"", "o/n/"})))
    path, lines = tmp_path / "urls.json", []
    path.write_bytes(written)
    read = pipeline.url_history(path, lines.append)
    taken = pipeline.url_history(path, lines.append, written=bytes_history_digest(written))
    assert (taken.found, taken.digest, taken.dropped) == (read.found, read.digest, read.dropped) == \
        (True, bytes_history_digest(written), [])
    assert taken.previous == read.previous == (known, {"", "o/n/"})
    path.write_bytes(written.replace(b'"m"', b'"edited by hand"'))
    edited = pipeline.url_history(path, lines.append, written=bytes_history_digest(written))
    assert edited.digest != taken.digest and edited.previous.known["a"].message == "edited by hand"
    path.write_bytes(written.replace(b"o/n/t/", b"../../t/"))
    hostile = pipeline.url_history(path, lines.append, written=bytes_history_digest(written))
    assert hostile.previous.known["a"].old == () and len(hostile.dropped) == 1 and lines == [
        f"warning: {hostile.dropped[0]}"]


def test_a_history_taken_as_written_is_parsed_only_when_a_page_needs_it():
    lazily = History.as_written(b"not JSON")
    assert lazily.found and lazily.dropped == []
    with pytest.raises(ValueError):
        lazily.previous


@pytest.mark.parametrize("path", ["", "-/search/", "-/go/", "-/repos/", "-/repos/-/page/2/", "-/tags/", "-/tags/kv-cache/",
                                  "-/types/", "-/types/parse/-/page/12/", "-/severities/error/", "-/code/",
                                  "-/code/e0308/", "-/go/code/e0308/", "python/cpython/", "yeraydiazdiaz/lunr.py/-/page/2/",
                                  "-/code/-/page/2/", "-/code/-/in/python/cpython/",
                                  "-/code/-/in/yeraydiazdiaz/lunr.py/-/page/2/"])
def test_every_kind_of_listing_is_a_listing(path):
    assert listing_shape(path)


@pytest.mark.parametrize("path", ["404.html/", "-/", "-/feeds/new.xml/", "-/search/meta.json/", "-/tags/a/b/",
                                  "-/static/vendor/lunr-2.3.9/", "-/page/2/", "-/tags/-/page/0/", "-/tags/-/page/x/",
                                  "o/", "o/n/s/", "-/tags/A/", "-/tags/a_b/", "sitemap.xml", "_redirects/",
                                  "-/go/code/a/b/", "-/go/code/e1/-/page/2/", "-/tags/a/b/c/",
                                  "-/code/-/in/python/", "-/code/-/in/Python/cpython/", "-/code/-/in/o/n/s/"])
def test_a_path_that_is_no_listing_is_not(path):
    assert not listing_shape(path)


# --- the file ----------------------------------------------------------------------------

def test_a_file_that_is_not_there_or_not_a_file_or_too_large_is_one_line(tmp_path, monkeypatch):
    assert load_url_manifest(tmp_path / "none.json") == (None, None)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)  # opened as before, a build waited for a writer for ever
    assert load_url_manifest(fifo) == (None, "not a regular file: ignored")
    big = tmp_path / "big.json"
    big.write_text(json.dumps(history()))
    monkeypatch.setattr(own_files, "MAX_HISTORY_BYTES", 2**20)
    big.write_bytes(b" " * (2 * 2**20) + big.read_bytes())
    assert load_url_manifest(big) == (None, "2 MiB, over the 1 MiB limit: ignored")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format": 1, "records": {"\xff": 1}}')
    assert load_url_manifest(bad) == (None, f"not valid UTF-8 (byte {bad.read_bytes().index(255)}): ignored")


# --- builds ------------------------------------------------------------------------------

HOSTILE = {
    "collides-404": entry("404.html/"),
    "collides-feed": entry("-/feeds/new.xml/"),
    "collides-page": entry("python/cpython/extra-data/index.html/"),
    "long-segment": entry("a/b/" + "b" * 300 + "/"),
    "surrogate": entry("a/\ud800/c/"),
    "huge-message": entry("gone/repo/huge/", "m" * 1_000_000),
}


def hostile_history(out: Path) -> Path:
    """The site's own history, with one entry of each kind that failed a build."""
    data = json.loads((out / urls.URLS_PATH).read_text())
    data["records"].update(HOSTILE)
    data["lists"].append("-/feeds/new.xml/")
    written = out.parent / "previous-urls.json"
    written.write_text(json.dumps(data))
    return written


def test_a_hostile_previous_manifest_never_fails_a_build(tmp_path):
    out = tmp_path / "site"
    first, _ = build_quietly(RECORDS, out, BASE)
    assert first.written
    previous = hostile_history(out)
    for _ in range(2):  # before, each build failed: exit 1, or a traceback
        result, lines = build_quietly(RECORDS, out, BASE, previous_manifest=previous)
        assert result.written and result.problems == []
        warnings = [line for line in lines if line.startswith("warning:")]
        assert len(warnings) == 7, warnings  # one a bad entry
        assert f"warning: {previous.as_posix()}: records.collides-404: dropped: path \"404.html/\" is not a " \
               "record page's path" in warnings
    huge = [path for path in out.rglob("index.html") if "gone/repo/huge" in path.as_posix() or "huge-message" in
            path.as_posix()]
    assert len(huge) == 2 and all(path.stat().st_size < 6_000 for path in huge)  # was 4 MB of pages
    assert (out / "404.html").is_file() and (out / "-/feeds/new.xml").is_file()
    served = json.loads((out / urls.URLS_PATH).read_text())
    assert set(HOSTILE) & set(served["records"]) == {"huge-message"}
    assert len(served["records"]["huge-message"]["message"]) == 2_000


def test_a_bad_entry_in_the_output_is_dropped_once_and_not_carried_forward(tmp_path):
    records = tmp_path / "records"
    shutil.copytree(RECORDS, records)
    out = tmp_path / "site"
    assert build_quietly(records, out, BASE, options=SiteOptions(page_size=2))[0].written
    history_file = out / urls.URLS_PATH
    clean = json.loads(history_file.read_text())
    assert read_history(clean).dropped == []  # every path this build made, paginated listings among them
    assert any("/-/page/" in path for path in clean["lists"])
    history_file.write_text(json.dumps({**clean, "records": {**clean["records"], **HOSTILE}}))
    removed = next(records.glob("python__cpython__extra-data.json"))
    removed.unlink()  # a change, so that the build reads the history
    result, lines = build_quietly(records, out, BASE, options=SiteOptions(page_size=2))
    assert result.written and sum(line.startswith("warning:") for line in lines) == 6
    (records / "extra.json").write_bytes(b"{}")  # another change: a bad record
    result, lines = build_quietly(records, out, BASE, options=SiteOptions(page_size=2))
    assert result.written and not [line for line in lines if line.startswith("warning:")]
    assert (out / "python/cpython/extra-data/index.html").read_text().count("This record was removed") == 1
