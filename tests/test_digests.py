"""A rebuild trusts a record file's stat, as git trusts its index: an
unchanged file is not read again, and any change to it is still seen."""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from errorsite.load import digests as digest_module  # where file_digests looks its helpers up
from errorsite.load import file_digest, file_digests, record_files, trusted_stats
from errorsite.cache import STATE
from errorsite.cache.folder import state_folder
from errorsite.cache.stored import digests_file, load_digests, save_digests
from tests.conftest import build_quietly

EXAMPLES = Path(__file__).resolve().parent.parent / "records"
LATER = time.time_ns() + 3600 * 10**9  # "now", an hour from now: every file has settled


def digests(folder: Path, known: dict, now: int = LATER, compared: dict | None = None) -> tuple[dict, dict[str, list]]:
    """The digests, and the stats the next build may trust; `compared` names every file unless given."""
    found = record_files(folder)
    names = [file.relative for file in found]
    sources, settled = file_digests(found, names, known, now, dict.fromkeys(names) if compared is None else compared)
    return sources, trusted_stats(settled, sources)


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, "utf-8")
    return folder / name


def test_a_file_whose_stat_is_known_is_not_read_again(tmp_path, monkeypatch):
    write(tmp_path, "a.json", '{"a": 1}')
    write(tmp_path, "b.json", '{"b": 2}')
    first, known = digests(tmp_path, {})
    assert first == {"a.json": file_digest(tmp_path / "a.json"), "b.json": file_digest(tmp_path / "b.json")}
    assert set(known) == {"a.json", "b.json"}
    read = []
    monkeypatch.setattr(digest_module, "file_digest", lambda path: read.append(path.name) or file_digest(path))
    again, _ = digests(tmp_path, known)
    assert again == first and read == []


def test_a_file_no_previous_digest_is_compared_with_is_left_to_its_worker(tmp_path, monkeypatch):
    write(tmp_path, "a.json", '{"a": 1}')
    write(tmp_path, "b.json", '{"b": 2}')
    read = []
    monkeypatch.setattr(digest_module, "file_digest", lambda path: read.append(path.name) or file_digest(path))
    sources, trusted = digests(tmp_path, {}, compared={"b.json": "an old digest"})
    assert sources == {"a.json": None, "b.json": file_digest(tmp_path / "b.json")} and read == ["b.json"]
    assert set(trusted) == {"b.json"}  # a.json's digest is not known yet


def test_a_first_build_takes_each_digest_from_the_bytes_its_worker_read(tmp_path, monkeypatch):
    records = tmp_path / "records"
    shutil.copytree(EXAMPLES, records)
    (records / "broken.json").write_text("{not json", "utf-8")
    monkeypatch.setattr(digest_module, "SETTLED_NS", -3600 * 10**9)  # every file counts as settled
    build_quietly(records, tmp_path / "site")
    saved = json.loads(digests_file(state_folder(tmp_path / "site")).read_text())["stats"]
    assert {name: entry[-1] for name, entry in saved.items()} == \
        {path.name: file_digest(path) for path in records.glob("*.json")}
    marker = json.loads((state_folder(tmp_path / "site") / STATE).read_text())
    assert marker["sources"] == {path.name: file_digest(path) for path in records.glob("*.json")}


def test_a_change_that_keeps_size_and_mtime_is_still_seen(tmp_path):
    path = write(tmp_path, "a.json", '{"a": 1}')
    _, known = digests(tmp_path, {})
    info = path.stat()
    time.sleep(0.01)  # past the clock tick that stamped the first write
    path.write_text('{"a": 2}', "utf-8")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))  # the ctime moves all the same
    again, _ = digests(tmp_path, known)
    assert again["a.json"] == file_digest(path) != known["a.json"][-1]


def test_files_changed_just_before_the_build_and_links_are_not_remembered(tmp_path):
    write(tmp_path, "old.json", '{"a": 1}')
    (tmp_path / "link.json").symlink_to(tmp_path / "old.json")
    sources, remembered = digests(tmp_path, {}, now=time.time_ns())  # old.json changed a moment ago
    assert set(sources) == {"old.json", "link.json"} and remembered == {}
    _, remembered = digests(tmp_path, {})
    assert set(remembered) == {"old.json"}


def test_a_known_entry_for_another_records_folder_or_a_foreign_file_is_ignored(tmp_path):
    kept = tmp_path / "site"
    save_digests(kept, "/records/one", {"a.json": [1, 2, 3, 4, 5, "abc"]})
    assert load_digests(digests_file(kept), "/records/one") == {"a.json": [1, 2, 3, 4, 5, "abc"]}
    assert load_digests(digests_file(kept), "/records/two") == {}
    other = tmp_path / "other"
    other.mkdir()
    (other / "digests").write_text("my notes")
    save_digests(other, "/records/one", {})
    assert (other / "digests").read_text() == "my notes"  # not ours: never replaced
    assert sorted(p.name for p in other.iterdir()) == ["digests"]


def test_a_rebuild_that_trusts_the_stats_equals_a_clean_build(tmp_path, monkeypatch):
    records = tmp_path / "records"
    shutil.copytree(EXAMPLES, records)
    monkeypatch.setattr(digest_module, "SETTLED_NS", -3600 * 10**9)  # every file counts as settled
    build_quietly(records, tmp_path / "site")
    saved = json.loads(digests_file(state_folder(tmp_path / "site")).read_text())
    assert saved["records"] == records.resolve().as_posix() and len(saved["stats"]) == len(list(records.glob("*.json")))
    history = tmp_path / "urls.json"  # the URL history is not a cache: the clean build gets it too
    shutil.copy(tmp_path / "site" / "-" / "urls.json", history)
    path = sorted(records.glob("*.json"))[0]
    info, text = path.stat(), path.read_text("utf-8")
    start = text.index('"documentation": "') + len('"documentation": "')
    edited = text[:start] + ("X" if text[start] != "X" else "Y") + text[start + 1:]  # the same size
    time.sleep(0.01)
    path.write_text(edited, "utf-8")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    incremental, _ = build_quietly(records, tmp_path / "site")
    clean, _ = build_quietly(records, tmp_path / "clean", cache=False, previous_manifest=history)
    assert incremental.written and clean.written and incremental.reused == clean.records - 1
    site = {p.relative_to(tmp_path / "site"): p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file()}
    fresh = {p.relative_to(tmp_path / "clean"): p.read_bytes() for p in (tmp_path / "clean").rglob("*") if p.is_file()}
    assert site == fresh
