"""Where `assemble`'s memory goes, step by step (issue 27: it grows by about
7 KB a record). Traces Python's allocations (tracemalloc) while one process
assembles shard folders, and prints for the record step and each global step
the memory held before it, its peak and what it left held:

    for k in 1 2 3 4; do python build.py --records C --out s$k --shard $k/4 -q; done
    python bench/assemble_memory.py --out OUT s1 s2 s3 s4   [--base-url URL, as the shards']

Traced bytes are Python objects only, without the allocator's slack that RSS
also counts (/usr/bin/time -v gives that). The search data is made in this
process (`-j 1`), so its step is traced too. Several times slower than an
untraced assemble; OUT must be a folder assemble may replace.
"""
from __future__ import annotations

import argparse
import sys
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from errorsite import pipeline  # noqa: E402
from errorsite.pages import sitewide  # noqa: E402

MIB = 1024 * 1024
peaks: list[int] = []  # each step's peak: tracemalloc has one peak, reset before each step
STEPS = ((pipeline, "record_pages"), (sitewide, "browse_pages"), (sitewide, "code_pages"),
         (sitewide, "api_pages"), (sitewide, "feed_pages"), (sitewide, "redirect_pages"),
         (pipeline, "streamed_search"), (sitewide, "sitemap"))


def traced(name: str, step):
    """`step`, a function whose items are pages, printing the memory around it."""
    def wrapper(*args, **kwargs):
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = yield from step(*args, **kwargs)
        held, peak = tracemalloc.get_traced_memory()
        peaks.append(peak)
        print(f"{name:16} held before {before / MIB:7.1f} MiB, peak {peak / MIB:7.1f}, held after {held / MIB:7.1f}")
        return result
    return wrapper


def main(out: Path, shards: list[Path], base_url: str) -> None:
    for module, name in STEPS:
        setattr(module, name, traced(name, getattr(module, name)))
    tracemalloc.start()
    result = pipeline.assemble(shards, out, base_url, pipeline.BuildSettings(report=lambda line: None))
    peak = max(peaks)
    print(f"{result.records:,} records: peak {peak / MIB:.1f} MiB traced, "
          f"{peak / result.records / 1024:.1f} KB a record")


if __name__ == "__main__":  # assemble's processes are spawned: they import this module
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("shards", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--base-url", default="http://localhost:8000/")
    args = parser.parse_args()
    main(args.out, args.shards, args.base_url)
