"""Never lose data: what `--out` may replace, builds that run at once, and
faults during the write. Every folder here is made inside tmp_path; the home
folder a build sees is a fake one (HOME is set), never the real one."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from errorsite import write
from errorsite.cache.folder import state_folder
from tests.conftest import ROOT

RECORDS = ROOT / "records"
BASE_URL = "https://example.org/errors/"


def run(*args, cwd: Path = ROOT, home: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if home is not None:
        env["HOME"] = str(home)
    return subprocess.run([sys.executable, str(ROOT / "build.py"), "--records", str(RECORDS), "-j", "1",
                           "--base-url", BASE_URL, *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=300)


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def beside(out: Path) -> list[str]:
    """What lies beside the output folder: staging folders. The lock, the
    digests, the build's state and the spare are in its cache folder."""
    return sorted(p.name for p in out.parent.iterdir() if p.name not in (out.name, "cache"))


@pytest.fixture
def foreign(tmp_path) -> Path:
    """A folder of the user's own, the kind a mistyped --out would hit."""
    victim = tmp_path / "victim"
    (victim / "docs").mkdir(parents=True)
    (victim / "docs" / "thesis.txt").write_text("four years of work")
    (victim / "notes.md").write_text("# notes")
    return victim


# --- what may be replaced -------------------------------------------------------------

def test_a_folder_not_made_by_the_build_is_refused(foreign):
    before = files(foreign)
    done = run("--out", foreign)
    assert done.returncode == 2
    assert done.stderr == (f"build.py: refusing to replace {foreign}: it was not made by build.py "
                           "(it holds 2 files, e.g. notes.md); pass --force to replace it\n")
    assert files(foreign) == before and beside(foreign) == []


@pytest.mark.slow  # real builds in subprocesses: kept out of the fast loop
def test_force_replaces_a_foreign_folder(foreign):
    done = run("--out", foreign, "--force")
    assert done.returncode == 0, done.stderr
    assert (foreign / "index.html").is_file() and not (foreign / "docs").exists()
    assert json.loads((foreign / write.MARKER).read_text())["generator"] == "errorsite"


def test_an_absent_an_empty_and_an_earlier_site_are_replaced(tmp_path):
    out = tmp_path / "site"
    assert run("--out", out).returncode == 0
    assert run("--out", out).returncode == 0  # holds the marker: ours
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run("--out", empty).returncode == 0
    marker = write.MARKER  # remembers, besides, the URL history of two builds rather than one
    assert {k: v for k, v in files(out).items() if k != marker} == {k: v for k, v in files(empty).items() if k != marker}


@pytest.mark.parametrize("where", ["home", "a parent of home"])
def test_home_is_refused_even_with_force(tmp_path, where):
    home = tmp_path / "home" / "me"
    (home / "thesis").mkdir(parents=True)
    (home / "thesis" / "draft.tex").write_text("x")
    out = home if where == "home" else home.parent
    done = run("--out", out, "--force", home=home)
    assert done.returncode == 2
    suffix = "" if where == "home" else " or one of its parents"
    assert done.stderr == f"build.py: refusing to replace {out}: it is the home folder{suffix}, never an output folder\n"
    assert (home / "thesis" / "draft.tex").read_text() == "x"


@pytest.mark.parametrize("out, what", [
    (".", "the current folder"),
    ("..", "the current folder or one of its parents"),
])
def test_the_current_folder_and_its_parents_are_refused_even_with_force(tmp_path, out, what):
    work = tmp_path / "project" / "work"
    work.mkdir(parents=True)
    (work / "main.py").write_text("print()")
    done = run("--out", out, "--force", cwd=work)
    assert done.returncode == 2
    assert done.stderr == f"build.py: refusing to replace {(work / out).absolute()}: it is {what}, never an output folder\n"
    assert (work / "main.py").is_file()


