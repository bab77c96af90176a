"""What a cold query fetches, under Node (bench/search-fetches.js), on a small
corpus of many repositories: a median of at most 12 requests, in at most 3
rounds, whatever the query's kind; the first screen's cards come with the postings that found
them (no card file); the cards of the results past it on request; and a start
(on focus) that does not grow with the number of repositories."""
from __future__ import annotations

import hashlib
import json
import random
import subprocess

import pytest

from bench.queries import KINDS, kind_queries
from bench.repos import repositories
from errorsite import urls
from errorsite.search import search_order, search_pages
from tests.search_node import NODE, need_node
from tests.test_search_split import ROOT, summaries

WORDS = ["timeout", "socket", "closed", "permission", "denied", "invalid", "token", "overflow", "shape", "mismatch",
         "tensor", "dtype", "config", "missing", "key", "already", "exists", "buffer", "encoding", "header", "stream",
         "channel", "thread", "mutex", "poisoned", "schema", "column", "index", "range", "unwrap", "value", "option",
         "frozen", "cursor", "handle", "pipe", "broken", "queue", "empty", "batch", "layer", "weight", "device"]
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zen", "pri", "str", "qu", "bel", "dor", "fin", "gal"]
RARE = sorted({a + b + c for a in SYLLABLES for b in SYLLABLES for c in SYLLABLES})  # words in a few records
LANGUAGES = ("python", "rust", "go")


def documents(count: int, repos: int) -> list[dict]:
    """`count` records from one fixture record, spread over `repos` repositories shaped as bench/repos.py makes them."""
    base = json.loads((ROOT / "tests" / "fixtures" / "bad" / "good-dataclass-on-model.json").read_text("utf-8"))
    rng = random.Random(5)
    found = []
    for repository in repositories(count, 3, LANGUAGES, repos):
        package = repository.package.replace("-", "_")
        for n in range(repository.records):
            message = " ".join(rng.sample(WORDS, rng.randrange(1, 4)) + rng.sample(RARE, rng.randrange(2, 5)))
            document = json.loads(json.dumps(base))
            document["record"].update(
                id=hashlib.sha256(f"{repository.repo}/{n}".encode()).hexdigest()[:16], slug=f"error-{n}", repo=repository.repo,
                errorMessage=message, messagePattern=None, filePath=f"{package}/module_{n % 7}.py",
                errorClass=f"{package}::Error" if repository.language == "rust" else "ValueError",
                tags=[repository.language, "made-up"])
            found.append(document)
    return found


def write_site(folder, records) -> None:
    for page in search_pages(records).pages:
        target = folder / page.path.removeprefix(urls.SEARCH_PATH)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(page.content)


