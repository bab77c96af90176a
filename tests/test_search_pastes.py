"""Ranking on real-shaped pastes, one test per cause of a miss (issue 11), on
small hand-made indexes run through the real search code under Node:
line breaks, exact patterns, context that names a repository, old wordings,
and tracebacks without their message."""
from __future__ import annotations

import re

import pytest

from errorsite.search import build_index, repo_names, result_doc, search_rules
from tests.search_node import node_core  # noqa: F401  (a fixture)
from tests.test_search_ranking import make_record


def ranked(node_core, records, query) -> list[str]:
    """Repos (or slugs, where a repo has two records) of the results, best first."""
    return node_core.evaluate(
        "([index, docs, names, rules, q]) => new ErrorSearch(index, docs, names, rules).search(q, 10)"
        ".map(r => r.doc[1] + ' ' + r.doc[2].split('/')[2])",
        [build_index(records), [result_doc(r) for r in records], repo_names(records), search_rules(len(records)),
         query])


def repos(node_core, records, query) -> list[str]:
    return [hit.split()[0] for hit in ranked(node_core, records, query)]


def record(repo, slug, message, pattern=None, doc="It fails.", **fields):
    return make_record(repo=repo, slug=slug, id=re.sub(r"[^\w-]", "-", f"{slug}-{repo}"), errorMessage=message,
                       messagePattern=pattern or message, documentation=doc, errorCode=None,
                       tags=fields.pop("tags", ["x"]), **fields)


# ---- 0. Line breaks -------------------------------------------------------------

def test_line_breaks_keep_the_words_of_each_line_apart(node_core):
    paste = ("thread 'main' panicked at src/main.rs:5:10:\nwaiting for example pathing\n"
             "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace")
    core = node_core.evaluate("t => ErrorSearch.analyse(t).core", paste)
    assert "pathing" in core and "pathingnote" not in core
    records = [record("a/paths", "p", "waiting for example pathing"),
               record("b/other", "o", "waiting for example notes", doc="Run with care.")]
    assert repos(node_core, records, paste)[0] == "a/paths"


# ---- 1. An exact pattern wins over records that merely share words ----------------

def test_exact_pattern_beats_a_record_whose_summary_has_more_words(node_core):
    records = [
        record("spf13/cobra", "exact-args", "accepts 1 arg(s), received 2", "accepts {n} arg(s), received {m}",
               doc="ExactArgs fails."),
        record("spf13/cobra", "minimum-args", "requires at least 1 arg(s), only received 0",
               "requires at least {n} arg(s), only received {m}",
               doc="MinimumNArgs fails when a command that accepts arguments received too few of them; "
                   "it accepts more."),
    ]
    assert ranked(node_core, records, "Error: accepts 1 arg(s), received 3")[0] == "spf13/cobra exact-args"
    llama = [
        record("ggerganov/llama.cpp", "not-found", "check_tensor_dims: tensor 'output.weight' not found",
               "check_tensor_dims: tensor '{name}' not found", doc="A tensor is missing."),
        record("ggerganov/llama.cpp", "wrong-shape",
               "check_tensor_dims: tensor 'output.weight' has wrong shape; expected 4096, got 4097",
               "check_tensor_dims: tensor '{name}' has wrong shape; expected {a}, got {b}",
               doc="The tensor check_tensor_dims looks for is not found with the shape the model weight "
                   "file declares for blk tensors such as ffn_down."),
    ]
    paste = "llama_model_load: error loading model: check_tensor_dims: tensor 'blk.0.ffn_down.weight' not found"
    assert ranked(node_core, llama, paste)[0] == "ggerganov/llama.cpp not-found"


def test_longest_pattern_first_and_short_patterns_still_guarded(node_core):
    records = [record("a/generic", "g", "syntax error"), record("redis/redis", "r", "ERR syntax error")]
    assert repos(node_core, records, "(error) ERR syntax error") == ["redis/redis", "a/generic"]


# ---- 2. Context that names the repository ------------------------------------------

