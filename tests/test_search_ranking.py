"""The browser's ranking, on small hand-made indexes: noise stripping per
language, context that tells generic messages apart, patterns, typos."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errorsite.pages.render import summarize
from errorsite.search import build_index, result_doc, search_rules
from errorsite.validate import validate
from tests.conftest import SHARED_RECORDS, need_shared
from tests.search_node import node_core  # noqa: F401  (a fixture)


def make_record(**fields):
    need_shared()
    base = json.loads((SHARED_RECORDS / "redis__redis__err-syntax-error.json").read_text(encoding="utf-8"))
    base["record"].update(fields)
    record = validate("test.json", base)
    assert not isinstance(record, list), record
    return summarize(record)  # what the index is built from


def ranked(node_core, records, query) -> list[str]:
    """Repos of the results, best first, from the real search code."""
    return node_core.evaluate(
        "([index, docs, rules, q]) => new ErrorSearch(index, docs, {}, rules).search(q, 10).map(r => r.doc[1])",
        [build_index(records), [result_doc(r) for r in records], search_rules(len(records)), query])


@pytest.mark.parametrize("paste, core_words, gone", [
    ("thread 'main' panicked at src/main.rs:14:52:\ncalled `Result::unwrap()` on an `Err` value: unknown op-code 149\n"
     "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
     ["unknown", "op-code"], ["thread", "panicked", "backtrace", "result::unwrap"]),
    ('Traceback (most recent call last):\n  File "/app/main.py", line 3, in <module>\n    load()\n'
     "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
     ["expecting", "value", "line", "column"], ["traceback", "json.decoder.jsondecodeerror"]),
    ("panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\n"
     "main.main()\n\t/home/u/app/main.go:8 +0x1d\nexit status 2",
     ["runtime", "index", "range", "length"], ["goroutine", "running", "home/u/app/main.go:8"]),
    ("Uncaught TypeError: Cannot read properties of undefined (reading 'x')\n"
     "    at Object.<anonymous> (/srv/app/index.js:4:13)\n    at Module._compile (node:internal/modules/cjs/loader:1256:14)",
     ["read", "properties", "undefined", "reading"], ["typeerror", "uncaught", "srv", "_compile"]),
    ('Exception in thread "main" java.lang.IllegalStateException: Queue full\n'
     "\tat java.base/java.util.AbstractQueue.add(AbstractQueue.java:98)\n\tat Main.main(Main.java:7)",
     ["queue", "full"], ["java.lang.illegalstateexception", "abstractqueue.add"]),
    ("terminate called after throwing an instance of 'std::out_of_range'\n  what():  vector::_M_range_check\n"
     "Aborted (core dumped)", ["vector::_m_range_check"], ["terminate", "throwing", "std::out_of_range", "aborted"]),
    ("[2026-11-29T16:40:02Z] WARN bson export: BSON key cannot contain code point U+0000 (at byte 3)",
     ["bson", "export", "key", "contain", "code", "point", "byte"], ["warn"]),
    ("2026/11/28 10:14:03 RegisterFlagCompletionFunc: flag 'region' does not exist",
     ["registerflagcompletionfunc", "flag", "region", "exist"], []),
])
def test_noise_is_stripped_and_message_words_kept(node_core, paste, core_words, gone):
    analysed = node_core.evaluate("t => ErrorSearch.analyse(t)", paste)
    for word in core_words:
        assert word in analysed["core"], (word, analysed)
    for word in gone:
        assert word not in analysed["core"], (word, analysed)


def test_noise_only_query_has_no_words(node_core):
    analysed = node_core.evaluate("t => ErrorSearch.analyse(t)", "2026-11-28 10:14:03.123 0x7ffe5a3c2b10")
    assert analysed["core"] == [] and analysed["context"] == []


GENERIC = [  # the same message in many repositories; only context tells them apart
    ("redis/redis", "ERR", None, "src/server.c", ["redis", "c"]),
    ("nlohmann/json", "json.exception.parse_error.101", "nlohmann::json::parse_error",
     "include/nlohmann/detail/input/lexer.hpp", ["cpp", "json"]),
    ("yaml/pyyaml", None, "yaml.parser.ParserError", "lib/yaml/parser.py", ["python", "yaml"]),
    ("python/cpython", None, "SyntaxError", "Lib/ast.py", ["python"]),
    ("sqlite/sqlite", None, None, "src/tokenize.c", ["sql", "c"]),
    ("spf13/cobra", None, None, "args.go", ["go", "cli"]),
    ("expressjs/express", None, "SyntaxError", "lib/router/index.js", ["node", "express"]),
    ("pallets/jinja", None, "jinja2.exceptions.TemplateSyntaxError", "src/jinja2/parser.py", ["python", "jinja"]),
]


@pytest.fixture(scope="module")
def generic_records():
    return [make_record(repo=repo, slug="syntax-error", id=f"id{i}", errorMessage="syntax error",
                        messagePattern="syntax error", errorCode=code, errorClass=cls, filePath=path, tags=tags)
            for i, (repo, code, cls, path, tags) in enumerate(GENERIC)]


@pytest.mark.parametrize("paste, repo", [
    ("redis> SET k\n(error) ERR syntax error", "redis/redis"),
    ("[json.exception.parse_error.101] parse error: syntax error", "nlohmann/json"),
    ("yaml.parser.ParserError: syntax error", "yaml/pyyaml"),
    ('  File "/usr/lib/python3/site-packages/jinja2/parser.py", line 2, in fail\n'
     "jinja2.exceptions.TemplateSyntaxError: syntax error", "pallets/jinja"),
    ("SyntaxError: syntax error\n    at Layer.handle (/app/node_modules/express/lib/router/index.js:284:7)",
     "expressjs/express"),
])
def test_context_tells_generic_messages_apart(node_core, generic_records, paste, repo):
    assert ranked(node_core, generic_records, paste)[0] == repo


def test_pattern_in_paste_beats_word_overlap(node_core):
    records = [
        make_record(repo="spf13/cobra", slug="accepts-at-most", id="a",
                    errorMessage="accepts at most 1 arg(s), received 2",
                    messagePattern="accepts at most {n} arg(s), received {count}"),
        make_record(repo="other/cli", slug="received-args", id="b",
                    errorMessage="received args accepts arg list", messagePattern="received args accepts arg list"),
    ]
    assert ranked(node_core, records, "Error: accepts at most 3 arg(s), received 7")[0] == "spf13/cobra"


def test_typos_are_forgiven_in_short_queries_only(node_core):
    records = [make_record(repo="a/b", slug="x", id="x", errorMessage="invalid expire time in command")]
    assert ranked(node_core, records, "invalid exipre time") == ["a/b"]
    assert ranked(node_core, records, "nothing here matches exipre at all really mister search") == []


@pytest.fixture(scope="module")
def shared_engine(node_core):
    """The shared records' index, loaded once into the node_core page."""
    from errorsite.load import load_records
    from errorsite.validate import validate_all
    records, _ = validate_all(load_records(SHARED_RECORDS))
    records = [summarize(record) for record in records]
    node_core.evaluate("([index, docs, rules]) => { window.__engine = new ErrorSearch(index, docs, {}, rules); }",
                       [build_index(records), [result_doc(r) for r in records], search_rules(len(records))])
    return node_core


