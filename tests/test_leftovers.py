"""What a build removes beside its output: only what a dead build left, by
its exact name (`.NAME.building-PID`, `.NAME.twin-PID`, `.NAME.old-PID`)
and a mark of ours inside, never a folder merely named like one; and a
dead first build's twin in the build's own folder (`twin-PID`). Nothing else
is left beside the site: the spare is in the build's own folder."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from errorsite import write
from errorsite.model import Page
from errorsite.write import MARKER
from errorsite.cache.folder import state_folder
from errorsite.write.staging import mark_staging


def dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def beside(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir())


def precious(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "precious.txt").write_text("mine")
    return folder


def build(out: Path) -> None:
    write.write_site(out, [Page("index.html", b"home")], report=lambda line: None)


@pytest.mark.parametrize("name", [".site.old-2023", ".site.backup.old-2024", ".site.building-2023",
                                  ".site.old-2023x", ".site.building-1.bak", ".site.digests-2023",
                                  ".site.twin-2023", ".site.twin-1.bak"])
def test_a_folder_named_like_a_leftover_is_kept(tmp_path, name):
    precious(tmp_path / name)
    build(tmp_path / "site")
    build(tmp_path / "site")  # and again, with a spare
    assert (tmp_path / name / "precious.txt").read_text() == "mine"


def test_an_old_site_not_ours_is_neither_put_back_nor_removed(tmp_path):
    precious(tmp_path / f".site.old-{dead_pid()}")
    build(tmp_path / "site")
    assert (tmp_path / "site" / "index.html").read_bytes() == b"home"
    assert [(p / "precious.txt").read_text() for p in tmp_path.glob(".site.old-*")] == ["mine"]


def test_a_staging_folder_is_removed_by_its_mark_naming_it(tmp_path):
    pid = dead_pid()
    marked = tmp_path / f".site.building-{pid}"
    (marked / "a").mkdir(parents=True)
    mark_staging(marked)
    build(tmp_path / "site")
    assert beside(tmp_path) == ["site"]


def test_a_mark_copied_from_another_folder_is_not_ours(tmp_path):
    elsewhere = tmp_path / ".site.building-1"
    elsewhere.mkdir()
    mark_staging(elsewhere)
    copied = precious(tmp_path / f".site.building-{dead_pid()}")
    (copied / write.staging.STAGING_MARK).write_bytes((elsewhere / write.staging.STAGING_MARK).read_bytes())
    build(tmp_path / "site")
    assert (copied / "precious.txt").read_text() == "mine"


def test_a_staging_folder_killed_before_its_mark_is_removed_only_if_empty(tmp_path):
    (tmp_path / f".site.building-{dead_pid()}").mkdir()
    build(tmp_path / "site")
    assert beside(tmp_path) == ["site"]


def test_a_staging_folder_killed_as_it_was_marked_is_removed_only_if_bare(tmp_path):
    """The mark is opened, then written: a kill in between leaves it empty."""
    bare, used = tmp_path / f".site.building-{dead_pid()}", precious(tmp_path / f".site.building-{dead_pid()}")
    bare.mkdir()
    for folder in (bare, used):
        (folder / write.staging.STAGING_MARK).write_bytes(b"")
    build(tmp_path / "site")
    assert beside(tmp_path) == sorted(["site", used.name]) and (used / "precious.txt").read_text() == "mine"


@pytest.mark.parametrize("marked", ["staging", "site"])
def test_a_first_builds_twin_left_by_a_kill_is_removed_never_served(tmp_path, marked):
    """A first build killed while linking its twin (marked as staging), or once
    the twin held the new site's marker (before the swap or after it, before it
    became the spare): removed by the next build, never put back as the site."""
    twin = tmp_path / f".site.twin-{dead_pid()}"
    (twin / "a").mkdir(parents=True)
    (twin / "a" / "index.html").write_bytes(b"half")
    if marked == "staging":
        mark_staging(twin)
    else:
        (twin / MARKER).write_text('{"generator": "errorsite"}')
    build(tmp_path / "site")
    assert beside(tmp_path) == ["site"]
    assert (tmp_path / "site" / "index.html").read_bytes() == b"home"


@pytest.mark.parametrize("marked", ["staging", "site"])
def test_a_first_builds_twin_in_the_cache_left_by_a_kill_is_removed(tmp_path, marked):
    out = tmp_path / "site"
    twin = state_folder(out) / f"twin-{dead_pid()}"
    (twin / "a").mkdir(parents=True)
    if marked == "staging":
        mark_staging(twin)
    else:
        (twin / MARKER).write_text('{"generator": "errorsite"}')
    build(out)
    assert not twin.exists() and beside(tmp_path) == ["site"]


def test_a_twin_killed_before_its_mark_is_removed_only_if_empty(tmp_path):
    empty, used = tmp_path / f".site.twin-{dead_pid()}", precious(tmp_path / f".site.twin-{dead_pid()}")
    empty.mkdir()
    build(tmp_path / "site")
    assert beside(tmp_path) == sorted(["site", used.name])


def test_a_staging_folder_begun_from_the_spare_is_removed_by_the_sites_marker(tmp_path):
    """Killed between taking the spare and marking it: the spare's marker says ours."""
    out = tmp_path / "site"
    build(out)
    build(out)
    (state_folder(out) / "spare").rename(tmp_path / f".site.building-{dead_pid()}")
    build(out)
    assert beside(tmp_path) == ["site"]


def test_a_link_named_like_a_leftover_is_kept(tmp_path):
    target = precious(tmp_path / "target")
    (tmp_path / f".site.building-{dead_pid()}").symlink_to(target)
    build(tmp_path / "site")
    assert (target / "precious.txt").read_text() == "mine"
    assert len(list(tmp_path.glob(".site.building-*"))) == 1


def test_a_live_builds_staging_is_kept(tmp_path):
    live = tmp_path / ".site.building-1"  # init: always running
    live.mkdir()
    mark_staging(live)
    build(tmp_path / "site")
    assert live.is_dir()
