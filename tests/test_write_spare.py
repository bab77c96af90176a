"""The spare: a rebuild keeps the site it replaced in the build's own folder
of the cache (never beside the output, where a host would serve it) and
starts the next build from it, so unchanged files are
already in place and only what changed is written; a first build, which
replaces no site, leaves its new site's twin there (hard links to its files).
Whatever the spare holds, the new site is exactly its pages, and the site
being served is never touched."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from errorsite.model import Page, Reuse
from errorsite.urls import output_name
from errorsite import cache
from errorsite.cache import stored
from errorsite.cache.folder import state_folder
from errorsite.write import spare as spare_module, staging
from errorsite.write import MARKER, WriteFailed, write_site


def spare_of(out: Path) -> Path:
    return state_folder(out) / cache.SPARE


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != MARKER}


def inodes(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): p.stat().st_ino for p in sorted(root.rglob("*")) if p.is_file()}


def pages(site: dict[str, bytes]) -> list[Page]:
    return [Page(path, content) for path, content in sorted(site.items())]


def expected(site: dict[str, bytes]) -> dict[str, bytes]:
    return {(path + "index.html" if path.endswith("/") or path == "" else path): content
            for path, content in site.items()}


FIRST = {"": b"home 1", "a/": b"a", "a/b/": b"a b", "c/": b"c", "d.json": b"{}", "gone/deep/": b"x"}
SECOND = {"": b"home 2", "a/": b"a", "a/b/": b"a b 2", "c/": b"c", "d.json": b"{}", "new/": b"new"}
# A file where a folder was (c/index.html's folder c → file c), a folder where a file was
# (d.json → d.json/), a folder emptied, a page back that the spare's site had.
THIRD = {"": b"home 2", "a/": b"a", "a/b/": b"a b 3", "c": b"c is a file", "d.json/": b"a folder",
         "gone/deep/": b"x again", "new/": b"new"}


def test_builds_from_the_spare_equal_builds_from_nothing(tmp_path):
    out = tmp_path / "site"
    spare = spare_of(out)
    for number, site in enumerate((FIRST, SECOND, THIRD, FIRST, THIRD), 1):
        before = inodes(out) if out.exists() else {}
        before_bytes = tree(out) if out.exists() else {}
        write_site(out, pages(site), report=lambda line: None)
        assert tree(out) == expected(site), number
        after = inodes(out)
        # A file whose bytes did not change is the previous build's file: same inode.
        assert all(after[p] == before[p] for p, content in tree(out).items() if before_bytes.get(p) == content)
        # The site it replaced; after the first build, the site's twin.
        assert without_listing(tree(spare)) == expected((FIRST, FIRST, SECOND, THIRD, FIRST, THIRD)[number - 1])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_a_failed_build_from_the_spare_leaves_the_site_and_removes_what_it_wrote(tmp_path):
    out = tmp_path / "site"
    write_site(out, pages(FIRST), report=lambda line: None)
    write_site(out, pages(SECOND), report=lambda line: None)
    served, served_inodes = tree(out), inodes(out)

    def failing():
        yield from pages(THIRD)[:4]  # a changed page among them: the spare's copy is unlinked, not written into
        raise OSError(28, "No space left on device")

    with pytest.raises(WriteFailed):
        write_site(out, failing(), report=lambda line: None)
    assert tree(out) == served and inodes(out) == served_inodes
    # The spare it began from was half rewritten: gone with the rest, so a full disk is freed.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    write_site(out, pages(THIRD), report=lambda line: None)  # from nothing
    assert tree(out) == expected(THIRD)


def test_a_spare_not_made_by_a_build_is_never_used(tmp_path):
    out = tmp_path / "site"
    foreign = spare_of(out)
    foreign.mkdir(parents=True)
    (foreign / "notes.txt").write_text("mine")
    write_site(out, pages(FIRST), report=lambda line: None)
    write_site(out, pages(SECOND), report=lambda line: None)
    assert (foreign / "notes.txt").read_text() == "mine" and tree(out) == expected(SECOND)


def test_reused_files_link_to_the_served_site_not_to_the_spare(tmp_path):
    out = tmp_path / "site"
    write_site(out, pages(FIRST), report=lambda line: None)
    write_site(out, pages(SECOND), report=lambda line: None)
    served = inodes(out)
    write_site(out, [Reuse(path) for path in sorted(SECOND)], report=lambda line: None)
    assert inodes(out) == {**served, MARKER: inodes(out)[MARKER]}
    assert os.stat(out / "a" / "b" / "index.html").st_nlink == 2  # the site and the spare: no third copy


def test_the_marker_written_in_pieces_is_inert_json_byte_for_byte():
    from errorsite.model import inert_json, inert_json_pieces
    value = {"outcomes": {"b.json": [[], ["<script>", "é", None, ("t",)], ["a/"], "k"], "a&b.json": [1.5, {"z": 1, "a": 2}]},
             "files": 3, "</x>": {"deep": {"er": "&"}}, "empty": {}}
    assert b"".join(inert_json_pieces(value)) == inert_json(value)
    assert b"".join(inert_json_pieces([1, "<"])) == inert_json([1, "<"])
    many = {"pages": {f"r{i}/<{i % 7}>/": f"k{i}" for i in range(1234)}, "n": 1}  # more than one piece of keys
    assert b"".join(inert_json_pieces(many)) == inert_json(many)


# ---- The spare's listing: a rebuild starts from it without walking the spare ----

def write_listed(out: Path, site: dict[str, bytes], page_list=None) -> None:
    """As a build does: the outcomes name the pages, and the next write is given
    what previous_build found of the served site, as the plan hands it on."""
    previous = stored.previous_build(out, state_folder(out))
    state = {"outcomes": {"a.json": [[], None, list(site), "key"]}, "page_files": len(site)}
    write_site(out, page_list if page_list is not None else pages(site), report=lambda line: None,
               finish=lambda returned: stored.save_state(state_folder(out), dict(state)),
               keep=previous.keep)


def without_listing(site: dict[str, bytes]) -> dict[str, bytes]:
    return {name: content for name, content in site.items() if name != cache.LISTING}


def counting_walks(monkeypatch) -> list[str]:
    walks, real = [], staging.existing_tree
    monkeypatch.setattr(staging, "existing_tree", lambda root: walks.append(root) or real(root))
    return walks


def test_a_listed_spare_is_not_walked_and_builds_equal_builds_from_nothing(tmp_path, monkeypatch):
    out = tmp_path / "site"
    spare = spare_of(out)
    walks = counting_walks(monkeypatch)
    sites = (FIRST, SECOND, THIRD, FIRST, THIRD, SECOND)
    for number, site in enumerate(sites, 1):
        before, before_bytes = (inodes(out), tree(out)) if out.exists() else ({}, {})
        write_listed(out, site)
        assert tree(out) == expected(site), number
        after = inodes(out)
        assert all(after[p] == before[p] for p, content in tree(out).items() if before_bytes.get(p) == content)
        assert without_listing(tree(spare)) == expected(sites[max(number - 2, 0)])
        assert spare_module.listed_files((spare / cache.LISTING).read_bytes()) == \
            {name: inode for name, inode in inodes(spare).items() if name not in (MARKER, cache.LISTING)}
    assert walks == []  # the first build had no spare, the others a listed one
    assert cache.LISTING not in tree(out)


def test_a_build_that_fails_from_a_listed_spare_leaves_no_spare(tmp_path, monkeypatch):
    out = tmp_path / "site"
    spare = spare_of(out)
    for site in (FIRST, SECOND, THIRD):
        write_listed(out, site)
    served, served_inodes = tree(out), inodes(out)

    def failing():
        yield from pages(FIRST)[:4]
        raise OSError(28, "No space left on device")

    with pytest.raises(WriteFailed):
        write_listed(out, FIRST, failing())
    assert tree(out) == served and inodes(out) == served_inodes
    assert not spare.exists()  # half changed, and removed with the rest of the failed build's folder
    walks = counting_walks(monkeypatch)
    write_listed(out, FIRST)
    assert tree(out) == expected(FIRST) and walks == []  # from nothing: no spare to walk


def test_a_file_added_to_the_spare_by_hand_makes_its_listing_untrusted(tmp_path, monkeypatch):
    out = tmp_path / "site"
    spare = spare_of(out)
    for site in (FIRST, SECOND):
        write_listed(out, site)
    (spare / "CNAME").write_text("errors.example.org")
    walks = counting_walks(monkeypatch)
    write_listed(out, THIRD)
    assert tree(out) == expected(THIRD) and len(walks) == 1


def test_a_site_replaced_by_another_build_in_between_is_not_listed(tmp_path):
    """What previous_manifest found describes the served folder it looked at;
    if another build swapped in a new site before this one took the lock, the
    site this build replaces is another, and no listing is left for it."""
    out = tmp_path / "site"
    spare = spare_of(out)
    for site in (FIRST, SECOND):
        write_listed(out, site)
    previous = stored.previous_build(out, state_folder(out))
    write_listed(out, THIRD)  # the other build
    write_site(out, pages(FIRST), report=lambda line: None,
               finish=lambda returned: stored.save_state(state_folder(out), {"pages": {p: "key" for p in FIRST}}),
               keep=previous.keep)
    assert tree(out) == expected(FIRST) and without_listing(tree(spare)) == expected(THIRD)
    assert not (spare / cache.LISTING).exists()


def test_a_first_build_leaves_its_sites_twin_as_the_spare(tmp_path):
    """No site to replace, so none to keep: the spare is the new site's twin,
    every file a hard link to the served one, so the next build finds each
    unchanged file in place and writes only what changed."""
    out = tmp_path / "site"
    spare = spare_of(out)
    write_listed(out, FIRST)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    served = inodes(out)
    assert {name: inode for name, inode in inodes(spare).items() if name != cache.LISTING} == served  # marker too
    assert all(os.stat(out / name).st_nlink == 2 for name in served)
    assert not (spare / staging.STAGING_MARK).exists() and (spare / MARKER).exists()
    write_listed(out, SECOND)
    after = inodes(out)
    changed = {name for name, content in expected(SECOND).items() if expected(FIRST).get(name) != content}
    assert changed == {"index.html", "a/b/index.html", "new/index.html"}
    assert {name for name in after if after[name] != served.get(name)} == changed | {MARKER}
    assert tree(out) == expected(SECOND) and without_listing(tree(spare)) == expected(FIRST)


def test_a_first_build_that_fails_leaves_neither_site_nor_twin(tmp_path):
    out = tmp_path / "site"

    def failing():
        yield from pages(FIRST)[:4]
        raise OSError(28, "No space left on device")

    with pytest.raises(WriteFailed):
        write_site(out, failing(), report=lambda line: None)
    assert list(tmp_path.iterdir()) == []
    assert [p.name for p in state_folder(out).iterdir() if p.name.startswith(("twin", "spare"))] == []


def test_a_first_build_where_files_cannot_be_linked_leaves_no_twin(tmp_path, monkeypatch):
    """A file system without hard links (FAT, some network shares) refuses the
    twin's links: the build goes on without one, and the next starts from nothing."""
    out = tmp_path / "site"
    real_link = os.link

    def no_links_into_twins(source, target, *args, **kwargs):
        if "/twin-" in str(target):
            raise PermissionError(1, "Operation not permitted")
        return real_link(source, target, *args, **kwargs)

    monkeypatch.setattr(staging.os, "link", no_links_into_twins)
    write_site(out, pages(FIRST), report=lambda line: None)
    assert tree(out) == expected(FIRST) and sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_a_first_build_over_a_foreign_spare_leaves_no_twin(tmp_path):
    out = tmp_path / "site"
    foreign = spare_of(out)
    foreign.mkdir(parents=True)
    (foreign / "notes.txt").write_text("mine")
    write_site(out, pages(FIRST), report=lambda line: None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"] and tree(out) == expected(FIRST)


def test_a_served_file_missing_leaves_the_spare_unlisted(tmp_path):
    out = tmp_path / "site"
    spare = spare_of(out)
    for site in (FIRST, SECOND):
        write_listed(out, site)
    (out / "c" / "index.html").unlink()
    write_listed(out, THIRD)
    assert tree(out) == expected(THIRD) and not (spare / cache.LISTING).exists()


def test_a_listing_reads_back_as_written_whatever_the_names(tmp_path):
    """Names as the served site's check finds them: any text output_name
    accepts, lone surrogates and newlines included, in more than one slice."""
    odd = {"index.html": 1, "a/b c/index.html": 2**62, "\u00e9t\u00e9/\ud800/x.json": 3, "new\nline/index.html": 4}
    many = {**odd, **{f"r/{number}/index.html": number for number in range(25_000)}}
    for number, inodes in enumerate((odd, many)):
        folder = tmp_path / str(number)
        folder.mkdir()
        spare_module.write_listing(folder, inodes.items())
        assert spare_module.listed_files((folder / cache.LISTING).read_bytes()) == inodes


@pytest.mark.parametrize("name", ["", "../outside", "a/../../outside", "a//b", "./a", "a/.", "a\\..\\b", "/etc/x"])
def test_a_listing_naming_a_file_outside_its_folder_is_not_trusted(tmp_path, monkeypatch, name):
    """remove_stale unlinks the listed files no page claims: a listing that
    names anything but a file inside the spare is not read, and the spare is
    walked instead."""
    out = tmp_path / "site"
    spare = spare_of(out)
    for site in (FIRST, SECOND):
        write_listed(out, site)
    listed = spare_module.listed_files((spare / cache.LISTING).read_bytes())
    (spare / cache.LISTING).unlink()
    spare_module.write_listing(spare, {**listed, name: 7}.items())
    assert spare_module.listed_files((spare / cache.LISTING).read_bytes()) is None
    (tmp_path / "outside").write_text("not the build's")
    walks = counting_walks(monkeypatch)
    write_listed(out, THIRD)
    assert tree(out) == expected(THIRD) and len(walks) == 1
    assert (tmp_path / "outside").read_text() == "not the build's"


@pytest.mark.parametrize("damage", [lambda content: content[:-3], lambda content: b"{}", lambda content: b"",
                                    lambda content: content.replace(b" 2 0", b" 2 1", 1), lambda content: content + b"\0",
                                    lambda content: content[:content.index(b"\n") + 1] + b"\xff" + content[-8:]])
def test_a_damaged_listing_is_not_trusted(tmp_path, monkeypatch, damage):
    out = tmp_path / "site"
    spare = spare_of(out)
    for site in (FIRST, SECOND):
        write_listed(out, site)
    content = (spare / cache.LISTING).read_bytes()
    (spare / cache.LISTING).write_bytes(damage(content))
    walks = counting_walks(monkeypatch)
    write_listed(out, THIRD)
    assert tree(out) == expected(THIRD) and len(walks) == 1


def test_the_spare_an_older_version_kept_beside_the_output_goes(tmp_path):
    """`.NAME.spare` beside the output is served by most hosts: a build removes
    it when it is ours, and leaves a folder of that name that is not."""
    out = tmp_path / "site"
    write_site(out, pages(FIRST), report=lambda line: None)
    old = tmp_path / ".site.spare"
    (old / "a").mkdir(parents=True)
    (old / MARKER).write_bytes((out / MARKER).read_bytes())
    write_site(out, pages(SECOND), report=lambda line: None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    old.mkdir()
    (old / "notes.txt").write_text("mine")
    write_site(out, pages(THIRD), report=lambda line: None)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.spare", "site"]
    assert (old / "notes.txt").read_text() == "mine"


def test_where_the_cache_cannot_take_the_spare_by_a_rename_builds_keep_none(tmp_path, monkeypatch):
    """A cache on another mount (a bind mount on the same device gives EXDEV
    too): no spare anywhere, and every build is still exactly its pages."""
    out = tmp_path / "site"
    real_rename = os.rename

    def across_mounts(source, target, *args, **kwargs):
        if str(state_folder(out)) in (str(source) + str(target)):
            raise OSError(18, "Invalid cross-device link")
        return real_rename(source, target, *args, **kwargs)

    monkeypatch.setattr(spare_module.os, "rename", across_mounts)
    for site in (FIRST, SECOND, THIRD, FIRST):
        write_site(out, pages(site), report=lambda line: None)
        assert tree(out) == expected(site)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
        assert not spare_of(out).exists()


def test_a_cache_on_another_file_system_keeps_no_spare(tmp_path):
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("no second file system here (/dev/shm) to put the cache on")
    cache_dir = Path(tempfile.mkdtemp(prefix="errorsite-test-", dir=shm))
    try:
        out = tmp_path / "site"
        assert spare_module.spare_folder(out, state_folder(out, cache_dir)) is None
        for site in (FIRST, SECOND):
            write_site(out, pages(site), report=lambda line: None, state_dir=state_folder(out, cache_dir))
            assert tree(out) == expected(site) and sorted(p.name for p in tmp_path.iterdir()) == ["site"]
        assert sorted(p.name for p in state_folder(out, cache_dir).iterdir()) == []
    finally:
        shutil.rmtree(cache_dir)