SAME_MESSAGE = [  # one message in several repositories; only the paste's context tells them apart
    ("expressjs/express", "TypeError", "lib/response.js"),
    ("nodejs/undici", "InvalidArgumentError", "lib/core/errors.js"),
    ("psf/requests", "requests.exceptions.InvalidHeader", "src/requests/models.py"),
    ("pypa/pip", "pip._vendor.requests.exceptions.InvalidHeader", "src/pip/_vendor/requests/models.py"),
    ("huggingface/candle", "candle_core::Error::Msg", "candle-core/src/error.rs"),
    ("tokio-rs/axum", None, "axum-core/src/response.rs"),
    ("ggerganov/llama.cpp", None, "examples/server/server.cpp"),
    ("gin-gonic/gin", None, "render/render.go"),
    ("square/okhttp", "okhttp3.internal.http.StatusLine", "okhttp/src/StatusLine.kt"),
]
# A record whose summary and tags share words with every paste below, as a
# long summary does: only the names in a paste put the right record above it.
GREEDY = ("Raised when a response status is set outside 100-599: ServerResponse writeHead, the Response "
          "constructor, raise_for_status, models, render, StatusLine parse, the server and the error module, "
          "from main or from a JSON renderer.")
GREEDY_TAGS = ["express", "undici", "requests", "pip", "candle", "axum", "llama", "gin", "okhttp", "node-modules",
               "site-packages", "dist-packages", "cargo", "registry", "go", "java", "python", "rust", "crates"]


@pytest.fixture(scope="module")
def same_message():
    greedy = record("http-status/codes", "invalid-status-code", "invalid status code: 600",
                    "invalid status code: {code}", doc=GREEDY, tags=GREEDY_TAGS)
    return [greedy] + [record(repo, "invalid-status-code", "invalid status code: 600", "invalid status code: {code}",
                              errorClass=cls, filePath=path) for repo, cls, path in SAME_MESSAGE]


@pytest.mark.parametrize("paste, repo", [
    ("RangeError: invalid status code: 600\n    at ServerResponse.writeHead (node:_http_server:345:11)\n"
     "    at ServerResponse.status (/app/node_modules/express/lib/response.js:71:8)", "expressjs/express"),
    ("InvalidArgumentError: invalid status code: 600\n    at new Response (/app/node_modules/undici/lib/fetch.js:9:3)",
     "nodejs/undici"),
    ('  File "/usr/lib/python3/dist-packages/requests/models.py", line 9, in raise_for_status\n'
     "requests.exceptions.InvalidHeader: invalid status code: 600", "psf/requests"),
    ('  File "/venv/lib/python3.12/site-packages/pip/_vendor/requests/models.py", line 9, in check\n'
     "pip._vendor.requests.exceptions.InvalidHeader: invalid status code: 600", "pypa/pip"),
    ("Error: invalid status code: 600\n   0: candle_core::error::Error::bt\n   1: myapp::main", "huggingface/candle"),
    ("thread 'main' panicked at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/axum-core-0.4.3/"
     "src/response.rs:9:5:\ninvalid status code: 600", "tokio-rs/axum"),
    ("llama-server: invalid status code: 600", "ggerganov/llama.cpp"),
    ("panic: invalid status code: 600\n\ngoroutine 1 [running]:\ngithub.com/gin-gonic/gin/render.(*JSON).Render()\n"
     "\t/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/render/render.go:9 +0x1d", "gin-gonic/gin"),
    ("java.lang.IllegalArgumentException: invalid status code: 600\n"
     "\tat okhttp3.internal.http.StatusLine.parse(StatusLine.kt:9)", "square/okhttp"),
], ids=["npm", "npm-undici", "dist-packages", "pip-vendored", "rust-path", "cargo-registry", "program", "go-module",
        "java-package"])
def test_context_names_the_repository(node_core, same_message, paste, repo):
    named = node_core.evaluate(
        "([index, docs, names, rules, q]) => new ErrorSearch(index, docs, names, rules).namedRepos(q)",
        [build_index(same_message), [result_doc(r) for r in same_message], repo_names(same_message),
         search_rules(len(same_message)), paste])
    assert named[repo] == 2 and "http-status/codes" not in named, named  # 2: named as a package, not a word
    order = repos(node_core, same_message, paste)
    assert order[0] == repo
    assert len(order) == len(SAME_MESSAGE) + 1  # the other repositories' records are reordered, never removed


