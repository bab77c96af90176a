"""The compact table printed per corpus size, from the figures bench.py gathers."""
from __future__ import annotations

MIB = 1024 * 1024


def size(n: int) -> str:
    return f"{n / MIB / 1024:.2f} GiB" if n >= MIB * 1024 else f"{n / MIB:.0f} MiB"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b else "—"


def row(label: str, *cells: str, tail: str = "") -> str:
    return f"{label:<22}" + "".join(f"{c:>11}" for c in cells) + (f"   {tail}" if tail else "")


def run_cells(run: dict) -> tuple[str, ...]:
    return (f"{run['wall']:.1f} s", f"{run['cpu']:.1f} s", size(run["peak_rss"]),
            size(run["peak_pss"]) if run["peak_pss"] else "—")


def table(r: dict) -> str:
    """One size's results: ours, Hugo, floor, rebuilds, stages, output sizes."""
    n = r["records"]
    lines = [f"== {n:,} records · corpus {r['corpus_bytes'] / 1e6:.1f} MB, sha256 {r['corpus_sha256'][:12]} "
             f"(seed {r['seed']}) · {r['cpus']} CPUs, load {r['load'][0]}→{r['load'][1]} · {r['date']} ==",
             f"   {100 * r['repeats'] / n:.0f}% of the records reuse a source window under a fork repo",
             row("", "wall", "CPU", "peak RSS", "tree PSS")]
    ours = r["ours"]
    lines.append(row(f"ours (median of {r['repeat']})", *run_cells(ours),
                     tail=f"{n / ours['wall']:,.0f} records/s, {1000 * ours['cpu'] / n:.1f} CPU-ms/record"))
    if r.get("hugo"):
        h = r["hugo"]
        lines.append(row(f"Hugo {r['hugo_version']}", *run_cells(h), tail=f"{1000 * h['cpu'] / n:.1f} CPU-ms/record"))
        lines.append(row("ours / Hugo", ratio(ours["wall"], h["wall"]), ratio(ours["cpu"], h["cpu"]),
                         ratio(ours["peak_rss"], h["peak_rss"]),
                         ratio(ours["peak_pss"], h["peak_pss"]) if ours["peak_pss"] and h["peak_pss"] else "—"))
    f = r["floor"]
    lines.append(row("floor (1 process)", *run_cells(f), tail=f"{1000 * f['cpu'] / n:.1f} CPU-ms/record"))
    lines.append(row("ours / floor", ratio(ours["wall"], f["wall"]), ratio(ours["cpu"], f["cpu"])))
    if r.get("floor_our_lexing"):
        f = r["floor_our_lexing"]
        lines.append(row("floor, our lexing", *run_cells(f), tail=f"{1000 * f['cpu'] / n:.1f} CPU-ms/record"))
        lines.append(row("ours / that floor", ratio(ours["wall"], f["wall"]), ratio(ours["cpu"], f["cpu"])))
    if r.get("floor_our_files"):
        f = r["floor_our_files"]
        lines.append(row("that floor, our files", *run_cells(f), tail=f"{1000 * f['cpu'] / n:.1f} CPU-ms/record"))
        lines.append(row("ours / that floor", ratio(ours["wall"], f["wall"]), ratio(ours["cpu"], f["cpu"])))
    files = r["site_files"]
    for label, key in (("first cached build", "cold"), ("no-op rebuild", "noop"), ("one record changed", "one"),
                       ("and changed back", "one_back"), ("one summary changed", "one_summary"),
                       ("one record, no spare kept", "one_no_spare")):
        if r.get(key):
            run = r[key]
            lines.append(row(label, *run_cells(run), tail=f"{run['rewritten']:,} of {files:,} files rewritten, "
                                                          f"{100 * run['wall'] / ours['wall']:.0f}% of a full build"))
    if ours["stages"]:
        lines.append(row("stages (median)") + " · ".join(f"{k} {v:.1f} s" for k, v in ours["stages"].items()))
    else:
        lines.append(row("stages") + "(build.py prints no `stage <name>: <s> s` lines yet)")
    lines.append(row("site") + site_cells(r["site_bytes"], files, n))
    if r.get("hugo_site_bytes"):
        lines.append(row("Hugo's site") + site_cells(r["hugo_site_bytes"], r["hugo_site_files"], n))
        lines.append(row("ours / Hugo") + f"{ratio(r['site_bytes'], r['hugo_site_bytes'])} bytes, "
                                          f"{ratio(files, r['hugo_site_files'])} files")
    if r.get("site_parts"):
        lines += parts_rows(r["site_parts"], r.get("hugo_site_parts"), n)
    raw, packed = r["search_bytes"], r["search_gzip_bytes"]
    lines.append(row("search data") + f"{raw / 1e6:,.2f} MB raw, {packed / 1e6:,.2f} MB gzipped = "
                 f"{raw / n:,.0f} B / {packed / n:,.0f} B per record")
    if r.get("pagefind_index"):
        lines.append(row("Pagefind's index", *run_cells(r["pagefind_index"]), tail="of Hugo's site"))
    if r.get("pagefind_bytes"):
        # Hugo has no search of its own: with Pagefind's, its site holds what ours does.
        with_search = r["hugo_site_bytes"] + r["pagefind_bytes"], r["hugo_site_files"] + r["pagefind_files"]
        lines.append(row("Pagefind's bundle") + site_cells(r["pagefind_bytes"], r["pagefind_files"], n))
        lines.append(row("Hugo + Pagefind") + site_cells(*with_search, n))
        lines.append(row("ours / Hugo+Pagefind") + f"{ratio(r['site_bytes'], with_search[0])} bytes, "
                                                      f"{ratio(files, with_search[1])} files")
        if r.get("site_parts") and r.get("hugo_site_parts"):
            # The decided comparison (DEVELOPERS.md): the parts both sites make, not what only ours offers.
            shared = sum(size for name, (size, _) in r["site_parts"].items() if name in r["hugo_site_parts"])
            lines.append(row("what both make") + f"ours {shared / 1e6:,.1f} MB, Hugo+Pagefind {with_search[0] / 1e6:,.1f} MB"
                                                 f" = {ratio(shared, with_search[0])}")
    if r.get("quality"):
        q = r["quality"]
        lines.append(f"search quality, {q['queries']} real pastes among {q['distractors']:,} records: "
                     f"top-1 {q['top1']:.1%}, top-3 {q['top3']:.1%}, first result a match {q['matched']:.1%}, "
                     f"codes {q['codes']}/{q['code_queries']}; " + search_cells(q))
        if "near_called" in q:
            lines.append(f"search verdict: exact right {q['exact_precision']:.1%}, likely right {q['likely_precision']:.1%}, "
                         f"near misses called a match {q['near_called']}/{q['near_misses']}, "
                         f"right first results (holding their message) called a match {q['right_called']:.1%}")
    for kind, sides in (r.get("search") or {}).items():
        for side, f in sides.items():
            lines.append(f"search, {kind}, {side}: " + search_cells(f))
    return "\n".join(lines)


