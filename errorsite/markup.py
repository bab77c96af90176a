"""Turn record text into safe HTML: markdown prose and highlighted code.

Every string here is untrusted. Markdown runs with raw HTML off and a link
filter; Pygments escapes the code it is given. Both return markupsafe.Markup so
templates insert them once, unescaped, and never wrap them again.
"""
from __future__ import annotations

import fnmatch
import re
import unicodedata
from functools import lru_cache
from pathlib import PurePosixPath
from typing import NamedTuple
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import LEXERS, BashSessionLexer, TextLexer, find_lexer_class
from pygments.plugin import find_plugin_lexers
from pygments.util import ClassNotFound

from . import budget

SAFE_SCHEMES = ("http", "https", "mailto")


def is_safe_link(url: str) -> bool:
    """Only http(s), mailto and relative links; `javascript:` and friends never pass."""
    cleaned = "".join(c for c in url if c.isprintable() and not c.isspace())
    try:
        scheme = urlsplit(cleaned).scheme.lower()
    except ValueError:
        return False
    return scheme in SAFE_SCHEMES or (scheme == "" and not cleaned.startswith("//"))


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.validateLink = is_safe_link

    def link_open(renderer, tokens, idx, options, env):
        tokens[idx].attrSet("rel", "nofollow ugc noopener")
        return renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("link_open", link_open)
    return md


_MD = _markdown()


# Markdown's HTML grows with its text, by a factor of ten at worst, but for
# references: one long link definition used a thousand times is written out a
# thousand times. Past this growth the text is shown as it is, escaped.
MARKDOWN_GROWTH = 12


def markdown(text: str) -> Markup:
    if _PLAIN.match(text):
        return Markup("<p>" + text.replace('"', "&quot;") + "</p>\n")
    html = _markdown_html(text)
    return Markup(html) if html is not None else Markup(f"<p>{escape(text)}</p>\n")


def markdown_overgrows(text: str) -> int | None:
    """The size of the HTML `text` would make, when markdown() shows it as plain text instead."""
    if _PLAIN.match(text) or _markdown_html(text) is not None:
        return None
    return len(_MD.renderer.render(_parsed(text), _MD.options, {}))


def markdown_limit(text: str) -> int:
    return MARKDOWN_GROWTH * len(text) + 200


@lru_cache(maxsize=64)  # validate measures a record's prose, then render shows it
def _markdown_html(text: str) -> str | None:
    html = _MD.renderer.render(_parsed(text), _MD.options, {})  # what _MD.render does
    return html if len(html) <= markdown_limit(text) else None


# Prose with none of Markdown's syntax is one paragraph of itself, and most
# list items (solutions, tips) are such prose: markdown-it's parser costs a
# tenth of a millisecond for each, to write `<p>text</p>` with `"` escaped.
# Starting with a letter rules out every block marker, and the characters
# allowed start no inline syntax (tests/test_markup.py checks that the output
# is markdown-it's on generated text).
_PLAIN = re.compile(r"[A-Za-z](?:[A-Za-z0-9 ,.;:'\"()?/%=@$-]*[A-Za-z0-9,.;:'\"()?/%=@$-])?\Z")


@lru_cache(maxsize=8)  # a record's documentation is parsed for its summary, then for its page
def _parsed(text: str) -> list:
    return _MD.parse(text, {})


def plain_text(text: str) -> str:
    """Markdown source → its visible text on one line (for summaries and meta tags)."""
    words = []
    for token in _parsed(text):
        for child in token.children or ():
            if child.type in ("text", "code_inline"):
                words.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                words.append(" ")
        words.append(" ")  # between paragraphs and list items
    return " ".join("".join(words).split())


