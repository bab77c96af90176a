"""Search quality on ../shared/queries.json and ../shared/queries-real.json
(real pastes from GitHub issues), through the site's real search page in
Chromium: without distractors, and with 12,000 distractor records whose
messages are real error messages mined from the Python installed here. The
distractors are in the search files only: the search page reads nothing else,
and rendering their 12,000 pages was most of this test's time. Among them,
the harder pastes of tests/fixtures/queries-hard.json (Windows paths, shell
prompts, tool prefixes, CI logs) with their records.

Every query must rank its record first, with and without distractors. Prints
top-1, top-3 and MRR per kind, and the same for a baseline that ranks records
by how many query words their message contains.
"""
from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest

from bench.quality import literal
from errorsite import urls
from errorsite.pages.render import summarize
from errorsite.search import search_pages
from errorsite.pages.plain_text import check_record
from errorsite.validate import check
from tests.conftest import QUERIES, REAL_QUERIES, SHARED_RECORDS, need_shared, serve_site
from tests.test_search_pastes import hard_documents, hard_path, hard_set

pytestmark = pytest.mark.browser
DISTRACTORS = 12000
FIGURES: dict[str, dict] = {}  # printed by conftest's pytest_terminal_summary


def expected_path(query: dict) -> str:
    record = json.loads((SHARED_RECORDS / query["expect"]).read_text(encoding="utf-8"))["record"]
    return f"/errors/{record['repo'].lower()}/{record['slug']}/"


def run_queries(page, base_url: str, queries: list[dict]) -> list[tuple[dict, list[str]]]:
    """Each query put into the search page; the result links, best first."""
    page.goto(base_url + "-/search/")
    page.wait_for_load_state("networkidle")
    outcomes = []
    for query in queries:
        page.fill("#search-input", "")
        page.fill("#search-input", query["query"])
        # The box's value, not the query: what the box kept is what was searched (the address holds
        # what the engine read of it, redacted).
        page.wait_for_function(
            "() => window.ErrorSearch && window.ErrorSearchRedact && decodeURIComponent(location.hash.slice(3)) === "
            "ErrorSearchRedact.redact(ErrorSearch.read(document.getElementById('search-input').value)).text && "
            "(document.querySelector('#search-results > li') || "
            " /No results|noise/.test(document.getElementById('search-status').textContent))")
        hrefs = page.eval_on_selector_all(
            "#search-results > li", "items => items.map(li => new URL(li.querySelector('a').href).pathname)")
        outcomes.append((query, hrefs))
    return outcomes


def figures(outcomes: list[tuple[dict, list[str]]], expected=expected_path) -> dict[str, dict[str, float]]:
    by_kind: dict[str, list[int]] = defaultdict(list)
    for query, hrefs in outcomes:
        wanted = expected(query)
        by_kind[query["kind"]].append(hrefs.index(wanted) + 1 if wanted in hrefs else 0)
    return {kind: {"queries": len(ranks),
                   "top1": sum(r == 1 for r in ranks) / len(ranks),
                   "top3": sum(0 < r <= 3 for r in ranks) / len(ranks),
                   "mrr": sum(1 / r for r in ranks if r) / len(ranks)}
            for kind, ranks in sorted(by_kind.items())}


def misses(outcomes, expected=expected_path) -> list[str]:
    return [f"{q['kind']}: {q['query'][:80]!r} → {hrefs[:3]}" for q, hrefs in outcomes
            if not hrefs or hrefs[0] != expected(q)]


WORD = re.compile(r"\w+")


def word_count_baseline(documents: dict[str, dict], queries) -> list[tuple[dict, list[str]]]:
    """The yardstick: rank by how many query words a message contains (ties in
    the order of the records' file names)."""
    messages = []
    for record in (documents[name]["record"] for name in sorted(documents)):
        messages.append((set(WORD.findall(record["errorMessage"].lower())),
                         f"/errors/{record['repo'].lower()}/{record['slug']}/"))
    outcomes = []
    for query in queries:
        words = set(WORD.findall(query["query"].lower()))
        ranked = sorted(messages, key=lambda m: -len(words & m[0]))
        outcomes.append((query, [href for _, href in ranked[:10]]))
    return outcomes


@pytest.fixture(scope="module")
def queries():
    need_shared()
    return [query for path in (QUERIES, REAL_QUERIES) for query in json.loads(path.read_text(encoding="utf-8"))]


