"""Search quality on every real paste we have, among thousands of distractors.

The suite is every query with a known record:
- `shared`: ../shared/queries.json (pasted and partial queries) and
  ../shared/queries-real.json (pastes from GitHub issues), on ../shared/records;
- `set-a`, `set-b`, `set-c`: ../shared/real-pastes/ (pastes and issue titles);
- `hard`: tests/fixtures/queries-hard.json (Windows paths, shell prompts, CI logs);
- `mined-*`: tests/fixtures/mined/*/ (pastes mined from GitHub issues by us;
  its README says how).

The search files are made by the build's own function (errorsite.search.
search_pages) from the real records and `distractors` records of bench/corpus.py,
and each query runs cold in Node on the split files (bench/search-quality.js,
the site's own static/ engine): what a visitor's browser runs. `figures` gives
top-1 and top-3 per set and per kind, and how the first result was judged
(`match`: exact, likely or none).

    python -m bench.quality [--distractors 12000] [--json out.json] [--misses] [--absent] [--absent-mined]

`--absent` also searches each shared set's pastes on a site built without
that set's records, where any match called is wrong, and prints the share
called a match (with `--misses`, which); `--absent-mined` does the same for
each set we mined, to judge a change of the judge on more pastes.
"""
from __future__ import annotations

import argparse
import functools
import json
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
MINED = ROOT / "tests" / "fixtures" / "mined"
NEAR_MISSES = ROOT / "tests" / "fixtures" / "near-misses"
LOCAL = ROOT / "records"
HARD = ROOT / "tests" / "fixtures" / "queries-hard.json"
RUNNER = ROOT / "bench" / "search-quality.js"


@dataclass(frozen=True)
class Query:
    text: str
    expect: str   # the record's path on the site (urls.record_path)
    kind: str
    set: str
    source: str = ""
    also: tuple[str, ...] = ()   # records of other sets with the same error (see same_code)


@dataclass(frozen=True)
class NearMiss:
    """A real paste of an error that has no record, from a repository that
    has one beside it (its sibling): any match called for it is wrong."""
    text: str
    sibling: str   # the sibling record's path on the site
    kind: str      # same-class, same-repo, same-words, long-log
    message: str   # the paste's own message line
    source: str = ""


@dataclass(frozen=True)
class Suite:
    documents: dict[str, dict]   # "set/file name" → record file's JSON
    queries: list[Query]
    sets: dict[str, list[str]]   # set → the keys of the documents its queries expect
    paths: dict[str, str]        # "set/file name" → its record's path, for every record file of every set


def record_path(document: dict) -> str:
    record = document["record"]
    return f"/{record['repo'].lower()}/{record['slug']}/"


PLACEHOLDER = re.compile(r"\{[^{}\s]*\}")


def pattern_of(document: dict) -> str:
    """A record's message pattern, or its message where it has none."""
    return document["record"].get("messagePattern") or document["record"]["errorMessage"]


# Repositories whose code raises another's errors: a rename, or a vendored copy.
SAME_CODE = {"ggerganov/llama.cpp": "ggml-org/llama.cpp", "ollama/ollama": "ggml-org/llama.cpp",
             "ggerganov/whisper.cpp": "ggml-org/whisper.cpp"}


def _literal_regex(text: str) -> str:
    """Literal text of a pattern, any run of spaces as any other, placeholders one word."""
    return r"\S+?".join("".join(r"\s+" if piece.isspace() else re.escape(piece) for piece in re.split(r"(\s+)", part))
                        for part in PLACEHOLDER.split(text))


# What may come before the message a placeholder holds: `ERROR: failed to solve: `.
LABELS = re.compile(r"(?:[^:.\n]{1,40}?:\s+)*")


