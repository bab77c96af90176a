"""Exact codes win, and the engine says whether its first result is a match
(`results.match`: exact, likely or none), on small hand-made indexes run
through the real search code under Node. The figures on every real paste are
bench/quality.py's (tests/test_search_suite.py)."""
from __future__ import annotations

import pytest

from errorsite.search import build_index, repo_names, result_doc, search_rules
from errorsite.tokens import code_terms
from tests.search_node import node_core  # noqa: F401  (a fixture)
from tests.test_search_pastes import record
from tests.test_search_ranking import make_record


def coded_record(repo, slug, message, code):
    return make_record(repo=repo, slug=slug, id=f"{slug}-{repo.replace('/', '-')}", errorMessage=message,
                       messagePattern=message, documentation="It fails.", errorCode=code, tags=["x"])


def search(node_core, records, query) -> dict:
    """{hits: [repo slug], match} from the real search code."""
    return node_core.evaluate(
        "([index, docs, names, rules, q]) => { const r = new ErrorSearch(index, docs, names, rules).search(q, 10);"
        " return {hits: r.map(x => x.doc[1] + ' ' + x.doc[2].split('/')[2]), match: r.match}; }",
        [build_index(records), [result_doc(r) for r in records], repo_names(records), search_rules(len(records)),
         query])


def nlohmann(n: int, message: str):
    return coded_record("nlohmann/json", f"parse-error-{n}", message, f"json.exception.parse_error.{n}")


def test_a_code_is_searched_whole_and_by_its_dotted_tails():
    assert code_terms("json.exception.parse_error.108") == [
        "json.exception.parse_error.108", "exception.parse_error.108", "parse_error.108"]
    assert code_terms("E0308") == ["e0308"]
    assert code_terms("ERR") == ["err"]
    assert code_terms("0x80070005") == ["0x80070005"]


@pytest.fixture(scope="module")
def coded():
    return [
        nlohmann(101, "parse error at line 1, column 1: syntax error while parsing value - unexpected end of input"),
        nlohmann(104, "parse error: JSON patch must be an array of objects"),
        nlohmann(108, "parse error: escape character '~' must be followed with '0' or '1'"),
        coded_record("rust-lang/rust", "mismatched-types", "mismatched types", "E0308"),
        coded_record("rust-lang/rust", "borrowed-value", "borrowed value does not live long enough", "E0597"),
        coded_record("microsoft/winget-cli", "access-denied", "Access is denied.", "0x80070005"),
        coded_record("redis/redis", "err-syntax", "ERR syntax error", "ERR"),
        record("other/parser", "parse-error", "parse error: unexpected token at line 1"),
    ]


@pytest.mark.parametrize("query, first", [
    ("json.exception.parse_error.108", "nlohmann/json parse-error-108"),
    ("parse_error.108", "nlohmann/json parse-error-108"),
    ("[json.exception.parse_error.108] parse error: escape character '~' must be followed with '0' or '1'",
     "nlohmann/json parse-error-108"),
    ("what is json.exception.parse_error.104", "nlohmann/json parse-error-104"),
    ("E0308", "rust-lang/rust mismatched-types"),
    ("error[E0308]: mismatched types\n --> src/main.rs:4:18", "rust-lang/rust mismatched-types"),
    ("0x80070005", "microsoft/winget-cli access-denied"),
    ("Installer failed with exit code: -2147024891", "microsoft/winget-cli access-denied"),
    ("HRESULT 2147942405", "microsoft/winget-cli access-denied"),
])
def test_an_exact_code_puts_its_record_first_and_is_a_match(node_core, coded, query, first):
    found = search(node_core, coded, query)
    assert found["hits"][0] == first, found
    assert found["match"] == "exact", found


@pytest.mark.parametrize("query", [
    "-2146893019",
    "error -2146893019",
    "Installer failed with exit code: -2146893019",
    "0x80090325",
    "2148074277",
])
def test_a_windows_code_as_tools_print_it_finds_its_record(node_core, coded, query):
    """An HRESULT printed in decimal keeps its sign (0x80090325 is
    -2146893019): the `-` is part of the number, not an operator that
    leaves the code out, and the code decides, whatever words surround it."""
    schannel = coded_record("microsoft/winget-cli", "bad-message",
                            "The message received was unexpected or badly formatted.", "0x80090325")
    found = search(node_core, [*coded, schannel], query)
    assert (found["hits"][0], found["match"]) == ("microsoft/winget-cli bad-message", "exact"), found


