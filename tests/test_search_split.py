"""The search data split by term (errorsite/search/chunks.py, static/search-data.js):
the streaming builder gives lunr.py's numbers, the files keep their promises, and
the split search returns what the whole index returns, query for query."""
from __future__ import annotations

import itertools
import json
import random
import re
import shutil
import subprocess

import pytest

from errorsite import urls
from errorsite.pages.render import summarize
from errorsite.search import FIELDS, build_index, repo_names, result_doc, search_order, search_pages, search_rules
from errorsite.search.buckets import units, vocabulary_keys
from errorsite.search.carried import CARD_RECORDS
from errorsite.search.chunks import (BUCKET_BYTES, COMMON_MIN_DOCS, COMMON_SHARE, FILE_BUDGET, search_files, search_stream,
                                     term_index)
from errorsite.validate import validate
from tests.conftest import QUERIES, REAL_QUERIES, ROOT, SHARED_RECORDS, need_shared

NODE = shutil.which("node")


def summaries(documents) -> list:
    found = []
    for n, document in enumerate(documents):
        record = validate(f"{n}.json", document)
        assert not isinstance(record, list), record
        found.append(summarize(record))
    return sorted(found, key=urls.record_path)


def shared_documents() -> list[dict]:
    need_shared()
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(SHARED_RECORDS.glob("*.json"))]


@pytest.fixture(scope="module")
def mined_corpus(mined_messages):
    """The shared records and the hard pastes' records among 900 generated ones
    (bench/corpus.py). Mining their messages from the installed Python takes
    ~20 s (done ahead, see conftest's mined_messages): slow tests only."""
    from bench.corpus import make_records
    from tests.test_search_pastes import hard_documents
    real = shared_documents() + hard_documents()
    return summaries([*real, *make_records(900, seed=5, reserved=real)])


MADE_UP_WORDS = ["timeout", "socket", "closed", "permission", "denied", "invalid", "token", "overflow", "shape",
                 "mismatch", "tensor", "dtype", "config", "missing", "key", "already", "exists", "utf-8", "décodé"]


def made_up_documents(count: int) -> list[dict]:
    """`count` records from one fixture record, messages drawn from a few words:
    a corpus with words in more than COMMON_MIN_DOCS records, made in no time."""
    base = json.loads((ROOT / "tests" / "fixtures" / "bad" / "good-dataclass-on-model.json").read_text("utf-8"))
    rng = random.Random(11)
    documents = []
    for n in range(count):
        document = json.loads(json.dumps(base))
        message = f"Error {n}: " + " ".join(rng.sample(MADE_UP_WORDS, rng.randrange(2, 7)))
        document["record"].update(id=f"made-up-{n}", slug=f"made-up-error-{n}", errorMessage=message,
                                  messagePattern=None, repo=["a/b", "c/d", "pydantic/pydantic"][n % 3])
        documents.append(document)
    return documents


@pytest.fixture(scope="module", params=[pytest.param("made-up", id="shared+300-made-up"),
                                        pytest.param("mined", id="shared+900-mined", marks=pytest.mark.slow)])
def corpus(request):
    """The tests below on two corpora: the fast loop's, and the realistic one."""
    if request.param == "mined":
        return request.getfixturevalue("mined_corpus")
    return summaries([*shared_documents(), *made_up_documents(300)])


def test_streaming_weights_are_lunr_pys(corpus):
    whole = build_index(corpus)
    index = term_index(corpus)
    vectors = {ref: dict(zip(v[::2], v[1::2])) for ref, v in whole["fieldVectors"]}
    inverted = dict(whole["invertedIndex"])
    assert set(inverted) == set(index.terms)
    names = [name for name, _ in FIELDS]
    for term, entry in index.terms.items():
        assert inverted[term]["_index"] == entry.index, term
        for f, weights in enumerate(index.weights(entry)):
            assert sorted(str(ref) for ref, _ in weights) == sorted(inverted[term][names[f]]), (term, names[f])
            for ref, weight in weights:
                assert vectors[f"{names[f]}/{ref}"][entry.index] == weight, (term, names[f], ref)