def wraps(outer: dict, inner: dict, paste: str) -> bool:
    """Whether the paste holds `inner`'s message in what a placeholder of
    `outer`'s holds, on one line: build-push-action's `buildx failed with:
    {lastStderrLine}` around BuildKit's `process {command} did not complete
    successfully…`, Guzzle's `cURL error {errno}: {error}` around curl's
    `SSL certificate problem: {reason}`. Both records are the paste's error,
    the one as its cause and the other as what reported it. The outer's text
    up to that placeholder (8 letters at least, its other placeholders one
    word) must be there; what the placeholder holds runs to the outer's next
    text or the end of the line (pastes are cut, older releases add less
    after it) and begins with the inner's message, perhaps after labels
    (`ERROR: failed to solve: `). The inner's pattern needs 11 letters of its
    own."""
    def parts(text: str) -> list[str]:
        return [" ".join(part.split()) for part in PLACEHOLDER.split(text.casefold()) if part.strip()]

    inner_text, outer_text = pattern_of(inner), pattern_of(outer)
    flat = " ".join(paste.casefold().split())
    if len(re.sub(r"[^a-z]", "", literal(inner_text))) < 11 or not all(
            part in flat for part in parts(inner_text) + parts(outer_text)[:1]):
        return False   # most pairs: a cheap test before the expressions
    inner_regex = re.compile(r"[^\n]*?".join(_literal_regex(part) for part in PLACEHOLDER.split(inner_text)),
                             re.IGNORECASE)
    placeholders = list(PLACEHOLDER.finditer(outer_text))
    for i, at in enumerate(placeholders):
        head = outer_text[:at.start()]
        after = outer_text[at.end():placeholders[i + 1].start() if i + 1 < len(placeholders) else None]
        if len(re.sub(r"[^a-z]", "", literal(head))) < 8:
            continue
        until = f"(?={_literal_regex(after.strip())}|$)" if after.strip() else "$"
        held = re.compile(r"\b" + _literal_regex(head) + r"\s*(?P<held>[^\n]*?)" + until, re.IGNORECASE)
        if any(inner_regex.match(m["held"], len(prefix.group())) for line in paste.splitlines()
               for m in held.finditer(line) for prefix in LABELS.finditer(m["held"])):
            return True
    return False


def also_right(queries: list[Query], documents: dict[str, dict], sets: dict[str, list[str]]) -> list[Query]:
    """Each query with the records of other sets that are its record's error
    too: raised by the same code (SAME_CODE), the one's message text within
    the other's (llama.cpp's `unknown model architecture: '{arch}'` and the
    same wrapped by its loader), or the one's message inside the other's in
    the paste itself (`wraps`). A set's author picked among the records they
    had; a record another set brought that is the same error is as right."""
    def code(document: dict) -> str:
        repo = document["record"]["repo"].lower()
        return SAME_CODE.get(repo, repo)

    def text(document: dict) -> str:
        return re.sub(r"\s*\{\}\s*", " ", same_error(document)[1]).strip(" :'\"")

    by_path = {record_path(d): (key, d) for key, d in documents.items()}
    result = []
    for query in queries:
        own = set(sets.get(query.set, ()))
        _, wanted = by_path[query.expect]
        also = tuple(sorted(path for path, (key, d) in by_path.items()
                            if key not in own and path != query.expect
                            and (code(d) == code(wanted) and (text(d) in text(wanted) or text(wanted) in text(d))
                                 or wraps(d, wanted, query.text) or wraps(wanted, d, query.text))))
        result.append(Query(query.text, query.expect, query.kind, query.set, query.source, also))
    return result


def same_error(document: dict) -> tuple[str, str]:
    """Two sets may hold the same error of the same repository (requests'
    MissingSchema is in two): one record, which both sets' queries expect."""
    record = document["record"]
    return record["repo"].lower(), literal(pattern_of(document))