def test_a_code_of_letters_alone_is_only_a_word(node_core, coded):
    """`ERR` is in many log lines: a paste holding it is not redis' error."""
    found = search(node_core, coded, "npm ERR! parse error: unexpected token at line 1")
    assert found["hits"][0] == "other/parser parse-error", found


def test_a_prefix_or_a_typo_is_never_a_code(node_core, coded):
    """A typed query's last word is also a prefix: `parse_err` expands to
    `parse_error.108` without holding it."""
    found = search(node_core, coded, "escape character parse_err")
    assert found["hits"][0] == "nlohmann/json parse-error-108"
    assert search(node_core, coded, "unexpected token parse_er")["hits"][0] == "other/parser parse-error"


@pytest.fixture(scope="module")
def judged():
    return [
        record("psf/requests", "missing-schema", "Invalid URL 'x': No scheme supplied. Perhaps you meant https://x?",
               "Invalid URL {url!r}: No scheme supplied. Perhaps you meant https://{url}?", tags=["python"]),
        record("pallets/flask", "no-app", "Could not locate a Flask application.",
               "Could not locate a Flask application. Use the 'flask --app' option."),
        record("python/cpython", "timed-out", "timed out"),
        record("serde-rs/json", "eof", "EOF while parsing a value at line 1 column 0",
               "EOF while parsing a value at line {line} column {column}"),
    ]


@pytest.mark.parametrize("query, first, match", [
    ("requests.exceptions.MissingSchema: Invalid URL 'abc': No scheme supplied. Perhaps you meant https://abc?",
     "psf/requests missing-schema", "exact"),
    # An older wording, within a few edits, where the paste names the repository.
    ("File \"/usr/lib/python3/site-packages/requests/models.py\", line 366\n"
     "requests.exceptions.MissingSchema: Invalid URL 'abc': No schema supplied. Perhaps you meant http://abc?",
     "psf/requests missing-schema", "likely"),
    # A typed query whose every word is in the message.
    ("eof parsing value", "serde-rs/json eof", "likely"),
])
def test_a_paste_holding_the_message_is_a_match(node_core, judged, query, first, match):
    found = search(node_core, judged, query)
    assert (found["hits"][0], found["match"]) == (first, match), found


@pytest.mark.parametrize("query", [
    # Only a common phrase of another error: "timed out" says nothing of which.
    "pool timed out while waiting for an open connection",
    # Words the index has, none of the messages.
    "ModuleNotFoundError: No module named 'yaml'",
    "Segmentation fault (core dumped) while parsing the flask configuration",
])
def test_an_error_the_index_lacks_is_no_match(node_core, judged, query):
    found = search(node_core, judged, query)
    assert found["match"] == "none", found


def test_an_error_raised_in_another_runtime_is_no_match(node_core):
    """The same words, raised by a Python library, are not the error of a
    Node stack; a C program's message may come out of any language's."""
    records = [record("ray-project/ray", "request-failed", "Request failed with status code 500: eggs.",
                      "Request failed with status code {status}: {text}.", filePath="ray/dashboard/sdk.py"),
               record("redis/redis", "wrongpass", "WRONGPASS invalid username-password pair",
                      filePath="src/acl.c")]
    node = ("Error: Request failed with status code 404: Not Found.\n"
            "    at createError (/app/node_modules/axios/lib/core/createError.js:16:15)")
    python = ('  File "/app/main.py", line 3, in <module>\n    fetch()\n'
              "RuntimeError: Request failed with status code 404: Not Found.")
    found = search(node_core, records, node)
    assert (found["hits"][0], found["match"]) == ("ray-project/ray request-failed", "none")
    assert search(node_core, records, python)["match"] == "exact"
    # A log line's file:line is not a frame.
    assert search(node_core, records, "server.js:12 Request failed with status code 404: Not Found.")["match"] \
        == "exact"
    relayed = ('  File "/app/main.py", line 3, in <module>\n    r.get("x")\n'
               "redis.exceptions.AuthenticationError: WRONGPASS invalid username-password pair")
    assert search(node_core, records, relayed)["match"] == "exact"
    python_file = '  File "/app/main.py", line 3, in <module>\n    r.get("x")\n'
    assert search(node_core, records, python_file.replace("main.py", "main.ts").replace('", line 3', ":3:1")
                  + "Error: Request failed with status code 404: Not Found.")["match"] == "none"


