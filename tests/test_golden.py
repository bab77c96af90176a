"""Golden pages: three real records built and compared byte for byte.

The records come from ../shared/records (the test skips without it):
  - pydantic "cannot create a pydantic dataclass…": the record with the most
    optional fields set (errorCode, errorClass, typeGuard… all but httpStatus
    and contentChangedAt),
  - candle "kv_cache_enabled=true is not supported": typeGuard, errorClass and
    errorCode null, pattern equal to the message,
  - nlohmann "syntax error while parsing…": a pattern with quotes and braces.

They are built together, as one site, with base URL https://example.org/errors/,
and each record page must equal tests/golden/<owner>/<repo>/<slug>.html, but
for the assets' versions (`?v=` and ten hex digits), which change with every
script or stylesheet edit: both sides say `?v=…` instead, and
test_asset_versions_are_the_files_own checks the real ones.

After an intended change to the pages, rewrite the expected files with

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py

and review their diff like code before committing it. Under CI the switch
fails the run instead: there nobody reviews what it would rewrite.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from errorsite import urls
from tests.conftest import SHARED_RECORDS, build_quietly, in_ci, need_shared

GOLDEN = Path(__file__).parent / "golden"
BASE_URL = "https://example.org/errors/"


def updating(environ=os.environ) -> bool:
    """Whether to rewrite the golden files (UPDATE_GOLDEN=1); under CI, a failure."""
    if environ.get("UPDATE_GOLDEN") != "1":
        return False
    if in_ci(environ):
        pytest.fail("UPDATE_GOLDEN=1 under CI: golden pages are rewritten by hand and their diff reviewed, never in CI")
    return True

RECORDS = {  # shared record file → its site path
    "pydantic__pydantic__cannot-create-a-pydantic-dataclass-from-as-it-is-already-a-pydantic-model.json":
        "pydantic/pydantic/cannot-create-a-pydantic-dataclass-from-as-it-is-already-a-pydantic-model/",
    "huggingface__candle__kv-cache-enabled-true-is-not-supported.json":
        "huggingface/candle/kv-cache-enabled-true-is-not-supported/",
    "nlohmann__json__syntax-error-while-parsing-invalid-literal-last-read.json":
        "nlohmann/json/syntax-error-while-parsing-invalid-literal-last-read/",
}


def golden_file(path: str) -> Path:
    """huggingface/candle/slug/ → tests/golden/huggingface/candle/slug.html"""
    return GOLDEN / (path.rstrip("/") + ".html")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    need_shared()
    tmp = tmp_path_factory.mktemp("golden")
    records = tmp / "records"
    records.mkdir()
    for name in RECORDS:
        shutil.copy(SHARED_RECORDS / name, records / name)
    result, problems = build_quietly(records, tmp / "site", BASE_URL)
    assert problems == [] and result.written and result.records == len(RECORDS)
    return tmp / "site"


ASSET_VERSION = re.compile(rb"\?v=[0-9a-f]{10}\b")


def without_versions(page: bytes) -> bytes:
    """The page with every asset's `?v=` version as `?v=…`."""
    return ASSET_VERSION.sub("?v=…".encode(), page)


@pytest.mark.parametrize("path", sorted(RECORDS.values()))
def test_record_page_matches_golden(built, path):
    actual = without_versions(urls.output_file(built, path).read_bytes())
    expected_file = golden_file(path)
    if updating():
        expected_file.parent.mkdir(parents=True, exist_ok=True)
        expected_file.write_bytes(actual)
        return
    assert expected_file.is_file(), f"{expected_file} is missing: run {REWRITE}"
    expected = without_versions(expected_file.read_bytes())
    if actual != expected:
        pytest.fail(f"{path} differs from {expected_file}:\n{first_difference(expected, actual)}\n"
                    f"{locked_versions_note()}"
                    f"If the change is intended: {REWRITE}, then review the diff")


REWRITE = "UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py"


def first_difference(expected: bytes, actual: bytes, context: int = 2) -> str:
    """The first differing lines as a short unified diff, each line cut around
    the first differing character, so a one-character change is visible."""
    old, new = expected.decode().splitlines(), actual.decode().splitlines()
    line = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    a, b = (old[line] if line < len(old) else ""), (new[line] if line < len(new) else "")
    column = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, column - 60)
    around = slice(start, column + 100)
    out = [f"first difference at line {line + 1}, column {column + 1}:"]
    out += [f"    {text[:200]}" for text in old[max(0, line - context):line]]
    out += [f"  - {a[around]}", f"  + {b[around]}"]
    return "\n".join(out)


def locked_versions_note() -> str:
    """Golden pages are made with the locked Pygments; say so when this one differs."""
    import pygments
    lock = Path(__file__).resolve().parent.parent / "requirements-test.lock"
    locked = re.search(r"^pygments==(\S+)", lock.read_text(), re.M) if lock.is_file() else None
    if locked and locked.group(1) != pygments.__version__:
        return (f"Pygments here is {pygments.__version__}, the golden pages are made with the locked "
                f"{locked.group(1)} (requirements-test.lock): install the lock file, or re-lock with .ci/lock.\n")
    return ""


def test_asset_versions_are_the_files_own(built):
    """What the golden pages leave out: each `?v=` is its file's own version."""
    from errorsite.pages.assets import versions
    static = built / urls.STATIC_PATH
    for path in RECORDS.values():
        linked = re.findall(rb'/-/static/([^"?]+)\?v=([0-9a-f]{10})"', urls.output_file(built, path).read_bytes())
        assert len(linked) >= 4
        for name, version in linked:
            file = static / name.decode()
            assert versions({name.decode(): file.read_bytes()})[name.decode()] == version.decode(), name


def test_record_paths_are_what_the_site_decides(built):
    for path in RECORDS.values():
        assert urls.output_file(built, path).is_file(), path


def test_no_stale_golden_files():
    if updating():
        for stale in set(GOLDEN.rglob("*.html")) - {golden_file(p) for p in RECORDS.values()}:
            stale.unlink()
    assert set(GOLDEN.rglob("*.html")) == {golden_file(p) for p in RECORDS.values()}


def test_the_golden_switch_fails_under_ci_and_rewrites_nothing():
    assert updating({}) is False and updating({"UPDATE_GOLDEN": "1", "CI": "false"}) is True
    with pytest.raises(pytest.fail.Exception, match="UPDATE_GOLDEN=1 under CI"):
        updating({"UPDATE_GOLDEN": "1", "CI": "true"})
