"""Benchmarks: our build beside Hugo and beside the floor, on real-shaped records.

    python bench/bench.py --sizes 1000 10000 [--repeat 3] [--no-hugo] [--json FILE]
    python bench/bench.py --sizes 10000 --search         # + cold queries in Chromium: split, whole, Pagefind
    python bench/bench.py --install                      # apt-get the source trees and hugo

Per size: a corpus from bench/shaped.py (cached in bench/out/); our full build
and Hugo's build of the same records, alternated (ours, Hugo, ours, Hugo…),
medians reported; the floor (bench/floor.py); a no-op rebuild and a rebuild
after one record changed, with how many files each rewrote; the site's size
and the search data's bytes. Every build runs in a fresh process, measured by
bench/measure.py. Timings are printed, never asserted. Each size's figures are
appended as one line to bench/results.jsonl (see bench/results.py).
"""
from __future__ import annotations

import argparse, contextlib, dataclasses, datetime, hashlib, json, os, re, shutil, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from bench import hugo, measure, pagefind, report, results, shaped, sources  # noqa: E402
from errorsite import urls  # noqa: E402
from errorsite.cache import SPARE  # noqa: E402
from errorsite.cache.folder import state_folder  # noqa: E402

OUT = ROOT / "bench" / "out"
BASE_URL = "http://localhost:8000/"


def corpus(size: int, seed: int) -> tuple[Path, dict]:
    """The corpus folder for (size, seed) and the installed packages, made once and reused."""
    versions = sources.fingerprint()
    folder = OUT / f"corpus-{size}-seed{seed}-{hashlib.sha256(versions.encode()).hexdigest()[:8]}"
    restore_changed(folder)
    info = folder / ".complete"
    if not info.exists():
        measure.discard(folder)
        shaped.write_corpus(folder, size, seed)
        digest, total = hashlib.sha256(), 0
        for path in sorted(folder.glob("*.json")):
            data = path.read_bytes()
            digest.update(path.name.encode() + b"\0" + data + b"\0")
            total += len(data)
        info.write_text(json.dumps({"sha256": digest.hexdigest(), "bytes": total, "packages": versions}))
    return folder, json.loads(info.read_text())


def restore_changed(folder: Path) -> None:
    """Undo a one-record edit that an interrupted run left behind."""
    marker = folder / ".changed"
    if marker.exists():
        name, original = json.loads(marker.read_text())
        (folder / name).write_text(original, encoding="utf-8")
        marker.unlink()