def test_no_result_is_no_match(node_core, judged):
    assert search(node_core, judged, "zzzqqq") == {"hits": [], "match": "none"}


@pytest.fixture(scope="module")
def short_messages():
    return [
        record("git/git", "rpc-failed", "RPC failed; curl 56", "RPC failed; {error}"),
        record("go-gorm/gorm", "record-not-found", "record not found"),
        record("serde-rs/serde", "missing-field", "missing field `name`", "missing field `{field}`"),
        record("pypa/pip", "error-decoding", "error decoding x: y", "error decoding {path}: {error}"),
        record("ray-project/ray", "could-not-import", "Could not import x", "Could not import {name}"),
    ]


@pytest.mark.parametrize("query, first, match", [
    ("error: RPC failed; curl 18 transfer closed with outstanding read data remaining", "git/git rpc-failed", "likely"),
    ("2026/09/01 05:56:12 github.com/o/store/enrollment.go:198 record not found\n[0.290ms] [rows:0] SELECT * FROM x",
     "go-gorm/gorm record-not-found", "likely"),
    # serde_json's error as `{:?}` prints it is read as its message line: the whole of that line.
    ("thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: "
     "Error(\"missing field `name`\", line: 0, column: 0)', src/main.rs:4:5", "serde-rs/serde missing-field", "exact"),
])
def test_a_short_message_standing_alone_is_a_match(node_core, short_messages, query, first, match):
    """A pattern too short to be exact alone is a match where it stands as a
    message of its own: after `error: `, a location or a quote, nothing of
    another sentence around it."""
    found = search(node_core, short_messages, query)
    assert (found["hits"][0], found["match"]) == (first, match), found


@pytest.mark.parametrize("query", [
    # Words inside another message: a letter before, or after.
    "the server said that the record not found in the cache was stale, and it retried the request later",
    "fatal: unable to access the remote: the RPC failed; curl 56 Recv failure",
    # A placeholder between its words holding two of another message's.
    "Error: error decoding response body: expected value at line 1 column 1",
    # A phrase its placeholder completes, not a statement: uvicorn's message, not ray's.
    'ERROR: Error loading ASGI app. Could not import module "app.main".',
])
def test_a_short_message_inside_another_is_no_match(node_core, short_messages, query):
    found = search(node_core, short_messages, query)
    assert found["match"] == "none", found


def test_a_first_sentence_found_whole_is_a_match(node_core):
    """A long message's first sentence, found whole without the help text
    after it (a title, a log line cut short), is as telling as a pattern."""
    records = [record("celery/celery", "unregistered", "Received unregistered task of type 'x'.",
                      "Received unregistered task of type {name!r}.\nThe message has been ignored and discarded.\n\n"
                      "Did you remember to import the module containing this task?\nOr maybe you're using relative imports?\n"
                      "Please see https://docs.celeryq.dev for more information. The full contents of the message body "
                      "was: {body} (length {size} bytes)")]
    found = search(node_core, records, "django celery Received unregistered task of type 'demoapp.tasks.add'.")
    assert (found["hits"][0], found["match"]) == ("celery/celery unregistered", "likely"), found


def test_a_long_pattern_within_a_few_edits_with_all_its_words_is_a_match(node_core):
    """Another release's wording (quotes escaped in JSON), every word of the
    message there: typeorm's error inside a JSON log line."""
    records = [record("typeorm/typeorm", "no-metadata", 'No metadata for "User" was found.',
                      'No metadata for "{target}" was found.')]
    found = search(node_core, records, '{"code":"500","message":"No metadata for \\"User\\" was found.","data":null}')
    assert (found["hits"][0], found["match"]) == ("typeorm/typeorm no-metadata", "likely"), found


