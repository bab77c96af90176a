"""Highlighting: markup/lexing.py gives Pygments' RegexLexer tokens, format_html its
HtmlFormatter's bytes, and a record's blocks are made for that record only."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pygments
import pytest
from hypothesis import given, settings, strategies as st
from pygments.formatters import HtmlFormatter
from pygments.lexer import RegexLexer, bygroups, default, include, words
from pygments.lexers import (BashSessionLexer, CLexer, CppLexer, GoLexer, JavaLexer, JavascriptLexer, PythonLexer,
                             RustLexer, find_lexer_class_by_name, get_all_lexers)
from pygments.token import Comment, Keyword, Name, Number, String, Text, Token, Whitespace

from errorsite import records, urls
from errorsite.markup import lexing
from errorsite.markup import code as code_module, lexer_for, snippet_lexer
from errorsite.pages.plain_text import check_record
from errorsite.pages.render import SiteOptions, environment, record_page, summarize

SHARED_RECORDS = Path(__file__).resolve().parents[2] / "shared" / "records"
CODE_FIELDS = ("sourceCode", "exampleFix", "validationCode", "typeGuard", "tryCatchPattern")
PROJECT = Path(__file__).resolve().parent.parent


def tokens(lexer, text: str, engine) -> list | tuple:
    """The lexer's tokens with `engine` as RegexLexer's, or what it raised."""
    RegexLexer.get_tokens_unprocessed = engine
    try:
        return list(lexer.get_tokens(text))
    except Exception as error:  # a lexer that fails must fail the same way
        return ("raised", type(error).__name__)
    finally:
        RegexLexer.get_tokens_unprocessed = lexing.STOCK


def assert_same_tokens(lexer, text: str) -> None:
    stock = tokens(lexer, text, lexing.STOCK)
    joined = tokens(lexer, text, lexing.get_tokens_unprocessed)
    assert joined == stock, f"{type(lexer).__name__} differs on {text[:60]!r}"


class Tricky(RegexLexer):
    """Every kind of rule whose first characters take care: flags, references, groups, defaults."""
    tokens = {
        "root": [
            (r"\s+", Text),
            (r"(?i)select\b", Keyword),                                # global flags at the start
            (r"(['\"])(.*?)(\1)", bygroups(String, String, String)),  # a back-reference
            (r"(?P<n>\d+)(?P=n)", Number.Hex),                         # a named group and its reference
            (r"(\d+)(\.)(\d+)", bygroups(Number, Text, Number)),       # groups: a callback's numbers
            (r"\d+", Number),
            (r"/\*", Comment, "comment"),
            (words(("if", "else", "while"), suffix=r"\b"), Keyword),
            (r"\w+", Name),
        ],
        "comment": [
            (r"[^*]+", Comment),
            (r"\*/", Comment, "#pop"),
            include("star"),
        ],
        "star": [
            (r"(?x) \*  # a verbose rule, its comment at the end", Comment),
            default("#pop"),
        ],
    }


@pytest.mark.parametrize("text", [
    "SELECT 'a' \"b\" 1212 12 3.14 if x /* a * b */ while\n",
    "select\n'unclosed\n/* open ** \n*/ 7.7.7 else\n",
    "", "\n\n", "%%% ^^^\n", "ſelect é \u212a 1\n",
])
def test_tricky_rules_give_the_same_tokens(text):
    assert_same_tokens(Tricky(), text)


def patterns(rules) -> list[str]:
    return [rule[0].__self__.pattern for rule in rules]


def test_a_state_tries_at_a_character_only_the_rules_that_can_start_with_it():
    root = lexing._plan(Tricky())["root"]
    assert patterns(root["S"]) == [r"(?i)select\b", r"\w+"]
    assert patterns(root["1"]) == [r"(?P<n>\d+)(?P=n)", r"(\d+)(\.)(\d+)", r"\d+", r"\w+"]
    assert patterns(root["'"]) == [r"(['\"])(.*?)(\1)"]
    assert patterns(root["%"]) == []
    assert patterns(root.at_end) == []  # at the end, only what can match nothing
    assert patterns(lexing._plan(Tricky())["star"].at_end) == [""]  # default()
    assert patterns(root["é"]) == patterns(Tricky._tokens["root"]) and "é" not in root  # outside ASCII: every rule


@pytest.mark.parametrize("pattern, starts, not_starts", [
    (r"(?i)select", "sSſ", "e\n"),      # case folding as the re module folds (ſ is an s)
    (r"\bfoo", "f", "o\n "),            # anchors and lookarounds are stepped over
    (r"(?=x)y", "y", "x"),
    (r"(?<!\w)-?\d+", "-0123456789", "a+"),  # an item that may be absent, and the one after it
    (r"(?:a|)c", "ac", "b"),
    (r"(?s).", "\nx", ""),
    (r".", "x", "\n"),
    (r"[^a]", "b\n", "a"),
    (r"(?i:[a-c])x", "AbC", "dx"),        # scoped flags
])
def test_what_a_match_can_start_with(pattern, starts, not_starts):
    rule = (re.compile(pattern).match, Text, None)
    can_start = lexing.first_characters(rule)
    assert [char for char in starts if not can_start(char)] == []
    assert [char for char in not_starts if can_start(char)] == []


@pytest.mark.parametrize("pattern", ["", r"a*", r"(a)?\1", r"(?=a)", r"(?:x|)"])
def test_a_match_that_can_be_empty_or_is_not_worked_out_can_start_anywhere(pattern):
    assert lexing.first_characters((re.compile(pattern).match, Text, None)) is None


def test_the_records_code_gives_the_same_tokens_with_the_lexers_the_build_picks():
    if not SHARED_RECORDS.is_dir():
        pytest.skip(f"the shared records are not at {SHARED_RECORDS}")
    languages = set()
    for path in sorted(SHARED_RECORDS.rglob("*.json")):
        try:
            record = json.loads(path.read_bytes())["record"]
        except (ValueError, KeyError, TypeError):
            continue  # the hard cases include files that are not records
        file_path = record.get("filePath") if isinstance(record.get("filePath"), str) else None
        for field in CODE_FIELDS:
            code = record.get(field)
            if isinstance(code, str) and code:
                lexer = lexer_for(file_path) if field == "sourceCode" else snippet_lexer(code, file_path)
                assert_same_tokens(lexer, code if code.endswith("\n") else code + "\n")
                languages.add(type(lexer).__name__)
    assert {"CLexer", "CppLexer", "RustLexer", "GoLexer", "PythonLexer", "JavascriptLexer"} <= languages


@pytest.mark.parametrize("lexer_class", [CLexer, CppLexer, RustLexer, GoLexer, PythonLexer, JavaLexer,
                                         JavascriptLexer, BashSessionLexer])
def test_the_languages_of_the_records_give_the_same_tokens_on_this_project_s_code(lexer_class):
    lexer = lexer_class(stripnl=False, ensurenl=False)
    for path in (PROJECT / "errorsite" / "markup" / "lexing.py", PROJECT / "static" / "search-core.js"):
        assert_same_tokens(lexer, path.read_text(encoding="utf-8"))


SAMPLES = [
    "<html><body onload='x()'>\n<?php echo $a; ?>\n<!-- c -->\n</body></html>\n",
    "SELECT * FROM t WHERE a = 'x' -- c\n/* b */ ;\n",
    '{"a": [1, 2.5e3, null, "\\u00e9"]}\n',
    "#!/bin/sh\necho \"$HOME\" | grep -E 'a+' > /dev/null 2>&1 # c\n",
    'fn main() { let r = r#"raw"#; println!("{}", r); }\nR"delim(raw)delim"\n',
    "(define (f x) #;(comment) #| block |# (+ x 1)) ; c\n",
]


# Pygments 2.21's own MCSchemaLexer never ends on the HTML sample, joined or not.
LOOPS_IN_PYGMENTS = {"MCSchemaLexer"}


@pytest.mark.slow
def test_every_regex_lexer_of_pygments_gives_the_same_tokens():
    """All of them (~490): on their own, on Pygments' lexer sources, on bits of many languages."""
    package = Path(pygments.__file__).parent
    texts = SAMPLES + [path.read_text(encoding="utf-8")[:2000] for path in sorted((package / "lexers").glob("*.py"))[::150]]
    checked = 0
    for _, aliases, _, _ in get_all_lexers(plugins=False):
        lexer_class = find_lexer_class_by_name(aliases[0]) if aliases else None
        if lexer_class is None or not issubclass(lexer_class, RegexLexer) or lexer_class.__name__ in LOOPS_IN_PYGMENTS:
            continue
        lexer = lexer_class(stripnl=False, ensurenl=False)
        for text in texts:
            assert_same_tokens(lexer, text)
        checked += 1
    assert checked > 400