def test_files_keep_their_promises(corpus):
    files = search_files(corpus)
    by_path = {page.path: json.loads(page.content) for page in files.pages}
    sizes = {page.path: len(page.content) for page in files.pages}
    meta = by_path[urls.SEARCH_PATH + "meta.json"]
    assert meta["records"] == len(corpus)
    assert meta["commonAbove"] == max(COMMON_MIN_DOCS, len(corpus) * COMMON_SHARE)
    files = [by_path[f"{urls.SEARCH_PATH}t/{n}.json"] for n in range(len(meta["buckets"]))]
    buckets = [file[0] for file in files]
    order = lambda t: t.encode("utf-16-be")  # noqa: E731  (JavaScript's order)
    terms = [entry[0] for bucket in buckets for entry in bucket]
    assert terms == sorted(terms, key=order), "buckets hold the vocabulary in order"
    for n, bucket in enumerate(buckets):
        bound = meta["buckets"][n]
        assert order(bound) <= order(bucket[0][0]) and bucket[0][0].startswith(bound), "a bucket starts at its bound"
        assert n == 0 or order(buckets[n - 1][-1][0]) < order(bound), "…after the bucket before"
        assert len(bucket) == 1 or sizes[f"{urls.SEARCH_PATH}t/{n}.json"] <= BUCKET_BYTES + 2_000
    common = [entry for bucket in buckets for entry in bucket if len(entry) == 3]
    assert common, f"a corpus of {len(corpus)} records has words in more than {COMMON_MIN_DOCS} of them"
    assert meta["common"] == {term: [index, records] for term, index, records in common}
    for term, index, records in common:
        assert records > meta["commonAbove"]
        assert f"{urls.SEARCH_PATH}c/{index}.json" in by_path
    cards = [card for n in range(-(-len(corpus) // meta["docsPerFile"]))
             for card in by_path[f"{urls.SEARCH_PATH}d/{n}.json"]]
    assert cards == [result_doc(record) for record in corpus]
    for file in files:
        # Beside the postings, the card of every record in the entries' message, code and class postings, and no other.
        steps = {"message": 4, "code": 2, "cls": 2}
        found = {entry[3 + f + 1][i] for entry in file[0] if len(entry) > 3 for f, field in enumerate(meta["fields"])
                 if field in steps for i in range(0, len(entry[3 + f + 1]), steps[field])}
        assert [card[0] for card in file[2]] == sorted(found)
        assert all(card[1:] == result_doc(corpus[card[0]]) for card in file[2])
    for term, index, records in common:
        file = by_path[f"{urls.SEARCH_PATH}c/{index}.json"]
        message, texts, cards = file[1], file[-2], file[-1]
        for i in range(0, len(message), 5):
            assert texts[message[i + 4]] == (corpus[message[i]].shown_pattern or corpus[message[i]].message)
        # …and the cards of its best records by its weight in every field: a query of it alone ranks by those
        posted = {ref for field in file[1:-2] for ref in field[::5 if field is message else 2]}
        assert 0 < len(cards) <= CARD_RECORDS and {card[0] for card in cards} <= posted
        assert all(card[1:] == result_doc(corpus[card[0]]) for card in cards)
    names = {}
    for n, file in enumerate(files):
        for key, runs in file[1].items():
            assert max(0, max(i for i, b in enumerate(meta["buckets"]) if order(b) <= order(key)) if
                       order(key) >= order(meta["buckets"][0]) else 0) == n, key
            names[key] = {corpus[ref].repo for i in range(0, len(runs), 2) for ref in range(runs[i], runs[i + 1])}
    assert names == {key: set(repos) for key, repos in repo_names(corpus).items()}


def edits(word: str) -> set[str]:
    """Every string within one edit of `word`, as lunr's fuzzy match counts them."""
    letters = set(word) | {"x", "é"}
    found = {word[:i] + word[i + 1:] for i in range(len(word))}
    found |= {word[:i] + c + word[i + 1:] for i in range(len(word)) for c in letters}
    found |= {word[:i] + c + word[i:] for i in range(len(word) + 1) for c in letters}
    found |= {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}
    return found


@pytest.mark.parametrize("typo", ["eror", "conection", "timout", "overflw", "ab", "kv_cahce", "ünicöde", "x1y2"])
def test_every_word_within_one_edit_of_a_typo_shares_one_of_its_vocabulary_keys(typo):
    # What search-data.js looks up for a typo: "=" up to 4 letters, else its first and last two.
    u = units(typo)
    wanted = [(ord("="),)] if len(u) <= 4 else [(ord("<"), u[0], u[1]), (ord(">"), u[-2], u[-1])]
    for word in edits(typo) - {""}:
        assert set(vocabulary_keys(word)) & set(wanted), (typo, word)


def test_meta_ships_the_rules_the_browser_applies(corpus):
    """The browser has no copy of them (test_search_parity runs both sides)."""
    meta = json.loads(next(page.content for page in search_files(corpus).pages
                           if page.path == urls.SEARCH_PATH + "meta.json"))
    assert {key: meta[key] for key in search_rules(len(corpus))} == search_rules(len(corpus))
    core = (ROOT / "static" / "search-core.js").read_text(encoding="utf-8")
    paste = (ROOT / "static" / "search-context.js").read_text(encoding="utf-8")
    assert str(COMMON_MIN_DOCS) not in core and str(COMMON_SHARE) not in core
    assert not re.search(r'"(?:exceptions|_py|node_|javax|fr)"', paste)


def test_a_file_over_budget_is_named(monkeypatch, corpus):
    monkeypatch.setattr("errorsite.search.chunks.FILE_BUDGET", 2_000)
    warnings = search_files(corpus).warnings
    assert warnings and all(re.match(r"-/search/[tvd]/\d+\.json: [\d,]+ bytes, over the search files' budget", w)
                            for w in warnings), warnings[:3]
    assert FILE_BUDGET > 2_000
    monkeypatch.setattr("errorsite.search.chunks.META_BUDGET", 100)
    assert any(w.startswith("-/search/meta.json: ") for w in search_files(corpus).warnings)


def test_the_files_stream_out_as_they_are_made_and_meta_names_them_last(corpus, monkeypatch):
    """The build never holds the search data whole: a term bucket's file comes
    out when the next bucket starts, and meta.json, which names every file
    by its version, after all of them."""
    def not_yet(vocabulary):
        raise AssertionError("the term files wait for the vocabulary's")
    with monkeypatch.context() as patched:
        patched.setattr("errorsite.search.chunks.vocabulary_pages", not_yet)
        early = search_stream(corpus)
        assert [next(early).path for _ in range(3)][-1].startswith((urls.SEARCH_PATH + "t/", urls.SEARCH_PATH + "c/"))
    stream = search_stream(corpus)
    first = next(stream)
    rest = []
    with pytest.raises(StopIteration) as end:
        while True:
            rest.append(next(stream))
    made = [first, *rest]
    assert end.value.value == []  # no warnings
    assert made[-1].path == urls.SEARCH_PATH + "meta.json"
    whole = search_files(corpus)
    assert made == whole.pages and whole.warnings == []
    meta = json.loads(made[-1].content)
    assert len({page.path for page in made if "/t/" in page.path}) == len(meta["buckets"])


def queries_for(records, count: int, seed: int = 7) -> list[str]:
    """Pasted lines, lines inside a log and a stack, partial words, typos, prefixes."""
    rng = random.Random(seed)
    found = []
    for record in itertools.islice(itertools.cycle(rng.sample(records, len(records))), count // 5 + 1):
        words = record.message.split()
        found.append(record.message)
        found.append(f"2026-11-28 10:14:03 ERROR [worker-3] {record.message}\n"
                     f"    at handle (/app/node_modules/{record.repo.split('/')[-1]}/lib/index.js:12:7)")
        found.append(" ".join(words[:3]))
        longest = max(words, key=len)
        if len(longest) > 4:
            i = rng.randrange(1, len(longest) - 2)
            found.append(longest[:i] + longest[i + 1] + longest[i] + longest[i + 2:] + " " + words[0])
        found.append(" ".join(words[:2] + [words[-1][:4]]))
    for path in (QUERIES, REAL_QUERIES):
        found += [query["query"] for query in json.loads(path.read_text(encoding="utf-8"))]
    return found


@pytest.mark.slow
@pytest.mark.skipif(NODE is None, reason="node is not installed: the split search is compared under Node")
def test_split_search_ranks_as_the_whole_index(mined_corpus, tmp_path):
    corpus = search_order(mined_corpus)  # the whole index's refs are the split files' positions
    whole, split = tmp_path / "whole", tmp_path / "split"
    whole.mkdir()
    for name, value in [("index.json", build_index(corpus)), ("docs.json", [result_doc(r) for r in corpus]),
                        ("names.json", repo_names(corpus))]:
        (whole / name).write_text(json.dumps(value), encoding="utf-8")
    for page in search_pages(corpus).pages:
        target = split / page.path.removeprefix(urls.SEARCH_PATH)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(page.content)
    from tests.test_search_pastes import hard_set
    queries = queries_for(corpus, 250) + [query["query"] for query in hard_set()["queries"]]
    assert len(queries) >= 225
    (tmp_path / "queries.json").write_text(json.dumps(queries), encoding="utf-8")
    run = subprocess.run([NODE, str(ROOT / "tests" / "js" / "compare-search.js"), str(whole), str(split),
                          str(tmp_path / "queries.json"), "10"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    outcomes = json.loads(run.stdout)
    differ = [(o["query"][:80], o["expected"], o["got"]) for o in outcomes if o["expected"] != o["got"]]
    assert not differ, differ[:5]
    assert sum(bool(o["expected"]) for o in outcomes) > 0.9 * len(outcomes), "the queries find something"


def test_a_record_of_frequent_words_alone_has_its_card_with_its_rarest_word():
    """A record none of whose words puts it among a word's CARD_RECORDS best
    would cost a paste of its own message a card file and a round (13.8% of
    the records at 100,000): its card travels with its rarest word."""
    from errorsite.search.carried import card_refs
    from tests.test_search_hangs import summary
    corpus = [summary(f"gamma delta {'x' * (i % 7)}", slug=f"g{i:03d}") for i in range(150)]
    corpus += [summary(f"alpha beta {'y' * (i % 5)}", slug=f"a{i:03d}") for i in range(250)]
    corpus += [summary(f"f{k} z{j % 5}", slug=f"f{k}-{j}") for k in range(30) for j in range(120)]
    corpus += [summary("alpha beta gamma " + " ".join(f"f{k}" for k in range(30)), slug="target")]  # long: each
    corpus += [summary(f"other words {i}", slug=f"o{i:04d}") for i in range(6000)]  # word weighs little; none common
    corpus.sort(key=urls.record_path)
    target = next(ref for ref, record in enumerate(corpus) if record.slug == "target")
    files = {page.path: json.loads(page.content) for page in search_files(corpus).pages}
    meta = files[urls.SEARCH_PATH + "meta.json"]
    assert not {"alpha", "beta", "gamma", "delta"} & set(meta["common"])
    index = term_index(corpus)
    for word in ("alpha", "beta", "gamma", *(f"f{k}" for k in range(30))):  # among no word's best by weight…
        assert target not in card_refs(index.weights(index.terms[word]))[0]
    carried = {card[0] for n in range(len(meta["buckets"])) for card in files[f"{urls.SEARCH_PATH}t/{n}.json"][2]}
    assert target in carried  # …yet carried, by its rarest word


def test_the_records_of_a_pattern_have_their_cards_with_its_rarest_word():
    """A paste ranks first the records of its message's pattern: they share
    the pattern's words, not their rarest (a name each), which the paste
    lacks. Their cards travel with the rarest word of the pattern's text too."""
    from errorsite.search.index import stem
    from tests.test_search_hangs import summary
    corpus = [summary(f"parsed thing{'x' * (i % 7)}", slug=f"p{i:03d}") for i in range(150)]
    corpus += [summary(f"attribute other{'y' * (i % 5)}", slug=f"a{i:03d}") for i in range(250)]
    corpus += [summary(f"parsed attribute v{i}q", pattern="parsed attribute {name}", slug=f"t{i:02d}") for i in range(20)]
    corpus += [summary(f"other words {i}", slug=f"o{i:04d}") for i in range(6000)]
    corpus.sort(key=urls.record_path)
    targets = {ref for ref, record in enumerate(corpus) if record.slug.startswith("t")}
    files = {page.path: json.loads(page.content) for page in search_files(corpus).pages}
    meta = files[urls.SEARCH_PATH + "meta.json"]
    buckets = [files[f"{urls.SEARCH_PATH}t/{n}.json"] for n in range(len(meta["buckets"]))]
    holding = next(b for b in buckets if any(entry[0] == stem("parsed") for entry in b[0]))
    assert next(e for e in holding[0] if e[0] == stem("parsed"))[2] > CARD_RECORDS  # not all among its best
    assert targets <= {card[0] for card in holding[2]}


# lunr.js's query on the whole index, and search-score.js's on the split
# files' postings: [ref, score, each term's fields in lunr's order] per result.
TERM_SCORES = r"""
const [data, lunrPath, splitPath] = process.argv.slice(1);
const lunr = require(lunrPath), { SplitIndex } = require(splitPath);
const { whole, files, meta, queries } = JSON.parse(require("fs").readFileSync(data, "utf8"));
const index = lunr.Index.load(whole), split = new SplitIndex(meta, files);
const shown = (results) => results.map((r) => [r.ref, r.score,
  Object.keys(r.matchData.metadata).map((t) => [t, Object.keys(r.matchData.metadata[t])])]);
const ask = (clauses) => (q) => clauses.forEach(([t, boost]) => q.term(t, { boost, usePipeline: false }));
const out = queries.map((clauses) => {
  const terms = [...new Set(clauses.map((c) => c[0]))];
  terms.forEach((t) => split.df(t));  // reads each term's bucket, as the search does before it scores
  return [shown(index.query(ask(clauses))), shown(split.index(terms).query(ask(clauses)))];
});
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_term_scores_are_lunrs_to_the_last_bit(corpus, tmp_path):
    """search-score.js computes lunr's scores without a lunr index: the same
    scores, ties in the same order, the same match data, for clauses of
    frequent and rare terms, repeated terms and the query's boosts."""
    corpus = search_order(corpus)  # the whole index's refs are the split files' positions
    pages = {page.path.removeprefix(urls.SEARCH_PATH): json.loads(page.content) for page in search_pages(corpus).pages}
    meta = pages["meta.json"]
    terms = sorted(term_index(corpus).terms)
    rng = random.Random(7)
    queries = [[[rng.choice(terms), rng.choice([1, 0.4, 0.3, 0.2])] for _ in range(rng.randrange(1, 12))]
               for _ in range(150)]
    queries += [[[term, 1]] for term in sorted(meta["common"])] + [[["error", 1], ["error", 0.4], ["key", 0.2]]]
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"whole": build_index(corpus), "meta": meta, "queries": queries,
                                "files": {p: v for p, v in pages.items() if p.startswith(("t/", "c/"))}}), "utf-8")
    run = subprocess.run([NODE, "-e", TERM_SCORES, str(data), str(ROOT / "static" / "vendor" / "lunr-2.3.9" / "lunr.min.js"),
                          str(ROOT / "static" / "search-data.js")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    compared = json.loads(run.stdout)
    assert sum(len(whole) for whole, _ in compared) > 1000
    for clauses, (whole, split) in zip(queries, compared):
        assert split == whole, clauses


def test_weights_are_lunr_pys_with_a_field_no_record_has():
    """Every record without a code or class: those fields' average length is 0, and nothing to weigh."""
    corpus = [record._replace(error_code=None, error_class=None) for record in summaries(made_up_documents(30))]
    test_streaming_weights_are_lunr_pys(corpus)
    index = term_index(corpus)
    assert index.weights(next(iter(index.terms.values())))


LOOKUP = r"""
const [data, splitPath, corePath] = process.argv.slice(1);
const { SplitIndex } = require(splitPath), ErrorSearch = require(corePath);
const { files, meta, query } = JSON.parse(require("fs").readFileSync(data, "utf8"));
const held = Object.create(null), split = new SplitIndex(meta, held), tries = [];
let step = ErrorSearch.lookup(split, null, query, 5);
while (step.wanted) {
  tries.push(step.wanted.slice().sort());
  step.wanted.forEach((path) => { held[path] = files[path]; });
  step = ErrorSearch.lookup(split, null, query, 5);
}
let thrown = "";
try { ErrorSearch.find(new SplitIndex(meta, Object.create(null)), null, query, 5); } catch (e) { thrown = e.message; }
process.stdout.write(JSON.stringify({ tries, results: step.results.map((r) => r.doc[2]), match: step.results.match, thrown }));
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_lookup_names_the_files_it_lacks_and_find_never_answers_without_them(tmp_path):
    """SplitSearch fetches what ErrorSearch.lookup names, then it answers;
    ErrorSearch.find, on data lacking a file, says so instead of answering."""
    corpus = summaries(shared_documents())
    pages = {page.path.removeprefix(urls.SEARCH_PATH): json.loads(page.content) for page in search_pages(corpus).pages}
    message = corpus[0].message
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"files": pages, "meta": pages["meta.json"], "query": message}), "utf-8")
    run = subprocess.run([NODE, "-e", LOOKUP, str(data), str(ROOT / "static" / "search-data.js"),
                          str(ROOT / "static" / "search-core.js")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["tries"] and all(paths for paths in found["tries"])
    assert found["results"] and found["match"] != "none"
    assert found["thrown"].startswith("search: the data lacks ")