def _add(key: str, document: dict, documents: dict, sets: dict, paths: dict) -> str:
    """Adds a record to the suite unless it has it already; the record's path."""
    for kept_key, kept in documents.items():
        if same_error(kept) == same_error(document):
            sets.setdefault(key.split("/")[0], []).append(kept_key)
            paths[key] = record_path(kept)
            return paths[key]
    documents[key] = document
    sets.setdefault(key.split("/")[0], []).append(key)
    paths[key] = record_path(document)
    return paths[key]


def _set(name: str, records: Path, queries: Iterable[dict], documents: dict, sets: dict, paths: dict) -> list[Query]:
    by_file = {path.name: _add(f"{name}/{path.name}", json.loads(path.read_text(encoding="utf-8")), documents, sets,
                               paths)
               for path in sorted(records.glob("*.json"))}
    return [Query(q["query"], by_file[q["expect"]], q["kind"], name, q.get("source", "")) for q in queries]


def hard_documents() -> list[dict]:
    """tests/fixtures/queries-hard.json's records as record files: a shared
    record with the fields search reads replaced (its summary is the documentation)."""
    import copy
    base = json.loads((SHARED / "records" / "redis__redis__err-syntax-error.json").read_text(encoding="utf-8"))
    documents = []
    for i, r in enumerate(json.loads(HARD.read_text(encoding="utf-8"))["records"]):
        document = copy.deepcopy(base)
        document["record"].update(id=f"hard-{i}", repo=r["repo"], slug=r["slug"], errorCode=None,
                                  errorMessage=r["message"], messagePattern=r["pattern"], errorClass=r["errorClass"],
                                  filePath=r["filePath"], documentation=r["summary"], tags=r["tags"])
        documents.append(document)
    return documents


def load_suite(shared: Path = SHARED, mined: Path = MINED, local: Path = LOCAL) -> Suite:
    """Every set there is: the shared ones need ../shared (absent: none of
    them); `local` is the checkout's own records/, records without queries
    (the near misses' siblings among them)."""
    documents: dict[str, dict] = {}
    sets: dict[str, list[str]] = {}
    paths: dict[str, str] = {}
    queries: list[Query] = []
    if (shared / "records").is_dir():
        shared_queries = [q for name in ("queries.json", "queries-real.json")
                          for q in json.loads((shared / name).read_text(encoding="utf-8"))]
        queries += _set("shared", shared / "records", shared_queries, documents, sets, paths)
        for folder in sorted((shared / "real-pastes").glob("set-*")):
            queries += _set(folder.name, folder / "records",
                            json.loads((folder / "queries.json").read_text(encoding="utf-8")), documents, sets, paths)
        hard = {record_path(d): _add(f"hard/{i}", d, documents, sets, paths) for i, d in enumerate(hard_documents())}
        for q in json.loads(HARD.read_text(encoding="utf-8"))["queries"]:
            repo, slug = q["expect"].split()
            queries.append(Query(q["query"], hard[f"/{repo.lower()}/{slug}/"], q["kind"], "hard", q.get("source", "")))
    for folder in sorted(p for p in mined.glob("*") if (p / "queries.json").is_file()):
        queries += _set(f"mined-{folder.name}", folder / "records",
                        json.loads((folder / "queries.json").read_text(encoding="utf-8")), documents, sets, paths)
    _set("local", local, [], documents, sets, paths)
    return Suite(documents, also_right(queries, documents, sets), sets, paths)


def load_near_misses(suite: Suite, folder: Path = NEAR_MISSES) -> list[NearMiss]:
    """tests/fixtures/near-misses/*/queries.json, each with its sibling's path."""
    found = []
    for path in sorted(folder.glob("*/queries.json")):
        for q in json.loads(path.read_text(encoding="utf-8")):
            if q["sibling"] not in suite.paths:
                raise ValueError(f"{path}: sibling {q['sibling']!r} is no record of the suite")
            found.append(NearMiss(q["query"], suite.paths[q["sibling"]], q["kind"], q["message"], q.get("source", "")))
    return found


