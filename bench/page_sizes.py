"""The sizes of the pages that grow with a corpus, without a full build: the
listings (repository, tag, type and severity pages), the tags' and codes'
indexes, a repository's codes, and with --search the card files the search
filters read. Printed, never asserted; every page should stay under 200 KB,
the tags' index under 100 KB.

    python bench/page_sizes.py --count 100000 [--search]     # a bench/shaped.py corpus, made in memory
    python bench/page_sizes.py --records FOLDER [--search]

On 2026-12-04 (issue 42): at 100,000 records, 35,720 codes in 2,453
repositories made 154 index pages (largest 82,759 B) and 2,453 repository
code pages (largest 50,357 B); 3,822 tags made 7 index pages (largest
53,854 B); the largest listing page was 55,452 B. At 10,000 records the
card files were 352 B a record, 13 B of it the filters' facets and 74 B
the first fix.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from errorsite import urls  # noqa: E402
from errorsite.pages.browse import browse_pages  # noqa: E402
from errorsite.pages.codes import codes_index_pages  # noqa: E402
from errorsite.model import inert_json  # noqa: E402
from errorsite.pages.render import environment, summarize  # noqa: E402
from errorsite.search import result_doc, search_pages  # noqa: E402
from errorsite.validate import check  # noqa: E402


def shaped_summaries(count: int) -> list:
    from bench.shaped import iter_records
    return [summarize(checked.record) for i, data in enumerate(iter_records(count))
            if (checked := check(f"r{i}.json", data)).record is not None]


def kind_of(path: str) -> str:
    if path == urls.TAGS_PATH or path.startswith(urls.TAGS_PATH + urls.OWN):
        return "tags index"
    if path == urls.CODES_PATH or path.startswith(urls.CODES_PATH + urls.OWN + "page/"):
        return "codes index"
    if path.startswith(urls.CODES_PATH):
        return "a repository's codes"
    for prefix, kind in ((urls.TAGS_PATH, "tag listing"), (urls.TYPES_PATH, "type listing"),
                         (urls.SEVERITIES_PATH, "severity listing"), (urls.REPOS_PATH, "repositories index")):
        if path.startswith(prefix):
            return kind
    return "home, search, 404" if path in ("", urls.SEARCH_PATH, urls.GO_PATH, "404.html") else "repository listing"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--count", type=int, help="records of a bench/shaped.py corpus")
    source.add_argument("--records", type=Path, help="a folder of record files")
    parser.add_argument("--search", action="store_true", help="also the search files (minutes and GB at 100k)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.count:
        summaries = shaped_summaries(args.count)
    else:
        from bench.search_files import corpus_summaries
        summaries = corpus_summaries(args.records)
    print(f"{len(summaries):,} summaries in {time.perf_counter() - start:.0f} s")
    env = environment(urls.Site("https://example.org/errors/"), len(summaries))
    pages, largest = Counter(), {}
    for page in [*browse_pages(env, summaries), *codes_index_pages(env, summaries)]:
        kind = kind_of(page.path)
        pages[kind] += 1
        largest[kind] = max(largest.get(kind, (0, "")), (len(page.content), page.path))
    for kind in sorted(pages):
        print(f"{kind}: {pages[kind]:,} pages, largest {largest[kind][0]:,} B ({largest[kind][1] or 'home'})")
    cards = [result_doc(s) for s in summaries]
    facets = sum(len(inert_json(c[:8])) - len(inert_json(c[:6])) for c in cards) / len(cards)
    fixes = sum(len(inert_json(c)) - len(inert_json(c[:8])) for c in cards) / len(cards)
    print(f"result cards: {sum(len(inert_json(c)) for c in cards) / len(cards):.0f} B each, "
          f"{facets:.1f} B of them the filters' facets, {fixes:.1f} B the first fix")
    if args.search:
        files = search_pages(summaries)
        sizes = [len(p.content) for p in files.pages]
        print(f"search: {len(sizes):,} files, {sum(sizes):,} B, the largest {max(sizes):,} B; {len(files.warnings)} over budget")
    print(f"{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