def test_it_is_installed_only_on_the_pygments_it_mirrors(monkeypatch):
    try:
        assert lexing.install() == pygments.__version__.startswith(lexing.MIRRORED)
        lexing.uninstall()
        monkeypatch.setattr(pygments, "__version__", "3.0.0")
        assert lexing.install() is False and RegexLexer.get_tokens_unprocessed is lexing.STOCK
    finally:
        lexing.uninstall()


# ---- format_html: HtmlFormatter's bytes, in one loop ---------------------------

def stock_html(tokens) -> str:
    """What format_html replaces: HtmlFormatter(nowrap=True) after the filter
    that makes unstyled and blank Whitespace tokens Text."""
    unstyled = code_module._unstyled()
    out = io.StringIO()
    HtmlFormatter(nowrap=True).format(
        ((Text if ttype in unstyled or (ttype in Whitespace and value.isspace()) else ttype, value)
         for ttype, value in tokens), out)
    return out.getvalue()


def test_format_html_writes_pygments_bytes_for_every_real_code_block():
    if not SHARED_RECORDS.is_dir():
        pytest.skip(f"{SHARED_RECORDS} is not here")
    blocks = 0
    for path in sorted([*SHARED_RECORDS.glob("*.json"), *PROJECT.glob("tests/fixtures/mined/*/records/*.json")]):
        record = json.loads(path.read_text())["record"]
        for field in CODE_FIELDS:
            code = record.get(field)
            if isinstance(code, str) and code:
                lexer = snippet_lexer(code, record.get("filePath"))
                tokens = list(lexer.get_tokens(code + "\n"))
                assert [token[1:] for token in code_module.lexed(lexer, code + "\n")] == tokens, f"{path.name} {field}"
                assert code_module.format_html(triples(tokens)) == stock_html(tokens), f"{path.name} {field}"
                blocks += 1
    assert blocks > 500