def test_a_typed_query_with_a_typo_in_every_word_of_the_message_is_a_match(node_core):
    """Typed from memory: each word in the message, one of them misspelt."""
    records = [record("spf13/cobra", "accepts-at-most", "accepts at most 1 arg(s), received 2",
                      "accepts at most {n} arg(s), received {got}"),
               record("other/cli", "unknown-flag", "unknown flag: --x", "unknown flag: {flag}")]
    found = search(node_core, records, "accepts at most arg(s) recieved")
    assert (found["hits"][0], found["match"]) == ("spf13/cobra accepts-at-most", "likely"), found


@pytest.mark.parametrize("query", [
    "GroupNorm rank at laest 3",             # a slip of a stop word (`least`), which the index cannot correct
    "candle groupnorm rank",                  # the repository's name
    "groupnorm.rs input_rank",                # the file's name; a compound whose parts are in the message
])
def test_a_typed_query_whose_words_are_the_messages_or_name_where_it_is_raised_is_a_match(node_core, query):
    records = [record("huggingface/candle", "groupnorm", "input rank for groupnorm should be at least 3",
                      "input rank for groupnorm should be at least 3", filePath="candle-nn/src/groupnorm.rs"),
               record("other/norm", "rank", "rank must be positive", filePath="src/rank.py")]
    found = search(node_core, records, query)
    assert (found["hits"][0], found["match"]) == ("huggingface/candle groupnorm", "likely"), found


@pytest.mark.parametrize("query", [
    "jest groupnorm rank",                    # `jest` is a word, not a slip of `just`
    "no-groupnorm rank",                      # a compound of one part and a stop word says no more than its part
])
def test_a_typed_word_the_record_does_not_have_is_no_match(node_core, query):
    records = [record("huggingface/candle", "groupnorm", "input rank for groupnorm should be at least 3",
                      "input rank for groupnorm should be at least 3", filePath="candle-nn/src/groupnorm.rs")]
    assert search(node_core, records, query)["match"] == "none"


def test_only_a_slip_of_a_stop_word_is_one(node_core):
    words = ["laest", "shoudl", "becuase", "jest", "teh", "rank", "least", "groupnorm"]
    assert node_core.evaluate("ws => ws.map(ErrorSearchTokens.nearStopWord)", words) == [
        True, True, True, False, False, False, False, False]


@pytest.fixture(scope="module")
def classed():
    return [record("guzzle/guzzle", "client-error", "Client error: `GET /x` resulted in a `404 Not Found` response",
                   "Client error: `{method} {uri}` resulted in a `{code} {reason}` response",
                   errorClass="GuzzleHttp\\Exception\\ClientException", filePath="src/Exception/RequestException.php"),
            record("other/http", "client", "client request failed", errorClass="http.ClientError", filePath="http/client.py"),
            record("a/one", "invalid", "sequence contains no elements", errorClass="System.InvalidOperationException"),
            record("b/two", "invalid", "collection was modified", errorClass="System.InvalidOperationException"),
            record("c/three", "invalid", "the connection is closed", errorClass="System.InvalidOperationException")]


def test_an_error_class_named_with_its_library_is_a_match(node_core, classed):
    """Guzzle's class, with its namespace: the class is the error, as a code is."""
    found = search(node_core, classed, "Fatal error: Uncaught GuzzleHttp\\Exception\\ClientException")
    assert (found["hits"][0], found["match"]) == ("guzzle/guzzle client-error", "likely"), found


@pytest.mark.parametrize("query", [
    "Uncaught ClientException",                                   # its library not named
    "System.InvalidOperationException: the operation failed",     # a class many records raise
])
def test_an_error_class_alone_or_shared_is_no_match(node_core, classed, query):
    assert search(node_core, classed, query)["match"] == "none"


def test_serde_jsons_error_as_rust_prints_it_is_its_message(node_core):
    """`{:?}` of serde_json's error, in an `unwrap()` panic, is the message its
    Display prints; and the position it adds after a message leaves the
    message standing alone."""
    records = [record("serde-rs/json", "expected-value", "expected value at line 1 column 1",
                      "expected value at line {line} column {column}"),
               record("serde-rs/serde", "missing-field", "missing field `name`", "missing field `{field}`"),
               record("other/parser", "value", "expected a value here")]
    found = search(node_core, records, "thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: "
                                       "Error(\"expected value\", line: 1, column: 1)', src/main.rs:4:5")
    assert (found["hits"][0], found["match"]) == ("serde-rs/json expected-value", "exact"), found
    found = search(node_core, records, "Serde json error: missing field `message` at line 1 column 34513")
    assert (found["hits"][0], found["match"]) == ("serde-rs/serde missing-field", "likely"), found


