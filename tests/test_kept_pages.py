"""A record file broken after a good build keeps its published page: a typo
never tells readers who follow a link that the record was removed."""
from __future__ import annotations

import json
import shutil

from errorsite.tools.reporting import overlay_heading, summary_line
from tests.conftest import build_quietly
from tests.test_incremental import record_data, tree, write_records


def test_a_broken_file_keeps_its_page_permalink_and_search_entry(tmp_path):
    records = write_records(tmp_path / "records", 3)
    first, _ = build_quietly(records, tmp_path / "site")
    site = tmp_path / "site"
    before = tree(site)
    page = next(path for path in before if path.endswith("error-number-1/index.html"))
    (records / "r0001.json").write_text('{"record": {"id": "r0001",, }', "utf-8")
    again, lines = build_quietly(records, site)
    assert lines == [f"{records.as_posix()}/r0001.json: file: invalid JSON at line 1 column 27: "
                     "Expecting property name enclosed in double quotes; kept its page from the previous build"]
    assert again.written and again.records == 3
    assert summary_line(again) == "built 3 records, kept 1 from the previous build — see above"
    # The serve overlay's one sentence says the same (issue 42): never "those records are skipped".
    assert overlay_heading(again) == "1 problem in the records: built 3 records, kept 1 from the previous build."
    assert overlay_heading(first) is None
    after = tree(site)
    assert after[page] == before[page]
    permalink = next(path for path in after if path.startswith("-/r/r0001/") and path.endswith("index.html"))
    assert b"removed" not in after[permalink].lower()
    assert b"error-number-1/" in b"".join(content for path, content in after.items() if path.startswith("-/search/"))
    # Told again by a no-op, and the page stays until the file is fixed or removed.
    third, lines = build_quietly(records, site)
    assert "kept its page from the previous build" in lines[0] and tree(site)[page] == before[page]
    (records / "r0001.json").write_text(json.dumps(record_data(1, solutions=["Fixed."])), "utf-8")
    fixed, lines = build_quietly(records, site)
    assert lines == [] and b"Fixed." in tree(site)[page]


def test_a_broken_file_with_no_page_before_is_skipped_and_strict_still_fails(tmp_path):
    records = write_records(tmp_path / "records", 2)
    (records / "r0009.json").write_text("{", "utf-8")
    result, lines = build_quietly(records, tmp_path / "site")
    assert result.records == 2 and "kept" not in lines[0]
    shutil.copy(records / "r0000.json", tmp_path / "good.json")
    (records / "r0000.json").write_text("{", "utf-8")
    strict, _ = build_quietly(records, tmp_path / "site", strict=True)
    assert not strict.written


def test_old_urls_of_a_broken_file_with_no_page_to_keep_say_temporarily_unavailable(tmp_path):
    """In a fresh folder (a CI build with --previous-manifest) there is no page
    to keep: the broken file's old URLs say it will be back, a deleted file's
    that it was removed."""
    records = write_records(tmp_path / "records", 3)
    first = tmp_path / "first"
    build_quietly(records, first)
    history = tmp_path / "urls.json"
    shutil.copy(first / "-" / "urls.json", history)
    (records / "r0001.json").write_text('{"record": {"id": "r0001", "slug": ', "utf-8")
    (records / "r0002.json").unlink()
    result, lines = build_quietly(records, tmp_path / "ci", previous_manifest=history)
    assert result.records == 1 and "kept" not in lines[0]
    site = tree(tmp_path / "ci")
    broken = site[next(p for p in site if p.endswith("error-number-1/index.html"))]
    gone = site[next(p for p in site if p.endswith("error-number-2/index.html"))]
    assert b"temporarily unavailable" in broken and b"removed" not in broken and b'content="noindex"' in broken
    assert b"This record was removed" in gone
    assert b"temporarily unavailable" in site["-/r/r0001/index.html"]


def test_an_output_inside_the_records_folder_is_never_read_as_records(tmp_path):
    """The site holds no records, though it is full of JSON files, and a
    second build leaves nothing beside it."""
    records = write_records(tmp_path / "records", 3)
    out = records / "public" / "site"
    first, lines = build_quietly(records, out)
    assert (first.records, lines) == (3, [])
    (records / "r0000.json").write_text(json.dumps(record_data(0, solutions=["Edited."])), "utf-8")
    second, lines = build_quietly(records, out)
    assert (second.records, lines) == (3, []) and sorted(p.name for p in (records / "public").iterdir()) == ["site"]
    third, lines = build_quietly(records, out, cache=False)
    assert (third.records, lines) == (3, [])


def test_the_overlay_sentence_says_what_became_of_each_kind_of_problem():
    from errorsite.model import Problem
    from errorsite.pipeline import BuildResult
    problems = [Problem("a.json", "record", "is missing"), Problem("b.json", "tags[0]", "bad", dropped=True),
                Problem("c.json", "file", "invalid JSON; kept its page from the previous build", kept=True)]
    result = BuildResult(records=5, problems=problems, files=9, written=True)
    assert overlay_heading(result) == ("3 problems in the records: built 5 records, kept 1 from the previous build, "
                                       "skipped 1, dropped 1 value.")
    assert overlay_heading(result._replace(written=False)) is None  # the error line says it then
