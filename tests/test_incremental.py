"""Parallel equals serial, and an incremental build equals a clean one, byte
for byte, after each kind of change; unchanged files keep their inode and mtime."""
from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from errorsite import cache
from errorsite.pages import render, sitewide
from errorsite import records as records_module
from errorsite.cache import keys, planning, stored
from errorsite.cache.folder import state_folder
from errorsite.cache.outcomes import OutcomesAltered, previous_outcomes
from errorsite.model import StoredSummary, Summary, whole
from tests.conftest import build_quietly

pytestmark = pytest.mark.slow  # real multi-process builds of a 204-record corpus

GOOD = Path(__file__).parent / "fixtures" / "bad" / "good-dataclass-on-model.json"
BASE = json.loads(GOOD.read_text(encoding="utf-8"))
COUNT = 204  # just above records.PARALLEL_THRESHOLD, so -j 2 really uses worker processes
REPOS = ["pydantic/pydantic", "spf13/cobra", "redis/redis", "tags/search"]


def record_data(i: int, **changes) -> dict:
    data = copy.deepcopy(BASE)
    data["record"].update(id=f"r{i:04d}", slug=f"error-number-{i}", errorMessage=f"Error number {i} went wrong",
                          messagePattern=None, repo=REPOS[i % len(REPOS)], tags=[f"t{i % 7}", "python"],
                          lineNumber=118 + i % 30, analyzedAt=f"2026-11-{1 + i % 28:02d}T00:00:00Z")
    data["record"].update(changes)
    return data


def write_records(folder: Path, count: int = COUNT) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / f"r{i:04d}.json").write_text(json.dumps(record_data(i), indent=1), "utf-8")
    return folder


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def stats(root: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(root).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()}


def built(records: Path, out: Path, **options) -> Path:
    result, problems = build_quietly(records, out, **options)
    assert result.written and problems == [], problems
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return write_records(tmp_path_factory.mktemp("corpus") / "records")


def test_parallel_build_equals_serial(corpus, tmp_path):
    serial = built(corpus, tmp_path / "serial", jobs=1)
    parallel = built(corpus, tmp_path / "parallel", jobs=2)
    assert tree(parallel) == tree(serial)
    assert len([p for p in tree(serial) if p.endswith("/index.html")]) > COUNT


def edit(records: Path) -> None:
    path = records / "r0007.json"
    data = json.loads(path.read_text("utf-8"))
    data["record"]["documentation"] = "Rewritten: the **new** explanation."
    path.write_text(json.dumps(data), "utf-8")


def add(records: Path) -> None:
    (records / "r9999.json").write_text(json.dumps(record_data(9999, tags=["brand-new"])), "utf-8")


def remove(records: Path) -> None:
    (records / "r0011.json").unlink()


def rename_slug(records: Path) -> None:
    path = records / "r0013.json"
    data = json.loads(path.read_text("utf-8"))
    data["record"]["slug"] = "a-reworded-slug"
    path.write_text(json.dumps(data), "utf-8")


def rename_file(records: Path) -> None:
    (records / "r0017.json").rename(records / "renamed-file.json")


CHANGES = {"record edited": edit, "record added": add, "record removed": remove,
           "slug renamed": rename_slug, "file renamed": rename_file}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_incremental_equals_clean_after_a_change(corpus, tmp_path, change):
    records = tmp_path / "records"
    shutil.copytree(corpus, records)
    site = built(records, tmp_path / "site", jobs=2)
    before, old_bytes = stats(site), tree(site)
    history = tmp_path / "urls.json"  # the URL history is not a cache: the clean build gets it too
    shutil.copy(site / "-" / "urls.json", history)
    CHANGES[change](records)
    result, _ = build_quietly(records, site, jobs=2)
    clean = built(records, tmp_path / "clean", jobs=2, cache=False, previous_manifest=history)
    assert tree(site) == tree(clean)
    # The unchanged outcomes' lines were copied from the previous file: the same bytes as written anew.
    assert (state_folder(site) / cache.OUTCOME_FILE).read_bytes() == \
        (state_folder(clean) / cache.OUTCOME_FILE).read_bytes()
    # Only the changed record's page was rendered again.
    assert result.reused >= result.records - 1 and result.reused >= COUNT - 2
    after, new_bytes = stats(site), tree(site)
    unchanged = [path for path, content in new_bytes.items() if old_bytes.get(path) == content]
    assert len(unchanged) >= COUNT - 2
    # An unchanged file is the previous build's file, linked: same inode, same mtime.
    assert [path for path in unchanged if after[path] != before[path]] == []