CODE_SHAPED = re.compile(r"[0-9_.:-]")  # static/search-rank.js: a code of letters alone is only a word


def code_queries(suite: Suite) -> list[Query]:
    """A query for each written form of each code-shaped errorCode in the
    suite (the code, its dotted tails: `parse_error.108`), expecting its
    record, or any record with the same code."""
    by_code: dict[str, list[str]] = defaultdict(list)
    for document in suite.documents.values():
        code = (document["record"].get("errorCode") or "").strip()
        if code and CODE_SHAPED.search(code) and re.search(r"[A-Za-z]", code):
            by_code[code].append(record_path(document))
    queries = []
    for code, paths in sorted(by_code.items()):
        tails = [code[i + 1:] for i, c in enumerate(code) if c == "." and re.search(r"[A-Za-z]", code[i + 1:])]
        for form in [code, *tails]:
            queries.append(Query(form, paths[0], "code", "codes", "", tuple(paths[1:])))
    return queries


def literal(pattern: str) -> str:
    return PLACEHOLDER.sub("{}", pattern or "").casefold()


@functools.lru_cache(maxsize=4)
def squashed(text: str) -> str:
    return " ".join(text.casefold().split())


def holds_message(document: dict, text: str) -> bool:
    """Whether `text` holds the record's message by its pattern (8 letters of
    literal text at least), placeholders standing for anything on the line."""
    pattern = pattern_of(document)
    parts = [" ".join(part.split()) for part in PLACEHOLDER.split(pattern.casefold()) if part.strip()]
    if len(re.sub(r"[^a-z]", "", literal(pattern))) < 8 or not all(part in squashed(text) for part in parts):
        return False   # most records: a cheap test before the expression
    # A placeholder holds a value: `Operation {name} not supported` is not `Operation not supported`.
    return re.search(r"\s*\S[^\n]*?".join(_literal_regex(part.strip()) for part in PLACEHOLDER.split(pattern)
                                           if part.strip()), text, re.IGNORECASE) is not None


def corpus(suite: Suite, distractors: int, seed: int = 0, leave_out: Iterable[str] = (),
           near_misses: Iterable[NearMiss] = ()) -> list[dict]:
    """The suite's records (less the sets left out) and `distractors` records of
    bench/corpus.py. A distractor with a real record's message or pattern (some
    installed packages raise the very messages of real records) would be that
    record again, not a distractor: left out. So is one whose message a near
    miss's paste holds (CPython's own `Expecting ',' delimiter`, mined from the
    Python installed here): a near miss has no record. A record at an address
    another has already taken is the same record twice (the build keeps one)."""
    from bench.corpus import make_records
    left_out = {key for name in leave_out for key in suite.sets.get(name, ())}
    real = [d for key, d in suite.documents.items() if key not in left_out]
    same = {literal(pattern_of(d)) for d in suite.documents.values()}
    messages = "\n".join(miss.text for miss in near_misses)
    made = [d for d in make_records(distractors, seed=seed, reserved=list(suite.documents.values()))
            if literal(pattern_of(d)) not in same and not (messages and holds_message(d, messages))]
    taken, documents = set(), []
    for document in [*real, *made]:
        if record_path(document) not in taken:
            taken.add(record_path(document))
            documents.append(document)
    return documents


def summaries(documents: list[dict]) -> list:
    """The summaries a build keeps, from validate alone: without plain_text.py's
    checks of what a page shows as plain text (Markdown that outgrows its
    text, code a lexer stalls on: highlighting every code field is most of
    thousands of distractors' time). They only ever drop a value to plain
    text, never a record, and a summary reads none of what they decide."""
    from errorsite import urls
    from errorsite.pages.render import summarize
    from errorsite.validate import check
    found = []
    for n, document in enumerate(documents):
        checked = check(f"{n}.json", document)
        if checked.record is None:
            raise ValueError(f"record {record_path(document)} would be skipped: {checked.problems}")
        found.append(summarize(checked.record))
    return sorted(found, key=urls.record_path)


