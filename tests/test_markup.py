"""markup/: markdown made safe, summaries, and highlighted code lines."""
from __future__ import annotations

import re
from types import MappingProxyType

import pytest
from hypothesis import example, given, settings, strategies as st
from markupsafe import Markup
from pygments.lexer import RegexLexer
from pygments.lexers import BashSessionLexer, PythonLexer, RustLexer, TextLexer
from pygments.token import Name, Whitespace

from errorsite.markup import prose
from errorsite.markup import (highlight_block, highlight_lines, is_safe_link, lexer_for, line_counter_css,
                              line_counter_start, markdown, plain_text, snippet_lexer, summary)
from errorsite.validate import MAX_LINE, MAX_SOURCE_LINES

REL = 'rel="nofollow ugc noopener"'


# --- markdown -------------------------------------------------------------

# Markdown's syntax characters, block markers and the plain ones, so that text
# on the fast path and text beside it are both generated.
PROSE = "aZ09 ,.;:'\"()?/%=@$-_*`[]<>&!#+~|\\\t\n"


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=PROSE, max_size=14))
@example("Say \"hi\" (now)")
@example("a  b")
@example("a:b http://example.org/x?y=1")
def test_plain_prose_skips_the_parser_and_gives_markdown_its_html(text):
    assert str(markdown(text)) == prose._MD.render(text)


# Sentences of words, Markdown's syntax and code spans (`name`, some with
# spaces, backticks or markup inside), as record prose has them.
SPANS = st.builds("`{}`".format, st.text(alphabet=PROSE + " \u00a0é", max_size=6))
SENTENCES = st.lists(st.one_of(st.text(alphabet=PROSE, max_size=6), SPANS), max_size=6).map("".join)


@settings(max_examples=1500, deadline=None)
@given(SENTENCES)
@example("`constructor` raises `Invalid<Arg>` with \"x\" when `a & b` fails")
@example("Use `x` (see ` y `) and `\u00a0z`")
@example("`0``0`")
def test_prose_with_code_spans_gives_markdown_its_html_and_text(text):
    assert str(markdown(text)) == prose._MD.render(text)
    assert plain_text(text) == prose._parsed_text(text)


def test_the_fast_path_takes_ordinary_list_items():
    assert prose._PLAIN.match("Pin cpython and read its changelog, then test (again)")
    assert prose._PLAIN.match("Check the value you pass to `constructor` and fix it before the call")
    assert not prose._PLAIN.match("- a list") and not prose._PLAIN.match("Use ` x `")
    assert not prose._PLAIN.match("Use ``x``") and not prose._PLAIN.match("Use `x")


def test_markdown_returns_markup():
    assert markdown("*hi*") == Markup("<p><em>hi</em></p>\n")
    assert isinstance(markdown("x"), Markup)


@pytest.mark.parametrize("source", [
    "<script>alert(1)</script>",
    "a <img src=x onerror=alert(1)> b",
    '<div onclick="x()">hi</div>',
    "<iframe src=https://evil.example></iframe>",
    "text <b>bold</b>",
    "<!-- comment -->",
])
def test_markdown_drops_raw_html(source):
    html = markdown(source)
    assert "<script" not in html and "<img" not in html and "<div" not in html
    assert "<iframe" not in html and "<b>" not in html and "<!--" not in html
    assert "&lt;" in html  # shown as text, not dropped silently


@pytest.mark.parametrize("source", [
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](javascript&#58;alert(1))",
    "[x]( javascript:alert(1) )",
    "<javascript:alert(1)>",
    "![i](javascript:alert(1))",
    "[x](vbscript:msgbox(1))",
    "[x](data:text/html,<script>alert(1)</script>)",
    "[x](file:///etc/passwd)",
    "[x](//evil.example/path)",
    "[x][r]\n\n[r]: javascript:alert(1)",
])
def test_markdown_refuses_dangerous_links(source):
    html = markdown(source)
    assert "href=" not in html and "src=" not in html


@pytest.mark.parametrize("source, href", [
    ("[a](http://example.org/x)", "http://example.org/x"),
    ("[a](https://example.org/x?y=1#z)", "https://example.org/x?y=1#z"),
    ("[a](mailto:someone@example.org)", "mailto:someone@example.org"),
    ("[a](../other/)", "../other/"),
    ("[a](/errors/-/tags/x/)", "/errors/-/tags/x/"),
    ("[a](#solutions)", "#solutions"),
    ("<https://example.org/auto>", "https://example.org/auto"),
])
def test_markdown_keeps_safe_links_with_rel(source, href):
    assert f'<a href="{href}" {REL}>' in markdown(source)


