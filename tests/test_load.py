"""load/: bytes → JSON or a Problem naming the file.

`parse_json` is pure and tested directly; the few tests that need real files
write them under tmp_path (no mocks of the file system).
"""
from __future__ import annotations

import os

import pytest

from errorsite.load import MAX_FILE_BYTES, find_record_files, record_files, load_records, load_static, parse_json
from errorsite.model import Problem


def problem_line(raw) -> str:
    assert raw.data is None
    return str(raw.problem)


def test_parse_json_ok():
    raw = parse_json("r/x.json", b'{"record": {"id": "a"}}')
    assert raw.problem is None
    assert raw.data == {"record": {"id": "a"}}
    assert raw.path == "r/x.json"


def test_parse_json_tolerates_a_utf8_bom():
    raw = parse_json("r/x.json", b'\xef\xbb\xbf{"a": "\xc3\xa9"}')
    assert raw.problem is None
    assert raw.data == {"a": "é"}


def test_invalid_utf8():
    assert problem_line(parse_json("r/x.json", b'{"a": "\xff"}')) == "r/x.json: file: not valid UTF-8 (byte 7)"


def test_latin1_file_is_not_utf8():
    text = '{"a": "café"}'.encode("latin-1")
    assert problem_line(parse_json("r/x.json", text)) == "r/x.json: file: not valid UTF-8 (byte 10)"


@pytest.mark.parametrize("raw, message", [
    (b"", "invalid JSON at line 1 column 1: Expecting value"),
    (b"   \n", "invalid JSON at line 2 column 1: Expecting value"),
    (b'{"a": 1,}', "invalid JSON at line 1 column 9: Expecting property name enclosed in double quotes"),
    (b'{"a": 1}\n{"b": 2}', "invalid JSON at line 2 column 1: Extra data"),
    (b'{\n  "a": tru\n}', "invalid JSON at line 2 column 8: Expecting value"),
    (b'{"a": "unterminated}', "invalid JSON at line 1 column 7: Unterminated string starting at"),
    (b"{'a': 1}", "invalid JSON at line 1 column 2: Expecting property name enclosed in double quotes"),
    (b"[" * 100_000, "invalid JSON: nested too deeply"),
])
def test_bad_json_messages(raw, message):
    assert problem_line(parse_json("r/x.json", raw)) == f"r/x.json: file: {message}"


def test_non_object_json_is_loaded_and_left_to_validate():
    raw = parse_json("r/x.json", b"[1, 2]")
    assert raw.problem is None and raw.data == [1, 2]


def test_find_record_files_is_recursive_sorted_and_json_only(tmp_path):
    for name in ("b.json", "a.json", "sub/c.json", "sub/deeper/d.json", "notes.txt", "e.JSONX"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    (tmp_path / "folder.json").mkdir()
    names = [p.relative_to(tmp_path).as_posix() for p in find_record_files(tmp_path)]
    assert names == ["a.json", "b.json", "sub/c.json", "sub/deeper/d.json"]


def test_record_files_are_ordered_by_parts_and_links_are_told(tmp_path):
    # By parts, as pathlib sorts on Python 3.11 ("a/z" before "a-b"), whatever the version:
    # the order decides which of two duplicates is built.
    for name in ("a-b.json", "a/z.json", "a.json", "real/x.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    (tmp_path / "link.json").symlink_to(tmp_path / "a.json")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    (tmp_path / "linked").symlink_to(tmp_path / "real", target_is_directory=True)  # not walked into
    found = record_files(tmp_path)
    assert [(f.relative, f.is_link) for f in found] == [
        ("a/z.json", False), ("a-b.json", False), ("a.json", False), ("dangling.json", True),
        ("link.json", True), ("real/x.json", False)]
    assert [f.path for f in found] == [tmp_path / f.relative for f in found]
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.json")
                  if p.is_file() or p.is_symlink()) == sorted(f.relative for f in found)


def test_load_records_shows_paths_as_given(tmp_path):
    (tmp_path / "good.json").write_text('{"x": 1}')
    (tmp_path / "bad.json").write_text("{")
    raws = load_records(tmp_path)
    assert [raw.path for raw in raws] == [f"{tmp_path.as_posix()}/bad.json", f"{tmp_path.as_posix()}/good.json"]
    assert raws[0].problem == Problem(f"{tmp_path.as_posix()}/bad.json", "file",
                                      "invalid JSON at line 1 column 2: Expecting property name enclosed in double quotes")
    assert raws[1].data == {"x": 1}


def test_symlink_out_of_the_records_folder_is_refused(tmp_path):
    records = tmp_path / "records"
    records.mkdir()
    secret = tmp_path / "secret.json"
    secret.write_text('{"token": "x"}')
    os.symlink(secret, records / "link.json")
    [raw] = load_records(records)
    assert problem_line(raw) == f"{records.as_posix()}/link.json: file: points outside the records folder"


def test_dangling_symlink_is_reported(tmp_path):
    os.symlink(tmp_path / "missing.json", tmp_path / "dangling.json")
    [raw] = load_records(tmp_path)
    assert problem_line(raw) == f"{tmp_path.as_posix()}/dangling.json: file: symbolic link to nothing: its target does not exist"


def test_symlink_inside_the_records_folder_is_followed(tmp_path):
    (tmp_path / "real.json").write_text('{"a": 1}')
    os.symlink(tmp_path / "real.json", tmp_path / "alias.json")
    assert [raw.data for raw in load_records(tmp_path)] == [{"a": 1}, {"a": 1}]


def test_oversized_file_is_refused_before_reading(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)
    [raw] = load_records(tmp_path)
    assert problem_line(raw) == f"{tmp_path.as_posix()}/big.json: file: file is 5.0 MB, over the 5 MB limit"


def test_unreadable_file_is_reported(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads any file: permissions cannot make one unreadable")
    path = tmp_path / "locked.json"
    path.write_text("{}")
    path.chmod(0)
    [raw] = load_records(tmp_path)
    assert problem_line(raw) == f"{tmp_path.as_posix()}/locked.json: file: cannot read: Permission denied"


def test_load_static_reads_every_file_by_relative_path(tmp_path):
    (tmp_path / "vendor" / "lib").mkdir(parents=True)
    (tmp_path / "vendor" / "lib" / "x.js").write_bytes(b"x")
    (tmp_path / "style.css").write_bytes(b"body{}")
    assert load_static(tmp_path) == {"style.css": b"body{}", "vendor/lib/x.js": b"x"}
