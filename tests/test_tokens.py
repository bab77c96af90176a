"""The tokenizer: unit cases, and proof that Python (index time) and the
browser (query time) cut every real message and query into the same tokens."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from errorsite.tokens import pattern_words, tokenize
from tests.conftest import QUERIES, SHARED_RECORDS, need_shared


@pytest.mark.parametrize("text, tokens", [
    ("kv_cache_enabled=true is not supported",
     ["kv_cache_enabled=true", "kv", "cache", "enabled", "true", "supported"]),
    ("called `Result::unwrap()` on an `Err` value",
     ["called", "result::unwrap", "result", "unwrap", "err", "value"]),
    ("path must be a string to res.sendFile", ["path", "string", "res.sendfile", "res", "sendfile"]),
    ("[json.exception.parse_error.101] parse error",
     ["json.exception.parse_error.101", "json", "exception", "parse", "error", "parse", "error"]),
    ("unknown op-code 149", ["unknown", "op-code", "op", "code"]),       # numbers are values, not words
    ("input rank of 3 a b", ["input", "rank"]),                          # stop words and 1-letter parts go
    ("Ärger über 日本語", ["ärger", "über", "日本語"]),
    ("2026/11/28 10:14:03", []),                                        # no letter: nothing to match
    ("", []),
])
def test_tokenize(text, tokens):
    assert tokenize(text) == tokens


def test_pattern_words_blanks_placeholders():
    assert tokenize(pattern_words("accepts at most {n} arg(s), received {count}")) == \
        ["accepts", "arg", "received"]


def shared_texts() -> list[str]:
    need_shared()
    texts = []
    for path in sorted(SHARED_RECORDS.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))["record"]
        texts += [record["errorMessage"], record["messagePattern"], record.get("errorClass") or "",
                  record.get("errorCode") or "", " ".join(record["tags"]), record["repo"]]
    texts += [query["query"] for query in json.loads(QUERIES.read_text(encoding="utf-8"))]
    texts += ["Ünïcödé ΣΊΣΥΦΟΣ İstanbul ǅemal ﬁle", "a+b ~c ^d *e", "</script><b>x</b>", "١٢٣ arabic-indic ٣x"]
    return texts


@pytest.mark.browser
def test_python_and_browser_tokenizers_agree(search_core):
    texts = shared_texts()
    in_browser = search_core.evaluate("texts => texts.map(t => ErrorSearch.tokenize(t))", texts)
    mismatches = [(text, tokenize(text), js) for text, js in zip(texts, in_browser) if tokenize(text) != js]
    assert not mismatches, mismatches[:5]



@given(st.text(alphabet=st.sampled_from("aZé1²Ⅻ_.:=/- \u0301\u00bd\u0660\t"), max_size=30) | st.text(max_size=30))
def test_tokenize_shortcut_keeps_what_the_rules_keep(text):
    """A one-part chunk is kept without chunk_tokens: the same tokens as every chunk through it."""
    from errorsite.tokens import _CHUNK, chunk_tokens
    assert tokenize(text) == [token for chunk in _CHUNK.findall(text.lower()) for token in chunk_tokens(chunk)]