def write_search(folder: Path, documents: list[dict], whole: bool = False) -> Path:
    """The search files of these records, as a build writes them, under
    folder; their folder. With `whole`, also lunr.py's whole index of them
    (index.json, docs.json, names.json) in folder/whole/, which run() compares
    the split search with."""
    from errorsite import urls
    from errorsite.search import build_index, repo_names, result_doc, search_order, streamed_search
    records = summaries(documents)
    for page in streamed_search(records):
        path = folder / page.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(page.content)
    if whole:
        ordered = search_order(records)  # the whole index's refs are the split files' positions
        (folder / "whole").mkdir(exist_ok=True)
        for name, value in [("index.json", build_index(ordered)), ("docs.json", [result_doc(r) for r in ordered]),
                            ("names.json", repo_names(ordered))]:
            (folder / "whole" / name).write_text(json.dumps(value), encoding="utf-8")
    return folder / urls.SEARCH_PATH


def run(search_dir: Path, queries: list[Query], limit: int = 10, whole: Path | None = None) -> list[dict]:
    """Each query, cold, on the split files: {results: [paths], match, requests,
    rounds, gzip}; with `whole` (write_search's folder/whole), also `whole`:
    the true whole index's {results, match}."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as file:
        json.dump([q.text for q in queries], file)
        file.flush()
        command = ["node", str(RUNNER), str(search_dir), file.name, str(limit), *([str(whole)] if whole else [])]
        done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", check=False)
    if done.returncode:
        raise RuntimeError(f"{RUNNER.name} failed: {done.stderr[-3000:]}")
    return json.loads(done.stdout)


def rank_of(query: Query, outcome: dict) -> int:
    """1-based place of the query's record among the results (the paths end in
    the record's repo/slug/), 0 when absent."""
    wanted = [path.strip("/").lower() for path in (query.expect, *query.also)]
    for place, path in enumerate(outcome["results"], 1):
        if any(path.strip("/").lower().endswith(w) for w in wanted):
            return place
    return 0


# Kinds of paste that do not hold their record's message, which a match by
# definition holds: their right first results are honestly "none".
WITHOUT_MESSAGE = frozenset({"frames-only"})


def called_right(queries: list[Query], outcomes: list[dict]) -> dict[str, tuple[int, int]]:
    """Of the right first results, how many are called a match: {"all": (called,
    right), "holding": the same for the pastes that hold their message}."""
    right = [(q, o) for q, o in zip(queries, outcomes) if q.set != "codes" and rank_of(q, o) == 1]
    holding = [(q, o) for q, o in right if q.kind not in WITHOUT_MESSAGE]
    return {name: (sum(o["match"] != "none" for _, o in pairs), len(pairs))
            for name, pairs in (("all", right), ("holding", holding))}


def figures(queries: list[Query], outcomes: list[dict]) -> dict[str, dict[str, dict]]:
    """{"set": {name: figures}, "kind": {name: figures}, "all": {"all": figures}};
    figures: queries, top1, top3, matched (first result judged a match, and right)."""
    groups: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
    for query, outcome in zip(queries, outcomes):
        place = (rank_of(query, outcome), outcome.get("match", "none"))
        groups["set", query.set].append(place)
        groups["kind", query.kind].append(place)
        groups["all", "all"].append(place)
    result: dict[str, dict[str, dict]] = defaultdict(dict)
    for (axis, name), places in sorted(groups.items()):
        n = len(places)
        result[axis][name] = {"queries": n,
                              "top1": sum(p == 1 for p, _ in places) / n,
                              "top3": sum(0 < p <= 3 for p, _ in places) / n,
                              "matched": sum(p == 1 and m != "none" for p, m in places) / n}
    return dict(result)


