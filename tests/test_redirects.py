"""Automatic redirects: build, rename a slug and a repository, remove a
record, rebuild twice; every URL of the first build still lands on the right
record page, or on a "removed" page — read from the files, and followed in
Chromium."""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from errorsite import urls
from errorsite.cache.keys import history_digest
from errorsite.cache.folder import state_folder
from errorsite.cache.stored import previous_build
from errorsite.pages.redirects import nearest
from errorsite.pages.sitewide import History
from errorsite.pages.url_history import read_history
from tests.conftest import SHARED_RECORDS, Server, build_quietly, need_shared

EXPRESS = ["expressjs__express__callback-function-required.json",
           "expressjs__express__content-type-cannot-be-set-to-an-array.json",
           "expressjs__express__name-must-be-a-string-to-req-get.json"]
CANDLE = ["huggingface__candle__kv-cache-enabled-true-is-not-supported.json",
          "huggingface__candle__dtype-mismatch-in-op-lhs-rhs.json"]
RENAMED_SLUG = "huggingface__candle__kv-cache-enabled-true-is-not-supported.json"
REMOVED = "huggingface__candle__dtype-mismatch-in-op-lhs-rhs.json"


def record(folder: Path, name: str) -> dict:
    return json.loads((folder / name).read_text(encoding="utf-8"))


def change(folder: Path, name: str, **fields) -> None:
    data = record(folder, name)
    data["record"].update(fields)
    (folder / name).write_text(json.dumps(data), encoding="utf-8")


def html_files(out: Path) -> set[str]:
    return {p.parent.relative_to(out).as_posix() + "/" if p.parent != out else ""
            for p in out.rglob("index.html")}


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """(server, out, old URL → (expected h1 or None for removed, message)) after three builds."""
    need_shared()
    tmp = tmp_path_factory.mktemp("redirects")
    records = tmp / "records"
    records.mkdir()
    for name in EXPRESS + CANDLE:
        shutil.copy(SHARED_RECORDS / name, records / name)
    server = Server(tmp)
    out = tmp / "errors"
    first, problems = build_quietly(records, out, server.base_url)
    assert first.written and problems == []
    old = {p: p for p in html_files(out)}
    messages = {urls.record_path(type("R", (), {"repo": r["record"]["repo"], "slug": r["record"]["slug"]})):
                r["record"]["errorMessage"] for r in (record(records, n) for n in EXPRESS + CANDLE)}
    change(records, RENAMED_SLUG, slug="kv-cache-is-not-supported")
    for name in EXPRESS:
        change(records, name, repo="expressjs/express-next")
    (records / REMOVED).unlink()
    for _ in range(2):  # the second rebuild must carry the first one's history forward
        result, problems = build_quietly(records, out, server.base_url)
        assert result.written and problems == []
    yield server, out, old, messages
    server.close()


def test_every_old_url_still_has_a_page(history):
    server, out, old, messages = history
    now = html_files(out)
    assert set(old) <= now
    removed = (out / "huggingface/candle/dtype-mismatch-in-op-lhs-rhs/index.html").read_text()
    assert "This record was removed" in removed and 'name="robots" content="noindex"' in removed
    assert "/-/search/?q=dtype+mismatch" in removed


def test_the_manifest_carries_every_move(history):
    _, out, _, _ = history
    read = read_history(json.loads((out / urls.URLS_PATH).read_text()))
    (known, lists), dropped = read.history, read.dropped
    assert dropped == []
    kv = known["5410d019e75c02d7"]
    assert kv.path == "huggingface/candle/kv-cache-is-not-supported/" and not kv.removed
    assert kv.old == ("huggingface/candle/kv-cache-enabled-true-is-not-supported/",)
    assert "expressjs/express/" in lists and "expressjs/express-next/" in lists
    assert [k.removed for k in known.values()].count(True) == 1


def test_redirects_file_lists_the_moves(history):
    server, out, _, _ = history
    base = urlsplit(server.base_url).path
    lines = (out / "_redirects").read_text().splitlines()
    assert f"{base}huggingface/candle/kv-cache-enabled-true-is-not-supported/ " \
           f"{base}huggingface/candle/kv-cache-is-not-supported/ 301" in lines
    assert f"{base}expressjs/express/ {base}expressjs/express-next/ 301" in lines
    assert all(line.endswith(" 301") and len(line.split()) == 3 for line in lines)


def test_the_served_history_digest_is_that_of_the_file_the_next_build_reads(history):
    """The next build compares the digest of the history it reads with the one
    the build that wrote it kept (made in pieces, never the file as one string)."""
    _, out, _, _ = history
    served = (out / urls.URLS_PATH).read_bytes()
    kept = previous_build(out, state_folder(out)).global_pages
    assert kept.history_served == history_digest(json.loads(served)) == hashlib.sha256(served).hexdigest()[:24]
    # read back as a history a build could have written, it is the same, so its digest is too
    assert History.of(json.loads(served)).digest == kept.history_served


def test_a_hostile_manifest_is_ignored_where_malformed():
    read = read_history({"format": 1, "lists": ["../x/", "-/tags/ok/", 3, "/abs/"], "records": {
        "good": {"path": "a/b/c/", "message": "m", "old": ["a/b/d/", "../../etc/", None]},
        "bad id!": {"path": "a/b/e/", "message": "m", "old": []},
        "nopath": {"path": "../", "message": "m", "old": []}}})
    known, lists = read.history
    assert list(known) == ["good"] and known["good"].old == ("a/b/d/",)
    assert lists == {"-/tags/ok/"}
    assert read_history("nonsense").history == ({}, set())


def test_nearest_page_for_a_vanished_listing():
    served = {"", "-/tags/", "new/repo/"}
    assert nearest("-/tags/gone/-/page/2/", served, {}) == "-/tags/"
    assert nearest("old/repo/-/page/2/", served, {"old/repo/": "new/repo/"}) == "new/repo/"
    assert nearest("x/y/", served, {}) == ""


@pytest.mark.browser
def test_every_old_url_lands_on_the_right_page_in_chromium(history, page):
    server, out, old, messages = history
    followed = []
    for path in sorted(old):
        page.page.goto(server.base_url + path)
        h1 = page.page.locator("h1")
        if path in messages and path != "huggingface/candle/dtype-mismatch-in-op-lhs-rhs/":
            page.page.wait_for_function(
                "m => document.querySelector('h1') && document.querySelector('h1').innerText === m",
                arg=messages[path])
        elif path in messages:
            assert h1.inner_text() == "This record was removed"
        else:
            page.page.wait_for_load_state("load")
            page.page.wait_for_function("() => !document.querySelector('meta[http-equiv=refresh]')")
        followed.append((path, urlsplit(page.page.url).path, h1.inner_text()))
    assert page.errors == []
    moved = dict((p, landed) for p, landed, _ in followed)
    assert moved["huggingface/candle/kv-cache-enabled-true-is-not-supported/"].endswith(
        "/huggingface/candle/kv-cache-is-not-supported/")
    assert moved["expressjs/express/"].endswith("/expressjs/express-next/")
    print("\n".join(f"{p} → {landed}  [{h}]" for p, landed, h in followed))
