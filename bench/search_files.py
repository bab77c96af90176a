"""The search files of a corpus, without a full build: what a query fetches
depends on them alone, so search changes can be measured at 100,000 records
in minutes rather than the build's quarter of an hour.

    python bench/search_files.py RECORDS OUT
    node bench/search-fetches.js OUT/-/search QUERIES.json

OUT receives `-/search/` as a build writes it (the same bytes: the records'
summaries in the build's order). QUERIES.json: a list of queries, such as
bench.latency.corpus_queries gives for the corpus.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from errorsite import urls  # noqa: E402
from errorsite.load import load_records  # noqa: E402
from errorsite.pages.render import summarize  # noqa: E402
from errorsite.search import search_pages  # noqa: E402
from errorsite.validate import validate_all  # noqa: E402


def corpus_summaries(records: Path) -> list:
    """The summaries of a folder's good records, in the build's order."""
    return sorted((summarize(r) for r in validate_all(load_records(records))[0]), key=urls.record_path)


def main() -> None:
    records, out = Path(sys.argv[1]), Path(sys.argv[2])
    started = time.monotonic()
    summaries = corpus_summaries(records)
    files = search_pages(summaries)
    for page in files.pages:
        path = out / page.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(page.content)
    print(f"{len(summaries)} records, {len(files.pages)} search files in {time.monotonic() - started:.0f} s", file=sys.stderr)
    for warning in files.warnings:
        print(warning, file=sys.stderr)


if __name__ == "__main__":
    main()
