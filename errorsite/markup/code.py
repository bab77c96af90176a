"""Code → highlighted HTML lines: Pygments (with the lexer lexers.py picks)
run under a time budget, the block shown as plain text when the lexer is too
slow."""
from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Iterable, Iterator, Mapping, NamedTuple

from markupsafe import Markup
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import TextLexer
from pygments.token import STANDARD_TYPES, Text, Whitespace, _TokenType

from ..process import budget
from ..text import line_ends


class CodeLine(NamedTuple):
    number: int
    html: Markup
    marked: bool


_PLAIN_LEXER = TextLexer(stripnl=False, ensurenl=False)  # escapes, and makes no spans: linear in the text
_FORMATTER = HtmlFormatter(nowrap=True)
_THEMES = ("default", "github-dark")  # light, and dark under prefers-color-scheme (pygments_css)
# A record's budget: its code blocks are highlighted one after the other
# within it, and a lexer still running when it is spent is stopped, that
# block and the ones after it shown plain (plain_text.slow_code). One
# budget a record, not a block, so that a record's work is bounded whatever
# its number of blocks.
HIGHLIGHT_SECONDS = 2.0  # of CPU time (process/budget.py): the same on a busy machine

# A record's code blocks as highlighted: (code, lexer) → HTML, the code with
# its line ends as Pygments reads them (text.line_ends). Made by the record's
# check (plain_text.slow_code, through highlight_in_turn) and handed with the record
# to its page, which shows them rather than lex them again. Only the record's
# own: a block another record also holds is made for each, so what a record
# shows, and whether its budget ran out, depends on that record alone (not on
# the order records are checked in), and a corpus whose records share code, as
# the bench's do, costs what a real dataset's would. The lexer is the key by
# identity, which holds in the process that checks and renders the record:
# lexer_for and snippet_lexer give one lexer a kind.
Blocks = Mapping[tuple[str, Lexer], str]
NO_BLOCKS: Blocks = MappingProxyType({})


# Line numbers are a CSS counter (`ln`, one step per line), so a source line
# carries its id and nothing more. HTML cannot start a counter at a number
# without a style attribute, which the page's CSP forbids: the block opens with
# one empty element per non-zero digit of (first line - 1), each class adding
# its digit's worth (`s32` adds 2 * 10**3).
_COUNTER_DIGITS = 8  # lineNumber and sourceCodeStart stay below 10**7 (validate.limits)


def line_counter_start(first: int) -> Markup:
    """The empty elements that make the first line's number `first`."""
    offset = str(max(first - 1, 0))
    return Markup("".join(f'<i class="s{len(offset) - 1 - place}{digit}"></i>'
                          for place, digit in enumerate(offset) if digit != "0"))


def line_counter_css() -> str:
    """The rules line_counter_start's classes name."""
    return "\n".join(f".source-code .s{place}{digit} {{ counter-increment: ln {digit * 10 ** place}; }}"
                     for place in range(_COUNTER_DIGITS) for digit in range(1, 10)) + "\n"


def highlight_lines(code: str, lexer: Lexer, first: int = 1, marked: int | None = None,
                    last: int | None = None, plain: bool = False, made: Blocks = NO_BLOCKS) -> list[CodeLine]:
    """One CodeLine per source line. Pygments closes every span at a line end,
    so each line's HTML stands alone and can get its own anchor. A final
    newline ends the last line, unless the range (`first`..`last`) says the
    line after it, blank, is part of the snippet. `plain`: escaped, not
    highlighted. `made`: the record's blocks (Blocks), this one's HTML taken
    from them when they hold it."""
    code = line_ends(code)
    count = len(code.removesuffix("\n").split("\n"))
    if last is not None and last - first + 1 == count + 1 and code.endswith("\n"):
        count += 1
    lines = _code_html(code, lexer, plain, made).split("\n")[:count]
    return [CodeLine(first + i, Markup(line), first + i == marked) for i, line in enumerate(lines)]


