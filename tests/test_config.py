"""Settings: site.toml or --config FILE, overridden by options; every wrong key
or value is one error naming the file and the key."""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from errorsite.pages import sitecard
from errorsite.cli import BUILD_KEYS, SERVE_KEYS
from errorsite.config import KEYS, ConfigError, add_options, parse_config, resolve
from tests.conftest import ROOT
from tests.test_cli import GOOD, GOOD_PAGE

# The settings are documented in docs/commands.md (the README links there).
SETTINGS_DOC = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")


def parse(text: str, folder: Path = Path("/data")) -> dict:
    return parse_config(text.encode(), "site.toml", folder)


def error_of(text: str, folder: Path = Path("/data")) -> str:
    with pytest.raises(ConfigError) as raised:
        parse(text, folder)
    return str(raised.value)


def run(*args, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "build.py"), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=60)


# --- the file ---------------------------------------------------------------------

def test_every_key_parses(tmp_path):
    (tmp_path / "recs").mkdir()
    (tmp_path / "theme").mkdir()
    (tmp_path / "card.png").write_bytes(sitecard.png(sitecard.pixels("Acme")))
    values = parse("""
title = "Acme Errors"
description = "Every error Acme raises."
base_url = "https://example.org/errors"
dataset_url = "https://github.com/acme/errors"
dataset_repo = "acme/errors"
page_size = 50
templates = "theme"
records = "recs"
out = "public"
cache_dir = "build-cache"
strict = true
jobs = 2
card = "card.png"
cards = true

[serve]
host = "127.0.0.1"
port = 0
""", tmp_path)
    assert values == {
        "title": "Acme Errors", "description": "Every error Acme raises.",
        "base_url": "https://example.org/errors/", "dataset_url": "https://github.com/acme/errors",
        "dataset_repo": "acme/errors", "page_size": 50, "templates": tmp_path / "theme", "records": tmp_path / "recs",
        "out": tmp_path / "public", "cache_dir": tmp_path / "build-cache", "strict": True, "jobs": 2,
        "card": sitecard.card_file((tmp_path / "card.png").read_bytes()), "cards": True,
        "serve.host": "127.0.0.1", "serve.port": 0,
    }
    assert {key.name for key in KEYS} == set(values)


def test_an_empty_file_sets_nothing():
    assert parse("") == {}


@pytest.mark.parametrize("text, message", [
    ('titel = "x"', "site.toml: titel: unknown key (did you mean 'title'?); the keys are listed by `build.py --help`"),
    ('colour = "red"', "site.toml: colour: unknown key; the keys are listed by `build.py --help`"),
    ('[serve]\nhots = "x"', "site.toml: serve.hots: unknown key (did you mean 'serve.host'?)"),
    ('[site]\ntitle = "x"', "site.toml: site: unknown key"),
    ('page_size = "10"', 'site.toml: page_size: expected an integer, got "10"'),
    ('page_size = 10.0', "site.toml: page_size: expected an integer, got 10.0"),
    ("page_size = true", "site.toml: page_size: expected an integer, got true"),
    ("page_size = 0", "site.toml: page_size: must be at least 1, got 0"),
    ("jobs = -1", "site.toml: jobs: must be at least 1, got -1"),
    ('strict = "yes"', 'site.toml: strict: expected a boolean (true or false), got "yes"'),
    ("title = 3", "site.toml: title: expected a string, got 3"),
    ('title = ["a"]', "site.toml: title: expected a string, got an array"),
    ("title = { a = 1 }", "site.toml: title: expected a string, got a table"),
    ("title = 2026-12-01", "site.toml: title: expected a string, got a date"),
    ('title = "  "', "site.toml: title: must not be empty"),
    ('base_url = "example.org"', "site.toml: base_url: must be an absolute http(s) URL, got 'example.org'"),
    ('dataset_url = "javascript:alert(1)"',
     "site.toml: dataset_url: must be an absolute http(s) URL, got 'javascript:alert(1)'"),
    ('dataset_repo = "https://github.com/acme/errors"',
     "site.toml: dataset_repo: must be a GitHub repository as owner/name, got 'https://github.com/acme/errors'"),
    ('dataset_repo = "acme/errors/../x"',
     "site.toml: dataset_repo: must be a GitHub repository as owner/name, got 'acme/errors/../x'"),
    ("serve = 3", "site.toml: serve: expected a table ([serve]), got 3"),
    ("[serve]\nport = 70000", "site.toml: serve.port: must be a port number from 0 to 65535, got 70000"),
    ('[serve]\nport = "8000"', 'site.toml: serve.port: expected an integer, got "8000"'),
    ("title = \n", "site.toml: invalid TOML: Invalid value (at line 1, column 9)"),
])
def test_each_wrong_key_or_value_is_one_error(text, message):
    assert error_of(text).startswith(message)