def change_one(folder: Path, summary: bool = False) -> None:
    """Edit one record's documentation (the middle file), remembering the
    original; with `summary`, its first solution instead, which its summary
    shows (on list rows and cards): then the global pages are made again."""
    names = sorted(p.name for p in folder.glob("*.json"))
    name = names[len(names) // 2]
    original = (folder / name).read_text(encoding="utf-8")
    (folder / ".changed").write_text(json.dumps([name, original]))
    doc = json.loads(original)
    if summary:
        doc["record"]["solutions"] = ["Edited by the benchmark.", *(doc["record"].get("solutions") or [])[1:]]
    else:
        doc["record"]["documentation"] += " Edited by the benchmark."
    (folder / name).write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")


def build_options() -> str:
    return subprocess.run([sys.executable, str(ROOT / "build.py"), "--help"], capture_output=True, text=True).stdout


def ours(records: Path, site: Path, options: str, cache: bool) -> list[str]:
    cmd = [sys.executable, str(ROOT / "build.py"), "--records", str(records), "--out", str(site), "--base-url", BASE_URL]
    if re.search(r"(^|\s)-v\b|--verbose", options):
        cmd.append("-v")                     # per-stage timing summary, where build.py has it
    if not cache and "--no-cache" in options:
        cmd.append("--no-cache")
    return cmd


def as_dict(run: measure.Run, **extra) -> dict:
    return {**{k: v for k, v in dataclasses.asdict(run).items() if k not in ("output", "returncode")}, **extra}


def bench_size(size: int, args: argparse.Namespace) -> dict:
    load_before = os.getloadavg()[0]
    records, info = corpus(size, args.seed)
    site, floor_out = OUT / f"site-{size}", OUT / f"floor-{size}"
    hugo_src, hugo_out = OUT / f"hugo-src-{size}", OUT / f"hugo-site-{size}"
    use_hugo = args.hugo and hugo.version() is not None
    options = build_options()
    if use_hugo:
        hugo.ensure_site(records, hugo_src, info["sha256"])
    mine, theirs = [], []
    for _ in range(args.repeat):             # A B A B: both see the same machine load
        for folder in (site, state_folder(site) / SPARE):  # a full build from nothing
            measure.discard(folder, into=OUT)
        mine.append(measure.checked(ours(records, site, options, cache=False)))
        if use_hugo:
            measure.discard(hugo_out)
            theirs.append(measure.checked(hugo.command(hugo_src, hugo_out)))
    built = [int(m.group(1)) for m in re.finditer(r"built (\d+) record", mine[-1].output)]
    if built and built[-1] != size:
        print(f"warning: built {built[-1]} of {size} records:\n{mine[-1].output[-2000:]}", file=sys.stderr)
    floors = {}
    for key, flags in (("floor", []), ("floor_our_lexing", ["--our-lexing"]),
                       ("floor_our_files", ["--our-lexing", "--our-files"])):
        measure.discard(floor_out)
        floors[key] = as_dict(measure.checked([sys.executable, str(ROOT / "bench" / "floor.py"), *flags,
                                               str(records), str(floor_out)]))
    result = {"records": size, "seed": args.seed, "repeat": args.repeat, "cpus": os.cpu_count(),
              "date": datetime.date.today().isoformat(), "corpus_bytes": info["bytes"],
              "corpus_sha256": info["sha256"], "packages": info["packages"],
              "repeats": sum(1 for _ in records.glob("fork*.json")),  # windows reused under a fork repo
              "ours": as_dict(measure.median_run(mine)), **floors}
    if use_hugo:
        result.update(hugo=as_dict(measure.median_run(theirs)), hugo_version=hugo.version())
        result["hugo_site_parts"] = measure.folder_parts(hugo_out)
        result["hugo_site_bytes"], result["hugo_site_files"] = measure.totals(result["hugo_site_parts"])
    result["site_parts"] = measure.folder_parts(site)
    result["site_bytes"], result["site_files"] = measure.totals(result["site_parts"])
    result["search_bytes"], result["search_gzip_bytes"] = measure.gzipped_size(site / urls.SEARCH_PATH)
    result.update(rebuilds(records, site, options))
    result["load"] = [round(load_before, 1), round(os.getloadavg()[0], 1)]
    if args.search:
        from bench.quality import bench_figures
        result["quality"] = bench_figures(size, seed=args.seed)  # the real pastes among `size` records
        from bench.latency import search_latency
        result["search"] = search_latency(site, records, whole=size <= args.whole_up_to)
        if use_hugo and size <= args.pagefind_up_to and pagefind.available():
            # The anchor: Pagefind indexing Hugo's pages of the same records.
            result["pagefind_index"] = as_dict(measure.checked(pagefind.index_command(hugo_out)))
            # What a Hugo site with search deploys: its pages and Pagefind's bundle.
            result["pagefind_bytes"], result["pagefind_files"] = measure.folder_size(hugo_out / pagefind.BUNDLE)
            for kind, sides in pagefind.pagefind_latency(hugo_out, records).items():
                result["search"].setdefault(kind, {}).update(sides)
    if not args.keep:
        for folder in (floor_out, hugo_out, OUT / f"serve-{size}"):
            measure.discard(folder)
    return result


def rebuilds(records: Path, site: Path, options: str) -> dict:
    """A no-op rebuild, then one after a one-record edit and one after undoing it, over the last full
    build; then one after an edit to a record's summary; then a one-record edit where no spare is kept."""
    def rebuild(*flags: str) -> dict:
        before = measure.file_states(site)
        run = measure.checked([*ours(records, site, options, cache=True), *flags])
        return as_dict(run, rewritten=measure.rewritten(before, measure.file_states(site)))

    def edited(summary: bool, *flags: str) -> dict:
        change_one(records, summary)
        try:
            return rebuild(*flags)
        finally:
            restore_changed(records)

    out = {}
    if "--no-cache" in options:              # the full builds skipped the cache: fill it first
        out["cold"] = rebuild()
    out["noop"] = rebuild()
    out["one"] = edited(summary=False)
    # The record back as it was: a second one-record rebuild. The one before
    # started from the spare the full build left (its site's twin); this one
    # from the site that one replaced, as every later rebuild does.
    out["one_back"] = rebuild()
    # An edit its summary shows: the listings, search data and the rest made again.
    out["one_summary"] = edited(summary=True)
    rebuild()  # back, for the next run
    with cache_elsewhere(site) as flags:     # last: the site's own cache no longer names the site after it
        if flags:
            out["one_no_spare"] = edited(False, *flags)
            rebuild(*flags)  # back, for the search timings
    return out


@contextlib.contextmanager
def cache_elsewhere(site: Path):
    """`--cache-dir` flags naming a copy of the site's cache folder, but its
    spare, on another file system (/dev/shm): a rebuild as where the cache
    cannot take the spare by a rename, so none is kept. No flags where there is
    no second file system."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(site.parent).st_dev:
        yield ()
        return
    elsewhere = Path(tempfile.mkdtemp(prefix="errorsite-bench-cache-", dir=shm))
    try:
        shutil.copytree(state_folder(site), state_folder(site, elsewhere), ignore=shutil.ignore_patterns(SPARE))
        yield ("--cache-dir", str(elsewhere))
    finally:
        shutil.rmtree(elsewhere)


def missing_packages() -> list[str]:
    have = {line.split()[0] for line in sources.fingerprint().splitlines()}
    tools = [tool for tool, found in (("time", os.access(measure.TIME, os.X_OK)), ("hugo", shutil.which("hugo")))
             if not found]
    return [p for p in sources.PACKAGES if p not in have] + tools


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1, help="full builds of ours and Hugo, alternated (median)")
    parser.add_argument("--no-hugo", dest="hugo", action="store_false", help="skip Hugo even when on PATH")
    parser.add_argument("--search", action="store_true", help="also time cold queries in Chromium")
    parser.add_argument("--whole-up-to", type=int, default=20000, metavar="N",
                        help="with --search, also time the whole index in one piece up to N records (lunr.py "
                             "builds it in memory: about 4 GB at 100k)")
    parser.add_argument("--pagefind-up-to", type=int, default=10000, metavar="N",
                        help="with --search and Hugo, also index Hugo's site with Pagefind and time its queries, "
                             "up to N records (pip install pagefind; 3 GB and 275 s at 10k)")
    parser.add_argument("--json", type=Path, help="append each size's figures to this file, one JSON a line")
    parser.add_argument("--results", type=Path, default=results.RESULTS, metavar="FILE",
                        help="append each size's dated figures here, one JSON a line (default: bench/results.jsonl)")
    parser.add_argument("--keep", action="store_true", help="keep the Hugo and floor output in bench/out/")
    parser.add_argument("--install", action="store_true", help="apt-get install the packages the bench needs")
    args = parser.parse_args()
    missing = missing_packages()
    if missing and args.install:
        subprocess.run(["apt-get", "install", "-y", "-q", *missing], check=True)
        missing = missing_packages()
    if [p for p in missing if p != "hugo"]:
        raise SystemExit("missing the source trees of the corpus; run `python bench/bench.py --install` or\n"
                         f"  apt-get install -y {' '.join(missing)}")
    if "hugo" in missing and args.hugo:
        print("hugo is not on PATH: Hugo is skipped (apt-get install -y hugo)", file=sys.stderr)
    OUT.mkdir(parents=True, exist_ok=True)
    measure.empty_trash(OUT, settle=True)  # an interrupted run's
    commit = results.commit(ROOT)          # the code measured, read before any build starts
    try:
        for size in args.sizes:
            result = bench_size(size, args)
            print(report.table(result), "\n", flush=True)
            results.append(args.results, results.line(result, commit))
            if args.json:
                with args.json.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(result, sort_keys=True) + "\n")
    finally:
        measure.empty_trash(OUT, settle=False)


if __name__ == "__main__":
    main()