def test_a_paste_naming_the_repository_with_every_word_of_its_message_is_a_match(node_core):
    """curl's own prompt and every word of its message: its error, even when
    a wrapper's record, with every word of the paste, keeps its pattern from
    being tried."""
    records = [record("curl/curl", "ssl-certificate-problem", "SSL certificate problem: unable to get local issuer certificate",
                      "SSL certificate problem: {verify_error}", filePath="lib/vtls/openssl.c"),
               record("guzzle/guzzle", "curl-error-60", "cURL error 60: SSL certificate problem: unable to get local "
                      "issuer certificate", filePath="src/Handler/CurlFactory.php")]
    found = search(node_core, records, "curl: (60) SSL certificate problem: unable to get local issuer certificate")
    assert (found["hits"][0], found["match"]) == ("curl/curl ssl-certificate-problem", "likely"), found


def test_a_pattern_found_without_the_quotes_around_its_values_ranks_first(node_core):
    """A title drops the quotes a message puts around its values: pytest's
    `fixture '{argname}' not found` in `Fixture mocker not found` says more
    than a short `{key} not found` found whole."""
    records = [record("pytest-dev/pytest", "fixture-not-found", "fixture 'mocker' not found",
                      "fixture '{argname}' not found\n available fixtures: {available}\n"
                      " use 'pytest --fixtures [testpath]' for help on them."),
               record("dask/dask", "key-not-found", "'x' not found", "{key} not found")]
    found = search(node_core, records, "Bug: Fixture mocker not found")
    assert found["hits"][0] == "pytest-dev/pytest fixture-not-found", found


def test_a_paste_starting_past_the_messages_start_finds_its_last_sentence(node_core):
    """A copy that began inside a long message: numpy's last sentence, then
    the traceback, is as telling as its first sentence would be."""
    records = [record("numpy/numpy", "compiled-using-numpy-1", "A module that was compiled using NumPy 1.x cannot be run in",
                      "A module that was compiled using NumPy 1.x cannot be run in\nNumPy {short_version} as it may "
                      "crash. To support both 1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0.\n\n"
                      "We expect that some modules will need time to support NumPy 2."),
               record("pypa/pip", "cannot-depend", "Packages installed from PyPI cannot depend on packages which are "
                      "not also hosted on PyPI.", "Packages installed from PyPI cannot depend on packages which are not "
                      "also hosted on PyPI. {name} depends on {req}"),
               record("pydata/numexpr", "interpreter-import", "cannot import MAX_THREADS from numexpr.interpreter",
                      "cannot import {name} from numexpr.interpreter in {module}")]
    paste = ("We expect that some modules will need time to support NumPy 2.\n\nTraceback (most recent call last):\n"
             '  File "/x/site-packages/numexpr/__init__.py", line 24, in <module>\n    from numexpr.interpreter import '
             "MAX_THREADS\nImportError: ")
    found = search(node_core, records, paste)
    assert (found["hits"][0], found["match"]) == ("numpy/numpy compiled-using-numpy-1", "likely"), found


def search_common(node_core, paste, *extra) -> dict:
    """search() where `error`, `invalid` and `argument` are common words, as
    they are among thousands of records."""
    common = [record(f"other/tool{i}", f"invalid-argument-{i}", f"error: invalid argument {i}",
                     f"error: invalid argument for option number {i}") for i in range(4)]
    records = [record("ggml-org/llama.cpp", "error-invalid-argument", "error: invalid argument: -x",
                      "error: invalid argument: {arg}", filePath="common/arg.cpp"),
               record("ggml-org/llama.cpp", "failed-to-open-gguf", "failed to open GGUF file 'x.gguf'",
                      "failed to open GGUF file '{fname}' on port", filePath="ggml/src/gguf.cpp"),
               *common, *extra]
    rules = {**search_rules(len(records)), "commonAbove": 3}
    return node_core.evaluate(
        "([index, docs, names, rules, q]) => { const r = new ErrorSearch(index, docs, names, rules).search(q, 10);"
        " return {hits: r.map(x => x.doc[1] + ' ' + x.doc[2].split('/')[2]), match: r.match}; }",
        [build_index(records), [result_doc(r) for r in records], repo_names(records), rules, paste])


