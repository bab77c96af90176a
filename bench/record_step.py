"""Where the record step's CPU goes, record by record, in one process.

The record step (errorsite/records.py: load → check → render → the record's
files) run over a corpus folder with nothing written, each part timed in
CPU seconds (time.process_time): the figures do not move with the disk,
which on a virtual machine makes wall times of file-heavy runs swing by
two-fold. Pickling the outcomes stands for what crossing to the main
process costs.

    python -m bench.record_step RECORDS_DIR [N]
"""
from __future__ import annotations

import collections
import pickle
import sys
import time
from pathlib import Path

from errorsite import records, urls
from errorsite.markup import lexing
from errorsite.pages import plain_text
from errorsite.pages.render import SiteOptions
from errorsite.process.pool import LARGEST_CHUNK

PARTS = {records: ("load_file", "check", "shown_plain", "record_key", "summarize", "record_page", "permalink_page",
                   "record_json", "record_markdown", "oembed"),
         plain_text: ("slow_code", "check_markdown")}
LABELS = {"check": "check: validating", "shown_plain": "check: what is shown plain",
          "slow_code": "check: highlighting (the floor's work)", "check_markdown": "check: Markdown"}


def timed(spent: collections.Counter, name: str, function):
    def inner(*args, **kwargs):
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - started
    return inner


def profile(folder: Path, count: int | None = None) -> tuple[int, float, collections.Counter, int]:
    """(records, CPU seconds in all, CPU seconds by part, pickled bytes)."""
    lexing.install()
    folder = folder.resolve()  # as a build reads it: a record reached through a link elsewhere is refused
    files = sorted(folder.glob("*.json"))[:count]
    worker = records.Worker(urls.Site("http://localhost:8000/"), SiteOptions(), folder, "bench", {})
    spent: collections.Counter = collections.Counter()
    originals = {(module, name): getattr(module, name) for module, names in PARTS.items() for name in names}
    try:
        for (module, name), function in originals.items():
            setattr(module, name, timed(spent, LABELS.get(name, name), function))
        started = time.process_time()
        outcomes = [outcome for start in range(0, len(files), LARGEST_CHUNK)  # in chunks, as a build's workers
                    for outcome in worker.chunk(files[start:start + LARGEST_CHUNK])]
        total = time.process_time() - started
    finally:
        for (module, name), function in originals.items():
            setattr(module, name, function)
    started = time.process_time()
    blob = pickle.dumps(outcomes, protocol=pickle.HIGHEST_PROTOCOL)
    pickle.loads(blob)
    spent["pickling the outcomes"] = time.process_time() - started
    return len(files), total, spent, len(blob)


def main(argv: list[str]) -> None:
    if not argv or len(argv) > 2:
        raise SystemExit(__doc__)
    n, total, spent, size = profile(Path(argv[0]), int(argv[1]) if len(argv) > 1 else None)
    print(f"{n} records: {total:.2f} CPU-s, {1000 * total / n:.2f} CPU-ms a record; "
          f"outcomes pickled {size / n / 1000:.1f} KB a record")
    for name, seconds in spent.most_common():
        print(f"  {name:40} {1000 * seconds / n:6.3f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