def test_a_no_op_rebuild_rewrites_no_file(corpus, tmp_path):
    site = built(corpus, tmp_path / "site", jobs=2)
    before = stats(site)
    result, _ = build_quietly(corpus, site, jobs=2)
    assert result.reused == result.records == COUNT
    assert stats(site) == before  # nothing rewritten, not even the marker: the site is left as it was


def test_a_template_edit_renders_every_record_page_again(corpus, tmp_path, monkeypatch):
    """The templates are part of every page's key: edit one, and no page is reused."""
    site = built(corpus, tmp_path / "site", jobs=1)
    history = tmp_path / "urls.json"
    shutil.copy(site / "-" / "urls.json", history)
    templates = tmp_path / "templates"
    shutil.copytree(render.TEMPLATES, templates)
    record_html = templates / "record.html"
    record_html.write_text(record_html.read_text().replace("</article>", "<p>edited</p></article>", 1))
    monkeypatch.setattr(render, "TEMPLATES", templates)
    monkeypatch.setattr(keys, "TEMPLATES", templates)
    result, _ = build_quietly(corpus, site, jobs=1)
    assert result.reused == 0
    clean = built(corpus, tmp_path / "clean", jobs=1, cache=False, previous_manifest=history)
    assert tree(site) == tree(clean)
    assert b"<p>edited</p>" in (site / "pydantic/pydantic/error-number-0/index.html").read_bytes()


def test_a_different_base_url_reuses_nothing(corpus, tmp_path):
    site = built(corpus, tmp_path / "site", jobs=2)
    result, _ = build_quietly(corpus, site, base_url="https://example.org/moved/", jobs=2)
    assert result.reused == 0
    assert b"https://example.org/moved/" in (site / "pydantic/pydantic/error-number-0/index.html").read_bytes()


def test_a_no_op_rebuild_reports_the_same_problems_without_reading_a_record(tmp_path):
    records = write_records(tmp_path / "records", 20)
    (records / "bad.json").write_text('{"record": {"id": 1}}')
    (records / "odd.json").write_text(json.dumps(record_data(99, tags=["🔥"])))
    first, first_lines = build_quietly(records, tmp_path / "site")
    again, again_lines = build_quietly(records, tmp_path / "site")
    assert again_lines == first_lines and len(first_lines) == 8  # 7 for bad.json, 1 dropped tag
    assert (again.records, again.reused) == (first.records, first.records) == (21, 21)
    assert again.timings.keys() == {"read", "unchanged"}  # no record was parsed, nothing rendered
    strict, _ = build_quietly(records, tmp_path / "site", strict=True)
    assert not strict.written


def test_an_edit_that_keeps_every_summary_reuses_the_global_pages(corpus, tmp_path, monkeypatch):
    """The first build starts from no URL history and its rebuild from the one
    it wrote; merged with the same records both say the same, so an edit the
    listings never show (a prevention tip: the first solution is on every
    list row and card) renders one page and links the rest, without merging
    the history again to find that out."""
    records = tmp_path / "records"
    shutil.copytree(corpus, records)
    site = built(records, tmp_path / "site", jobs=2)
    history = tmp_path / "urls.json"
    shutil.copy(site / "-" / "urls.json", history)
    path = records / "r0007.json"
    data = json.loads(path.read_text("utf-8"))
    data["record"]["preventionTips"] = ["An edited tip."]
    path.write_text(json.dumps(data), "utf-8")
    with monkeypatch.context() as patched:
        patched.setattr(sitewide, "history_key", lambda *args: pytest.fail("the history was merged again"))
        # Nor are the unchanged summaries read from their JSON, or hashed again:
        # only the edited record's, to compare with the one it has now.
        read, real_summary = [], StoredSummary.summary
        patched.setattr(StoredSummary, "summary", lambda stored: read.append(stored.id) or real_summary(stored))
        patched.setattr(sitewide, "summaries_key", lambda *args: pytest.fail("the summaries were hashed again"))
        result, _ = build_quietly(records, site, jobs=2)
    assert "global pages reused" in result.timings and result.reused == COUNT - 1
    assert read == ["r0007"]
    clean = built(records, tmp_path / "clean", jobs=2, cache=False, previous_manifest=history)
    assert tree(site) == tree(clean)


@pytest.mark.parametrize("change", [{"solutions": ["An edited first solution."]}, {"errorMessage": "Edited"},
                                    {"repo": "redis/redis"}], ids=["fix", "message", "repo"])
