"""Markdown prose → safe HTML: raw HTML off, links filtered; and the plain
text and summaries made from it."""
from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markupsafe import Markup, escape


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
        return Markup("<p>" + _CODE_SPAN.sub(r"<code>\1</code>", escapeHtml(text)) + "</p>\n")
    html = _markdown_html(text)
    return Markup(html) if html is not None else Markup(f"<p>{escape(text)}</p>\n")


def markdown_overgrows(text: str) -> int | None:
    """The size of the HTML `text` would make, when markdown() shows it as plain text instead."""
    if _PLAIN.match(text) or _markdown_html(text) is not None:
        return None
    return len(_MD.renderer.render(_parsed(text), _MD.options, {}))


def markdown_limit(text: str) -> int:
    return MARKDOWN_GROWTH * len(text) + 200


@lru_cache(maxsize=64)  # pages/plain_text.py measures a record's prose, then render shows it
def _markdown_html(text: str) -> str | None:
    html = _MD.renderer.render(_parsed(text), _MD.options, {})  # what _MD.render does
    return html if len(html) <= markdown_limit(text) else None


# Prose with none of Markdown's syntax but code spans (`name`) and
# underscores inside words (snake_case) is one paragraph of itself, and most
# prose here is such (a sentence naming a function): it is written as
# `<p>text</p>`, escaped as markdown-it escapes, its spans as <code>, without
# running markdown-it's parser over it. Starting with a letter or a
# one-backtick span rules out every block marker, the characters allowed
# outside spans start no inline syntax, an underscore between letters or
# digits opens and closes no emphasis, a span is not next to another (two
# backticks would be one run), and its text has no backtick, control
# character, or space at either end (which CommonMark would strip). Its HTML
# cannot outgrow markdown_limit. tests/test_markup.py checks that the output
# is markdown-it's on generated text.
_SPAN = r"`[^`\s\x00-\x1f](?:[^`\x00-\x1f]*[^`\s\x00-\x1f])?`(?!`)"
_WORD_UNDERSCORE = r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])"
_PLAIN = re.compile(rf"(?:[A-Za-z]|{_SPAN})(?:[A-Za-z0-9 ,.;:'\"()?/%=@$-]++|{_WORD_UNDERSCORE}|{_SPAN})*+(?<! )\Z")
_CODE_SPAN = re.compile(r"`([^`]+)`")  # in text that _PLAIN matched


@lru_cache(maxsize=8)  # a record's documentation is parsed for its summary, then for its page
def _parsed(text: str) -> list:
    return _MD.parse(text, {})


def plain_text(text: str) -> str:
    """Markdown source → its visible text on one line (for summaries and meta tags)."""
    if _PLAIN.match(text):
        return " ".join(_CODE_SPAN.sub(r"\1", text).split())
    return _parsed_text(text)


def _parsed_text(text: str) -> str:
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