def test_the_project_and_its_templates_are_refused_even_with_force(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # so that it is not refused as the current folder first
    # (unless the checkout's parent holds tmp_path too, as a clone in /tmp does),
    # nor as a parent of the home folder, wherever the real one is
    monkeypatch.setenv("HOME", "/nonexistent/home-of-no-one")
    for folder, what in ((ROOT, "the project's own folder"), (ROOT / "templates", "the templates folder"),
                         (ROOT.parent, "the (project's own|current) folder or one of its parents")):
        with pytest.raises(write.OutputRefused, match=f"it is {what}"):
            write.check_output(folder, force=True, protected=[(ROOT, "the project's own folder"),
                                                               (ROOT / "templates", "the templates folder")])


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """A copy of the project to build with, so that a refusal that fails loses
    only the copy: its package, templates and static files, a `.git`, docs."""
    root = tmp_path_factory.mktemp("checkout") / "project"
    for name in ("errorsite", "templates", "static"):
        shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "build.py", root)
    for name, text in ((".git/HEAD", "ref: refs/heads/main\n"), ("docs/safety.md", "# Safety"),
                       ("bench/bench.py", "print()")):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def run_checkout(checkout: Path, *args) -> subprocess.CompletedProcess:
    """build.py of the copy, from the folder that holds it."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, str(checkout / "build.py"), "--records", str(RECORDS), "-j", "1",
                           "--base-url", BASE_URL, *map(str, args)], capture_output=True, text=True,
                          cwd=checkout.parent, env=env, timeout=300)


@pytest.mark.parametrize("folder", [".git", "errorsite", "templates", "static", "docs", "bench"])
def test_the_projects_own_folders_are_refused_even_with_force(checkout, folder):
    """The exact line for each is in test_guard.py; here, that a build stops at it."""
    before = files(checkout)
    done = run_checkout(checkout, "--out", checkout / folder, "--force")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"build.py: refusing to replace {checkout / folder}: it is ")
    assert files(checkout) == before


def test_the_templates_folder_given_is_refused_even_with_force(checkout):
    theme = checkout.parent / "theme"
    (theme / "notes").mkdir(parents=True, exist_ok=True)
    (theme / "base.html").write_text("{% extends 'builtin/base.html' %}")
    (theme / "notes" / "todo.md").write_text("keep")
    before = files(theme)
    done = run_checkout(checkout, "--templates", theme, "--out", theme, "--force")
    assert files(theme) == before
    assert done.returncode == 2 and done.stderr == \
        f"build.py: refusing to replace {theme}: it is the site's templates folder (--templates), never an output folder\n"


def test_an_out_that_resolves_into_the_site_it_replaces_is_refused(tmp_path):
    """`site/-/..` is the site; the build would stage, lock and keep its digests beside
    it, inside the site's `-/`. Refused before any work, whatever --force says."""
    site = tmp_path / "site"
    (site / "-").mkdir(parents=True)
    (site / write.MARKER).write_text('{"generator": "errorsite"}')
    before = files(site)
    for out in (site / "-" / "..", site / "-" / "copy"):
        done = run("--out", out, "--force")
        assert done.returncode == 2 and done.stderr.startswith(f"build.py: refusing to replace {out}: it ")
    assert files(site) == before and sorted(p.name for p in site.iterdir()) == ["-", write.MARKER]
    assert list((site / "-").iterdir()) == []


def test_a_symlinked_output_is_refused(tmp_path):
    target = tmp_path / "real"
    target.mkdir()
    link = tmp_path / "link"
    link.symlink_to(target)
    done = run("--out", link, "--force")
    assert done.returncode == 2 and "it is a symbolic link" in done.stderr
    assert link.is_symlink() and list(target.iterdir()) == []