@pytest.mark.parametrize("url, safe", [
    ("http://x.org", True),
    ("HTTPS://x.org", True),
    ("mailto:a@b.c", True),
    ("relative/path", True),
    ("/absolute/path", True),
    ("#frag", True),
    ("?q=1", True),
    ("", True),
    ("javascript:alert(1)", False),
    (" javascript:alert(1)", False),
    ("java\tscript:alert(1)", False),
    ("java\nscript:alert(1)", False),
    ("\x00javascript:alert(1)", False),
    ("data:text/html,x", False),
    ("vbscript:x", False),
    ("//evil.example", False),
    ("ftp://x.org", False),
])
def test_is_safe_link(url, safe):
    assert is_safe_link(url) is safe


def test_markdown_code_is_escaped():
    assert markdown("`<b>`") == Markup("<p><code>&lt;b&gt;</code></p>\n")


# --- summary --------------------------------------------------------------

def test_plain_text_drops_markup():
    assert plain_text("Use **`model_dump()`** and [the docs](https://x.org).") == "Use model_dump() and the docs."


def test_plain_text_separates_paragraphs_and_list_items():
    assert plain_text("First para.\n\nSecond para.") == "First para. Second para."
    assert plain_text("- one\n- two") == "one two"
    assert plain_text("line one\nline two") == "line one line two"


def test_summary_is_the_first_sentence():
    assert summary("It fails. Then more words follow.") == "It fails."
    assert summary("First paragraph ends here.\n\nSecond one.") == "First paragraph ends here."


def test_summary_without_a_sentence_end_is_the_whole_text():
    assert summary("no full stop here") == "no full stop here"
    assert summary("version 1.2.3 is bad") == "version 1.2.3 is bad"


def test_summary_of_nothing():
    assert summary(None) == ""
    assert summary("") == ""


def test_summary_is_cut_at_a_word_with_an_ellipsis():
    text = "word " * 100
    result = summary(text, limit=30)
    assert result.endswith("word…") and len(result) <= 30
    assert set(result.removesuffix("…").split(" ")) == {"word"}  # no half words


def test_summary_long_first_sentence_is_cut():
    text = "a" * 50 + " " + "b" * 200 + ". Short."
    assert summary(text, limit=160) == "a" * 50 + "…"


# --- highlighted lines ----------------------------------------------------

def texts(lines):
    """The visible text of each CodeLine (Pygments escapes, spans removed)."""
    import html
    import re
    return [html.unescape(re.sub(r"<[^>]+>", "", str(line.html))) for line in lines]


def test_highlight_lines_numbers_from_start_and_marks_the_line():
    code = "def f():\n    raise ValueError('x')\n\nf()"
    lines = highlight_lines(code, PythonLexer(stripnl=False, ensurenl=False), first=118, marked=119)
    assert [line.number for line in lines] == [118, 119, 120, 121]
    assert [line.marked for line in lines] == [False, True, False, False]
    assert texts(lines) == ["def f():", "    raise ValueError('x')", "", "f()"]


@pytest.mark.parametrize("code, count", [
    ("a", 1),
    ("a\n", 1),
    ("a\nb", 2),
    ("a\nb\n", 2),
    ("a\n\n\nb", 4),
    ("\n\na", 3),          # leading blank lines are kept
    ("a\n\n", 2),          # a blank last line is a line
    ("\n", 1),
    ("a\r\nb\r\n", 2),
    ("a\rb", 2),           # a lone CR ends a line for Pygments, and so for us
])
def test_highlight_lines_count(code, count):
    for lexer in (lexer_for(None), lexer_for("x.py"), lexer_for("x.rs")):
        lines = highlight_lines(code, lexer, first=1)
        assert len(lines) == count, (code, lexer)
        assert [line.number for line in lines] == list(range(1, count + 1))


def test_highlight_lines_keeps_indentation_and_blank_lines():
    code = "\n    x = 1\n\n        y = '<&>'\n"
    assert texts(highlight_lines(code, lexer_for("a.py"))) == ["", "    x = 1", "", "        y = '<&>'"]


def test_highlight_lines_multiline_tokens_close_on_each_line():
    code = 'x = """one\ntwo\nthree"""\ny = 1'
    lines = highlight_lines(code, lexer_for("a.py"))
    assert len(lines) == 4
    for line in lines:
        assert str(line.html).count("<span") == str(line.html).count("</span>")