def test_an_edit_to_a_summary_makes_the_global_pages_again(tmp_path, change):
    """The same record files as before, one of them read again: its summary
    is compared with the one it had, and a change to it is a change to the
    listings, the search data and the rest."""
    records = write_records(tmp_path / "records", 12)
    site = built(records, tmp_path / "site")
    history = tmp_path / "urls.json"
    shutil.copy(site / "-" / "urls.json", history)
    (records / "r0005.json").write_text(json.dumps(record_data(5, **change)))
    again, _ = build_quietly(records, site)
    assert "global pages reused" not in again.timings and again.reused == 11
    clean = built(records, tmp_path / "clean", cache=False, previous_manifest=history)
    assert tree(site) == tree(clean)


def test_a_rebuild_reads_only_the_record_files_that_changed(tmp_path, monkeypatch):
    """An unchanged file's problems, summary and pages come from the previous
    build's marker; only the edited file and the new one are loaded."""
    records = write_records(tmp_path / "records", 20)
    (records / "odd.json").write_text(json.dumps(record_data(99, tags=["🔥"])))
    first, first_lines = build_quietly(records, tmp_path / "site")
    history = tmp_path / "urls.json"
    shutil.copy(tmp_path / "site" / "-" / "urls.json", history)
    (records / "r0003.json").write_text(json.dumps(record_data(3, solutions=["Edited."])))
    (records / "r0100.json").write_text(json.dumps(record_data(100)))
    loaded = []
    real_load = records_module.load_file
    monkeypatch.setattr(records_module, "load_file", lambda path, root: loaded.append(path.name) or real_load(path, root))
    again, again_lines = build_quietly(records, tmp_path / "site")
    assert sorted(loaded) == ["r0003.json", "r0100.json"]
    assert again_lines == first_lines and len(again_lines) == 1  # odd.json's dropped tag, told again
    assert (again.records, again.reused) == (22, 20)
    clean, _ = build_quietly(records, tmp_path / "clean", cache=False, previous_manifest=history)
    assert tree(tmp_path / "site") == tree(tmp_path / "clean")


@pytest.mark.parametrize("beside", [False, True], ids=["looked up here", "looked up beside"])
def test_served_files_deleted_by_hand_are_made_again(tmp_path, monkeypatch, beside):
    """The state claims every file its build wrote; the served files decide,
    looked up in a process beside the reading of the outcomes when they are
    many (stored.ServedLookup): a record page and a listing deleted by hand
    come back, and only the record whose page went is read again."""
    monkeypatch.setattr(stored, "LOOKED_UP_BESIDE", 0 if beside else 10**9)
    records = write_records(tmp_path / "records", 20)
    site = built(records, tmp_path / "site")
    history = tmp_path / "urls.json"
    shutil.copy(site / "-" / "urls.json", history)
    (site / "tags/search/error-number-3/index.html").unlink()
    (site / "tags/search/index.html").unlink()
    loaded = []
    real_load = records_module.load_file
    monkeypatch.setattr(records_module, "load_file", lambda path, root: loaded.append(path.name) or real_load(path, root))
    again, _ = build_quietly(records, site)
    assert loaded == ["r0003.json"] and (again.records, again.reused) == (20, 19)
    clean = built(records, tmp_path / "clean", cache=False, previous_manifest=history)
    assert tree(site) == tree(clean)


@pytest.mark.parametrize("beside", [False, True], ids=["looked up here", "looked up beside"])
def test_a_record_read_again_keeps_its_pages_when_they_are_the_same(tmp_path, monkeypatch, beside):
    """Files whose bytes changed but not their record (the JSON laid out
    anew) are read again; their pages are keyed by the record (the outcomes
    file names each page and its key), so they are the served ones, not made
    again, unless one of their files is gone."""
    monkeypatch.setattr(stored, "LOOKED_UP_BESIDE", 0 if beside else 10**9)
    records = write_records(tmp_path / "records", 6)
    site = built(records, tmp_path / "site")
    history = tmp_path / "urls.json"
    shutil.copy(site / "-" / "urls.json", history)
    (records / "r0001.json").write_text(json.dumps(record_data(1)))
    (records / "r0003.json").write_text(json.dumps(record_data(3)))
    (site / "tags/search/error-number-3/index.html").unlink()
    rendered = []
    real = records_module.record_page
    monkeypatch.setattr(records_module, "record_page",
                        lambda env, record, *rest: rendered.append(record.id) or real(env, record, *rest))
    loaded = []
    real_load = records_module.load_file
    monkeypatch.setattr(records_module, "load_file", lambda path, root: loaded.append(path.name) or real_load(path, root))
    again, _ = build_quietly(records, site)
    assert sorted(loaded) == ["r0001.json", "r0003.json"] and again.records == 6
    assert rendered == ["r0003"]
    assert "pages" not in json.loads((state_folder(site) / cache.STATE).read_text())  # the outcomes name them
    clean = built(records, tmp_path / "clean", cache=False, previous_manifest=history)
    assert tree(site) == tree(clean)


