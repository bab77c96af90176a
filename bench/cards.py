"""What per-record cards (`cards = true`) cost: ms and bytes per card, and a
full build with and without them, on a bench/shaped.py corpus.

    python bench/cards.py --count 10000 [--work DIR] [--jobs N] [--sample 2000]

The corpus is made in --work once (bench/shaped.py, seed 0) and reused. Each
build is a clean one (--no-cache, a fresh --out) in its own process, measured
by bench/measure.py; then a no-op rebuild with cards on. Cards are timed in
this process on an even sample of the records, drawing only (what a worker
adds per changed record). Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from bench import measure, shaped  # noqa: E402
from errorsite.pages import cards  # noqa: E402
from errorsite.load import load_file  # noqa: E402
from errorsite.pages.render import SITE_NAME  # noqa: E402
from errorsite.validate import check  # noqa: E402


def corpus(work: Path, count: int) -> Path:
    folder = work / f"corpus-{count}"
    if not (folder / ".complete").exists():
        shutil.rmtree(folder, ignore_errors=True)
        shaped.write_corpus(folder, count, 0)
        (folder / ".complete").write_text("")
    return folder


def card_times(folder: Path, sample: int) -> tuple[list[float], list[int]]:
    """Seconds and bytes of each card drawn for an even sample of the records."""
    files = sorted(folder.glob("*.json"))
    step = max(1, len(files) // sample)
    seconds, sizes = [], []
    cards.card_png(cards.CardText(SITE_NAME, "warm up the fonts", "a/b", "t", "error"))
    for path in files[::step][:sample]:
        record = check(path.name, load_file(path, folder).data).record
        if record is None:
            continue
        started = time.perf_counter()
        page = cards.card_page(record, SITE_NAME)
        seconds.append(time.perf_counter() - started)
        sizes.append(len(page.content))
    return seconds, sizes


def build(records: Path, out: Path, jobs: int, *options: str) -> measure.Run:
    return measure.checked([sys.executable, str(ROOT / "build.py"), "--records", str(records), "--out", str(out),
                            "--base-url", "https://example.org/errors/", "-j", str(jobs), "-q", "-v", *options])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--work", type=Path, default=ROOT / "bench" / "out" / "cards")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sample", type=int, default=2000)
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    records = corpus(args.work, args.count)

    seconds, sizes = card_times(records, args.sample)
    print(f"cards drawn: {len(seconds):,} of {args.count:,} records (an even sample), in this process")
    print(f"  ms per card: mean {1000 * statistics.mean(seconds):.1f}, median {1000 * statistics.median(seconds):.1f}, "
          f"max {1000 * max(seconds):.1f}")
    print(f"  bytes per card: mean {statistics.mean(sizes):,.0f}, max {max(sizes):,}")

    runs = {}
    for name, options in (("without cards", ("--no-cards",)), ("with cards", ("--cards",))):
        out = args.work / f"site-{name.replace(' ', '-')}"
        shutil.rmtree(out, ignore_errors=True)
        runs[name] = build(records, out, args.jobs, "--no-cache", *options)
        total, files = measure.folder_size(out)
        print(f"full build {name} (-j {args.jobs}): {runs[name].wall:.1f} s wall, {runs[name].cpu:.1f} s CPU, "
              f"peak {runs[name].peak_pss / 2**20:.0f} MB; site {files:,} files, {total / 2**20:.0f} MB")
    with_cards = args.work / "site-with-cards"
    built = sorted(with_cards.glob("-/r/*/card.png"))
    total = sum(path.stat().st_size for path in built)
    print(f"  cards in the site: {len(built):,}, {total / 2**20:.0f} MB, {total / max(len(built), 1):,.0f} bytes per card")
    extra = runs["with cards"].wall - runs["without cards"].wall
    print(f"  cards add {extra:.1f} s wall ({1000 * extra / max(len(built), 1):.1f} ms per card on {args.jobs} "
          f"processes), {runs['with cards'].cpu - runs['without cards'].cpu:.1f} s CPU")
    before = measure.file_states(with_cards)
    noop = build(records, with_cards, args.jobs, "--cards")
    print(f"no-op rebuild with cards: {noop.wall:.1f} s, "
          f"{measure.rewritten(before, measure.file_states(with_cards))} files rewritten")


if __name__ == "__main__":
    main()
