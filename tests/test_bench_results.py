"""The benchmark's dated runs: each size measured adds one line to the results
file, and earlier lines stay as they were. No build or timing here."""
from __future__ import annotations

import json

from bench import results

MIB = 1024 * 1024
RUN = {"wall": 31.25, "cpu": 57.7, "peak_rss": 112 * MIB, "peak_pss": 178 * MIB, "stages": {"records": 25.81}}


def result(**extra) -> dict:
    """What bench.bench_size returns for one size, Hugo skipped."""
    return {"records": 10000, "seed": 0, "repeat": 3, "cpus": 2, "date": "2026-12-02", "load": [1.0, 1.6],
            "corpus_sha256": "d49f96061b6d" + "0" * 52, "corpus_bytes": 1, "packages": "", "repeats": 4600,
            "ours": RUN, "floor": {**RUN, "peak_pss": 0, "stages": {}}, "site_bytes": 418_100_000,
            "site_files": 47730, "search_bytes": 12_400_000, "search_gzip_bytes": 2_290_000,
            "noop": {**RUN, "wall": 0.6, "rewritten": 0}, **extra}


def test_each_run_appends_one_line_and_keeps_the_earlier_ones(tmp_path):
    path = tmp_path / "results.jsonl"
    first = results.line(result(), "9ddf6cf")
    results.append(path, first)
    before = path.read_bytes()
    second = results.line(result(date="2026-12-03"), "abc1234+changes")
    results.append(path, second)
    assert path.read_bytes().startswith(before)
    assert results.read(path) == [first, second]
    assert path.read_text(encoding="utf-8").count("\n") == 2


def test_a_line_holds_the_figures_in_seconds_and_mib():
    entry = results.line(result(), "9ddf6cf")
    assert entry["commit"] == "9ddf6cf" and entry["records"] == 10000 and entry["corpus_sha256"] == "d49f96061b6d"
    assert entry["ours"] == {"wall_s": 31.25, "cpu_s": 57.7, "peak_rss_mib": 112.0, "tree_pss_mib": 178.0,
                             "stages": {"records": 25.81}}
    assert entry["floor"] == {"wall_s": 31.25, "cpu_s": 57.7, "peak_rss_mib": 112.0}
    assert entry["noop"]["rewritten"] == 0
    assert "hugo" not in entry and "floor_our_files" not in entry
    assert results.line(result(floor_our_files=RUN), "9ddf6cf")["floor_our_files"]["cpu_s"] == 57.7
    assert "hugo" not in entry and "one" not in entry      # not measured: left out, not zero
    json.dumps(entry, allow_nan=False)


def test_the_committed_history_reads_oldest_first():
    runs = results.read()
    assert runs, "bench/results.jsonl is empty"
    assert all({"date", "records"} <= run.keys() for run in runs)
    assert [run["date"] for run in runs] == sorted(run["date"] for run in runs)


def test_pagefind_beside_ours_in_the_line_and_the_table():
    from bench import report
    figures = lambda **values: {key: {"median": v, "max": v} for key, v in values.items()}
    ours = figures(requests=11, rounds=2, gzip=158_000, raw=700_000, first_result_ms=330, after_data_ms=40,
                   warm_ms=20, heap_mb=3.4)
    theirs = figures(requests=29, gzip=1_383_000, first_result_ms=900, results=40)
    entry = result(search={"traceback": {"split": ours, "Pagefind": theirs}}, pagefind_index={**RUN, "stages": {}})
    line = results.line(entry, "9ddf6cf")
    assert line["search"]["traceback"]["Pagefind"] == theirs and line["pagefind_index"]["wall_s"] == 31.25
    table = report.table(entry)
    assert "search, traceback, split: 11 (11) requests, 2 (2) rounds, 158.0 KB (158.0 KB) gzipped" in table
    assert "search, traceback, Pagefind: 29 (29) requests, 1,383.0 KB (1,383.0 KB) gzipped; first result 900 (900) ms" \
        in table
    assert "Pagefind's index" in table


def test_hugo_with_pagefind_beside_ours_in_the_line_and_the_table():
    """Hugo has no search: the table also sets ours beside its site with Pagefind's bundle."""
    from bench import report
    entry = result(hugo_site_bytes=200_400_000, hugo_site_files=24_791, pagefind_index={**RUN, "stages": {}},
                   pagefind_bytes=60_000_000, pagefind_files=9_000)
    assert results.line(entry, "9ddf6cf")["pagefind_bundle"] == {"bytes": 60_000_000, "files": 9_000}
    table = report.table(entry)
    assert "Pagefind's bundle     60.0 MB in 9,000 files = 6.0 KB and 0.90 files per record" in table
    assert "Hugo + Pagefind       260.4 MB in 33,791 files = 26.0 KB and 3.38 files per record" in table
    assert "ours / Hugo+Pagefind  1.61x bytes, 1.41x files" in table


def test_where_the_bytes_go_by_part_beside_hugo():
    """Each site measured by parts: ours and Hugo's named alike, in the line and the table."""
    from bench import measure, report
    assert [measure.site_part(path) for path in (
        "acme/tool/some-error/index.html", "acme/tool/index.html", "-/tags/io/index.html", "tags/io/index.html",
        "repos/acme/tool/index.html", "acme/page/2/index.html", "-/r/0123/index.html", "-/search/t/3.json", "index.json",
        "-/code/e1/index.json", "sitemap.xml", "-/sitemaps/1.xml", "-/urls.json", "-/static/style.css", "-/r/0123.json", "-/r/0123.md", "llms.txt", "-/go/code/e1/index.html")] == [
        "record pages", "listings", "listings", "listings", "listings", "listings", "permanent links", "search data",
        "search data", "error codes", "sitemap", "sitemap", "URL history", "other", "records as JSON",
        "records as Markdown", "llms.txt", "links from tools"]
    entry = result(site_parts={"record pages": (150_000_000, 10_000), "permanent links": (17_000_000, 10_000)},
                   hugo={**RUN, "stages": {}}, hugo_version="0.168.0", hugo_site_bytes=160_000_000, hugo_site_files=10_001,
                   hugo_site_parts={"record pages": (159_000_000, 10_000), "search data": (1_000_000, 1)})
    line = results.line(entry, "9ddf6cf")
    assert line["site"]["parts"]["permanent links"] == {"bytes": 17_000_000, "files": 10_000}
    assert line["hugo_site"]["parts"]["search data"] == {"bytes": 1_000_000, "files": 1}
    table = report.table(entry)
    assert "  record pages           15.00 KB   15.90 KB" in table
    assert "  permanent links         1.70 KB          —" in table
    assert table.index("  search data") < table.index("  permanent links")  # what Hugo's site has, first
    with_pagefind = report.table({**entry, "pagefind_bytes": 40_000_000, "pagefind_files": 20_000})
    assert "what both make" in with_pagefind and "ours 150.0 MB, Hugo+Pagefind 200.0 MB = 0.75x" in with_pagefind


def test_a_folder_measured_by_parts(tmp_path):
    from bench import measure
    (tmp_path / "acme" / "tool" / "e").mkdir(parents=True)
    (tmp_path / "acme" / "tool" / "e" / "index.html").write_bytes(b"x" * 10)
    (tmp_path / "-" / "r" / "1").mkdir(parents=True)
    (tmp_path / "-" / "r" / "1" / "index.html").write_bytes(b"x" * 3)
    assert measure.folder_parts(tmp_path) == {"permanent links": (3, 1), "record pages": (10, 1)}
    assert measure.folder_size(tmp_path) == (13, 2)