def summaries(documents: dict[str, dict], display: bool = True) -> list:
    """name → record file's JSON: the summaries a build keeps, in its order;
    without `display`, by validate alone, as bench.quality makes them (see
    same_summaries)."""
    found = []
    for name, document in documents.items():
        checked = (check_record if display else check)(name, document)
        assert checked.record is not None, checked.problems  # the build would skip it
        found.append(summarize(checked.record))
    return sorted(found, key=urls.record_path)


def same_summaries(documents: dict[str, dict]) -> None:
    """The summaries made without the display checks are the build's own."""
    assert summaries(documents, display=False) == summaries(documents)


def file_name(document: dict) -> str:
    """The name bench/corpus.py's write_corpus gives a record's file."""
    record = document["record"]
    return "{}__{}.json".format(record["repo"].replace("/", "__"), record["slug"])


@pytest.fixture(scope="module")
def distractor_site(tmp_path_factory, mined_messages):
    """The shared records built and served, whose search files are then replaced
    by those of the shared records and the distractors, made by the build's own
    function (errorsite.search.search_pages) from the summaries the build keeps."""
    need_shared()
    from bench.corpus import make_records
    real = {path.name: json.loads(path.read_text(encoding="utf-8")) for path in sorted(SHARED_RECORDS.glob("*.json"))}
    # Some installed packages (pydantic) raise the very messages of real records:
    # those would be the same records again, not distractors.
    hard = {file_name(d): d for d in hard_documents()}
    distractors = make_records(DISTRACTORS, reserved=[*real.values(), *hard.values()])
    assert len(distractors) == DISTRACTORS
    server, out = serve_site(tmp_path_factory.mktemp("quality-site"), SHARED_RECORDS)
    built = sorted(p.relative_to(out).as_posix() for p in (out / urls.SEARCH_PATH).rglob("*") if p.is_file())
    made = search_pages(summaries(real)).pages
    assert built == sorted([urls.SEARCH_PATH + "index.html", *(page.path for page in made)])
    for page in made:  # made here as the build makes them, byte for byte
        assert (out / page.path).read_bytes() == page.content, page.path
        (out / page.path).unlink()
    # A distractor with a hard record's pattern (requests' and pip's, mined
    # from the Python installed here, and their forks) is that record again.
    same = {literal(d["record"]["messagePattern"]) for d in hard.values()}
    distractors = [d for d in distractors if literal(d["record"].get("messagePattern") or "") not in same]
    documents = {**real, **hard, **{file_name(d): d for d in distractors}}
    assert len(documents) == len(real) + len(hard) + len(distractors) > len(real) + len(hard) + DISTRACTORS - 20
    same_summaries({**real, **hard, **{file_name(d): d for d in distractors[::40]}})  # and 300 distractors
    everything = summaries(documents, display=False)
    # The build would drop a record whose id or URL another one has.
    assert len({s.id for s in everything}) == len({urls.record_path(s) for s in everything}) == len(everything)
    for page in search_pages(everything).pages:
        (out / page.path).parent.mkdir(parents=True, exist_ok=True)
        (out / page.path).write_bytes(page.content)
    assert json.loads((out / urls.SEARCH_PATH / "meta.json").read_text(encoding="utf-8"))["records"] == len(everything)
    yield server, documents
    server.close()


def test_quality_on_shared_records(shared_site, browser, queries):
    page = browser.new_page()
    outcomes = run_queries(page, shared_site.base_url, queries)
    page.close()
    FIGURES["shared records only (34)"] = figures(outcomes)
    assert not misses(outcomes), misses(outcomes)


@pytest.mark.slow
def test_quality_with_distractors(distractor_site, browser, queries):
    server, documents = distractor_site
    page = browser.new_page()
    outcomes = run_queries(page, server.base_url, queries)
    page.close()
    FIGURES[f"with {DISTRACTORS} distractors"] = figures(outcomes)
    FIGURES[f"baseline word count, {DISTRACTORS} distractors"] = figures(word_count_baseline(documents, queries))
    assert not misses(outcomes), misses(outcomes)


@pytest.mark.slow
def test_hard_pastes_with_distractors(distractor_site, browser):
    server, _ = distractor_site
    queries = hard_set()["queries"]
    page = browser.new_page()
    outcomes = run_queries(page, server.base_url, queries)
    page.close()
    by_form = [({**q, "kind": q["form"]}, hrefs) for q, hrefs in outcomes]
    FIGURES[f"hard pastes, {DISTRACTORS} distractors"] = {**figures(outcomes, hard_path), **figures(by_form, hard_path)}
    assert not misses(outcomes, hard_path), misses(outcomes, hard_path)