TOKEN_TYPES = [Text, Text.Whitespace, Keyword, Name, Name.Builtin, String, Comment.Single, Number, Token.Error,
               Name.Other, Token.Punctuation, Token.Operator]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TOKEN_TYPES), st.text(alphabet=" \n\tab<&>\"'x", max_size=8)),
                max_size=30))
def test_format_html_writes_pygments_bytes_for_any_tokens(tokens):
    assert code_module.format_html(triples(tokens)) == stock_html(tokens)


def triples(tokens):
    """get_tokens' pairs as lexed gives them."""
    return [(0, ttype, value) for ttype, value in tokens]


def test_lexed_keeps_a_lexers_filters():
    lexer = PythonLexer(stripnl=False, ensurenl=False)
    lexer.add_filter("keywordcase", case="upper")
    text = "def f():\n    return None\n"
    assert [token[1:] for token in code_module.lexed(lexer, text)] == list(lexer.get_tokens(text))
    assert ("DEF" in code_module._highlight(text, lexer)) and "def" not in code_module._highlight(text, lexer)


def test_a_records_blocks_are_lexed_once_for_it_and_its_page_is_as_highlighted_afresh(monkeypatch):
    """check then render: the page shows the blocks its check made (plain_text.Shown),
    each lexed once, the same bytes as a page that highlights its code itself;
    the next record starts from none of them, so that a corpus whose records
    share code is measured as real records are."""
    folder = (PROJECT / "tests" / "fixtures" / "mined" / "go" / "records").resolve()
    first, second = sorted(folder.glob("*.json"))[:2]
    site = urls.Site("http://localhost:8000/")
    worker = records.Worker(site, SiteOptions(), folder, "test", {})
    lexed = []
    real = code_module._highlight_anew
    monkeypatch.setattr(code_module, "_highlight_anew", lambda code, *rest: lexed.append(code) or real(code, *rest))
    worker(first)
    lexed.clear()
    outcome = worker(second)
    data = json.loads(second.read_text())
    assert lexed and sorted(lexed) == sorted({code_module.line_ends(data["record"][field]) for field in CODE_FIELDS
                                              if data["record"].get(field)})
    monkeypatch.setattr(code_module, "_highlight_anew", real)
    record = check_record(second.name, data).record
    assert outcome.pages[0] == record_page(environment(site, options=SiteOptions()), record, summarize(record))


