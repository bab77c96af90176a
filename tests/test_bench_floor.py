"""bench/floor.py: the work no generator of these pages can skip, on the
repository's own records. No timing here: what it writes."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"

pytestmark = pytest.mark.slow  # a Python process a floor


def floor(out: Path, *flags: str) -> list[Path]:
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "floor.py"), *flags, str(RECORDS), str(out)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return sorted(path.relative_to(out) for path in out.rglob("*") if path.is_file())


def test_the_floor_writes_one_file_a_record_and_with_our_files_the_four_of_our_site(tmp_path):
    count = len(list(RECORDS.glob("*.json")))
    assert len(floor(tmp_path / "one", "--our-lexing")) == count
    files = floor(tmp_path / "ours", "--our-lexing", "--our-files")
    pages = [path for path in files if path.parts[0] != "-"]
    assert len(pages) == count and all(len(path.parts) == 4 and path.name == "index.html" for path in pages)
    beside = [path for path in files if path.parts[0] == "-"]
    assert sorted({path.suffix or path.name for path in beside}) == [".html", ".json", ".md"]
    assert len(beside) == 3 * count
    assert all((tmp_path / "ours" / path).stat().st_size for path in pages)


def test_our_files_need_our_lexing(tmp_path):
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "floor.py"), "--our-files", str(RECORDS),
                          str(tmp_path / "out")], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "--our-files" in run.stderr
