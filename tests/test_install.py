"""The package as a user installs it.

A wheel built from a clean copy of the repository (what git holds at HEAD),
installed into a fresh virtual environment, run as `errorsite` from outside
the checkout: it must carry everything a build needs (templates, static files,
vendored lunr.js and its licence, the schema) and make the same site, byte for
byte, as `build.py` run from the copy.

Offline: the wheel is built without build isolation, by the setuptools the
test lock pins, and the fresh environment borrows this one's dependencies
through a .pth file (what --system-site-packages does, with this environment
as the "system"), so no step reaches a package index.
"""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import venv
from pathlib import Path

import pytest

import errorsite

from errorsite import resources
from errorsite.cli import main

ROOT = Path(__file__).resolve().parent.parent
SHARED_RECORDS = ROOT.parent / "shared" / "records"
OWN_STATE = re.compile(r"^\.errorsite")  # the build's own state: keyed by where the code lives


def run(command: list, **kwargs) -> subprocess.CompletedProcess:
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, env=env,
                          timeout=600, **kwargs)


def clean_copy(folder: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def fresh_environment(folder: Path) -> Path:
    """A new venv without pip, seeing this environment's packages after its own."""
    venv.EnvBuilder(with_pip=False).create(folder)
    python = folder / "bin" / "python"
    own = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], check=True).stdout.strip()
    paths = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    (Path(own) / "borrowed-dependencies.pth").write_text("".join(f"{path}\n" for path in paths))
    return python


def site_files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and not OWN_STATE.match(path.relative_to(folder).parts[0])}


@pytest.mark.slow
def test_a_wheel_from_a_clean_checkout_installs_a_working_errorsite_command(tmp_path):
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the test builds the wheel from what git holds")
    copy = clean_copy(tmp_path / "clean")
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-index", "--no-build-isolation", "-q",
                 "-w", tmp_path / "dist", copy], cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    [wheel] = (tmp_path / "dist").glob("errorsite-*.whl")
    python = fresh_environment(tmp_path / "env")
    installed = run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q",
                     wheel], cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr

    where = run([python, "-c", "from errorsite import resources as r; print(r.TEMPLATES); print(r.STATIC)"],
                cwd=tmp_path, check=True).stdout.split()
    assert all(Path(path).is_relative_to(tmp_path / "env") for path in where), where

    made = run([tmp_path / "env" / "bin" / "errorsite", "--records", SHARED_RECORDS, "--out", tmp_path / "site",
                "--base-url", "https://example.org/errors/"],
               cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert re.fullmatch(r"built \d+ records\n", made.stdout), made.stdout
    named = run([tmp_path / "env" / "bin" / "errorsite", "--version"], cwd=tmp_path)
    assert (named.returncode, named.stdout) == (0, f"errorsite {errorsite.__version__}\n")
    usage = run([tmp_path / "env" / "bin" / "errorsite", "check", "--help"], cwd=tmp_path).stdout
    assert usage.startswith("usage: errorsite check ") and "build.py" not in usage.splitlines()[0]
    checked = run([python, "-m", "errorsite", "check", "--records", SHARED_RECORDS], cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr

    from_checkout = run([sys.executable, copy / "build.py", "-q", "--records", SHARED_RECORDS,
                         "--out", tmp_path / "site-from-checkout", "--base-url", "https://example.org/errors/"], cwd=tmp_path)
    assert from_checkout.returncode == 0, from_checkout.stderr
    assert site_files(tmp_path / "site") == site_files(tmp_path / "site-from-checkout")
    assert (tmp_path / "site" / "-" / "static" / "vendor" / "lunr-2.3.9" / "LICENSE").is_file()


def test_the_site_files_are_found_beside_the_package_in_a_checkout():
    assert resources.TEMPLATES == ROOT / "templates" and (resources.TEMPLATES / "record.html").is_file()
    assert resources.STATIC == ROOT / "static" and (resources.STATIC / "style.css").is_file()
    assert resources.SCHEMA == ROOT / "schema"


def test_every_subpackage_and_site_folder_is_in_the_wheel():
    """pyproject.toml names the packages; one left out is missing from the wheel, not from a checkout."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    subpackages = {"errorsite." + init.parent.relative_to(ROOT / "errorsite").as_posix().replace("/", ".")
                   for init in (ROOT / "errorsite").rglob("__init__.py") if init.parent != ROOT / "errorsite"}
    mapped = {f"errorsite.{name}": name for name in ("templates", "static", "schema")}
    assert set(setuptools["packages"]) == {"errorsite", *subpackages, *mapped}
    assert setuptools["package-dir"] == mapped


def test_a_missing_template_is_named_with_where_it_was_looked_for(tmp_path, monkeypatch, capsys):
    from errorsite.pages import render
    monkeypatch.setattr(render, "TEMPLATES", tmp_path / "templates")
    status = main(["--records", str(ROOT / "records"), "--out", str(tmp_path / "site"), "-j", "1", "-q",
                   "--base-url", "https://example.org/"])
    assert status == 1
    assert capsys.readouterr().err == (f"template not found: record.html (looked in {tmp_path / 'templates'})\n"
                                       "nothing written\n")
    assert not (tmp_path / "site").exists()