def test_a_chunk_of_records_gives_what_each_alone_gives_and_lexes_each_records_blocks(tmp_path, monkeypatch):
    """Worker.chunk checks every record, then renders them: the same outcomes
    as one record at a time, each record's blocks made for it (two records
    with the same code lex it twice, as real records would) and shown by its
    own page, a rejected file among them."""
    folder = (PROJECT / "tests" / "fixtures" / "mined" / "go" / "records").resolve()
    paths = sorted(folder.glob("*.json"))[:6]
    twin = tmp_path / "twin.json"
    data = json.loads(paths[0].read_text())
    data["record"]["id"] = data["record"]["id"] + "-twin"
    twin.write_text(json.dumps(data))
    broken = tmp_path / "broken.json"
    broken.write_text('{"record": {"id": "x"}}')
    chunk = [paths[0], broken, *paths[1:], twin]
    one = records.Worker(urls.Site("http://localhost:8000/"), SiteOptions(), Path("/"), "test", {})
    alone = [one(path) for path in chunk]
    lexed_blocks = []
    real = code_module._highlight_anew
    monkeypatch.setattr(code_module, "_highlight_anew", lambda code, *rest: lexed_blocks.append(code) or real(code, *rest))
    together = records.Worker(urls.Site("http://localhost:8000/"), SiteOptions(), Path("/"), "test", {})
    assert together.chunk(chunk) == alone
    assert alone[1].summary is None and alone[1].problems and all(outcome.summary for outcome in alone[2:])
    first_code = {code_module.line_ends(data["record"][field]) for field in CODE_FIELDS if data["record"].get(field)}
    assert first_code and all(lexed_blocks.count(code) == 2 for code in first_code)


def test_a_serial_build_that_proves_long_lexes_as_the_workers_do():
    """records.serially: Pygments' own loop for a small serial build (reading
    the lexers' rules would cost it more than it saves), ours once it has
    taken longer than starting a worker would, as a `-j 1` build of
    thousands of records does."""
    from errorsite import records
    before = RegexLexer.get_tokens_unprocessed
    lexing.uninstall()
    try:
        done = []
        worker = SimpleNamespace(chunk=done.extend)
        records.serially(worker, after=3600)(["small.json"])
        assert RegexLexer.get_tokens_unprocessed is lexing.STOCK
        records.serially(worker, after=0)(["large.json"])
        assert RegexLexer.get_tokens_unprocessed is lexing.get_tokens_unprocessed
        assert done == ["small.json", "large.json"]
    finally:
        RegexLexer.get_tokens_unprocessed = before
