"""Rules that exist on both sides of the search, run on the same inputs, with
the browser's modules under Node (the fast loop): the tokenizer (Python
tokenizes the index, the browser the query), the stemmer (Python stems the
index, lunr.js the query), the names a repository goes by (Python builds
names.json, the browser reads names from a paste), a pattern's literal text
(Python indexes it, the browser matches it) and the vocabulary files' key
hashing (Python writes them, the browser picks one)."""
from __future__ import annotations

import json
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from errorsite.search import repo_names, search_rules
from errorsite.search.buckets import fnv1a, units
from errorsite.search.index import stem
from errorsite.search.names import class_names, name_aliases, name_key, path_names
from errorsite.tokens import pattern_words, tokenize
from tests.conftest import QUERIES, REAL_QUERIES, SHARED_RECORDS, need_shared
from tests.search_node import node_core  # noqa: F401  (a fixture)
from tests.test_tokens import shared_texts


def shared_records() -> list[dict]:
    need_shared()
    return [json.loads(path.read_text(encoding="utf-8"))["record"] for path in sorted(SHARED_RECORDS.glob("*.json"))]


TRICKY = ["Ünïcödé ΣΊΣΥΦΟΣ İstanbul ǅemal ﬁle", "a+b ~c ^d *e", "</script><b>x</b>", "١٢٣ arabic-indic ٣x",
          "x" * 64 + "_y", "x" * 65, "_a_ .b. ::c:: =d= /e/ -f-", "𝐀𝐁𝐂 𝟏𝟐 a𝐀_b", "ⅷ ² ½ x²",
          "ｆｕｌｌ ｗｉｄｔｈ", "𖠀 𖠀𖠀 ⅷⅷ ²² ½½ 〇〇 ⅫⅫ ½_½ ⅷ.x", "𝐀" * 33, "𝐀" * 32 + "_b",
          "kv_cache_enabled=true", "", " ", "\u00a0\u2028\u3000 word", "İ", "ß ẞ ŉ", "a\u0301b c\u0308",
          "-2146893019", "error -2146893019 (0x80090325)", "-x --y"]


def mismatched_tokens(node_core, texts: list[str]) -> list:
    in_node = node_core.evaluate("texts => texts.map(t => ErrorSearch.tokenize(t))", texts)
    return [(text, tokenize(text), js) for text, js in zip(texts, in_node) if tokenize(text) != js]


def test_python_and_browser_tokenizers_agree(node_core):
    texts = shared_texts() + TRICKY
    texts += [query["query"] for query in json.loads(REAL_QUERIES.read_text(encoding="utf-8"))]
    mismatches = mismatched_tokens(node_core, texts)
    assert not mismatches, mismatches[:5]


# Characters this Python's Unicode database knows: a browser with a newer one
# tokenizes letters assigned since, which Python's index cannot have.
KNOWN = st.characters(codec="utf-8").filter(lambda c: unicodedata.category(c) != "Cn")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=KNOWN | st.sampled_from(list("_.:=/-{} ")), max_size=80), min_size=1, max_size=20))
def test_python_and_browser_tokenize_any_text_alike(node_core, texts):
    assert not mismatched_tokens(node_core, texts)


def test_python_and_browser_stem_every_word_alike(node_core):
    words = {"key", "keys", "array", "npy", "sky", "try", "trying", "play", "replaying", "by", "yy", "ay", "oy",
             "mypy", "stray", "dtype", "supported", "generalization", "ponies", "caresses", "fromkeys"}
    for record in shared_records():
        for field in ("errorMessage", "messagePattern", "errorClass", "filePath", "documentation", "repo"):
            words.update(tokenize(record.get(field) or ""))
    for path in (QUERIES, REAL_QUERIES):
        for query in json.loads(path.read_text(encoding="utf-8")):
            words.update(tokenize(query["query"]))
    words = sorted(words)
    in_node = node_core.evaluate("ws => ws.map(w => lunr.stemmer(new lunr.Token(w)).toString())", words)
    mismatches = [(word, stem(word), js) for word, js in zip(words, in_node) if stem(word) != js]
    assert not mismatches, mismatches[:10]


