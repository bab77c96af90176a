"""What the page will show as plain text: Markdown whose HTML would outgrow its
text, and code a lexer takes too long over. Found here, so that `check`
reports them as the build does."""
from __future__ import annotations

import time

from ..markup import HIGHLIGHT_SECONDS, highlight_stalls, lexer_for, markdown_limit, markdown_overgrows, snippet_lexer
from ..model import CODE_ATTRS, FIELDS
from .issues import Issues


MARKDOWN_FIELDS = (("documentation", "documentation"), ("triggerScenarios", "trigger_scenarios"),
                   ("commonSituations", "common_situations"))


def check_markdown(v: dict, issues: Issues) -> None:
    """Prose whose HTML would grow out of proportion (one long link used many
    times) is shown as plain text: reported, the value kept."""
    texts = [(key, v[attr]) for key, attr in MARKDOWN_FIELDS if v[attr]]
    texts += [(f"{key}[{i}]", item) for key, attr in (("solutions", "solutions"), ("preventionTips", "prevention_tips"))
              for i, item in enumerate(v[attr])]
    for key, text in texts:
        size = markdown_overgrows(text)
        if size is not None:
            issues.drop(key, f"its Markdown makes {size} characters of HTML, over {markdown_limit(text)}: "
                             "shown as plain text")


def slow_code(v: dict, issues: Issues) -> tuple[str, ...]:
    """The code fields to show as plain text. A record's code blocks share one
    time budget (HIGHLIGHT_SECONDS), each highlighted within what the ones
    before it left; the lexer still running when it is spent is stopped, and
    that block and every one after it are shown plain, reported once, on the
    field where the budget ran out."""
    blocks = [(field, v[field.attr]) for field in FIELDS if field.attr in CODE_ATTRS and v[field.attr]]
    left = HIGHLIGHT_SECONDS
    for index, (field, code) in enumerate(blocks):
        lexer = lexer_for(v["file_path"]) if field.attr == "source_code" else snippet_lexer(code, v["file_path"])
        started = time.monotonic()
        if not highlight_stalls(code, lexer, left):
            left -= time.monotonic() - started
            continue
        after = [later.key for later, _ in blocks[index + 1:]]
        issues.drop(field.key, f"highlighting with the {lexer.name} lexer took over the {HIGHLIGHT_SECONDS:g} s "
                               "the record's code shares; shown as plain text"
                               f"{f', and so {and_list(after)}' if after else ''}")
        return tuple(later.attr for later, _ in blocks[index:])
    return ()


def and_list(keys: list[str]) -> str:
    """"is typeGuard", "are typeGuard and tryCatchPattern"."""
    return f"is {keys[0]}" if len(keys) == 1 else f"are {', '.join(keys[:-1])} and {keys[-1]}"