def test_highlight_lines_without_marked_line():
    lines = highlight_lines("a\nb", lexer_for(None), first=5)
    assert [(line.number, line.marked) for line in lines] == [(5, False), (6, False)]


def test_highlight_leaves_blanks_and_unstyled_tokens_unwrapped():
    """A span per name and per run of blanks styles nothing in either theme."""
    [line] = highlight_lines("    let total = a.len();", lexer_for("lib.rs"))
    assert str(line.html) == ('    <span class="kd">let</span> total <span class="o">=</span> a.len();')
    [indented] = highlight_lines("\t\tx = 1", lexer_for("a.py"))
    assert str(indented.html).startswith("\t\tx ")


class MarksWithWhitespace(RegexLexer):
    """A lexer that calls a visible character whitespace, as a lexer may."""
    tokens = {"root": [(r" +", Whitespace), (r"~", Whitespace), (r"\w+", Name), (r"\n", Whitespace)]}


def test_whitespace_that_is_not_blank_keeps_its_span():
    [line] = highlight_lines("a ~ b", MarksWithWhitespace())
    assert str(line.html) == 'a <span class="w">~</span> b'


@pytest.mark.parametrize("first", [1, 2, 10, 11, 118, 1000, 20301, MAX_LINE, MAX_LINE + MAX_SOURCE_LINES])
def test_line_counter_start_adds_up_to_the_first_number(first):
    """The empty elements before a source block's first line start its number
    counter at `first`; every class they name has its rule in the stylesheet."""
    rules = dict(re.findall(r"\.source-code \.(s\d\d) \{ counter-increment: ln (\d+); \}", line_counter_css()))
    classes = re.findall(r'<i class="(s\d\d)"></i>', str(line_counter_start(first)))
    assert "".join(f'<i class="{c}"></i>' for c in classes) == str(line_counter_start(first))
    assert 1 + sum(int(rules[c]) for c in classes) == first


def test_highlight_escapes_html():
    lines = highlight_lines("<script>alert(1)</script>", lexer_for(None))
    assert "<script" not in str(lines[0].html)
    assert "&lt;script&gt;" in str(lines[0].html)
    assert "<script" not in highlight_block("<script>", lexer_for("x.html"))


def test_lexer_for_known_and_unknown_files():
    assert isinstance(lexer_for("pydantic/dataclasses.py"), PythonLexer)
    assert isinstance(lexer_for("src/models/metavoice.rs"), RustLexer)
    assert isinstance(lexer_for("data.unknown-extension"), TextLexer)
    assert isinstance(lexer_for("no_extension_at_all"), TextLexer)
    assert isinstance(lexer_for(None), TextLexer)
    assert isinstance(lexer_for(""), TextLexer)


def test_lexer_for_chooses_as_pygments_does():
    """The lexer cache (by the patterns a name matches) picks Pygments' own choice."""
    from pygments.lexers import get_lexer_for_filename
    from pygments.util import ClassNotFound
    names = ["a.py", "x.pyw", "lib.rs", "errors.go", "index.js", "App.tsx", "Makefile", "GNUmakefile", "CMakeLists.txt",
             "Dockerfile", "x.h", "x.hpp", "x.c", "x.cc", "x.G", "x.g", "x.pro", "a.tar.gz", "x.rl", "foo.py3",
             "setup.cfg", ".bashrc", "x.yaml", "x.yml", "x.json", "pom.xml", "build.gradle.kts", "x.rb", "Gemfile",
             "x.ex", "x.exs", "x.php", "x.java", "x.kt", "x.swift", "x.m", "x.cs", "x.fs", "x.scala", "x.sql",
             "x.sh", "x.zsh", "x.lua", "x.pl", "x.pm", "x.ts", "x.vue", "x.toml", "x.ini", "x.md", "x.txt", "noext"]
    for name in names:
        try:
            expected = type(get_lexer_for_filename(name))
        except ClassNotFound:
            expected = TextLexer
        assert type(lexer_for(f"some/dir/{name}")) is expected, name


def test_the_lexer_class_is_pygments_choice_for_every_pattern_of_its():
    """A name made from each of Pygments' filename patterns ("*.py" → "x.py",
    "[Mm]akefile" → "Makefile"), classes compared without making the lexers."""
    from pygments.lexers import LEXERS, find_lexer_class_for_filename
    from errorsite.markup.lexers import _chosen_class, _matching_patterns
    names = {re.sub(r"\[!?([^\]]+)\]", lambda m: m.group(1)[0], glob).replace("*", "x").replace("?", "x")
             for *_, globs, _ in LEXERS.values() for glob in globs}
    assert len(names) > 500
    for name in sorted(names):
        assert _chosen_class(_matching_patterns(name)) is (find_lexer_class_for_filename(name) or TextLexer), name