def verdicts(queries: list[Query], outcomes: list[dict], near: list[NearMiss], near_outcomes: list[dict]) -> dict:
    """The judge's figures. `exact` and `likely`: of the first results so
    called, over the suite's pastes and the near misses, how many are the
    paste's record ({"right", "called", "precision"}; an `exact` on a paste
    without its message is wrong whatever the record). `near`: per kind and
    in all, the near misses called a match ({"called", "of"}). `right`:
    called_right's figures."""
    calls = {m: {"right": 0, "called": 0} for m in ("exact", "likely")}
    for q, o in zip(queries, outcomes):
        if q.set == "codes" or o["match"] not in calls:
            continue
        calls[o["match"]]["called"] += 1
        calls[o["match"]]["right"] += rank_of(q, o) == 1 and not (o["match"] == "exact" and q.kind in WITHOUT_MESSAGE)
    by_kind: dict[str, dict[str, int]] = defaultdict(lambda: {"called": 0, "of": 0})
    for miss, o in zip(near, near_outcomes):
        for kind in (miss.kind, "all"):
            by_kind[kind]["of"] += 1
            by_kind[kind]["called"] += o["match"] != "none"
        if o["match"] in calls:
            calls[o["match"]]["called"] += 1
    for c in calls.values():
        c["precision"] = c["right"] / c["called"] if c["called"] else 1.0
    right = called_right([q for q in queries if q.set != "codes"], [o for q, o in zip(queries, outcomes) if q.set != "codes"])
    return {**calls, "near": dict(sorted(by_kind.items())), "right": right}


def verdict_table(v: dict) -> str:
    lines = [f"exact: {v['exact']['precision']:.1%} right of {v['exact']['called']} called; "
             f"likely: {v['likely']['precision']:.1%} right of {v['likely']['called']} called"]
    lines += [f"near misses {kind:<12} called a match: {f['called']:>3} of {f['of']:>3} "
              f"({f['called'] / f['of'] if f['of'] else 0:.1%})" for kind, f in v["near"].items()]
    (called, right), (held, holding) = v["right"]["all"], v["right"]["holding"]
    lines.append(f"right first results called a match: {called / right:.1%} of {right}; "
                 f"of the pastes holding their message: {held / holding:.1%} of {holding}")
    return "\n".join(lines)


def near_called(near: list[NearMiss], outcomes: list[dict]) -> list[str]:
    return [f"near {n.kind}, called {o['match']} ({o.get('rule')}): {n.text[-100:]!r} → {o['results'][:1]} (sibling {n.sibling}) {n.source}"
            for n, o in zip(near, outcomes) if o["match"] != "none"]


def rule_tally(queries: list[Query], outcomes: list[dict], near_outcomes: list[dict]) -> str:
    """Per rule of the judge: the right first results it called a match, the
    wrong ones (another record first, or a near miss), and what it left none."""
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for q, o in zip(queries, outcomes):
        if q.set != "codes":
            tally[f"{o['match']} {o.get('rule')}"][0 if rank_of(q, o) == 1 else 1] += 1
    for o in near_outcomes:
        tally[f"{o['match']} {o.get('rule')}"][2] += 1
    lines = [f"{'rule':<36} {'right':>6} {'wrong':>6} {'near':>6}"]
    lines += [f"{rule:<36} {a:>6} {b:>6} {c:>6}" for rule, (a, b, c) in sorted(tally.items())]
    return "\n".join(lines)


def long_variants(queries: list[Query]) -> list[Query]:
    """Each paste in each of bench/longlog.py's long logs, its kind the variant's."""
    from bench.longlog import VARIANTS
    return [Query(make(q.text), q.expect, name, q.set, q.source, q.also)
            for name, make in VARIANTS.items() for q in queries]


