"""assemble publishes only what a shard's build wrote (issue 40, item 1): regular
files, at the paths the site makes for each entry's record, never with an
execute bit. A symbolic link, FIFO or device in a shard, a folder linked to
one elsewhere, or an entry naming any other path (`.git/hooks/…`, a static
file) means the shard was altered: the assemble fails with one line naming
the shard and the path, and writes nothing."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from errorsite.pipeline import BuildSettings, assemble, build, build_shard
from errorsite.shards import ENTRIES_FILE, Shard, ShardError, unmade_entry
from errorsite.write.files import ForeignFile, copy_regular, link_shard_file
from tests.conftest import ROOT
from tests.test_incremental import record_data, tree, write_records

BASE_URL = "http://127.0.0.1:1/errors/"
SUMMARY_PAGES = ["pydantic/pydantic/error-number-0/", "-/r/r0000/", "-/r/r0000.json", "-/r/r0000.md"]
MADE = ", ".join(SUMMARY_PAGES)


def quiet(line: str) -> None:
    pass


@pytest.fixture
def records(tmp_path):
    return write_records(tmp_path / "records", 6)


@pytest.fixture
def shards(records, tmp_path):
    """Two shards of six records. Made for each test, just before it assembles
    them: a shard's fingerprint covers the package's files, which may change."""
    folders = [tmp_path / "s1", tmp_path / "s2"]
    for k, folder in enumerate(folders, 1):
        assert build_shard(records, folder, BASE_URL, Shard(k, 2), BuildSettings(report=quiet, jobs=1)).written
    return folders


def built_entry(shard: Path) -> tuple[list[str], int, list]:
    """The entries file's lines, and the first entry of a built record (its index and value)."""
    lines = (shard / ENTRIES_FILE).read_text("utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if json.loads(line)[2])
    return lines, index, json.loads(lines[index])


def first_page(shards: list[Path]) -> tuple[Path, Path]:
    """A shard holding a record page, and that page's file."""
    shard = next(folder for folder in shards if any(json.loads(line)[2] for line in
                                                    (folder / ENTRIES_FILE).read_text("utf-8").splitlines()))
    _, _, entry = built_entry(shard)
    return shard, shard / entry[3][0] / "index.html"


def rewrite_entry(shard: Path, change) -> list:
    """The first built entry as `change` leaves it; returns it."""
    lines, index, entry = built_entry(shard)
    change(entry)
    lines[index] = json.dumps(entry)
    (shard / ENTRIES_FILE).write_text("\n".join(lines) + "\n", "utf-8")
    return entry


def refused(shards: list[Path], site: Path) -> str:
    with pytest.raises(ShardError) as error:
        assemble(shards, site, BASE_URL, BuildSettings(report=quiet))
    assert not site.exists() and not list(site.parent.glob(f".{site.name}.building-*"))
    message = str(error.value)
    assert "\n" not in message and message.endswith("this one was altered: nothing written")
    return message


# ---- entries: only the paths the site makes for the record ---------------------------

def test_an_entry_as_the_build_makes_it_passes():
    summary = summary_of(record_data(0))
    assert unmade_entry(summary, SUMMARY_PAGES, cards=False) is None
    assert unmade_entry(summary, [*SUMMARY_PAGES, "-/r/r0000/card.png"], cards=True) is None
    assert unmade_entry(None, [], cards=False) is None


@pytest.mark.parametrize("pages, why", [
    ([*SUMMARY_PAGES, ".git/hooks/post-checkout"], "lists \".git/hooks/post-checkout\", a path the site does not "
                                                   "make for record r0000"),
    (["-/static/search-engine.js", SUMMARY_PAGES[1]], "lists \"-/static/search-engine.js\", a path the site does "
                                                      "not make for record r0000"),
    (SUMMARY_PAGES[:1], f"lists pydantic/pydantic/error-number-0/ where the site makes {MADE} for record r0000"),
    (SUMMARY_PAGES[::-1], f"lists {', '.join(SUMMARY_PAGES[::-1])} where the site makes {MADE} for record r0000"),
    ([], f"lists no files where the site makes {MADE} for record r0000"),
])
def test_an_entry_naming_other_paths_is_refused(pages, why):
    assert unmade_entry(summary_of(record_data(0)), pages, cards=False) == why


@pytest.mark.parametrize("field, value, why", [
    ("repo", ".git/hooks", '".git/hooks" is not a GitHub owner/name'),
    ("slug", "../x", '"../x" is not a slug the build makes'),
    ("slug", "a/b", '"a/b" is not a slug the build makes'),
    ("id", "../../x", '"../../x" is not a record id'),
])
def test_an_entry_whose_record_validate_would_refuse_is_refused(field, value, why):
    summary = summary_of(record_data(0))._replace(**{field: value})
    pages = [f"{summary.repo.lower()}/{summary.slug}/", f"-/r/{summary.id}/", f"-/r/{summary.id}.json",
             f"-/r/{summary.id}.md"]
    assert unmade_entry(summary, pages, cards=False) == why


def test_a_record_not_built_lists_no_files():
    assert unmade_entry(None, [".git/config"], cards=False) == \
        'a record that was not built lists files, first ".git/config"'


def summary_of(data: dict):
    from errorsite.pages.render import summarize
    from errorsite.validate import check
    return summarize(check("r0000.json", data).record)


# ---- files: regular ones only, never executable --------------------------------------

def test_a_regular_file_is_linked(tmp_path):
    (tmp_path / "page").write_bytes(b"<p>page</p>")
    link_shard_file(str(tmp_path / "page"), str(tmp_path / "linked"))
    assert (tmp_path / "linked").stat().st_ino == (tmp_path / "page").stat().st_ino


def test_an_executable_file_is_copied_without_its_execute_bits(tmp_path):
    (tmp_path / "page").write_bytes(b"#!/bin/sh\n")
    (tmp_path / "page").chmod(0o4755)
    os.utime(tmp_path / "page", ns=(1_000_000_000, 1_000_000_000))
    link_shard_file(str(tmp_path / "page"), str(tmp_path / "copied"))
    copied = (tmp_path / "copied").stat()
    assert copied.st_ino != (tmp_path / "page").stat().st_ino and not copied.st_mode & 0o7111
    assert (tmp_path / "copied").read_bytes() == b"#!/bin/sh\n" and copied.st_mtime_ns == 1_000_000_000


def make_symlink(path: Path) -> None:
    path.symlink_to("/etc/passwd")


def make_symlink_to_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_device(path: Path) -> None:
    os.mknod(path, 0o644 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's


def make_folder(path: Path) -> None:
    path.mkdir()


ODD_FILES = {"a symbolic link": make_symlink, "a symbolic link ": make_symlink_to_zero, "a FIFO": make_fifo,
             "a device": make_device, "a folder": make_folder}


def can_make(kind: str) -> bool:
    return kind != "a device" or os.geteuid() == 0  # mknod of a device needs root


@pytest.mark.parametrize("kind", ODD_FILES)
@pytest.mark.parametrize("how", [link_shard_file, copy_regular], ids=["linked", "copied"])
def test_anything_but_a_regular_file_is_refused(tmp_path, kind, how):
    if not can_make(kind):
        pytest.skip("making a device needs root")
    ODD_FILES[kind](tmp_path / "odd")
    with pytest.raises(ForeignFile, match=f"^{tmp_path / 'odd'}: {kind.strip()}, not a file a build writes"):
        how(str(tmp_path / "odd"), str(tmp_path / "published"))  # a FIFO does not block it
    assert not os.path.lexists(tmp_path / "published")


# ---- whole assembles ------------------------------------------------------------------

@pytest.mark.parametrize("kind", ODD_FILES)
def test_an_odd_file_in_a_shard_fails_the_assemble(shards, tmp_path, kind):
    if not can_make(kind):
        pytest.skip("making a device needs root")
    _, page = first_page(shards)
    shutil.rmtree(page) if page.is_dir() else page.unlink()
    ODD_FILES[kind](page)
    message = refused(shards, tmp_path / "site")
    assert message.startswith(f"{page}: {kind.strip()}, not a file a build writes")


def test_a_folder_linked_to_one_outside_the_shard_fails_the_assemble(shards, tmp_path):
    _, page = first_page(shards)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(page.parent, elsewhere)
    (elsewhere / "index.html").write_text("a file outside the shard", "utf-8")
    page.parent.symlink_to(elsewhere)
    assert refused(shards, tmp_path / "site").startswith(f"{page.parent}: not a folder (a symbolic link?)")


def test_an_entry_naming_a_git_hook_fails_the_assemble(shards, tmp_path):
    shard, _ = first_page(shards)
    entry = rewrite_entry(shard, lambda entry: entry[3].append(".git/hooks/post-checkout"))
    hook = shard / ".git" / "hooks" / "post-checkout"
    hook.parent.mkdir(parents=True)
    hook.write_text("#!/bin/sh\n", "utf-8")
    hook.chmod(0o755)
    assert refused(shards, tmp_path / "site") == (
        f"{shard}: {entry[0]}: lists \".git/hooks/post-checkout\", a path the site does not make for record "
        f"{entry[2][1]}; a shard holds only what its build made, so this one was altered: nothing written")


def test_an_entry_moved_under_git_fails_the_assemble(shards, tmp_path):
    shard, page = first_page(shards)

    def under_git(entry):
        entry[2][2], entry[2][3] = ".git/hooks", "post-checkout"  # the summary's repo and slug
        entry[3][0] = ".git/hooks/post-checkout/"
    entry = rewrite_entry(shard, under_git)
    (shard / ".git/hooks/post-checkout").mkdir(parents=True)
    shutil.copy(page, shard / ".git/hooks/post-checkout/index.html")
    assert refused(shards, tmp_path / "site").startswith(f"{shard}: {entry[0]}: \".git/hooks\" is not a GitHub "
                                                         "owner/name")


def test_an_executable_page_is_published_as_a_page(records, shards, tmp_path):
    _, page = first_page(shards)
    page.chmod(0o755)
    assert assemble(shards, tmp_path / "site", BASE_URL, BuildSettings(report=quiet)).written
    assert build(records, tmp_path / "whole", BASE_URL, BuildSettings(report=quiet, jobs=1)).written
    assert tree(tmp_path / "site") == tree(tmp_path / "whole")
    assert not any(path.stat().st_mode & 0o7111 for path in (tmp_path / "site").rglob("*") if path.is_file())


def test_the_command_says_it_in_one_line_and_exits_1(shards, tmp_path):
    _, page = first_page(shards)
    page.unlink()
    page.symlink_to("/etc/passwd")
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "assemble", *map(str, shards), "--out",
                           str(tmp_path / "site"), "--base-url", BASE_URL],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"build.py: {page}: a symbolic link, not a file a build writes; a shard holds only what "
                           "its build wrote, so this one was altered: nothing written\n")
    assert not (tmp_path / "site").exists()
