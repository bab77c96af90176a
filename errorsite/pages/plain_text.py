"""What a record's page shows as plain text rather than as HTML: Markdown
whose HTML would outgrow its text, and code a lexer takes too long over.

Decided once a record is valid, by the record step (records.py) and by
`check` alike (`check_record`), so that `check` reports them as the build
does: each is a dropped value, the record still built. The page then shows the
same, and lexes each block once: the blocks highlighted here (markup.Blocks)
go with the record to its page (Shown).
"""
from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from ..markup import (HIGHLIGHT_SECONDS, NO_BLOCKS, Blocks, highlight_in_turn, lexer_for, markdown_limit,
                      markdown_overgrows, snippet_lexer)
from ..model import CODE_ATTRS, FIELDS, Record
from ..validate import Checked, check
from ..validate.issues import Issues


MARKDOWN_FIELDS = (("documentation", "documentation"), ("triggerScenarios", "trigger_scenarios"),
                   ("commonSituations", "common_situations"))
MARKDOWN_LISTS = (("solutions", "solutions"), ("preventionTips", "prevention_tips"))


class Shown(NamedTuple):
    """A checked record as its page shows it: the check, and the code blocks
    highlighted for it, which its page shows rather than lex them again."""
    checked: Checked
    blocks: Blocks


def check_record(path: str, data: object) -> Checked:
    """One record file's JSON checked as the build checks it: validated, then
    what its page shows as plain text."""
    return shown_plain(check(path, data)).checked


def shown_plain(checked: Checked) -> Shown:
    """`checked` with its record's `plain_code`, and what its page shows as
    plain text reported after its problems (capped as validate caps them),
    with the blocks highlighted for it. A rejected record has no page, and is
    left as it is."""
    record = checked.record
    if record is None:
        return Shown(checked, NO_BLOCKS)
    issues = Issues()
    check_markdown(record, issues)
    plain_code, blocks = slow_code(record, issues)
    if not issues.found:
        return Shown(checked, blocks)
    return Shown(Checked(replace(record, plain_code=plain_code),
                         checked.problems + issues.problems(record.source_file, dropped=True)), blocks)


def check_markdown(record: Record, issues: Issues) -> None:
    """Prose whose HTML would grow out of proportion (one long link used many
    times) is shown as plain text: reported, the value kept."""
    texts = [(key, getattr(record, attr)) for key, attr in MARKDOWN_FIELDS if getattr(record, attr)]
    texts += [(f"{key}[{i}]", item) for key, attr in MARKDOWN_LISTS for i, item in enumerate(getattr(record, attr))]
    for key, text in texts:
        size = markdown_overgrows(text)
        if size is not None:
            issues.drop(key, f"its Markdown makes {size} characters of HTML, over {markdown_limit(text)}: "
                             "shown as plain text")


def slow_code(record: Record, issues: Issues) -> tuple[tuple[str, ...], Blocks]:
    """The code fields to show as plain text, and the blocks highlighted. A
    record's code blocks share one time budget (HIGHLIGHT_SECONDS),
    highlighted one after the other; the lexer still running when it is spent
    is stopped, and that block and every one after it are shown plain,
    reported once, on the field where the budget ran out."""
    blocks = [(field, code, lexer_for(record.file_path) if field.attr == "source_code"
               else snippet_lexer(code, record.file_path))
              for field in FIELDS if field.attr in CODE_ATTRS and (code := getattr(record, field.attr))]
    made, highlighted = highlight_in_turn([(code, lexer) for _, code, lexer in blocks], HIGHLIGHT_SECONDS)
    if made == len(blocks):
        return (), highlighted
    field, _, lexer = blocks[made]
    after = [later.key for later, _, _ in blocks[made + 1:]]
    issues.drop(field.key, f"highlighting with the {lexer.name} lexer took over the {HIGHLIGHT_SECONDS:g} s "
                           "the record's code shares; shown as plain text"
                           f"{f', and so {and_list(after)}' if after else ''}")
    return tuple(later.attr for later, _, _ in blocks[made:]), highlighted


def and_list(keys: list[str]) -> str:
    """"is typeGuard", "are typeGuard and tryCatchPattern"."""
    return f"is {keys[0]}" if len(keys) == 1 else f"are {', '.join(keys[:-1])} and {keys[-1]}"
