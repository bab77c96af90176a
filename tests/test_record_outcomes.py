"""records.outcomes: each record file's outcome, in file order, the known
ones (the previous build's, which stand) merged with the ones made now."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from errorsite import records


def test_known_outcomes_come_in_file_order_and_are_let_go_once_passed_on():
    """The record step keeps a known outcome's summary and line, not its
    pages: the plan's dict of them must not hold 100,000 outcomes and their
    400,000 pages through the global steps (a rebuild's memory at 100k)."""
    known = {0: "kept 0", 2: "kept 2"}
    made = []
    worker = SimpleNamespace(chunk=lambda paths: [made.append(path) or f"made {path.name}" for path in paths])
    files = [None, Path("one.json"), None, Path("three.json")]
    came, seen_known = [], []
    for outcome in records.outcomes(worker, files, jobs=1, known=known):
        came.append(outcome)
        seen_known.append(len(known))
    assert came == ["kept 0", "made one.json", "kept 2", "made three.json"]
    assert made == [Path("one.json"), Path("three.json")]
    assert seen_known == [1, 1, 0, 0] and known == {}


def test_a_serial_build_takes_its_records_a_chunk_at_a_time_as_a_worker_process_does():
    """-j 1: Worker.chunk's steps for 32 records in turn, in file order."""
    chunks = []
    worker = SimpleNamespace(chunk=lambda paths: chunks.append(len(paths)) or [path.name for path in paths])
    files = [Path(f"{n:03}.json") for n in range(70)]
    assert list(records.outcomes(worker, files, jobs=1)) == [path.name for path in files]
    assert chunks == [32, 32, 6]
