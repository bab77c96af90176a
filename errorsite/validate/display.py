"""What the page will show as plain text: Markdown whose HTML would outgrow its
text, and code a lexer takes too long over. Found here, so that `check`
reports them as the build does."""
from __future__ import annotations

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
    """The code fields a lexer takes too long over, to be shown as plain text
    (the lexer is stopped when its time is up)."""
    slow = []
    for field in (field for field in FIELDS if field.attr in CODE_ATTRS and v[field.attr]):
        code = v[field.attr]
        lexer = lexer_for(v["file_path"]) if field.attr == "source_code" else snippet_lexer(code, v["file_path"])
        if highlight_stalls(code, lexer):
            issues.drop(field.key, f"highlighting with the {lexer.name} lexer took over {HIGHLIGHT_SECONDS:g} s; "
                                   "shown as plain text")
            slow.append(field.attr)
    return tuple(slow)
