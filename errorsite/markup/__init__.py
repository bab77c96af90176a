"""Turn record text into safe HTML: markdown prose and highlighted code.

Every string here is untrusted. Markdown runs with raw HTML off and a link
filter (prose.py); Pygments escapes the code it is given (code.py). Both
return markupsafe.Markup so templates insert them once, unescaped, and never
wrap them again. bidi.py keeps right-to-left text and bidi controls inside
the text that holds them.
"""
from __future__ import annotations

from .bidi import balance_bidi, isolate
from .code import (HIGHLIGHT_SECONDS, CodeLine, highlight_block, highlight_lines, highlight_stalls, lexer_for,
                   line_count, line_counter_css, line_counter_start, line_ends,
                   looks_like_shell, pygments_css, snippet_lexer)
from .prose import (MARKDOWN_GROWTH, SAFE_SCHEMES, is_safe_link, markdown, markdown_limit, markdown_overgrows,
                    plain_text, shorten, summary)

__all__ = ["HIGHLIGHT_SECONDS", "MARKDOWN_GROWTH", "SAFE_SCHEMES", "CodeLine", "balance_bidi", "highlight_block",
           "highlight_lines", "highlight_stalls", "is_safe_link", "isolate", "lexer_for", "line_count", "line_counter_css",
           "line_counter_start", "line_ends", "looks_like_shell", "markdown", "markdown_limit", "markdown_overgrows", "plain_text", "pygments_css",
           "shorten", "snippet_lexer", "summary"]
