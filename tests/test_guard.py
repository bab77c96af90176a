"""The output guard (errorsite/write/guard.py), one test per refusal, each
asserting the exact line the user sees. The guard only looks: every folder
here is made inside tmp_path, and the current and home folders are folders
of their own there, so that only the refusal under test applies."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from errorsite.cache import MARKER
from errorsite.write import guard
from errorsite.write.guard import OutputRefused, Protected, check_output, protected_folders


@pytest.fixture(autouse=True)
def away(tmp_path, monkeypatch):
    (tmp_path / "cwd").mkdir()
    (tmp_path / "home").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def refused(out: Path, force: bool = False, protected=()) -> str:
    with pytest.raises(OutputRefused) as caught:
        check_output(out, force, protected)
    return str(caught.value)


def ours(folder: Path) -> Path:
    """A folder as a build leaves it: a page and the marker."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text("<!doctype html>")
    (folder / MARKER).write_text(json.dumps({"files": 2, "fingerprint": "ab12", "generator": "errorsite"},
                                            sort_keys=True, separators=(",", ":")))
    return folder


def theirs(folder: Path, *names: str) -> Path:
    for name in names or ("notes.md",):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("mine")
    return folder


@pytest.fixture
def project(tmp_path) -> Path:
    """A checkout: its own folders, each holding a file, as tracked files do."""
    root = tmp_path / "project"
    for name in (".git/HEAD", "templates/base.html", "static/site.css", "tests/test_a.py", "docs/safety.md",
                 "bench/bench.py", "build.py"):
        theirs(root, name)
    return root


# --- what is never replaced, with or without --force ------------------------------------