def highlight_block(code: str, lexer: Lexer, plain: bool = False, made: Blocks = NO_BLOCKS) -> Markup:
    return Markup(_code_html(line_ends(code), lexer, plain, made).rstrip("\n"))


def highlight_stalls(code: str, lexer: Lexer, seconds: float = HIGHLIGHT_SECONDS) -> bool:
    """Whether `lexer` takes longer than `seconds` on `code`, so that the
    block is shown as plain text."""
    return highlight_in_turn([(code, lexer)], seconds)[0] == 0


def highlight_in_turn(blocks: list[tuple[str, Lexer]], seconds: float = HIGHLIGHT_SECONDS) -> tuple[int, Blocks]:
    """Highlights a record's blocks one after the other within one budget of
    `seconds` for them all: how many came through before the budget ran out
    (the index of the block stopped, or all of them), and the ones made
    (Blocks), for the record's page to show. A block the record holds twice
    is made once.

    One timer for them all, not one a block: arming and disarming it cost
    6% of the record step (0.1 of 1.55 CPU-ms a record, bench.record_step)."""
    keys = [(line_ends(code), lexer) for code, lexer in blocks]
    new = list(dict.fromkeys(keys))
    try:
        made = budget.run(seconds, _highlight_each, [(code, type(lexer), lexer.options) for code, lexer in new]) \
            if new else []
    except budget.OverBudget:
        made = []  # spent before any block, or just as the last one ended
    highlighted = dict(zip(new, made))
    return (next((index for index, key in enumerate(keys) if key not in highlighted), len(keys)),
            MappingProxyType(highlighted))


def _highlight_each(blocks: list[tuple[str, type[Lexer], dict]]) -> list[str]:
    """Each block's HTML in turn, under a budget (budget.run, here or in a
    helper process): when it runs out, the ones made so far."""
    made = []
    try:
        for code, lexer_class, options in blocks:
            made.append(_highlight_anew(code, lexer_class, options))
    except budget.OverBudget:
        pass
    return made


def _code_html(code: str, lexer: Lexer, plain: bool, made: Blocks) -> str:
    if plain:
        return _highlight(code, _PLAIN_LEXER)
    html = made.get((code, lexer))
    if html is None:
        html = _highlighted(code, lexer, HIGHLIGHT_SECONDS)
    return html if html is not None else _highlight(code, _PLAIN_LEXER)


def _highlighted(code: str, lexer: Lexer, seconds: float) -> str | None:
    """Pygments' HTML, or None when the lexer took longer than `seconds` (and
    was stopped): a block its record's check did not make (a page rendered
    without one)."""
    try:
        return budget.run(seconds, _highlight_anew, code, type(lexer), lexer.options)
    except budget.OverBudget:
        return None


def _highlight_anew(code: str, lexer_class: type[Lexer], options: dict) -> str:
    """_highlight with a lexer made where it runs: one unpickled in budget's
    helper process (off the main thread) would lack the rules its class
    compiles when it is first called."""
    return _highlight(code, _lexer_here(lexer_class, tuple(sorted(options.items()))))


@lru_cache(maxsize=256)
def _lexer_here(lexer_class: type[Lexer], options: tuple) -> Lexer:
    """A lexer made once a process for its class and options (ours are all
    made with stripnl and ensurenl, so the options are a key), as lexer_for's
    are: making one for each block was 1.5% of the record step (bench records,
    alternated in one process: 1.541 -> 1.518 CPU-ms a record)."""
    return lexer_class(**dict(options))


def _highlight(code: str, lexer: Lexer) -> str:
    ended = code if code.endswith("\n") else code + "\n"  # session lexers drop an unended last line
    return format_html(lexed(lexer, ended))