def fetches(folder, queries: list[str]) -> list[dict]:
    (folder / "queries.json").write_text(json.dumps(queries), encoding="utf-8")
    run = subprocess.run([NODE, str(ROOT / "bench" / "search-fetches.js"), str(folder), str(folder / "queries.json")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.fixture(scope="module")
def corpus():
    return [documents(1000, 50), documents(1000, 500)]


@pytest.fixture(scope="module")
def measured(corpus, tmp_path_factory):
    need_node()
    folder = tmp_path_factory.mktemp("search")
    records = search_order(summaries(corpus[1]))  # records[ref]
    write_site(folder, records)
    queries = kind_queries([record for document in corpus[1] for record in [document["record"]]], 4)
    queries["traceback"] = queries["traceback"] or []
    flat = [(kind, query) for kind in KINDS for query in queries[kind]]
    return {"folder": folder, "records": records, "kinds": [kind for kind, _ in flat],
            "outcomes": fetches(folder, [query for _, query in flat])}


# A cold query reads the term file of every word of the paste that the whole
# index would weigh: no budget of files that would leave a word out (the
# ranking is the whole index's). What bounds its requests is how the
# vocabulary is packed into files; the rounds stay few: meta.json (asked for
# on focus), then the words' term files with a typed word's vocabulary files
# in case it is a typo, then a typo's neighbours' term files. A traceback
# names paths and frames besides its message: a file more for each.
MEDIAN_REQUESTS, MOST_ROUNDS = {"traceback": 20}, 3


@pytest.mark.parametrize("kind", KINDS)
def test_requests_and_rounds_per_query_kind(measured, kind):
    outcomes = [o for k, o in zip(measured["kinds"], measured["outcomes"]) if k == kind]
    assert outcomes, f"the corpus gives no {kind} query"
    for outcome in outcomes:
        assert outcome["results"], outcome["query"]
        assert outcome["rounds"] <= MOST_ROUNDS, (outcome["query"], [f[:2] for f in outcome["files"]])
        paths = [f[0] for f in outcome["files"]]
        assert len(paths) == len(set(paths)), "no file is fetched twice"
    requests = sorted(outcome["requests"] for outcome in outcomes)
    assert requests[len(requests) // 2] <= MEDIAN_REQUESTS.get(kind, 12), requests


def test_result_cards_come_with_the_postings(measured):
    """A record's card travels beside its message postings: neither the
    ranking (patterns) nor the results shown fetch a card file."""
    for outcome in measured["outcomes"]:
        assert not [f for f in outcome["files"] if f[0].startswith("d/")], outcome["query"]


def test_the_cards_past_the_first_screen_come_on_request(measured):
    """A result past the first screen found by no word of its message (here
    by its repository's name alone) has its card once cards() is done."""
    record = measured["records"][0]
    script = """
      const {SplitSearch} = require(process.argv[1]); const fs = require('fs'); const got = [];
      const search = new SplitSearch(process.argv[2] + '/', (u) => { const p = u.replace(/\\?.*/, '');
        got.push(p.slice(process.argv[2].length + 1)); return Promise.resolve(JSON.parse(fs.readFileSync(p))); });
      search.search(process.argv[3], 40).then((results) => {
        const first = results.slice(0, 8).every((r) => r.doc), before = got.length;
        return search.cards(results).then(() => console.log(JSON.stringify({first, results: results.length,
          docs: results.map((r) => [r.ref, r.doc]), after: got.slice(before)})));
      });"""
    run = subprocess.run([NODE, "-e", script, str(ROOT / "static" / "search-data.js"), str(measured["folder"]),
                          record.repo.split("/")[1]], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    outcome = json.loads(run.stdout)
    assert outcome["first"] and outcome["results"] > 8
    cards = {}
    per_file = json.loads((measured["folder"] / "meta.json").read_text())["docsPerFile"]
    for path in (measured["folder"] / "d").glob("*.json"):
        n = int(path.stem)
        for i, card in enumerate(json.loads(path.read_text())):
            cards[n * per_file + i] = card
    assert all(doc == cards[ref] for ref, doc in outcome["docs"])


def test_a_paste_names_its_repository_through_the_term_files(measured):
    record = measured["records"][7]
    package = record.file_path.split("/")[0]
    paste = f'  File "/usr/lib/python3/site-packages/{record.file_path}", line 3, in f\n{record.message}'
    outcome = fetches(measured["folder"], [paste])[0]
    assert outcome["results"][0] == 7, (package, outcome["results"])
    assert not [f for f in outcome["files"] if not f[0].startswith(("meta.json", "t/", "d/"))]


def test_what_a_start_fetches_does_not_grow_with_the_repositories(corpus, tmp_path):
    """meta.json is all a search box's focus fetches; ten times the repositories leave it about the same size."""
    need_node()
    sizes = []
    for n, documents_ in enumerate(corpus):
        folder = tmp_path / str(n)
        write_site(folder, summaries(documents_))
        started = subprocess.run(
            [NODE, "-e", "const {SplitSearch} = require(process.argv[1]); const fs = require('fs'); const got = [];"
             "new SplitSearch(process.argv[2] + '/', (u) => { got.push(u.replace(/\\?.*/, ''));"
             " return Promise.resolve(JSON.parse(fs.readFileSync(u.replace(/\\?.*/, '')))); })"
             ".start().then(() => console.log(JSON.stringify(got)));",
             str(ROOT / "static" / "search-data.js"), str(folder)], capture_output=True, text=True, timeout=60)
        assert started.returncode == 0, started.stderr
        assert [path.removeprefix(str(folder) + "/") for path in json.loads(started.stdout)] == ["meta.json"]
        sizes.append((folder / "meta.json").stat().st_size)
    assert sizes[1] < 1.15 * sizes[0], sizes