def test_the_served_files_are_the_ones_the_outcomes_and_the_state_name(tmp_path):
    """stored.served_files: the record pages the outcomes file names, found or
    missing, and the global pages; an outcomes file that is not the one the
    state names confirms no record page."""
    kept, out = tmp_path / "cache", tmp_path / "site"
    for name in ("o/r/a/index.html", "-/r/a1/index.html", "-/tags/index.html"):
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text("x")
    stored.save_state(kept, {"outcomes": {"a.json": [[], None, ["o/r/a/", "-/r/a1/", "-/r/a1.md"], "k1"],
                                          "b.json": [[], None, [], None]}})
    digest = json.loads((kept / cache.STATE).read_text())["outcomes_digest"]
    served = stored.served_files(out, kept, digest, ["-/tags/", "-/repos/"])
    assert set(served.inodes()) == {"o/r/a/index.html", "-/r/a1/index.html", "-/tags/index.html"}
    assert (served.missing, served.record_pages, served.global_pages) == ({"-/r/a1.md"}, 3, False)
    assert stored.served_files(out, kept, digest, ["-/tags/"]).global_pages
    altered = stored.served_files(out, kept, "0" * 24, ["-/tags/"])
    assert (set(altered.inodes()), altered.missing, altered.record_pages) == ({"-/tags/index.html"}, frozenset(), -1)


def test_records_read_from_another_folder_are_read_again(tmp_path):
    """Problems name files by the records folder as given, so cached ones stay with it."""
    records = write_records(tmp_path / "records", 3)
    (records / "odd.json").write_text(json.dumps(record_data(99, tags=["🔥"])))
    build_quietly(records, tmp_path / "site")
    moved = records.rename(tmp_path / "moved")
    again, lines = build_quietly(moved, tmp_path / "site")
    assert again.records == 4 and lines == [f"{moved.as_posix()}/odd.json: tags[0]: dropped: \"🔥\" has no letters or digits"]


def test_only_the_outcomes_file_the_state_names_is_read(tmp_path):
    """Its summaries are read only when a step needs them (model.StoredSummary),
    so the whole file must be the one the previous build wrote: any other
    bytes, a line cut short among them, and none of it stands."""
    kept = tmp_path / "cache"
    summary = Summary("a.json", "a1", "o/r", "a", "A <failed>", None, None, "t", None, "error", None, ("x",),
                      None, None, "Card.")
    stored.save_state(kept, {"outcomes": {"a.json": [[], summary, ["o/r/a/"], "k1"], "b.json": [[], None, [], None]}})
    digest = json.loads((kept / cache.STATE).read_text())["outcomes_digest"]
    (key, (problems, read, paths, page_key)), (other, rejected) = previous_outcomes(kept, digest).entries
    assert (key, problems, paths, page_key) == ("a.json", [], ["o/r/a/"], "k1")
    assert (other, rejected) == ("b.json", [[], None, [], None])
    assert (read.source_file, read.id, read.repo, read.slug) == ("a.json", "a1", "o/r", "a")
    assert whole(read) == summary
    content = (kept / cache.OUTCOME_FILE).read_bytes()
    for damaged in (content[:-1], content.replace(b"Card.", b"Card!"), content.replace(b"\t", b" ", 1),
                    content + b'["c.json",[],[],null,null]\tnull\n'):
        (kept / cache.OUTCOME_FILE).write_bytes(damaged)
        with pytest.raises(OutcomesAltered):
            list(previous_outcomes(kept, digest).entries)
    for none in (previous_outcomes(kept, ""), previous_outcomes(tmp_path / "none", digest)):  # a state that names none
        assert none.file is None and list(none.entries) == []                                 # and no file