def lexed(lexer: Lexer, text: str) -> Iterator[tuple[int, _TokenType, str]]:
    """The tokens of lexer.get_tokens(text), as get_tokens_unprocessed gives
    them (index, type, value): without get_tokens' generator between lexer
    and format_html, which only drops the index, when the lexer has no
    filters and its own get_tokens: highlighting 5.5% faster (bench records,
    alternated in one process: 582-603 -> 550-564 us a record)."""
    if lexer.filters or type(lexer).get_tokens is not Lexer.get_tokens:
        return ((0, ttype, value) for ttype, value in lexer.get_tokens(text))
    return lexer.get_tokens_unprocessed(lexer._preprocess_lexer_input(text))  # what get_tokens lexes


def format_html(tokens: Iterable[tuple[int, _TokenType, str]]) -> str:
    """What HtmlFormatter(nowrap=True) writes for `tokens` (lexed's), byte for byte, once
    an unstyled token (_unstyled) or a blank one of a Whitespace type is made
    Text: its lines (each span closed at a line end) joined. Its steps are
    Pygments' _format_lines, in one loop over the tokens rather than generators
    of lines and pieces behind a filter: highlighting 0.91 -> 0.75 CPU-ms a
    record (bench.record_step at 10k)."""
    openers = _openers
    out: list[str] = []
    add, extend = out.append, out.extend
    lspan, line = "", False  # the span the current line has open; whether it holds anything
    for _, ttype, value in tokens:
        try:
            cspan, blank_is_text = openers[ttype]
        except KeyError:
            cspan, blank_is_text = openers[ttype] = _span_opener(ttype)
        if blank_is_text and cspan and value.isspace():
            cspan = ""
        if "&" in value or "<" in value or ">" in value:
            value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        if "\n" in value:
            parts = value.split("\n")
            for part in parts[:-1]:
                if line:
                    if lspan != cspan and part:
                        extend(((lspan and "</span>"), cspan, part, (cspan and "</span>"), "\n"))
                    else:
                        extend((part, (lspan and "</span>"), "\n"))
                    line = False
                elif part:
                    extend((cspan, part, (cspan and "</span>"), "\n"))
                else:
                    add("\n")
            value = parts[-1]
        if not value:
            continue
        if not line:
            extend((cspan, value))
            lspan, line = cspan, True
        elif lspan != cspan:
            extend(((lspan and "</span>"), cspan, value))
            lspan = cspan
        else:
            add(value)
    if line:
        extend(((lspan and "</span>"), "\n"))
    return "".join(out)


_openers: dict[_TokenType, tuple[str, bool]] = {}  # format_html's, by token type


def _span_opener(ttype: _TokenType) -> tuple[str, bool]:
    """The span a token of `ttype` opens ("" for none, as Text's), and whether a
    blank one is shown as Text (a Whitespace type)."""
    css_class = _FORMATTER._get_css_classes(Text if ttype in _unstyled() else ttype)
    return (f'<span class="{css_class}">' if css_class else ""), ttype in Whitespace


@lru_cache(maxsize=1)
def _unstyled() -> frozenset[_TokenType]:
    """The token types whose span would change nothing in either theme: no
    rule, or only the colour the block's text has anyway. Their text goes
    out unwrapped, as does whitespace (a colour on blanks shows nothing);
    a span per name and per run of blanks was most of a code block's bytes."""
    plain = set()
    for ttype in STANDARD_TYPES:
        looks = []
        for theme in _THEMES:
            formatter = HtmlFormatter(style=theme)
            text = formatter.class2style.get("", ("",))[0]  # the block's own colour (.highlight)
            cls = formatter.ttype2class.get(ttype)
            looks.append(cls == "" or formatter.class2style.get(cls, ("",))[0] in ("", text))
        if all(looks):
            plain.add(ttype)
    return frozenset(plain)


def pygments_css() -> str:
    """The light theme, and the dark one under prefers-color-scheme."""
    light, dark = (HtmlFormatter(style=theme).get_style_defs(".highlight") for theme in _THEMES)
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"
