"""Is the benchmark corpus as costly as real records? Per-record CPU, side by side.

For the real records (../shared/records) and a generated corpus, in this
process: the floor (bench/floor.py's Pygments work) and our record page
(errorsite's `record_page`), in CPU milliseconds per record, and the page size.

    python bench/realism.py [CORPUS_DIR]      # default: a 1,000-record corpus
"""
from __future__ import annotations

import sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.floor import render as floor_page  # noqa: E402
from errorsite import urls  # noqa: E402
from errorsite.load import load_records  # noqa: E402
from errorsite.pages.render import environment, record_page  # noqa: E402
from errorsite.validate import validate_all  # noqa: E402


def per_record(folder: Path, rounds: int) -> str:
    raws = load_records(folder)
    records, _ = validate_all(raws)
    env = environment(urls.Site("http://localhost:8000/"), len(records))
    start = time.process_time()
    for _ in range(rounds):
        for raw in raws:
            floor_page(raw.data["record"])
    floor = (time.process_time() - start) / rounds / len(raws)
    start, size = time.process_time(), 0
    for _ in range(rounds):
        size += sum(len(record_page(env, record).content) for record in records)
    page = (time.process_time() - start) / rounds / len(records)
    return (f"{folder}: {len(records)} records; floor {1000 * floor:.2f} CPU-ms, record page "
            f"{1000 * page:.2f} CPU-ms, page {size / rounds / len(records) / 1000:.1f} kB per record")


def main() -> None:
    if len(sys.argv) > 1:
        corpus = Path(sys.argv[1])
    else:
        from bench.shaped import write_corpus
        corpus = ROOT / "bench" / "out" / "realism-1000"
        if not corpus.exists():
            write_corpus(corpus, 1000)
    real = ROOT.parent / "shared" / "records"
    if real.is_dir():
        print(per_record(real, 20))
    print(per_record(corpus, 1))


if __name__ == "__main__":
    main()
