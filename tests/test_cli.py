"""build.py as users run it: a subprocess from the repository root.

Exit codes: 0 when a site was written (even with skipped records), 1 when
--strict refused to write, 2 for usage errors (argparse).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

BAD = ROOT / "tests" / "fixtures" / "bad"
GOOD = BAD / "good-dataclass-on-model.json"
BASE = "https://example.org/errors/"
GOOD_PAGE = Path("pydantic/pydantic/cannot-create-a-pydantic-dataclass-from-as-it-is-already-a-pydantic-model/index.html")


def run(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "build.py", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def good_records(tmp_path) -> Path:
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(GOOD, folder / GOOD.name)
    return folder


def test_good_records_build(good_records, tmp_path):
    out = tmp_path / "site"
    done = run("--records", good_records, "--out", out, "--base-url", "https://example.org/errors/")
    assert (done.returncode, done.stdout) == (0, "built 1 record\n")
    # A first build for a deployed URL has no URL history: it says so, and how to carry it.
    assert done.stderr == (f"note: no URL history in {out} nor --previous-manifest: old URLs of renamed or "
                           "removed records will not be redirected; pass --previous-manifest with the live "
                           "site's -/urls.json\n")
    assert (out / GOOD_PAGE).is_file()
    assert "https://example.org/errors/" in (out / "sitemap.xml").read_text()
    again = run("--records", good_records, "--out", out, "--base-url", "https://example.org/errors/")
    assert (again.returncode, again.stdout, again.stderr) == (0, "built 1 record\n", "")


def test_bad_records_are_reported_and_skipped(tmp_path):
    out = tmp_path / "site"
    done = run("--records", BAD, "--out", out, "--base-url", "http://localhost:8000/")  # given: no note
    assert done.returncode == 0
    assert done.stdout == "built 3 records, skipped 8, dropped 2 values — see above\n"
    errors = done.stderr.splitlines()
    assert len(errors) == 10
    assert f"{BAD.as_posix()}/solutions-item-not-a-string.json: solutions[1]: expected a string, got 3" in errors
    assert (out / GOOD_PAGE).is_file()


@pytest.mark.slow  # a subprocess each: the fast loop keeps the first two
def test_strict_with_a_bad_record_writes_nothing(tmp_path):
    out = tmp_path / "site"
    done = run("--records", BAD, "--out", out, "--strict", "--base-url", "http://localhost:8000/")
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 11 and lines[-1] == "nothing written: 10 bad record files (--strict)"
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # a subprocess each: the fast loop keeps the first two
def test_strict_leaves_an_existing_site_untouched(tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("the old site")
    (out / ".errorsite.json").write_text('{"generator": "errorsite"}')  # as an earlier build left it
    done = run("--records", BAD, "--out", out, "--strict", "--base-url", BASE)
    assert done.returncode == 1
    assert sorted(p.name for p in out.iterdir()) == [".errorsite.json", "index.html"]
    assert (out / "index.html").read_text() == "the old site"


@pytest.mark.slow  # a subprocess each: the fast loop keeps the first two
def test_strict_with_good_records_builds(good_records, tmp_path):
    done = run("--records", good_records, "--out", tmp_path / "site", "--strict", "--base-url", BASE)
    assert (done.returncode, done.stdout) == (0, "built 1 record\n")


@pytest.mark.slow  # a subprocess each: the fast loop keeps the first two
def test_quiet_prints_nothing_on_success(good_records, tmp_path):
    done = run("--records", good_records, "--out", tmp_path / "site", "-q", "--base-url", BASE)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert (tmp_path / "site" / GOOD_PAGE).is_file()


@pytest.mark.slow  # a subprocess each: the fast loop keeps the first two
def test_quiet_still_prints_problems(tmp_path):
    done = run("--records", BAD, "--out", tmp_path / "site", "--quiet", "--base-url", BASE)
    assert done.returncode == 0 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 10


@pytest.mark.slow  # a subprocess each: the fast loop keeps the first two
@pytest.mark.parametrize("args, message", [
    (["--base-url", "not-a-url"], "--base-url must be an absolute http(s) URL, got 'not-a-url'"),
    (["--base-url", "ftp://example.org/"], "--base-url must be an absolute http(s) URL"),
    (["--records", "/nonexistent"], "--records: /nonexistent is not a folder"),
    (["--no-such-option"], "unrecognized arguments: --no-such-option"),
])
def test_usage_errors_exit_2(args, message, tmp_path):
    done = run(*args, "--out", tmp_path / "site")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("usage: build.py")
    assert message in done.stderr
    assert not (tmp_path / "site").exists()


@pytest.mark.slow  # a subprocess each: the fast loop keeps the first two
@pytest.mark.parametrize("out", ["records", ".", "records/.."])
def test_out_must_not_replace_the_records(out, good_records, tmp_path):
    """Done on a copy: were the guard to fail, the build would swap the folder away."""
    before = sorted(tmp_path.rglob("*"))
    done = run("--records", good_records, "--out", tmp_path / out, "--base-url", BASE)
    assert done.returncode == 2
    assert "refusing to replace" in done.stderr and "the records folder" in done.stderr
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.slow  # a subprocess each: the fast loop keeps the first two
def test_help(tmp_path):
    done = run("--help")
    assert done.returncode == 0 and "--base-url" in done.stdout and "--strict" in done.stdout


NO_BASE_URL = ("build.py: no base URL: pass --base-url with the address the site will be served from "
               "(e.g. https://example.org/errors/) or set base_url in site.toml; to look at it on this machine, "
               "`build.py serve`, or --base-url http://localhost:8000/\n")


def test_a_build_without_a_base_url_writes_nothing(tmp_path):
    """Every absolute link starts with the base URL: a forgotten one is a
    usage error, never a site of links to localhost published with a note."""
    out = tmp_path / "site"
    done = run("--out", out)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", NO_BASE_URL)
    assert not out.exists()
    done = run("assemble", tmp_path / "shard", "--out", out)
    assert (done.returncode, done.stderr) == (2, NO_BASE_URL)


@pytest.mark.slow  # a subprocess each: the fast loop keeps the first two
def test_default_records_folder_builds(tmp_path):
    """With no --records, the demo records shipped in records/ are built."""
    out = tmp_path / "site"
    done = run("--out", out, "--base-url", "http://localhost:8000/")
    assert done.returncode == 0, done.stderr
    count = len(list((ROOT / "records").glob("*.json")))
    assert done.stdout == f"built {count} record{'s' if count != 1 else ''}\n"
    assert "http://localhost:8000/" in (out / "sitemap.xml").read_text()
    assert (out / "index.html").is_file()


# --- defaults and reading (issue 40) --------------------------------------------------------

def run_in(folder: Path, *args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "build.py"), *map(str, args)], cwd=folder,
                          capture_output=True, text=True, timeout=60)


def test_an_empty_records_folder_fails_the_build_and_leaves_the_site(tmp_path):
    """Before: an empty site (288 KB) replaced the old one, exit 0."""
    (tmp_path / "empty").mkdir()
    out = tmp_path / "site"
    done = run("--records", tmp_path / "empty", "--out", out, "--base-url", "https://example.org/")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"build.py: --records: no record files (*.json) in {tmp_path / 'empty'}; nothing written\n"
    assert not out.exists()


@pytest.mark.slow  # a subprocess each: the fast loop keeps the first two
def test_a_build_of_a_project_skips_what_holds_no_records_and_says_so_once(tmp_path):
    shutil.copy(GOOD, tmp_path / GOOD.name)
    for name in ("node_modules/pkg/package.json", ".github/workflows/ci.json", "old/.errorsite.json", "old/x.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    done = run_in(tmp_path, "--records", ".", "--out", "site", "--base-url", "http://localhost:8000/")
    assert (done.returncode, done.stdout) == (0, "built 1 record\n")
    assert done.stderr == "not read as records: .github/, node_modules/, old/ (a built site)\n"
    again = run_in(tmp_path, "--records", ".", "--out", "site", "--base-url", "http://localhost:8000/")
    assert again.stderr == "not read as records: .github/, node_modules/, old/ (a built site), site/ (the output)\n"


@pytest.mark.slow  # a subprocess each: the fast loop keeps the first two
def test_a_base_url_in_the_settings_is_enough(tmp_path, good_records):
    quiet = run("--records", good_records, "--out", tmp_path / "a", "-q")
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (2, "", NO_BASE_URL)
    (tmp_path / "site.toml").write_text('base_url = "http://localhost:8000/"\n')
    given = run_in(tmp_path, "--records", good_records, "--out", tmp_path / "b")
    assert (given.returncode, given.stderr) == (0, "")


@pytest.mark.parametrize("argv0, name", [("/home/me/.local/bin/errorsite", "errorsite"),
                                         ("/usr/lib/python3/site-packages/errorsite/__main__.py", "errorsite"),
                                         ("build.py", "build.py")])
def test_the_command_names_itself_as_it_was_run_and_tells_its_version(monkeypatch, capsys, argv0, name):
    from errorsite import __version__
    from errorsite.cli import main
    monkeypatch.setattr(sys, "argv", [argv0])
    for argv, shown in ((["--version"], f"errorsite {__version__}\n"), (["--help"], f"usage: {name} "),
                        (["check", "--help"], f"usage: {name} check "), (["serve", "--help"], f"usage: {name} serve ")):
        with pytest.raises(SystemExit) as ended:
            main(argv)
        assert ended.value.code == 0
        assert capsys.readouterr().out.startswith(shown)
