"""The record page's copy buttons and the redirect pages' script, under Node
in the fast loop (tests/js/page_scripts.js gives them a fake page): what a
reader copies and where a moved link lands were once checked only in
Chromium (issue 43). The browser tests still click the real buttons."""
from __future__ import annotations

import json
import subprocess

import pytest

from tests.search_node import NODE, ROOT, need_node

HARNESS = ROOT / "tests" / "js" / "page_scripts.js"
PERMALINK = "https://example.org/errors/-/r/5410d019e75c02d7/"
HANG_GUARD = 30  # seconds; each run takes well under one: a script that loops fails here, by name


def run(kind: str, script: str, arg: dict) -> dict:
    need_node()
    done = subprocess.run([NODE, str(HARNESS), kind, str(ROOT / "static" / script), json.dumps(arg)],
                          capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("href, target, landed", [
    ("https://example.org/errors/-/r/abc/#L84", "https://example.org/errors/redis/x/",
     "https://example.org/errors/redis/x/#L84"),
    ("https://example.org/errors/-/r/abc/#L24-L28", "https://example.org/errors/redis/x/",
     "https://example.org/errors/redis/x/#L24-L28"),
    ("https://example.org/errors/-/r/abc/?highlight=nx#solutions", "https://example.org/errors/redis/x/",
     "https://example.org/errors/redis/x/?highlight=nx#solutions"),
    ("https://example.org/errors/old/?q=1", "https://example.org/errors/new/?page=2",
     "https://example.org/errors/new/?page=2"),  # the target's own query stands
    ("https://example.org/errors/-/r/abc/", "https://example.org/errors/redis/x/",
     "https://example.org/errors/redis/x/"),
])
def test_a_redirect_keeps_the_readers_fragment_and_query(href, target, landed):
    assert run("redirect", "redirect.js", {"href": href, "target": target}) == {"replaced": landed}


def test_the_copy_buttons_copy_permanent_links_to_what_they_name():
    made = run("copy", "record-tools.js", {"permalink": PERMALINK, "hash": "", "line": "449"})
    assert made["section"] == [{"text": "Copy link", "copied": [PERMALINK + "#solutions"]}]
    assert made["solution"] == [{"text": "Copy link", "copied": [PERMALINK + "#solution-2"]}]
    assert made["line"] == {"text": "Copy link to line 449", "hidden": False, "copied": [PERMALINK + "#L449"]}


def test_the_line_button_follows_the_range_in_the_address():
    made = run("copy", "record-tools.js", {"permalink": PERMALINK, "hash": "#L450-L447", "line": "449"})
    assert made["line"] == {"text": "Copy link to lines 447-450", "hidden": False,
                            "copied": [PERMALINK + "#L447-L450"]}