def shorten(text: str, limit: int) -> str:
    """`text` whole if it fits in `limit` characters, else cut at a word
    boundary (or mid-word, for a long one) with an ellipsis, `limit` in all."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    at_space = cut.rsplit(" ", 1)[0]
    return (at_space if len(at_space) >= limit // 2 else cut).rstrip(" ,;:") + "…"


@lru_cache(maxsize=256)  # a record page's description and its Summary's card are the same sentence
def summary(text: str | None, limit: int = 160) -> str:
    """The first sentence of some prose, at most `limit` characters."""
    plain = plain_text(text or "")
    end = plain.find(". ")
    sentence = plain[: end + 1] if 0 < end < limit else plain
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rsplit(" ", 1)[0] + "…"


class CodeLine(NamedTuple):
    number: int
    html: Markup
    marked: bool


def lexer_for(file_path: str | None) -> Lexer:
    # Pygments picks a lexer by the file's base name alone, and finding it scans
    # every lexer's patterns (~20 ms): cache by base name, which repeats far more
    # than whole paths do (lib.rs, errors.go, index.js).
    return _lexer_for_name(PurePosixPath(file_path or "").name)


@lru_cache(maxsize=16384)
def _lexer_for_name(name: str) -> Lexer:
    # Most base names are new (a corpus of 500 records has ~300), but they fall
    # into a few dozen kinds: Pygments' choice depends only on which of its
    # filename patterns match, so names matching the same ones share a lexer.
    return _lexer_for_matches(_matching_patterns(name))


@lru_cache(maxsize=1024)
def _lexer_for_matches(matches: tuple[tuple[str, str], ...]) -> Lexer:
    return _chosen_class(matches)(stripnl=False, ensurenl=False)


def _chosen_class(matches: tuple[tuple[str, str], ...]) -> type[Lexer]:
    """The lexer class Pygments' get_lexer_for_filename picks among these
    matches (given no code: by priority, a bonus for a pattern without `*`,
    then class name; the last of equals). Asking Pygments itself would compile
    all ~900 of its patterns in every process, a third of a second."""
    if not matches:
        return TextLexer
    rated = sorted(((_lexer_class(lexer), glob) for lexer, glob in matches),
                   key=lambda match: (match[0].priority + (0.5 if "*" not in match[1] else 0), match[0].__name__))
    return rated[-1][0]


def _lexer_class(lexer: str) -> type[Lexer]:
    """A lexer class by the name _patterns_by_tail gives it: Pygments' name for its
    own lexers, module and qualified name for a plugin's."""
    found = _plugin_lexers().get(lexer) or find_lexer_class(lexer)
    if found is None:
        raise ClassNotFound(f"no lexer named {lexer!r}")
    return found


def _matching_patterns(name: str) -> tuple[tuple[str, str], ...]:
    """(lexer, pattern) for every filename pattern of Pygments' that `name`
    matches, in the order Pygments tries them, as it matches them (fnmatch).
    Only the patterns whose literal ending `name` ends with can match: one dict
    lookup per ending of `name`, instead of ~900 patterns for each new name."""
    by_tail = _patterns_by_tail()
    candidates = sorted(candidate for cut in range(len(name) + 1) for candidate in by_tail.get(name[cut:], ()))
    return tuple((lexer, glob) for _, lexer, glob in candidates if _glob_pattern(glob).match(name))


@lru_cache(maxsize=1)
def _patterns_by_tail() -> dict[str, list[tuple[int, str, str]]]:
    """Pygments' filename patterns (its lexers', then plugins', as
    find_lexer_class_for_filename goes) by the literal text each ends with,
    each with its place in that order."""
    globs = [(lexer, glob) for _, lexer, _, globs, _ in LEXERS.values() for glob in globs]
    globs += [(name, glob) for name, cls in _plugin_lexers().items() for glob in cls.filenames]
    by_tail: dict[str, list[tuple[int, str, str]]] = {}
    for order, (lexer, glob) in enumerate(globs):
        tail = re.split(r"[*?\]]", glob)[-1]
        by_tail.setdefault(tail, []).append((order, lexer, glob))
    return by_tail


@lru_cache(maxsize=1)  # finding them reads every installed package's entry points: 5 ms
def _plugin_lexers() -> dict[str, type[Lexer]]:
    """Plugin lexers by module and qualified name, in the order Pygments tries them."""
    return {f"{cls.__module__}.{cls.__qualname__}": cls for cls in find_plugin_lexers()}


@lru_cache(maxsize=None)  # compiled when first needed: a build meets a few dozen of the ~900
def _glob_pattern(glob: str) -> re.Pattern:
    return re.compile(fnmatch.translate(glob))


def looks_like_shell(code: str) -> bool:
    return code.lstrip().startswith(("$ ", "% "))


def snippet_lexer(code: str, file_path: str | None) -> Lexer:
    """The record's language, unless the snippet is clearly a shell session."""
    if looks_like_shell(code):
        return _SESSION_LEXER
    return lexer_for(file_path)


_SESSION_LEXER = BashSessionLexer(stripnl=False, ensurenl=False)
_PLAIN_LEXER = TextLexer(stripnl=False, ensurenl=False)  # escapes, and makes no spans: linear in the text
_FORMATTER = HtmlFormatter(nowrap=True)
HIGHLIGHT_SECONDS = 2.0  # a code block's budget: a lexer that takes longer is stopped, the block shown plain


