"""bench/record_step.py: the record step's CPU by part, on real records, with nothing written."""
from __future__ import annotations

from bench import record_step
from errorsite import records
from tests.conftest import SHARED_RECORDS, need_shared


def test_each_part_is_timed_and_put_back():
    need_shared()
    originals = {name: getattr(records, name) for name in record_step.PARTS[records]}
    count, total, spent, pickled = record_step.profile(SHARED_RECORDS, 5)
    assert count == 5 and pickled > 0
    assert {"record_page", "load_file", "check: validating", "check: highlighting (the floor's work)"} <= set(spent)
    assert 0 < spent["record_page"] < total
    assert spent["check: highlighting (the floor's work)"] <= spent["check: what is shown plain"]  # a part of it
    assert {name: getattr(records, name) for name in originals} == originals  # the step is as it was
