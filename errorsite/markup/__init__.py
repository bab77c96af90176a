"""Turn record text into safe HTML: markdown prose and highlighted code.

Every string here is untrusted. Markdown runs with raw HTML off and a link
filter (prose.py); Pygments escapes the code it is given (code.py). Both
return markupsafe.Markup so templates insert them once, unescaped, and never
wrap them again; lexing.py puts in place Pygments' RegexLexer loop with each
state's rules looked up by character (install()), the same tokens. Text that
stays text (its lines, its bidi controls) is text.py's, below both markup
and validate.
"""
from __future__ import annotations

from .code import (HIGHLIGHT_SECONDS, NO_BLOCKS, Blocks, CodeLine, highlight_block, highlight_in_turn,
                   highlight_lines, highlight_stalls, line_counter_css, line_counter_start, pygments_css)
from .lexers import lexer_for, looks_like_shell, snippet_lexer
from .prose import (MARKDOWN_GROWTH, SAFE_SCHEMES, is_safe_link, markdown, markdown_limit, markdown_overgrows,
                    plain_text, shorten, summary)

__all__ = ["HIGHLIGHT_SECONDS", "MARKDOWN_GROWTH", "NO_BLOCKS", "SAFE_SCHEMES", "Blocks", "CodeLine", "highlight_block",
           "highlight_in_turn", "highlight_lines", "highlight_stalls", "is_safe_link", "lexer_for", "line_counter_css",
           "line_counter_start", "looks_like_shell", "markdown", "markdown_limit", "markdown_overgrows", "plain_text",
           "pygments_css", "shorten", "snippet_lexer", "summary"]