LLAMA_SERVER = ("❯ llama-server \\\n    -hf ggml-org/Qwen2.5-Coder-7B-Q8_0-GGUF \\\n    --port 8012 -ngl 99 \\\n"
                "    --ctx-size 0 --cache-reuse 256\nerror: invalid argument: -hf")


def test_a_message_line_of_common_words_alone_is_still_weighed(node_core):
    """`error: invalid argument: -hf` after a long command line: every word
    of the message is common, so a query would leave them out for the
    command's rarer words, and the record saying it would never be tried."""
    found = search_common(node_core, LLAMA_SERVER)
    assert found["hits"][0] == "ggml-org/llama.cpp error-invalid-argument", found


def test_a_message_of_common_words_and_one_rare_value_is_still_weighed(node_core):
    """The same when the index knows the argument (`hf`) as a rare word: one
    rare word, a value, is not the message; its common words still are."""
    hub = record("huggingface/hub", "hf-transfer", "hf transfer failed", filePath="src/hub/transfer.py")
    found = search_common(node_core, LLAMA_SERVER, hub)
    assert found["hits"][0] == "ggml-org/llama.cpp error-invalid-argument", found


def test_a_message_of_common_words_is_a_match_where_the_paste_names_its_repository(node_core):
    """No distinctive word, but its pattern whole under a command that names
    its repository: llama.cpp's own error. Without the name, only related."""
    assert search_common(node_core, LLAMA_SERVER)["match"] == "likely"
    found = search_common(node_core, "$ ./run.sh\nerror: invalid argument: -hf")
    assert found["match"] == "none", found


def test_a_long_message_cut_after_its_first_sentence_is_still_tried(node_core):
    """Maven's long message, cut by the issue's author after its first
    sentence: too few of all its words are there for its pattern to be
    tried, but every word of its first sentence is."""
    message = ("No goals have been specified for this build. You must specify a valid lifecycle phase or a goal "
               "in the format <plugin-prefix>:<goal> or <plugin-group-id>:<plugin-artifact-id>[:<plugin-version>]:"
               "<goal>. Available lifecycle phases are: {phases}.")
    phases = ("validate, initialize, generate-sources, process-sources, generate-resources, process-resources, "
              "compile, process-classes, generate-test-sources, test-compile, package, verify, install, deploy, "
              "pre-clean, clean, post-clean, pre-site, site, post-site, site-deploy")
    records = [record("apache/maven", "no-goals", message.replace("{phases}", phases), message),
               record("pypa/pip", "total-bytes", "Unable to get the total number of bytes, please specify total",
                      "Unable to get the total number of bytes, please specify total"),
               record("python/cpython", "path-and-sock", "path and sock can not be specified at the same time",
                      "path and sock can not be specified at the same time"),
               record("other/runner", "build-failure", "Build failure: total time and final memory exceeded while "
                      "scanning projects", "Build failure: total time and final memory exceeded while scanning projects")]
    paste = ("[INFO] Scanning for projects...\n[INFO] BUILD FAILURE\n[INFO] Total time: 0.099 s\n"
             "[INFO] Final Memory: 5M/123M\n[ERROR] No goals have been specified for this build. You must specify a valid li")
    found = search(node_core, records, paste)
    assert (found["hits"][0], found["match"]) == ("apache/maven no-goals", "likely"), found


def test_a_logfmt_error_line_reads_as_the_message_its_program_prints(node_core):
    """`level=error … msg="Opening storage failed" err="open DB…"`: the
    message and its cause, which Prometheus's own text joins as `opening
    storage failed: {err}`, among info lines of more words."""
    records = [record("prometheus/prometheus", "opening-storage-failed", "opening storage failed: open DB: locked",
                      "opening storage failed: {err}"),
               record("other/server", "start-listening", "Starting server: listening for connections on 0.0.0.0",
                      "Starting server: listening for connections on {address}")]
    paste = ('level=info ts=2017-12-15T10:46:23.745Z caller=main.go:215 msg="Starting Prometheus" version="(2.0.0)"\n'
             'level=info ts=2017-12-15T10:46:23.749Z caller=web.go:380 component=web msg="Start listening for '
             'connections" address=0.0.0.0:9090\n'
             'level=error ts=2017-12-15T10:46:23.749Z caller=main.go:323 msg="Opening storage failed" '
             'err="open DB in data/: Locked by other process"')
    found = search(node_core, records, paste)
    assert (found["hits"][0], found["match"]) == ("prometheus/prometheus opening-storage-failed", "exact"), found


