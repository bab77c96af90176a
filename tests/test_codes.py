"""pages/codes.py: the error codes' index by repository, in natural order, split so
that every page stays small at 20,000 codes (issue 42, item 2)."""
from __future__ import annotations

import re

from errorsite import urls
from errorsite.pages.codes import CODES_PER_PAGE, codes_index_pages, index_paths, index_runs, natural_key, repo_codes
from errorsite.model import Summary
from errorsite.pages.render import environment

SITE = urls.Site("https://example.org/errors/")


def summary(repo: str, code: str | None, n: int = 0, message: str = "", card: str = "") -> Summary:
    slug = f"s{n}-{re.sub(r'[^a-z0-9]+', '-', (code or 'none').lower())}"
    return Summary(source_file=f"{slug}.json", id=f"i{n}", repo=repo, slug=slug,
                   message=message or f"message of {code} number {n}", pattern=None, error_code=code,
                   error_type="usage", error_class=None, severity="error", file_path=None, tags=(),
                   analyzed_at=None, content_changed_at=None, card=card or f"What {code} means, in a line.")


def test_natural_order_counts_numbers_as_numbers():
    codes = ["E10", "E2", "e0308", "E0308", "parse_error.1000", "parse_error.101", "ERR", "E1"]
    assert sorted(codes, key=natural_key) == ["E1", "E2", "E10", "E0308", "e0308", "ERR",
                                              "parse_error.101", "parse_error.1000"]


def test_codes_are_grouped_by_repository_a_to_z_each_in_order_with_message_and_meaning():
    groups = repo_codes([summary("b/two", "E10", 1), summary("b/two", "E2", 2), summary("A/one", "X1", 3),
                         summary("b/two", "E2", 4, message="another"), summary("b/two", None, 5)])
    assert [(g.repo, g.path) for g in groups] == [("A/one", "-/code/-/in/a/one/"), ("b/two", "-/code/-/in/b/two/")]
    assert [(r.code, r.path, r.count) for r in groups[1].rows] == [("E2", "-/code/e2/", 2), ("E10", "-/code/e10/", 1)]
    assert groups[1].rows[0].message == "message of E2 number 2"  # the first record's, by address
    assert groups[1].rows[0].meaning == "What E2 means, in a line."


def test_a_long_message_and_meaning_are_one_short_line():
    row = repo_codes([summary("a/b", "E1", message="word " * 60, card="mean " * 60)])[0].rows[0]
    assert len(row.message) <= 100 and row.message.endswith("…")
    assert len(row.meaning) <= 100 and "\n" not in row.meaning


def test_index_runs_keep_groups_whole_and_pages_within_their_codes():
    groups = repo_codes([summary(f"o/r{i:02d}", f"E{j}", i * 10 + j) for i in range(10) for j in range(i + 1)]
                        + [summary("z/big", f"E{j}", 1000 + j) for j in range(30)])
    runs = index_runs(groups, most=12)
    assert [[g.repo for g in run] for run in runs][0] == ["o/r00", "o/r01", "o/r02", "o/r03"]  # 1+2+3+4 ≤ 12
    assert all(sum(max(1, len(g.rows)) for g in run) <= 12 for run in runs)
    assert runs[-1][-1].repo == "z/big" and runs[-1][-1].rows == []  # too many for a page: a link alone
    assert [g.repo for run in runs for g in run] == [g.repo for g in groups]


def test_the_index_pages_have_a_filter_box_and_render_record_text_escaped():
    env = environment(SITE, 2)
    pages = {p.path: p.content.decode() for p in codes_index_pages(env, [
        summary("a/b", "E<1>", 1, message="<script>alert(1)</script>"), summary("a/b", "E2", 2)])}
    assert set(pages) == {"-/code/", "-/code/-/in/a/b/"}
    index = pages["-/code/"]
    assert '<input id="filter-codes" type="search" data-filter="codes"' in index
    assert "filter.js" in index and "<script>alert" not in index and "&lt;script&gt;" in index
    assert index.index("<code>E2</code>") < index.index("<code>E&lt;1&gt;</code>")
    assert '<a href="/errors/-/code/-/in/a/b/">a/b</a>' in index


def test_20000_codes_make_pages_under_200_kb_each():
    summaries = [summary(f"owner{i % 2500}/repo-with-a-longish-name-{i % 2500}", f"E{i:05d}", i,
                         message="something went wrong while doing the thing " * 3, card="It means that " * 12)
                 for i in range(20_000)]
    summaries += [summary("huge/one", f"HUGE{i}", 100_000 + i) for i in range(CODES_PER_PAGE * 2 + 5)]
    env = environment(SITE, len(summaries))
    pages = list(codes_index_pages(env, summaries))
    sizes = {p.path: len(p.content) for p in pages}
    assert max(sizes.values()) < 200_000, max(sizes.items(), key=lambda item: item[1])
    assert [p.path for p in pages] == index_paths(summaries)
    assert len(pages) == len(set(sizes))
    assert {"-/code/-/in/huge/one/", "-/code/-/in/huge/one/-/page/3/"} <= set(sizes)
    index = [path for path in sizes if path.startswith("-/code/-/page/") or path == "-/code/"]
    print(f"{len(index)} index pages, largest {max(sizes[p] for p in index):,} B; "
          f"largest page {max(sizes.values()):,} B")