def long_changes(queries: list[Query], outcomes: list[dict], long_outcomes: list[dict]) -> dict[str, list[str]]:
    """Per long variant: the pastes that lost their rank-1 or changed verdict inside the log."""
    from bench.longlog import VARIANTS
    changes: dict[str, list[str]] = {name: [] for name in VARIANTS}
    for i, (q, o) in enumerate(zip(long_variants(queries), long_outcomes)):
        plain_query, plain = queries[i % len(queries)], outcomes[i % len(queries)]
        was, now = (rank_of(plain_query, plain) == 1, plain["match"]), (rank_of(q, o) == 1, o["match"])
        if now != was and not (now[0] and not was[0]):
            changes[q.kind].append(f"{q.kind} {plain_query.kind}: first {was[0]}→{now[0]}, {was[1]}→{now[1]}: "
                                   f"{plain_query.text[:80]!r} → {o['results'][:1]}")
    return changes


def misses(queries: list[Query], outcomes: list[dict]) -> list[str]:
    return [f"{q.set} {q.kind} (rank {rank_of(q, o) or '-'}): {q.text[:100]!r} → {o['results'][:1]} {q.source}"
            for q, o in zip(queries, outcomes) if rank_of(q, o) != 1]


def table(figs: dict[str, dict[str, dict]]) -> str:
    lines = [f"{'':<24} {'queries':>7} {'top-1':>7} {'top-3':>7} {'matched':>8}"]
    for axis in ("set", "kind", "all"):
        for name, f in figs.get(axis, {}).items():
            lines.append(f"{axis + ' ' + name:<24} {f['queries']:>7} {f['top1']:>7.1%} {f['top3']:>7.1%} "
                         f"{f['matched']:>8.1%}")
    return "\n".join(lines)