def test_snippet_lexer_spots_shell_sessions():
    assert isinstance(snippet_lexer("$ pip install pydantic\nok", "a.py"), BashSessionLexer)
    assert isinstance(snippet_lexer("  % redis-cli ping\nPONG", "x.c"), BashSessionLexer)
    assert isinstance(snippet_lexer("x = 1", "a.py"), PythonLexer)
    assert isinstance(snippet_lexer("$x = 1", "a.py"), PythonLexer)  # "$" alone is not a prompt
    assert isinstance(snippet_lexer("plain", None), TextLexer)


def test_highlight_block_has_no_wrapper_and_no_trailing_newline():
    html = highlight_block("x = 1\n", lexer_for("a.py"))
    assert isinstance(html, Markup)
    assert not html.endswith("\n")
    assert "<pre" not in html and "<div" not in html


SESSION = '$ myapp open my notes.md\nError: accepts at most 1 arg(s), received 2\n$ myapp open "my notes.md"'


def test_shell_session_block_keeps_an_unended_last_line():
    """Pygments' session lexers drop a last line without a newline (spf13/cobra's exampleFix)."""
    import html
    import re
    block = highlight_block(SESSION, snippet_lexer(SESSION, "args.go"))
    assert html.unescape(re.sub(r"<[^>]+>", "", str(block))) == SESSION
    assert '<span class="gp">$ </span>' in block


def test_shell_session_lines_keep_an_unended_last_line():
    lines = highlight_lines(SESSION, BashSessionLexer(stripnl=False, ensurenl=False), first=10)
    assert texts(lines) == SESSION.split("\n")
    assert [line.number for line in lines] == [10, 11, 12]


@given(st.text(alphabet="ab./ \\\0é", max_size=12))
@example("src/lib.rs")
@example("a/b/")
@example("a/.")
@example("a/b/..")
@example("//x")
def test_base_name_is_pathlibs(path):
    from pathlib import PurePosixPath
    from errorsite.markup.lexers import base_name
    assert base_name(path) == PurePosixPath(path).name


def test_a_records_blocks_are_a_value_made_from_its_own_code_alone():
    """`check` runs record after record in one process, and a dataset shares
    blocks (a language's few typeGuard lines): when the made blocks were kept
    across records, a shared block made long ago was pushed out by the
    record's own new ones, and the record was reported as over its
    highlighting budget, as many records as the order of the records made it.
    Now each record's blocks are made for it and handed back, whatever came
    before."""
    from errorsite.markup import code
    lexer = PythonLexer()
    shared = "isinstance(value, str)\n"
    made, first = code.highlight_in_turn([(shared, lexer)])
    assert made == 1 and dict(first) == {(shared, lexer): code._highlight(shared, lexer)}
    for n in range(40):  # other records' blocks, made after it
        assert code.highlight_in_turn([(f"x = {n}\n", lexer)])[0] == 1
    made, blocks = code.highlight_in_turn([(shared, lexer), ("y = 1\r\n", lexer), ("z = 2\n", lexer)])
    assert made == 3 and list(blocks) == [(shared, lexer), ("y = 1\n", lexer), ("z = 2\n", lexer)]
    assert blocks[(shared, lexer)] == first[(shared, lexer)]
    with pytest.raises(TypeError):
        blocks[("w = 0\n", lexer)] = "<span>w</span>"  # a value: what the check made is what the page shows


def test_a_page_shows_the_blocks_it_is_handed_and_highlights_any_other():
    from errorsite.markup import code
    lexer = PythonLexer()
    _, blocks = code.highlight_in_turn([("x = 1\n", lexer)])
    assert highlight_block("x = 1\n", lexer, made=blocks) == highlight_block("x = 1\n", lexer)
    shown = MappingProxyType({("x = 1\n", lexer): "<b>as handed</b>\n"})
    assert highlight_block("x = 1\n", lexer, made=shown) == "<b>as handed</b>"
    assert highlight_lines("x = 1\n", lexer, made=shown)[0].html == "<b>as handed</b>"
    assert highlight_block("x = 1\n", lexer, plain=True, made=shown) == "x = 1"
    assert highlight_block("y = 2\n", lexer, made=shown) == highlight_block("y = 2\n", lexer)