def test_a_symbolic_link_is_refused(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert refused(tmp_path / "link", force=True) == \
        f"refusing to replace {tmp_path}/link: it is a symbolic link; give the folder it points to"


def test_the_filesystem_root_is_refused():
    assert refused(Path("/"), force=True) == "refusing to replace /: it is the filesystem root, never an output folder"


def test_the_home_folder_and_its_parents_are_refused(tmp_path):
    assert refused(tmp_path / "home", force=True) == \
        f"refusing to replace {tmp_path}/home: it is the home folder, never an output folder"
    assert refused(tmp_path, force=True) == \
        f"refusing to replace {tmp_path}: it is the home folder or one of its parents, never an output folder"


def test_the_current_folder_is_refused(tmp_path):
    assert refused(Path.cwd(), force=True) == \
        f"refusing to replace {tmp_path}/cwd: it is the current folder, never an output folder"


def test_a_protected_folder_and_its_parents_are_refused(tmp_path):
    records = theirs(tmp_path / "data" / "records")
    protected = [(records, "the records folder")]
    assert refused(records, force=True, protected=protected) == \
        f"refusing to replace {records}: it is the records folder, never an output folder"
    assert refused(tmp_path / "data", force=True, protected=protected) == \
        f"refusing to replace {tmp_path}/data: it is the records folder or one of its parents, never an output folder"


def test_a_path_ending_in_dotdot_is_refused(tmp_path):
    """`site/-/..` is the site, but the build would stage and lock beside it: inside the site."""
    site = tmp_path / "site"
    (site / "-").mkdir(parents=True)
    assert refused(site / "-" / "..", force=True) == \
        f"refusing to replace {site}/-/..: it ends in '..'; give the folder's own path, {site}"


def test_a_folder_inside_a_site_the_build_made_is_refused(tmp_path):
    site = ours(tmp_path / "site")
    expected = (f"refusing to replace {site}/-/new: it is inside {site}, a site made by build.py that its next "
                "build replaces whole; give a folder outside it")
    assert refused(site / "-" / "new", force=True) == expected
    (site / "-").mkdir()
    assert refused(site / "-" / ".." / "-" / "new") == expected.replace("/-/new:", "/-/../-/new:")


def test_inside_a_sealed_folder_nothing_is_an_output_even_a_new_folder(tmp_path):
    theme = theirs(tmp_path / "theme", "page.html")
    protected = [Protected(theme, "the theme", sealed=True)]
    assert refused(theme / "site", protected=protected) == \
        f"refusing to replace {theme}/site: it is inside the theme, never an output folder"


def test_a_file_is_refused(tmp_path):
    (tmp_path / "site").write_text("a file")
    assert refused(tmp_path / "site", force=True) == \
        f"refusing to replace {tmp_path}/site: it is a file, not a folder"
    assert (tmp_path / "site").read_text() == "a file"


def test_inside_a_protected_folder_only_an_absent_an_empty_or_an_earlier_site_is_replaced(tmp_path):
    records = theirs(tmp_path / "records", "a.json")
    protected = [(records, "the records folder")]
    check_output(records / "site", True, protected)
    (records / "empty").mkdir()
    check_output(records / "empty", True, protected)
    check_output(ours(records / "built"), False, protected)
    theirs(records / "sub", "b.json", "c.json")
    assert refused(records / "sub", force=True, protected=protected) == \
        (f"refusing to replace {records}/sub: it is inside the records folder and was not made by build.py "
         "(it holds 2 files, e.g. b.json); not even --force replaces it")


# --- what only --force replaces -----------------------------------------------------------

def test_a_folder_of_many_files_is_refused_without_force(tmp_path):
    victim = theirs(tmp_path / "victim", "docs/thesis.txt", "notes.md")
    assert refused(victim) == (f"refusing to replace {victim}: it was not made by build.py (it holds 2 files, "
                               "e.g. notes.md); pass --force to replace it")
    check_output(victim, True)


def test_a_folder_of_one_file_is_refused_without_force(tmp_path):
    victim = theirs(tmp_path / "victim", "deep/down/only.txt")
    assert refused(victim) == (f"refusing to replace {victim}: it was not made by build.py (it holds 1 file, "
                               "e.g. deep/down/only.txt); pass --force to replace it")


def test_a_folder_past_the_count_limit_says_over(tmp_path, monkeypatch):
    monkeypatch.setattr(guard, "_COUNT_LIMIT", 3)
    victim = theirs(tmp_path / "victim", *(f"{n}.txt" for n in range(5)))
    assert refused(victim) == (f"refusing to replace {victim}: it was not made by build.py (it holds over 3 files, "
                               "e.g. 0.txt); pass --force to replace it")


def test_a_link_to_a_folder_counts_as_a_file(tmp_path):
    """Not followed (it may be the whole disk), but never taken for an empty folder."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "photos").symlink_to(theirs(tmp_path / "photos", "cat.jpg"))
    (victim / "videos").symlink_to(tmp_path / "photos")
    assert refused(victim) == (f"refusing to replace {victim}: it was not made by build.py (it holds 2 files, "
                               "e.g. photos); pass --force to replace it")


def test_a_foreign_marker_is_not_ours(tmp_path):
    victim = tmp_path / "victim"
    victim.mkdir()
    theirs(victim, "notes.md")
    (victim / MARKER).write_text('{"generator": "hugo"}')
    assert refused(victim) == (f"refusing to replace {victim}: it was not made by build.py (it holds 2 files, "
                               f"e.g. {MARKER}); pass --force to replace it")


def test_a_marker_that_begins_like_ours_for_another_generator_is_not_ours(tmp_path):
    victim = tmp_path / "victim"
    victim.mkdir()
    theirs(victim, "notes.md")
    (victim / MARKER).write_text('{"files":1,"fingerprint":"ab","generator":"errorsite2"}')
    assert refused(victim) == (f"refusing to replace {victim}: it was not made by build.py (it holds 2 files, "
                               f"e.g. {MARKER}); pass --force to replace it")


def test_what_a_build_made_an_empty_folder_and_one_of_git_alone_are_replaced(tmp_path):
    check_output(ours(tmp_path / "site"), False)
    (tmp_path / "empty" / "sub").mkdir(parents=True)
    check_output(tmp_path / "empty", False)
    theirs(tmp_path / "pages", ".git/HEAD")
    check_output(tmp_path / "pages", False)
    check_output(tmp_path / "absent", False)


# --- the project's own folders ------------------------------------------------------------

@pytest.mark.parametrize("name, what", [
    ("", "the project's own folder"),
    (".git", "the project's git folder"),
    ("templates", "the templates folder"),
    ("static", "the static files' folder"),
    ("tests", "the project's tests folder"),
    ("docs", "the project's docs folder"),
])
def test_the_projects_named_folders_are_refused_even_with_force(project, name, what):
    out = project / name if name else project
    assert refused(out, force=True, protected=protected_folders(project)) == \
        f"refusing to replace {out}: it is {what}, never an output folder"


def test_the_package_the_records_and_the_templates_given_are_refused(project, tmp_path):
    records, theme = theirs(tmp_path / "records"), theirs(tmp_path / "theme")
    protected = protected_folders(project, records, theme)
    for out, what in ((guard.PACKAGE, "the errorsite package"), (records, "the records folder"),
                      (theme, "the site's templates folder (--templates)")):
        assert refused(out, force=True, protected=protected) == \
            f"refusing to replace {out}: it is {what}, never an output folder"


@pytest.mark.parametrize("inside, what", [
    ("project/.git/objects", "the project's git folder"),
    ("project/templates/site", "the templates folder"),
    ("project/static/-", "the static files' folder"),
    ("theme/site", "the site's templates folder (--templates)"),
])
def test_nothing_inside_what_the_build_reads_or_git_is_an_output(project, tmp_path, inside, what):
    protected = protected_folders(project, tmp_path / "records", theirs(tmp_path / "theme"))
    assert refused(tmp_path / inside, force=True, protected=protected) == \
        f"refusing to replace {tmp_path / inside}: it is inside {what}, never an output folder"


@pytest.mark.parametrize("inside, what, example", [
    ("bench", "the project's own folder", "bench.py"),  # any folder with tracked files
    ("docs/api", "the project's docs folder", "index.md"),
])
def test_a_folder_of_the_projects_own_files_is_refused_even_with_force(project, inside, what, example):
    theirs(project / inside, example, "notes.txt")
    assert refused(project / inside, force=True, protected=protected_folders(project)) == \
        (f"refusing to replace {project / inside}: it is inside {what} and was not made by build.py "
         f"(it holds 2 files, e.g. {example}); not even --force replaces it")


def test_in_the_project_an_absent_an_empty_or_an_earlier_site_is_replaced(project):
    protected = protected_folders(project)
    check_output(project / "site", False, protected)
    (project / "empty").mkdir()
    check_output(project / "empty", False, protected)
    check_output(ours(project / "public"), False, protected)
    os.rmdir(project / "empty")


@pytest.mark.parametrize("out, what", [
    (guard.PACKAGE, "it is the errorsite package, never"),
    (guard.PACKAGE / "site", "it is inside the errorsite package, never"),
    (guard.PACKAGE / "cache", "it is inside the errorsite package, never"),
])
def test_the_package_is_refused_even_with_force_where_no_checkout_holds_it(out, what, tmp_path, monkeypatch):
    """As an installed command runs: the package in site-packages, in no
    project folder, so only its own entry protects it (issue 43: dropping it
    from the list once passed every test, the checkout around it covering for it)."""
    from errorsite import pipeline
    from errorsite.pages.render import SiteOptions
    monkeypatch.setattr(pipeline, "PROJECT", tmp_path / "checkout-elsewhere")
    protected = pipeline.protected_folders(None, SiteOptions())
    assert not any(guard.PACKAGE.is_relative_to(entry[0]) and entry[0] != guard.PACKAGE for entry in protected)
    assert what in refused(out, force=True, protected=protected)
