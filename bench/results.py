"""The benchmark's dated runs: `bench/results.jsonl`, one JSON line per corpus
size measured, oldest first. `bench.py` appends a line after each size; the
latest table, and how to read it, is in docs/performance.md.

A line (fields are left out when not measured; times in seconds, memory in MiB):

    {"date": "2026-12-02", "commit": "9ddf6cf", "records": 10000, "seed": 0, "repeat": 3,
     "load": [1.0, 1.6], "hugo_version": "0.111.3", "corpus_sha256": "d49f96061b6d",
     "ours": {"wall_s": …, "cpu_s": …, "peak_rss_mib": …, "tree_pss_mib": …, "stages": {"records": …}},
     "hugo": {…}, "floor": {"wall_s": …, "cpu_s": …}, "floor_our_lexing": {…},
     "floor_our_files": {…}, "noop": {"wall_s": …, "cpu_s": …, "rewritten": 0}, "one": {…}, "one_back": {…}, "one_summary": {…},
     "site": {"bytes": …, "files": …}, "hugo_site": {…}, "search_data": {"bytes": …, "gzip_bytes": …},
     "search": {…}, "note": "…"}

`commit` is the checked-out commit when the run started, with `+changes` when
the generator's files differed from it. The lines from before this file
existed (`"source": "README diary"`) were copied from the README's dated
tables: their `commit` is null where the README named none, and `note` says
what the run measured and what disturbed it.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.jsonl"
MIB = 1024 * 1024
GENERATOR = ("build.py", "errorsite", "templates", "static")  # what a build's figures depend on


def commit(root: Path) -> str | None:
    """The short hash of HEAD, `+changes` if the generator's files differ from it; None outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                              text=True, check=True).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--", *GENERATOR], cwd=root,
                                 capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+changes" if changed else "")


def run_figures(run: dict) -> dict:
    """One measured command: times, memory in MiB, files rewritten and stages when known."""
    out = {"wall_s": round(run["wall"], 2), "cpu_s": round(run["cpu"], 2),
           "peak_rss_mib": round(run["peak_rss"] / MIB, 1)}
    if run.get("peak_pss"):
        out["tree_pss_mib"] = round(run["peak_pss"] / MIB, 1)
    if "rewritten" in run:
        out["rewritten"] = run["rewritten"]
    if run.get("stages"):
        out["stages"] = {name: round(seconds, 2) for name, seconds in run["stages"].items()}
    return out


def line(result: dict, commit: str | None) -> dict:
    """The line for one size's `result` (as bench.bench_size returns it)."""
    out = {"date": result["date"], "commit": commit, "records": result["records"], "seed": result["seed"],
           "repeat": result["repeat"], "cpus": result["cpus"], "load": result["load"],
           "corpus_sha256": result["corpus_sha256"][:12], "ours": run_figures(result["ours"]),
           "floor": run_figures(result["floor"]),
           "site": {"bytes": result["site_bytes"], "files": result["site_files"], **parts(result, "site_parts")},
           "search_data": {"bytes": result["search_bytes"], "gzip_bytes": result["search_gzip_bytes"]}}
    if result.get("hugo"):
        out["hugo"] = run_figures(result["hugo"])
        out["hugo_version"] = result["hugo_version"]
        out["hugo_site"] = {"bytes": result["hugo_site_bytes"], "files": result["hugo_site_files"],
                            **parts(result, "hugo_site_parts")}
    for key in ("floor_our_lexing", "floor_our_files", "cold", "noop", "one", "one_back", "one_summary", "one_no_spare"):
        if result.get(key):
            out[key] = run_figures(result[key])
    if result.get("search"):
        out["search"] = result["search"]
    if result.get("pagefind_index"):
        out["pagefind_index"] = run_figures(result["pagefind_index"])
    if result.get("pagefind_bytes"):
        out["pagefind_bundle"] = {"bytes": result["pagefind_bytes"], "files": result["pagefind_files"]}
    return out


def parts(result: dict, key: str) -> dict:
    """{"parts": {part: {"bytes", "files"}}} of a site measured by parts (measure.folder_parts), else {}."""
    if key not in result:
        return {}
    return {"parts": {part: {"bytes": size, "files": files} for part, (size, files) in result[key].items()}}


def append(path: Path, entry: dict) -> None:
    """Add `entry` as the last line of `path` (made if absent); earlier lines are never rewritten."""
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(entry, sort_keys=True, ensure_ascii=False) + "\n")


def read(path: Path = RESULTS) -> list[dict]:
    """Every run in `path`, oldest first."""
    return [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines() if text.strip()]
