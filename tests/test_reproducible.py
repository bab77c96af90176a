"""The site is the same bytes wherever and whenever it is built: in another
process, with another hash seed, -j 1 or -j 2, on another day, on another
machine. Both builds of the older byte-identity test ran on one day, so today's
date as the sitemap's lastmod passed it, and nothing looked for the host name
in the marker (issue 43). No faketime here: the second build runs in a
process whose datetime, clock and host name are moved before errorsite is
imported."""
from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from errorsite.cache import MARKER
from tests.conftest import ROOT, build_quietly

RECORDS = ROOT / "records"
BASE_URL = "https://example.org/errors/"
HANG_GUARD = 120  # seconds; a build of these records takes about one

ELSEWHERE = r'''
import datetime, os, platform, socket, sys, time

class Day(datetime.date):
    @classmethod
    def today(cls):
        return cls(2031, 5, 17)

class Moment(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2031, 5, 17, 3, 4, 5, tzinfo=tz)

    @classmethod
    def utcnow(cls):
        return cls(2031, 5, 17, 3, 4, 5)

    today = utcnow

datetime.date, datetime.datetime = Day, Moment
LATER = 4 * 365 * 86400  # four years on: files are no older, the clock is
real_time, real_ns = time.time, time.time_ns
time.time = lambda: real_time() + LATER
time.time_ns = lambda: real_ns() + LATER * 10**9
socket.gethostname = platform.node = lambda: "another-machine.example"
os.environ["HOSTNAME"] = "another-machine.example"
from errorsite.cli import main
sys.exit(main(sys.argv[1:]))
'''


def tree(root: Path) -> dict[str, str]:
    return {path.relative_to(root).as_posix(): "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(root.rglob("*"))}


def build_in_process(out: Path, cache: Path, seed: str, jobs: str, elsewhere: bool) -> None:
    command = [sys.executable, *(["-c", ELSEWHERE] if elsewhere else [str(ROOT / "build.py")]),
               "--records", str(RECORDS), "--out", str(out), "--cache-dir", str(cache), "--base-url", BASE_URL,
               "-j", jobs, "-q"]
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT), "TZ": "Pacific/Kiritimati" if elsewhere
           else "UTC"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=out.parent, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr


def test_two_processes_seeds_days_and_machines_build_the_same_bytes(tmp_path):
    (tmp_path / "here").mkdir()
    (tmp_path / "there").mkdir()
    here, there = tmp_path / "here" / "site", tmp_path / "there" / "out"
    build_in_process(here, tmp_path / "cache-here", "1", "1", elsewhere=False)
    build_in_process(there, tmp_path / "cache-there", "2", "2", elsewhere=True)
    made = tree(here)
    assert len(made) > 50
    assert made == tree(there)


def test_the_marker_holds_what_ties_the_site_to_its_state_and_nothing_of_the_machine(tmp_path):
    result, _ = build_quietly(RECORDS, tmp_path / "site", BASE_URL, cache_dir=tmp_path / "cache")
    assert result.written
    text = (tmp_path / "site" / MARKER).read_text()
    marker = json.loads(text)
    assert sorted(marker) == ["files", "fingerprint", "generator", "state", "version"]
    assert marker["generator"] == "errorsite" and marker["files"] == result.files
    for own in {socket.gethostname(), socket.getfqdn(), os.uname().nodename, str(Path.home()),
                str(tmp_path)} - {""}:
        assert own not in text


def test_the_sitemap_dates_are_the_records_own(tmp_path):
    """lastmod is the day a record last changed, never the build's."""
    build_quietly(RECORDS, tmp_path / "site", BASE_URL, cache_dir=tmp_path / "cache")
    sitemap = (tmp_path / "site" / "sitemap.xml").read_text()
    dates = set()
    for path in RECORDS.glob("*.json"):
        record = json.loads(path.read_text())["record"]
        dates.update(d[:10] for d in (record.get("analyzedAt"), record.get("contentChangedAt")) if d)
    shown = set(re.findall(r"<lastmod>([^<]*)</lastmod>", sitemap))
    assert shown and shown <= dates
