"""Rules that exist on both sides of the search, run on the same inputs: the
stemmer (Python stems the index, lunr.js the query), the names a repository
goes by (Python builds names.json, the browser reads names from a paste), and
a pattern's literal text (Python indexes it, the browser matches it). The
tokenizer's own parity test is in test_tokens.py."""
from __future__ import annotations

import json

import pytest

from errorsite.search import repo_names
from errorsite.search.index import stem
from errorsite.search.names import class_names, name_aliases, name_key, path_names
from errorsite.tokens import pattern_words, tokenize
from tests.conftest import QUERIES, REAL_QUERIES, SHARED_RECORDS, need_shared

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def shared_records() -> list[dict]:
    need_shared()
    return [json.loads(path.read_text(encoding="utf-8"))["record"] for path in sorted(SHARED_RECORDS.glob("*.json"))]


def test_python_and_browser_stem_every_word_alike(search_core):
    words = {"key", "keys", "array", "npy", "sky", "try", "trying", "play", "replaying", "by", "yy", "ay", "oy",
             "mypy", "stray", "dtype", "supported", "generalization", "ponies", "caresses", "fromkeys"}
    for record in shared_records():
        for field in ("errorMessage", "messagePattern", "errorClass", "filePath", "documentation", "repo"):
            words.update(tokenize(record.get(field) or ""))
    for path in (QUERIES, REAL_QUERIES):
        for query in json.loads(path.read_text(encoding="utf-8")):
            words.update(tokenize(query["query"]))
    words = sorted(words)
    in_browser = search_core.evaluate("ws => ws.map(w => lunr.stemmer(new lunr.Token(w)).toString())", words)
    mismatches = [(word, stem(word), js) for word, js in zip(words, in_browser) if stem(word) != js]
    assert not mismatches, mismatches[:10]


NAMES = ["llama.cpp", "markdown-it-py", "node-glob", "@babel/core", "_pytest", "python-dateutil", "go-redis",
         "redis-cli", "redis_server", "candle-core", "candle_core", "Lib", "errors", "", "---", "Ünïcödé-py",
         "x_core", "a.b.c", "lunr.py", "socket.io", "typing_extensions", "node_redis", "py_", "a_py", "LLAMA Server"]


def test_python_and_browser_normalise_names_alike(search_core):
    names = list(NAMES)
    for record in shared_records():
        owner, _, repo = record["repo"].partition("/")
        names += [owner, repo, *class_names(record.get("errorClass") or ""), *path_names(record.get("filePath") or "")]
    in_browser = search_core.evaluate(
        "ns => ns.map(n => [ErrorSearchPaste.nameKey(n), ErrorSearchPaste.nameAliases(n)])", names)
    mismatches = [(name, [name_key(name), name_aliases(name)], js) for name, js in zip(names, in_browser)
                  if [name_key(name), name_aliases(name)] != js]
    assert not mismatches, mismatches[:10]


def test_names_built_in_python_are_found_in_pastes_by_the_browser(search_core):
    """Each shared record's class and file, written as a paste would show them,
    name its repository through names.json."""
    need_shared()
    from errorsite.load import load_records
    from errorsite.validate import validate_all
    records, _ = validate_all(load_records(SHARED_RECORDS))
    pastes = []
    for record in records:
        if class_names(record.error_class or ""):
            pastes.append((f"{record.error_class}: something failed", record.repo))
        for package in path_names(record.file_path or ""):  # as installed: the package folder first
            pastes.append((f'  File "/venv/lib/python3.12/site-packages/{package}/x.py", line 1, in f', record.repo))
    assert len(pastes) > 10
    named = search_core.evaluate(
        "([names, pastes]) => pastes.map(p => new ErrorSearch({version: '2.3.9', fields: [], fieldVectors: [], "
        "invertedIndex: [], pipeline: ['stemmer']}, [], names).namedRepos(p))",
        [repo_names(records), [paste for paste, _ in pastes]])
    missed = [(paste, repo, found) for (paste, repo), found in zip(pastes, named) if found.get(repo) != 2]
    assert not missed, missed[:5]


PATTERNS = ["accepts at most {n} arg(s), received {count}", "{a}{b}", "{ spaced } text", "x {a\u00a0b} y",
            "{x\u2028y} z", "{" + "n" * 41 + "} long", "{}", "no placeholder", "{{double}}"]


def test_python_and_browser_blank_the_same_placeholders(search_core):
    patterns = PATTERNS + [record["messagePattern"] for record in shared_records() if record.get("messagePattern")]
    in_browser = search_core.evaluate(
        "ps => ps.map(p => ErrorSearch.tokenize(ErrorSearchMatch.literalText(p)))", patterns)
    mismatches = [(p, tokenize(pattern_words(p)), js) for p, js in zip(patterns, in_browser)
                  if tokenize(pattern_words(p)) != js]
    assert not mismatches, mismatches[:5]