def test_a_long_paste_read_is_read_as_it_is_again(node_core):
    """The search page's address and box hold what the engine read of a long
    log: searching that again must read the same text, so a link reproduces
    its search."""
    from bench.longlog import in_log
    error = "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nValueError: bad value"
    for log in (in_log("\n".join([error] * 400), "end", 200_000), in_log(error, "middle", 1_000_000)):
        read, again = node_core.evaluate(
            "t => { const once = ErrorSearchPaste.read(t); return [once, ErrorSearchPaste.read(once + '')]; }", log)
        assert len(read) <= 20_000 and again == read and "ValueError: bad value" in read


def test_a_long_log_keeps_the_message_over_the_report_at_its_end(node_core):
    """A message that reads like no error (`Your requirements could not be
    resolved`, Psych's class) over an indented report or a stack at the log's
    end is read with it, and the end is kept whatever the report's length."""
    from bench.longlog import in_log
    composer = ("Your requirements could not be resolved to an installable set of packages.\n\n"
                "  Problem 1\n    - Root composer.json requires php ^8.1 but your php version (7.4.3) does not satisfy it.")
    psych = ("Psych::DisallowedClass: Tried to load unspecified class: Date\n"
             "  /usr/lib/ruby/3.2.0/psych/class_loader.rb:99:in `find'\n"
             "  /usr/lib/ruby/3.2.0/psych/class_loader.rb:28:in `load'\n  (eval):2:in `date'")
    for paste in (composer, psych):
        read = node_core.evaluate("t => ErrorSearchPaste.read(t)", in_log(paste, "end", 26_000))
        assert read.endswith(paste), read[-300:]
    report = [f"  line {n} of a long indented report " + "x" * 300 for n in range(400)]
    read = node_core.evaluate("t => ErrorSearchPaste.read(t)", in_log("\n".join(report), "end", 26_000))
    assert read.endswith("\n".join(report[-3:])) and len(read) <= 20_000


def test_rubys_classes_and_the_words_of_errors_look_like_errors_in_the_middle_of_a_log(node_core):
    from bench.longlog import in_log
    for paste in ("Psych::BadAlias (Unknown alias: default):", "Psych::DisallowedClass: Tried to load unspecified class",
                  "ESLint couldn't find an eslint.config.(js|mjs|cjs) file.", "Missing type map configuration",
                  "Target class [CommandMakeCommand] does not exist."):
        read = node_core.evaluate("t => ErrorSearchPaste.read(t)", in_log(paste, "middle", 200_000))
        assert paste in read


# ---- Whose message: the judge's near misses (tests/fixtures/near-misses/) ----

def test_an_error_class_of_another_library_with_records_is_no_match(node_core):
    """psycopg2 raises `connection already closed` too: a paste of its class is
    not execnet's error, though the words are; a library the index lacks says nothing."""
    records = [record("pytest-dev/execnet", "connection-already-closed", "connection already closed: default",
                      "connection already closed: {gateway}", errorClass="OSError", filePath="execnet/gateway.py"),
               record("psycopg/psycopg2", "can-t-adapt-type", "can't adapt type 'dict'", "can't adapt type '{name}'",
                      errorClass="psycopg2.ProgrammingError", filePath="psycopg/adapter.c")]
    found = search(node_core, records, "psycopg2.InterfaceError: connection already closed")
    assert (found["hits"][0], found["match"]) == ("pytest-dev/execnet connection-already-closed", "none")
    assert search(node_core, records, "OSError: connection already closed: default")["match"] == "exact"
    assert search(node_core, records, "otherlib.InterfaceError: connection already closed: x")["match"] != "none"


