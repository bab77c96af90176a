"""Under CI a test that needs ../shared, Chromium or Node fails instead of
skipping (conftest.pytest_runtest_makereport), whichever way it skips; other
skips stay skips, and on a laptop all of them do."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.conftest import ROOT, in_ci

SKIPPING = '''
import pytest

def test_shared():
    pytest.skip("/x/shared/records is absent: tests on the shared real records need ../shared/")

def test_shared_records():
    pytest.skip("the shared records are not at /x/shared/records")

@pytest.mark.skipif(True, reason="node is not installed: the split search is compared under Node")
def test_node():
    pass

@pytest.fixture
def browser():
    pytest.skip("/usr/bin/chromium is missing: install Debian's chromium to run browser tests")

def test_chromium(browser):
    pass

def test_unrelated():
    pytest.skip("no source tree of bench/sources.py is installed")

@pytest.mark.xfail(reason="needs ../shared, but expected to fail")
def test_expected_to_fail():
    assert False
'''


def outcomes(tmp_path, ci: str | None) -> dict[str, str]:
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_runtest_makereport\n")
    (tmp_path / "test_skipping.py").write_text(SKIPPING)
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env.update({"PYTHONPATH": str(ROOT), **({"CI": ci} if ci is not None else {})})
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    return dict(re.findall(r"::(test_\w+) (PASSED|FAILED|ERROR|SKIPPED|XFAIL)", done.stdout))


def test_under_ci_a_skip_for_shared_chromium_or_node_fails(tmp_path):
    assert outcomes(tmp_path, "true") == {
        "test_shared": "FAILED", "test_shared_records": "FAILED", "test_node": "ERROR", "test_chromium": "ERROR",
        "test_unrelated": "SKIPPED", "test_expected_to_fail": "XFAIL"}


def test_on_a_laptop_they_skip(tmp_path):
    assert outcomes(tmp_path, None) == {
        "test_shared": "SKIPPED", "test_shared_records": "SKIPPED", "test_node": "SKIPPED",
        "test_chromium": "SKIPPED", "test_unrelated": "SKIPPED", "test_expected_to_fail": "XFAIL"}


def test_ci_is_set_unless_empty_false_or_zero():
    assert [in_ci({"CI": value}) for value in ("true", "1", "yes", "", "false", "0", "False")] == \
        [True, True, True, False, False, False, False]
    assert in_ci({}) is False