def test_the_outcomes_file_is_read_only_by_a_rebuild_that_renders(tmp_path, monkeypatch):
    """The outcomes live apart from the marker: a no-op never reads their
    summaries (only the pages they name, stored.served_files), and a damaged
    copy costs a rebuild its speed, never its output."""
    records = write_records(tmp_path / "records", 6)
    site = built(records, tmp_path / "site")
    outcomes = state_folder(site) / cache.OUTCOME_FILE
    lines = outcomes.read_text().splitlines()
    assert [json.loads(line.partition("\t")[0])[0] for line in lines] == [f"r{i:04d}.json" for i in range(6)]  # one a line, in order
    assert "outcomes" not in json.loads((state_folder(site) / cache.STATE).read_text())
    opened = []
    real_outcomes = previous_outcomes
    monkeypatch.setattr(planning, "previous_outcomes",
                        lambda out, *rest: opened.append(out) or real_outcomes(out, *rest))
    assert build_quietly(records, site)[0].reused == 6 and opened == []  # a no-op
    history = tmp_path / "urls.json"
    shutil.copy(site / "-" / "urls.json", history)
    (records / "r0002.json").write_text(json.dumps(record_data(2, solutions=["Edited."])))
    outcomes.write_text("[not an object")
    loaded = []
    real_load = records_module.load_file
    monkeypatch.setattr(records_module, "load_file", lambda path, root: loaded.append(path.name) or real_load(path, root))
    build_quietly(records, site)
    assert opened == [state_folder(site)] and len(loaded) == 6  # every record read again
    clean = built(records, tmp_path / "clean", cache=False, previous_manifest=history)
    assert tree(site) == tree(clean)


def test_two_file_names_that_print_alike_are_two_files_to_the_cache(tmp_path):
    """`x<newline>.json` and `x\\n.json` print the same in a report, but the
    build's state keys each by its real name: an edit to either is seen."""
    records = tmp_path / "records"
    records.mkdir()
    newline, backslash = records / "x\n.json", records / "x\\n.json"
    newline.write_text(json.dumps(record_data(1)))
    backslash.write_text(json.dumps(record_data(2)))
    built(records, tmp_path / "site")
    backslash.write_text(json.dumps(record_data(2, solutions=["Edited."])))
    again, _ = build_quietly(records, tmp_path / "site")
    assert (again.records, again.reused) == (2, 1)
    assert any(b"Edited." in page.read_bytes() for page in (tmp_path / "site").rglob("index.html"))
    newline.write_text(json.dumps(record_data(1, solutions=["Also edited."])))
    third, _ = build_quietly(records, tmp_path / "site")
    assert (third.records, third.reused) == (2, 1)
    assert any(b"Also edited." in page.read_bytes() for page in (tmp_path / "site").rglob("index.html"))


def test_nothing_private_is_published(tmp_path):
    """The state a rebuild needs (the records' paths, their problems, every
    outcome) and the spare (the site before, the next build's start) stay in
    the build's cache folder, and nothing is beside the output;
    inside, a marker of a few hundred bytes with no paths. A state file that is
    not the served site's is not trusted."""
    records = write_records(tmp_path / "deep" / "secret-folder-name" / "records", 3)
    (records / "odd.json").write_text(json.dumps(record_data(99, tags=["🔥"])))
    site = built_with_problems(records, tmp_path / "site")
    hidden = [path for path in site.rglob(".*") if path.is_file()]
    assert [path.name for path in hidden] == [cache.MARKER, ".nojekyll"] or \
        sorted(path.name for path in hidden) == sorted([cache.MARKER, ".nojekyll"])
    assert sum(path.stat().st_size for path in hidden) < 1024
    for path in site.rglob("*"):
        if path.is_file():
            content = path.read_bytes()
            assert b"secret-folder-name" not in content and b"odd.json" not in content, path
    kept = state_folder(site)
    assert (kept / cache.STATE).is_file() and (kept / cache.OUTCOME_FILE).is_file()
    # nothing beside the site; the spare, in the cache, is the twin of the site, linked
    assert sorted(path.name for path in site.parent.iterdir()) == ["deep", "site"]
    assert sorted(path.name for path in (kept / "spare").rglob(".*") if path.is_file()) == \
        sorted([cache.LISTING, cache.MARKER, ".nojekyll"])
    assert build_quietly(records, site)[0].timings.keys() == {"read", "unchanged"}
    state = kept / cache.STATE
    state.write_bytes(state.read_bytes().replace(b'"records":4', b'"records":5'))
    again, _ = build_quietly(records, site)
    assert "unchanged" not in again.timings and again.records == 4  # not trusted: built again


def built_with_problems(records, out):
    result, _ = build_quietly(records, out)
    assert result.written
    return out
