"""The build's own files (state, outcomes, digests, lock) live in a cache
folder, never beside --out: with `--out public/errors`, the host serving
public/ served them (`/.errors.outcomes` returned 200), and a user's
`.site.state` and `.site.outcomes` beside --out were overwritten, `.site.lock`
deleted. Every test here keeps the cache in its tmp folder: the session's
XDG_CACHE_HOME is one too (conftest.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from errorsite import cache, write
from errorsite.cache.folder import state_folder, user_cache_root
from errorsite.model import Page
from errorsite.write import OutputRefused
from tests.conftest import ROOT, build_quietly

RECORDS = ROOT / "records"
BASE = "https://example.org/errors/"
PRIVATE = (cache.STATE, cache.OUTCOME_FILE, cache.DIGESTS, cache.SPARE)


def beside(out: Path) -> list[str]:
    """What lies beside the output but the output."""
    return sorted(path.name for path in out.parent.iterdir() if path.name != out.name)


def test_the_tests_never_touch_the_real_home():
    assert os.environ["XDG_CACHE_HOME"].startswith(tempfile.gettempdir())
    assert user_cache_root().is_relative_to(tempfile.gettempdir())


def test_nothing_private_sits_beside_a_served_output(tmp_path):
    public = tmp_path / "public"
    out = public / "errors"
    for _ in range(2):
        result, _ = build_quietly(RECORDS, out, BASE)
        assert result.written
    assert beside(out) == []  # was .errors.state, .errors.outcomes, .errors.digests
    kept = state_folder(out)
    assert kept.parent == user_cache_root() / "errorsite" and kept.name.startswith("errors-")
    assert sorted(path.name for path in kept.iterdir()) == sorted(PRIVATE)
    assert os.stat(kept).st_mode & 0o077 == 0  # it names this machine's paths: this user's alone


def test_a_users_files_named_like_the_old_ones_are_never_touched(tmp_path):
    out = tmp_path / "site"
    theirs = {".site.state": b"my state", ".site.outcomes": b"my outcomes", ".site.lock": b"my lock",
              ".site.digests": b"my digests"}
    for name, content in theirs.items():
        (tmp_path / name).write_bytes(content)
    for _ in range(2):
        result, _ = build_quietly(RECORDS, out, BASE)
        assert result.written
    assert {name: (tmp_path / name).read_bytes() for name in theirs} == theirs  # was: two overwritten, one deleted


def test_cache_dir_holds_one_folder_per_output_and_two_spellings_share_one(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert state_folder(tmp_path / "real" / "site") == state_folder(tmp_path / "link" / "site")
    assert state_folder(tmp_path / "a" / "site") != state_folder(tmp_path / "b" / "site")
    assert state_folder(tmp_path / "site", tmp_path / "c").parent == tmp_path / "c"
    assert state_folder(tmp_path / "déjà vu\n").name.startswith("d-j-vu-")


def test_the_cli_option_puts_the_state_where_it_says(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "--records", str(RECORDS), "--out",
                           str(tmp_path / "public" / "errors"), "--base-url", BASE, "--cache-dir",
                           str(tmp_path / "kept"), "-j", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    [folder] = (tmp_path / "kept").iterdir()
    assert sorted(path.name for path in folder.iterdir()) == sorted(PRIVATE)
    assert beside(tmp_path / "public" / "errors") == []


def test_a_cache_inside_the_output_is_refused(tmp_path):
    with pytest.raises(OutputRefused, match="the build's cache folder for it"):
        build_quietly(RECORDS, tmp_path / "site", BASE, cache_dir=tmp_path / "site" / "cache")
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("environ, platform, expected", [
    ({"XDG_CACHE_HOME": "/x/cache", "HOME": "/home/me"}, "linux", "/x/cache"),
    ({"XDG_CACHE_HOME": "relative", "HOME": "/home/me"}, "linux", "/home/me/.cache"),
    ({"HOME": "/home/me"}, "linux", "/home/me/.cache"),
    ({"HOME": "/Users/me"}, "darwin", "/Users/me/Library/Caches"),
    ({"HOME": "/Users/me", "XDG_CACHE_HOME": "/t/c"}, "darwin", "/t/c"),
    ({"HOME": "C:/Users/me", "LOCALAPPDATA": "/c/Users/me/AppData/Local"}, "win32", "/c/Users/me/AppData/Local"),
])
def test_the_platforms_cache_folder(environ, platform, expected):
    assert user_cache_root(environ, platform) == Path(expected)


def test_a_killed_builds_half_written_state_is_removed_by_the_next(tmp_path):
    out = tmp_path / "site"
    write.write_site(out, [Page("index.html", b"one")], report=lambda line: None)
    dead = subprocess.Popen(["true"])
    dead.wait()
    kept = state_folder(out)
    leftovers = [kept / f"{what}-{dead.pid}" for what in (cache.STATE, cache.OUTCOME_FILE, cache.DIGESTS)]
    for path in leftovers:
        path.write_bytes(b"half")
    alive = kept / f"state-{os.getpid()}x"  # not a name a build gives
    alive.write_bytes(b"other")
    write.write_site(out, [Page("index.html", b"two")], report=lambda line: None)
    assert not any(path.exists() for path in leftovers) and alive.exists()
    assert json.loads((out / write.MARKER).read_text())["generator"] == "errorsite"