NAMES = ["llama.cpp", "markdown-it-py", "node-glob", "@babel/core", "_pytest", "python-dateutil", "go-redis",
         "redis-cli", "redis_server", "candle-core", "candle_core", "Lib", "errors", "", "---", "Ünïcödé-py",
         "x_core", "a.b.c", "lunr.py", "socket.io", "typing_extensions", "node_redis", "py_", "a_py", "LLAMA Server"]


def test_python_and_browser_normalise_names_alike(node_core):
    names = list(NAMES)
    for record in shared_records():
        owner, _, repo = record["repo"].partition("/")
        names += [owner, repo, *class_names(record.get("errorClass") or ""), *path_names(record.get("filePath") or "")]
    in_node = node_core.evaluate(
        "([ns, rules]) => ns.map(n => [ErrorSearchContext.nameKey(n), ErrorSearchContext.nameAliases(n, rules.names)])",
        [names, search_rules(len(names))])
    mismatches = [(name, [name_key(name), name_aliases(name)], js) for name, js in zip(names, in_node)
                  if [name_key(name), name_aliases(name)] != js]
    assert not mismatches, mismatches[:10]


def test_names_built_in_python_are_found_in_pastes_by_the_browser(node_core):
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
            # On Windows, as printed and as escaped in a string.
            pastes.append((f'  File "C:\\venv\\Lib\\site-packages\\{package}\\x.py", line 1, in f', record.repo))
            pastes.append((f"'C:\\\\venv\\\\Lib\\\\site-packages\\\\{package}\\\\x.py'", record.repo))
    assert len(pastes) > 10
    named = node_core.evaluate(
        "([names, rules, pastes]) => pastes.map(p => new ErrorSearch({version: '2.3.9', fields: [], fieldVectors: [], "
        "invertedIndex: [], pipeline: ['stemmer']}, [], names, rules).namedRepos(p))",
        [repo_names(records), search_rules(len(records)), [paste for paste, _ in pastes]])
    missed = [(paste, repo, found) for (paste, repo), found in zip(pastes, named) if found.get(repo) != 2]
    assert not missed, missed[:5]


PATTERNS = ["accepts at most {n} arg(s), received {count}", "{a}{b}", "{ spaced } text", "x {a\u00a0b} y",
            "{x\u2028y} z", "{" + "n" * 41 + "} long", "{}", "no placeholder", "{{double}}"]


def test_python_and_browser_blank_the_same_placeholders(node_core):
    patterns = PATTERNS + [record["messagePattern"] for record in shared_records() if record.get("messagePattern")]
    in_node = node_core.evaluate("ps => ps.map(p => ErrorSearch.tokenize(ErrorSearchMatch.literalText(p)))", patterns)
    mismatches = [(p, tokenize(pattern_words(p)), js) for p, js in zip(patterns, in_node)
                  if tokenize(pattern_words(p)) != js]
    assert not mismatches, mismatches[:5]


def test_python_and_browser_hash_vocabulary_keys_alike(node_core):
    keys = ["=", "<co", ">on", "<ün", ">ö€", "<\U0001F600", ">\U0001F600x"]
    in_node = node_core.evaluate("ks => ks.map(k => ErrorSearchData.fnv1a(k))", keys)
    assert in_node == [fnv1a(tuple(units(key))) for key in keys]


# Terms where UTF-8 and UTF-16 disagree: a BMP character above the surrogates
# (U+E000-U+FFFF) sorts after an astral one in UTF-8 and before it in UTF-16,
# which is how JavaScript compares strings and how the browser bisects the
# vocabulary and the chunks (buckets.js_order).
ORDER_TERMS = ["a", "z", "é", "ǅ", "名前", "ｅｒｒｏｒ", "\uff01", "\ue000x", "\U0001f600", "\U00010348x",
               "a\U0001f600", "a\uffff", "a\ud7ff", "ab", "Zz", "~", "\u0080"]


def test_js_order_sorts_terms_as_javascript_does(node_core):
    from errorsite.search.buckets import js_order
    in_node = node_core.evaluate("terms => terms.slice().sort()", ORDER_TERMS)
    assert sorted(ORDER_TERMS, key=js_order) == in_node
    assert sorted(ORDER_TERMS, key=lambda t: t.encode()) != in_node  # the terms do tell the two orders apart