@pytest.mark.slow  # real builds in subprocesses: kept out of the fast loop
@pytest.mark.parametrize("kind", ["folder", "file"])
def test_a_git_checkout_in_the_output_is_carried_over(tmp_path, kind):
    """A gh-pages worktree has a .git file; a clone has a .git folder."""
    out = tmp_path / "site"
    assert run("--out", out).returncode == 0
    if kind == "folder":
        (out / ".git" / "refs").mkdir(parents=True)
        (out / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n")
    else:
        (out / ".git").write_text("gitdir: /somewhere/.git/worktrees/site\n")
    before = {k: v for k, v in files(out).items() if k.startswith(".git")}
    assert run("--out", out).returncode == 0
    assert {k: v for k, v in files(out).items() if k.startswith(".git")} == before
    assert (out / "index.html").is_file()


@pytest.mark.slow  # real builds in subprocesses: kept out of the fast loop
def test_a_folder_holding_only_git_is_replaced_without_force(tmp_path):
    out = tmp_path / "pages"
    (out / ".git").mkdir(parents=True)
    (out / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n")
    assert run("--out", out).returncode == 0
    assert (out / ".git" / "HEAD").read_text() == "ref: refs/heads/gh-pages\n"


# --- builds at the same time, and leftovers ----------------------------------------------

def test_a_second_build_waits_for_the_first(tmp_path):
    out = tmp_path / "site"
    held, release = threading.Event(), threading.Event()

    def first_build():
        with write.build_lock(out.absolute(), lambda line: None, state_folder(out)):
            held.set()
            release.wait(60)

    holder = threading.Thread(target=first_build)
    holder.start()
    held.wait(10)
    second = subprocess.Popen([sys.executable, str(ROOT / "build.py"), "--records", str(RECORDS),
                               "--out", str(out), "-j", "1", "--base-url", BASE_URL], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE,
                              text=True, cwd=ROOT)
    first_line = second.stderr.readline()  # printed as it starts to wait
    assert first_line == f"waiting for another build into {out} to finish\n"
    # It sleeps in the kernel on the lock, and has staged nothing.
    assert blocked_on_a_lock(second.pid) and second.poll() is None and beside(out) == []
    assert (state_folder(out) / "lock").is_file()  # the lock, in the build's cache folder
    release.set()
    holder.join()
    stdout, stderr = second.communicate(timeout=300)
    assert second.returncode == 0, stderr
    assert (out / "index.html").is_file() and beside(out) == []


def blocked_on_a_lock(pid: int, timeout: float = 30) -> bool:
    """Whether the process comes to sleep in the kernel waiting for a file lock
    (its wait channel, as Linux shows it: locks_lock_inode_wait or alike)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if "lock" in Path(f"/proc/{pid}/wchan").read_text():
                return True
        except OSError:
            return False
        time.sleep(0.01)
    return False


def test_two_builds_at_once_both_succeed_and_leave_one_whole_site(tmp_path):
    out = tmp_path / "shared" / "site"
    reference = tmp_path / "reference"
    assert run("--out", reference).returncode == 0
    command = [sys.executable, str(ROOT / "build.py"), "--records", str(RECORDS), "--out", str(out), "-j", "1",
               "--base-url", BASE_URL]
    builds = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT) for _ in range(2)]
    for build in builds:
        build.communicate(timeout=300)
        assert build.returncode == 0
    assert files(out) == files(reference) and beside(out) == []


@pytest.mark.slow  # real builds in subprocesses: kept out of the fast loop
def test_a_dead_builds_leftovers_are_cleaned_and_a_live_ones_kept(tmp_path):
    out = tmp_path / "site"
    finished = subprocess.Popen(["true"])
    finished.wait()
    running = subprocess.Popen(["sleep", "60"])
    try:
        for pid in (finished.pid, running.pid):  # as a build leaves them: marked first thing
            (tmp_path / f".site.building-{pid}" / "a").mkdir(parents=True)
            write.staging.mark_staging(tmp_path / f".site.building-{pid}")
        assert run("--out", out).returncode == 0
        assert beside(out) == [f".site.building-{running.pid}"]
    finally:
        running.kill()
        running.wait()


# --- faults: the previous site stays whole -----------------------------------------------

@pytest.fixture
def small_disk(tmp_path):
    """A 1.5 MB tmpfs: room for one demo site (about 1 MB there), not for two."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1500k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_leaves_the_previous_site(small_disk):
    out = small_disk / "site"
    assert run("--out", out).returncode == 0
    before = files(out)
    done = run("--out", out, "--base-url", "https://example.org/elsewhere/")  # every page changes
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith(f"build.py: cannot write {out}: No space left on device") and \
        line.endswith("; the previous site is unchanged")
    assert files(out) == before and beside(out) == []


def free_bytes(folder: Path) -> int:
    info = os.statvfs(folder)
    return info.f_bfree * info.f_frsize


def test_a_full_disk_is_freed_when_the_build_fails_and_the_next_build_succeeds(small_disk):
    """The failed build began from the spare (the site before, in a cache on
    the same disk), rewrote part of it and filled the disk: all of it goes, so
    freeing room elsewhere is enough."""
    out, cache = small_disk / "site", ("--cache-dir", small_disk / "cache")
    assert run("--out", out, *cache).returncode == 0
    assert run("--out", out, "--no-cache", *cache).returncode == 0  # the same pages: the spare is links to them
    spare, = (small_disk / "cache").glob("*/spare")
    before, free = files(out), free_bytes(small_disk)
    done = run("--out", out, "--base-url", "https://example.org/elsewhere/", *cache)  # every page changes
    assert done.returncode == 1 and "No space left on device" in done.stderr
    assert files(out) == before and beside(out) == [] and not spare.exists()
    assert free_bytes(small_disk) >= free  # the spare's links are gone too
    subprocess.run(["mount", "-o", "remount,size=4m", str(small_disk)], check=True)  # room made
    done = run("--out", out, "--base-url", "https://example.org/elsewhere/", *cache)
    assert done.returncode == 0, done.stderr
    assert b"https://example.org/elsewhere/" in (out / "index.html").read_bytes()


def test_a_read_only_output_parent_leaves_the_previous_site(small_disk):
    out = small_disk / "site"
    assert run("--out", out).returncode == 0
    before = files(out)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    done = run("--out", out, "--base-url", "https://example.org/elsewhere/")  # a build with work to do
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith(f"build.py: cannot write {out}: Read-only file system") and \
        line.endswith("; the previous site is unchanged")
    assert files(out) == before