def fetch_figures(outcomes: list[dict]) -> dict:
    """What the queries fetched: median and max of requests, rounds, gzipped bytes."""
    def spread(key: str) -> dict:
        values = sorted(o[key] for o in outcomes)
        return {"median": values[len(values) // 2], "max": values[-1]}
    return {key: spread(key) for key in ("requests", "rounds", "gzip")}


def bench_figures(distractors: int, seed: int = 0) -> dict:
    """The suite among `distractors` records of bench/corpus.py: quality and
    what it costs, from the same run (bench/bench.py --search reports it
    beside the bytes and rounds of its own queries)."""
    suite = load_suite()
    near = load_near_misses(suite)
    with tempfile.TemporaryDirectory(prefix="quality-") as folder:
        search_dir = write_search(Path(folder), corpus(suite, distractors, seed=seed, near_misses=near))
        queries = suite.queries + code_queries(suite)
        outcomes = run(search_dir, queries + [Query(n.text, n.sibling, n.kind, "near") for n in near])
        outcomes, near_outcomes = outcomes[:len(queries)], outcomes[len(queries):]
    real = [(q, o) for q, o in zip(queries, outcomes) if q.set != "codes"]
    figs = figures([q for q, _ in real], [o for _, o in real])
    judged = verdicts(queries, outcomes, near, near_outcomes)
    (called, right), (held, holding) = judged["right"]["all"], judged["right"]["holding"]
    return {"distractors": distractors, "queries": len(real), **figs["all"]["all"],
            "exact_precision": judged["exact"]["precision"], "likely_precision": judged["likely"]["precision"],
            "near_misses": judged["near"]["all"]["of"], "near_called": judged["near"]["all"]["called"],
            "near_called_by_kind": {kind: f["called"] for kind, f in judged["near"].items() if kind != "all"},
            "right_called": held / holding,
            "sets": {name: f["top1"] for name, f in figs["set"].items()},
            "kinds": {name: f["top1"] for name, f in figs["kind"].items()},
            "codes": sum(rank_of(q, o) == 1 for q, o in zip(queries, outcomes) if q.set == "codes"),
            "code_queries": sum(q.set == "codes" for q in queries),
            **fetch_figures([o for _, o in real])}


ABSENT_SETS = ("set-a", "set-b", "set-c")  # the shared real-paste sets


def absent(suite: Suite, distractors: int, name: str) -> tuple[list[Query], list[dict]]:
    """A set's queries searched on a site built without its records: any
    match called is wrong (tests/test_search_suite.py holds one set to it)."""
    with tempfile.TemporaryDirectory(prefix="absent-") as folder:
        search_dir = write_search(Path(folder), corpus(suite, distractors, leave_out=[name]))
        queries = [q for q in suite.queries if q.set == name]
        return queries, run(search_dir, queries)


def called(queries: list[Query], outcomes: list[dict]) -> list[str]:
    """The pastes called a match, as misses() lists them; "same error" when
    the first result is another set's record of the paste's error (Query.also)."""
    return [f"{q.set} absent, called {o['match']}{' (same error)' if rank_of(q, o) == 1 else ''}: "
            f"{q.text[:100]!r} → {o['results'][:1]} {q.source}"
            for q, o in zip(queries, outcomes) if o["match"] != "none"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--distractors", type=int, default=12000)
    parser.add_argument("--json", type=Path, help="write the outcomes here")
    parser.add_argument("--misses", action="store_true", help="list the queries whose record is not first")
    parser.add_argument("--absent", action="store_true",
                        help="also search each shared set on a site without its records: how many are called a match")
    parser.add_argument("--absent-mined", action="store_true",
                        help="the same for each set we mined (tests/fixtures/mined/): more pastes to judge a rule on")
    parser.add_argument("--long", action="store_true",
                        help="also search every paste inside long logs (bench/longlog.py): what changes")
    args = parser.parse_args(argv)
    suite = load_suite()
    near = load_near_misses(suite)
    with tempfile.TemporaryDirectory(prefix="quality-") as folder:
        search_dir = write_search(Path(folder), corpus(suite, args.distractors, near_misses=near))
        outcomes = run(search_dir, suite.queries + [Query(n.text, n.sibling, n.kind, "near") for n in near])
        outcomes, near_outcomes = outcomes[:len(suite.queries)], outcomes[len(suite.queries):]
        long_outcomes = run(search_dir, long_variants(suite.queries)) if args.long else []
    print(table(figures(suite.queries, outcomes)))
    print(verdict_table(verdicts(suite.queries, outcomes, near, near_outcomes)))
    cost = fetch_figures(outcomes)
    print("per query: " + ", ".join(f"{key} median {v['median']:,} max {v['max']:,}" for key, v in cost.items()))
    if args.misses:
        print("\n".join(misses(suite.queries, outcomes)))
        print("\n".join(near_called(near, near_outcomes)))
        print(rule_tally(suite.queries, outcomes, near_outcomes))
    if args.long:
        for name, lost in long_changes(suite.queries, outcomes, long_outcomes).items():
            print(f"in a long log, {name}: {len(suite.queries) - len(lost)} of {len(suite.queries)} keep their rank and verdict")
            if args.misses:
                print("\n".join(lost))
    mined = [name for name in suite.sets if name.startswith("mined-")] if args.absent_mined else []
    for name in [*(ABSENT_SETS if args.absent else ()), *mined]:
        queries, found = absent(suite, args.distractors, name)
        calls = called(queries, found)
        same = sum("(same error)" in line for line in calls)
        print(f"{name} without its records, called a match: {len(calls) / len(queries):.1%} of {len(queries)}"
              + (f" ({same} of them another set's record of the same error)" if same else ""))
        if args.misses:
            print("\n".join(calls))
    if args.json:
        args.json.write_text(json.dumps([{"query": q.text, "set": q.set, "kind": q.kind, "expect": q.expect, **o}
                                         for q, o in zip(suite.queries, outcomes)]
                                        + [{"query": n.text, "set": "near", "kind": n.kind, "expect": n.sibling,
                                            "message": n.message, **o} for n, o in zip(near, near_outcomes)],
                                        indent=1), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