def test_context_can_beat_a_slightly_longer_pattern_but_not_the_message(node_core):
    records = [record("isaacs/node-glob", "index", "index out of range"),
               record("redis/redis", "err-index", "ERR index out of range", tags=["redis"])]
    # A client that strips the server's `ERR ` still names redis: the same text, found in redis's record.
    assert repos(node_core, records, "redis.exceptions.ResponseError: index out of range")[0] == "redis/redis"
    assert repos(node_core, records, "index out of range")[0] == "isaacs/node-glob"
    # Context reorders only records that match the message comparably.
    others = [record("redis/redis", "wrongtype", "WRONGTYPE Operation against a key holding the wrong kind of value"),
              record("python/cpython", "closed", "I/O operation on closed file")]
    assert repos(node_core, others, "redis.exceptions.ResponseError: I/O operation on closed file")[0] == \
        "python/cpython"


# ---- 3. Old wordings, dropped prefixes, typos ------------------------------------------

def test_old_wording_and_dropped_prefix_match_below_exact(node_core):
    paste = ("requests.exceptions.MissingSchema: Invalid URL 'example.com/a': No schema supplied. "
             "Perhaps you meant http://example.com/a?")
    records = [
        record("psf/requests", "no-scheme", "Invalid URL 'x': No scheme supplied. Perhaps you meant https://x?",
               "Invalid URL {url!r}: No scheme supplied. Perhaps you meant https://{url}?"),
        # a short pattern found exactly, whose summary has every word of the paste
        record("other/urls", "schema", "No schema supplied", doc=paste),
    ]
    assert repos(node_core, records, paste)[0] == "psf/requests"  # today's "scheme" for yesterday's "schema"
    records = [
        record("redis/redis", "wrongtype", "WRONGTYPE Operation against a key holding the wrong kind of value"),
        record("other/kv", "kind", "the wrong kind of value", doc="Operation against a key holding it."),
    ]
    paste = "redis.exceptions.ResponseError: Operation against a key holding the wrong kind of value"
    assert repos(node_core, records, paste)[0] == "redis/redis"  # the client dropped `WRONGTYPE `
    # The same text found whole ranks above the same text with a prefix dropped,
    # unless the paste names the repository (see test_context_can_beat_…).
    exact = records + [record("other/exact", "exact", "Operation against a key holding the wrong kind of value")]
    assert repos(node_core, exact, "ResponseError: Operation against a key holding the wrong kind of value")[0] \
        == "other/exact"


def test_long_pastes_forgive_typos_in_their_message_lines(node_core):
    records = [record("a/tensors", "t", "dimension mismatch between tensor layouts"),
               record("b/layouts", "l", "mismatch between tensor layouts")]
    paste = ('Traceback (most recent call last):\n  File "/srv/app/run.py", line 3, in <module>\n    main()\n'
             "RuntimeError: dimenson mismatch between tensor layouts")
    assert repos(node_core, records, paste)[0] == "a/tensors"


# ---- 4. Frames without the message --------------------------------------------------

def test_frames_alone_rank_the_named_librarys_records_first(node_core):
    records = [
        record("psf/requests", "missing-schema", "Invalid URL 'x': No scheme supplied",
               "Invalid URL {url}: No scheme supplied", errorClass="requests.exceptions.MissingSchema",
               filePath="src/requests/models.py"),
        record("other/http", "prepare", "cannot prepare request url with params",
               doc="Raised by prepare_request and prepare_url when params cannot be encoded.", filePath="http.py"),
    ]
    paste = ('Traceback (most recent call last):\n  File "/app/main.py", line 3, in <module>\n'
             "    requests.get(url, params=params)\n"
             '  File "/usr/lib/python3/site-packages/requests/sessions.py", line 575, in request\n'
             "    prep = self.prepare_request(req)\n"
             '  File "/usr/lib/python3/site-packages/requests/models.py", line 439, in prepare_url\n'
             "    self.prepare_url(url, params)")
    assert repos(node_core, records, paste) == ["psf/requests", "other/http"]