def test_folders_must_exist_relative_to_the_file(tmp_path):
    assert error_of('records = "nowhere"', tmp_path) == f"site.toml: records: {tmp_path}/nowhere is not a folder"
    assert error_of('templates = "theme"', tmp_path) == f"site.toml: templates: {tmp_path}/theme is not a folder"


def test_a_file_that_is_not_utf8():
    with pytest.raises(ConfigError, match=r"^site.toml: not valid UTF-8 \(byte 9\)$"):
        parse_config(b'title = "\xff"', "site.toml", Path("."))


# --- options over the file -------------------------------------------------------------

def namespace(argv: list[str], names=BUILD_KEYS) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_options(parser, names)
    return parser.parse_args(argv)


def test_options_override_the_file_which_overrides_the_defaults(tmp_path, monkeypatch):
    (tmp_path / "records").mkdir()
    (tmp_path / "site.toml").write_text('title = "From the file"\npage_size = 7\nstrict = true\n')
    monkeypatch.chdir(tmp_path)
    s = resolve(namespace(["--page-size", "3", "--no-strict"]))
    assert (s.title, s.page_size, s.strict, s.config) == ("From the file", 3, False, Path("site.toml"))
    assert (s.base_url, s.out, s.records, s.port) == ("http://localhost:8000/", Path("site"), Path("records"), 8000)
    assert s.site_options.title == "From the file" and s.site_options.page_size == 3


def test_an_explicit_config_file_replaces_site_toml(tmp_path, monkeypatch):
    (tmp_path / "records").mkdir()
    (tmp_path / "site.toml").write_text('title = "Not me"\n')
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "other.toml").write_text('title = "Me"\nrecords = "../records"\n')
    monkeypatch.chdir(tmp_path)
    s = resolve(namespace(["--config", "conf/other.toml"]))
    assert (s.title, s.records) == ("Me", Path("conf/../records"))


def test_the_default_records_folder_must_exist_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=r"^--records: records is not a folder$"):
        resolve(namespace([]))
    assert error_of('dataset_url = "http://[::1"') == \
        "site.toml: dataset_url: must be an absolute http(s) URL, got 'http://[::1'"


def test_short_jobs_option(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "records").mkdir()
    assert resolve(namespace(["-j", "3"])).jobs == 3


def test_option_values_are_checked_like_the_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "records").mkdir()
    with pytest.raises(ConfigError, match=r"^--page-size must be at least 1, got 0$"):
        resolve(namespace(["--page-size", "0"]))
    with pytest.raises(ConfigError, match=r"^--config: missing.toml is not a file$"):
        resolve(namespace(["--config", "missing.toml"]))


# --- as users meet it ---------------------------------------------------------------

def test_a_bad_key_stops_the_build_with_exit_2(tmp_path):
    (tmp_path / "site.toml").write_text('[serve]\nport = "eighty"\n')
    done = run("--out", tmp_path / "site", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == 'build.py: error: site.toml: serve.port: expected an integer, got "eighty"'
    assert not (tmp_path / "site").exists()


@pytest.mark.slow  # ~2.5 s: two build.py runs; read_config's tests above stay in the fast loop
def test_the_build_follows_the_config_file(tmp_path):
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / GOOD.name).write_bytes(GOOD.read_bytes())
    (tmp_path / "site.toml").write_text('title = "Acme Errors"\nout = "public"\nbase_url = "https://acme.example/e/"\n')
    done = run(cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "built 1 record\n")
    # a first build for a hosted base URL has no URL history to redirect from
    assert done.stderr.startswith("note: no URL history in public") and done.stderr.count("\n") == 1
    page = (tmp_path / "public" / GOOD_PAGE).read_text()
    assert "<title>" in page and "Acme Errors" in page
    assert 'href="https://acme.example/e/' in page
    done = run("--title", "Other", "--out", tmp_path / "other", cwd=tmp_path)
    assert "Other" in (tmp_path / "other" / GOOD_PAGE).read_text()


def test_help_and_settings_doc_list_every_key():
    help_text = run("--help").stdout
    for key in KEYS:
        table, _, name = key.name.rpartition(".")
        shown = f"[{table}] {name}" if table else name
        assert re.search(rf"^  {re.escape(shown)} ", help_text, re.M), f"--help does not list {key.name}"
        assert f"`{name}`" in SETTINGS_DOC, f"docs/commands.md does not list {key.name}"
        if key.name in BUILD_KEYS:
            assert key.option in help_text, key.option
    serve_help = run("serve", "--help").stdout
    for name in SERVE_KEYS:
        assert next(k for k in KEYS if k.name == name).option in serve_help, name


def test_settings_doc_example_config_parses(tmp_path):
    [example] = re.findall(r"```toml\n(.*?)```", SETTINGS_DOC, re.S)
    for folder in ("records", "theme"):
        (tmp_path / folder).mkdir()
    (tmp_path / "card.png").write_bytes(sitecard.png(sitecard.pixels("Acme")))
    values = parse(example, tmp_path)
    assert {key.name for key in KEYS} == set(values), "docs/commands.md's example should show every key"