QUERY_TEXT = st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(list(":+-~^*\"'`()[]{}<>\\/_.=?!\n\t")),
                     max_size=200)


@settings(max_examples=40, deadline=None)
@given(st.lists(QUERY_TEXT, min_size=1, max_size=25))
def test_any_text_searches_without_throwing(shared_engine, queries):
    outcome = shared_engine.evaluate(
        "qs => qs.map(q => { try { return window.__engine.search(q, 20).length; } catch (e) { return String(e); } })",
        queries)
    assert all(isinstance(count, int) for count in outcome), list(zip(queries, outcome))


def test_short_pattern_does_not_beat_a_record_with_every_typed_word(node_core):
    records = [
        make_record(repo="prompt-toolkit/prompt_toolkit", slug="default-not-supported", id="p",
                    errorMessage="'default' not supported", messagePattern="{value} not supported"),
        make_record(repo="huggingface/candle", slug="npy-bf16", id="c",
                    errorMessage="npy/npz error bf16 is not supported",
                    messagePattern="npy/npz error bf16 is not supported"),
    ]
    assert ranked(node_core, records, "npy bf16 not supported")[0] == "huggingface/candle"
    assert ranked(node_core, records, "ValueError: 'default' not supported")[0] == "prompt-toolkit/prompt_toolkit"


def test_a_result_says_which_words_decided_it(node_core):
    """Only the terms a result matched in its message, pattern, code or class
    decide it (what its card marks and its page highlights, issue 42): not a
    word it matched only in its tags or summary."""
    records = [make_record(errorMessage="ERR syntax error near token", messagePattern=None,
                           tags=["redis", "parser"], documentation="The parser saw a token it did not expect.")]
    decided = node_core.evaluate(
        "([index, docs, rules, q]) => new ErrorSearch(index, docs, {}, rules).search(q, 1)[0].decided.sort()",
        [build_index(records), [result_doc(r) for r in records], search_rules(len(records)),
         "syntax error near token in the parser"])
    assert decided == ["error", "near", "syntax", "token"]