def line_ends(code: str) -> str:
    return code.replace("\r\n", "\n").replace("\r", "\n")  # as Pygments reads it


def line_count(code: str) -> int:
    return len(line_ends(code).removesuffix("\n").split("\n"))


def highlight_lines(code: str, lexer: Lexer, first: int = 1, marked: int | None = None,
                    last: int | None = None, plain: bool = False) -> list[CodeLine]:
    """One CodeLine per source line. Pygments closes every span at a line end,
    so each line's HTML stands alone and can get its own anchor. A final
    newline ends the last line, unless the range (`first`..`last`) says the
    line after it, blank, is part of the snippet. `plain`: escaped, not highlighted."""
    code = line_ends(code)
    count = len(code.removesuffix("\n").split("\n"))
    if last is not None and last - first + 1 == count + 1 and code.endswith("\n"):
        count += 1
    lines = _code_html(code, lexer, plain).split("\n")[:count]
    return [CodeLine(first + i, Markup(line), first + i == marked) for i, line in enumerate(lines)]


def highlight_block(code: str, lexer: Lexer, plain: bool = False) -> Markup:
    return Markup(_code_html(line_ends(code), lexer, plain).rstrip("\n"))


def highlight_stalls(code: str, lexer: Lexer) -> bool:
    """Whether `lexer` takes longer than its budget on `code`, so that the
    block is shown as plain text (validate asks; render then shows the same)."""
    return _highlighted(line_ends(code), lexer) is None


def _code_html(code: str, lexer: Lexer, plain: bool) -> str:
    html = None if plain else _highlighted(code, lexer)
    return html if html is not None else _highlight(code, _PLAIN_LEXER)


@lru_cache(maxsize=16)  # validate times a record's code blocks, then render shows them: each is lexed once
def _highlighted(code: str, lexer: Lexer) -> str | None:
    """Pygments' HTML, or None when the lexer took longer than the budget (and was stopped)."""
    try:
        return budget.run(HIGHLIGHT_SECONDS, _highlight, code, lexer)
    except budget.OverBudget:
        return None


def _highlight(code: str, lexer: Lexer) -> str:
    ended = code if code.endswith("\n") else code + "\n"  # session lexers drop an unended last line
    return highlight(ended, lexer, _FORMATTER)


def pygments_css() -> str:
    """The light theme, and the dark one under prefers-color-scheme."""
    light = HtmlFormatter(style="default").get_style_defs(".highlight")
    dark = HtmlFormatter(style="github-dark").get_style_defs(".highlight")
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"


# ---- Bidirectional text: record text may hold U+202E and friends ------------------
_EMBEDDINGS = "\u202a\u202b\u202d\u202e"  # LRE RLE LRO RLO, each closed by PDF
_ISOLATES = "\u2066\u2067\u2068"          # LRI RLI FSI, each closed by PDI
_PDF, _PDI = "\u202c", "\u2069"
_BIDI_CONTROL = re.compile("[\u202a-\u202e\u2066-\u2069]")
_NEEDS_ISOLATION = frozenset({"R", "AL", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})


def balance_bidi(text: str) -> str:
    """Drop the bidi controls that close what the text never opened, and close
    what it leaves open, so that no override or isolate reaches past the text
    (a stray PDI would otherwise end the <bdi> around it)."""
    if not _BIDI_CONTROL.search(text):
        return text
    kept, open_ = [], []
    for c in text:
        if c in _EMBEDDINGS or c in _ISOLATES:
            open_.append(c)
        elif c == _PDF:
            if not open_ or open_[-1] not in _EMBEDDINGS:
                continue
            open_.pop()
        elif c == _PDI:
            if not any(o in _ISOLATES for o in open_):
                continue
            while open_.pop() not in _ISOLATES:  # a PDI also ends the embeddings inside
                pass
        kept.append(c)
    return "".join(kept) + "".join(_PDI if o in _ISOLATES else _PDF for o in reversed(open_))


def isolate(text: str) -> str:
    """Record text where a <bdi> cannot go (<title>) or would change markup: set
    between FSI and PDI when it holds right-to-left letters or bidi controls,
    so it cannot reorder the text around it. Other text is left as it is."""
    if not text.isascii() and any(unicodedata.bidirectional(c) in _NEEDS_ISOLATION for c in text):
        return f"\u2068{balance_bidi(text)}\u2069"  # (no ASCII character is right-to-left or a control)
    return text
