"""Turn record text into safe HTML: markdown prose and highlighted code.

Every string here is untrusted. Markdown runs with raw HTML off and a link
filter; Pygments escapes the code it is given. Both return markupsafe.Markup so
templates insert them once, unescaped, and never wrap them again.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import BashSessionLexer, TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound

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


def markdown(text: str) -> Markup:
    return Markup(_MD.render(text))


def plain_text(text: str) -> str:
    """Markdown source → its visible text on one line (for summaries and meta tags)."""
    words = []
    for token in _MD.parse(text):
        for child in token.children or ():
            if child.type in ("text", "code_inline"):
                words.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                words.append(" ")
        words.append(" ")  # between paragraphs and list items
    return " ".join("".join(words).split())


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


@lru_cache(maxsize=256)
def lexer_for(file_path: str | None) -> Lexer:
    try:
        return get_lexer_for_filename(file_path or "", stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


def looks_like_shell(code: str) -> bool:
    return code.lstrip().startswith(("$ ", "% "))


def snippet_lexer(code: str, file_path: str | None) -> Lexer:
    """The record's language, unless the snippet is clearly a shell session."""
    if looks_like_shell(code):
        return BashSessionLexer(stripnl=False, ensurenl=False)
    return lexer_for(file_path)


_FORMATTER = HtmlFormatter(nowrap=True)


def highlight_lines(code: str, lexer: Lexer, first: int = 1, marked: int | None = None) -> list[CodeLine]:
    """One CodeLine per source line. Pygments closes every span at a line end,
    so each line's HTML stands alone and can get its own anchor."""
    code = code.replace("\r\n", "\n").replace("\r", "\n")  # as Pygments reads it
    count = len(code.removesuffix("\n").split("\n"))
    ended = code if code.endswith("\n") else code + "\n"  # session lexers drop an unended last line
    lines = highlight(ended, lexer, _FORMATTER).split("\n")[:count]
    return [CodeLine(first + i, Markup(line), first + i == marked) for i, line in enumerate(lines)]


def highlight_block(code: str, lexer: Lexer) -> Markup:
    ended = code if code.endswith("\n") else code + "\n"  # session lexers drop an unended last line
    return Markup(highlight(ended, lexer, _FORMATTER).rstrip("\n"))


def pygments_css() -> str:
    """The light theme, and the dark one under prefers-color-scheme."""
    light = HtmlFormatter(style="default").get_style_defs(".highlight")
    dark = HtmlFormatter(style="github-dark").get_style_defs(".highlight")
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"