def test_a_code_beside_another_message_is_no_match(node_core):
    """nlohmann's parse_error.101 is every syntax error's code: the message decides."""
    records = [nlohmann(101, "syntax error while parsing {context} - invalid literal; last read: '{token}'"),
               nlohmann(102, "parse error at {position}: missing or wrong low surrogate")]
    other = ("[json.exception.parse_error.101] parse error at line 343, column 2: "
             "syntax error while parsing value - unexpected '{'; expected end of input")
    found = search(node_core, records, other)
    assert (found["hits"][0], found["match"]) == ("nlohmann/json parse-error-101", "none")
    own = ("[json.exception.parse_error.101] parse error at line 1, column 4: "
           "syntax error while parsing value - invalid literal; last read: 'tru'")
    assert search(node_core, records, own)["match"] == "exact"


def test_a_class_named_with_a_line_of_other_words_is_no_match(node_core):
    """`invalid` is common (in more than 100 records): the class is the evidence,
    and the line's own word stands where the record has `MAC`."""
    common = [record("acme/forms", f"invalid-field-{n}", f"Field number {n} is invalid.") for n in range(101)]
    records = common + [
        record("laravel/framework", "the-mac-is-invalid", "The MAC is invalid.",
               errorClass="Illuminate\\Contracts\\Encryption\\DecryptException"),
        record("laravel/framework", "no-key", "No application encryption key has been specified.",
               errorClass="Illuminate\\Encryption\\MissingAppKeyException")]
    head = "  [Illuminate\\Contracts\\Encryption\\DecryptException]\n"
    found = search(node_core, records, head + "  The payload is invalid.")
    assert (found["hits"][0], found["match"]) == ("laravel/framework the-mac-is-invalid", "none")
    assert search(node_core, records, head + "  The MAC is invalid.")["match"] != "none"


def test_a_journal_prefix_and_rsyslogs_colours_are_read_away(node_core):
    paste = ("Apr 11 03:51:20 vps shop-example: #033[41m#033[30mfail#033[39m: Middleware[3]\n"
             "Apr 11 03:51:20 vps shop-example: ---> System.TimeoutException: The operation has timed out.\n"
             "Apr 11 03:51:20 vps shop-example: at Npgsql.ConnectorPool.Rent(TimeSpan timeout)")
    read = node_core.evaluate("t => ErrorSearch.read(t)", paste)
    assert read == "fail: Middleware[3]\n---> System.TimeoutException: The operation has timed out.\n" \
                   "at Npgsql.ConnectorPool.Rent(TimeSpan timeout)"


@pytest.mark.parametrize("frames, language", [
    ("   at Npgsql.ConnectorPool.<>c__DisplayClass38_0.<<Rent>g__RentAsync|0>d.MoveNext()", "cs"),
    ("   at LinqToDB.Data.DataConnection.EnsureConnectionAsync(CancellationToken cancellationToken)", "cs"),
    ("\tat retrofit2.Utils.methodError(Unknown Source)\n\tat $Proxy1.a(Native Method)", None),
    ("ruby/2.0.0/net/http.rb:918:in `connect': SSL_connect returned=1 (Faraday::SSLError)", "rb"),
])
def test_where_an_error_was_raised_from_frames_without_files_and_rubys_first_line(node_core, frames, language):
    raised = node_core.evaluate("t => Object.keys(ErrorSearch.context.raisedIn(t, {cs: 'cs', rb: 'rb', java: 'java'}))",
                                frames)
    assert raised == ([language] if language else []), raised


def test_words_scattered_outside_the_message_lines_are_no_match(node_core):
    """pip's externally-managed error holds `installed`, `try`, `passing` and
    `package` in its help text, none in its message lines."""
    records = [record("pallets/click", "is-not-installed", "'main' is not installed. Try passing 'package_name' instead.",
                      "{package_name} is not installed. Try passing 'package_name' instead."),
               record("pypa/pip", "subprocess-exited", "subprocess-exited-with-error")]
    paste = ("error: externally-managed-environment\n\n"
             "\u00d7 This environment is externally managed\n"
             "\u2570\u2500> To install Python packages system-wide, try apt install python3-xyz.\n"
             "    If you wish to install a package, it may be easiest to use pipx install xyz, which will\n"
             "    manage a virtual environment for you. Make sure you have pipx installed.\n"
             "note: You can override this by passing --break-system-packages.\n")
    found = search(node_core, records, paste)
    assert found["match"] == "none", found