def parts_rows(ours: dict, hugo: dict | None, records: int) -> list[str]:
    """Where each site's bytes go, per record: the parts both sites have first."""
    hugo = hugo or {}
    per_record = lambda part: f"{part[0] / records / 1e3:,.2f} KB" if part else "—"
    rows = [row("  KB per record", "ours", "Hugo" if hugo else "")]
    for name in sorted(ours.keys() | hugo.keys(), key=lambda name: (name not in hugo, name)):
        rows.append(row(f"  {name}", per_record(ours.get(name)), per_record(hugo.get(name)) if hugo else ""))
    return rows


def site_cells(size: int, files: int, records: int) -> str:
    """A site's size, whole and per record: what a host's limits are measured in."""
    return f"{size / 1e6:,.1f} MB in {files:,} files = {size / records / 1e3:,.1f} KB and {files / records:.2f} files per record"


def search_cells(f: dict) -> str:
    """A cold query's figures: median (max) over the sampled queries, those it has
    (Pagefind's have no rounds, raw bytes, warm time or heap)."""
    cell = lambda key, fmt: f"{fmt(f[key]['median'])} ({fmt(f[key]['max'])})"
    kb = lambda v: f"{v / 1e3:,.1f} KB"
    parts = [f"{cell('requests', str)} requests"
             + (f" (+{cell('later_requests', str)} after the first screen)" if "later_requests" in f else "")]
    for key, text in (("rounds", "{} rounds"), ("gzip", "{} gzipped"), ("raw", "{} raw")):
        if key in f:
            parts.append(text.format(cell(key, kb if key in ("gzip", "raw") else str)))
    timings = [f"first result {cell('first_result_ms', str)} ms"] if "first_result_ms" in f else []
    if "after_data_ms" in f:
        timings.append(f"{cell('after_data_ms', str)} ms after the data")
    if "warm_ms" in f:
        timings.append(f"warm {cell('warm_ms', str)} ms")
    if "heap_mb" in f:
        timings.append(f"heap {cell('heap_mb', str)} MB")
    if "results" in f:
        timings.append(f"{cell('results', str)} results")
    return "; ".join([", ".join(parts), *timings])
