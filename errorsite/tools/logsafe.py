"""Lines for a CI log: what a runner would take for a command, made inert.

A CI runner reads a step's output for commands: GitHub's acts on `##[name]…`
anywhere in a line and on `::name::…` at a line's start (after spaces), and
Azure Pipelines on `##vso[…]`. A record's text and its file's name reach the
lines the commands print (`path: field: message`, a quoted value, a render
failure), so a record could mask a secret in the log, stop its commands or
forge an annotation. `defuse` is the one rule: every line that may hold
record text goes through it before it is printed, in every format.

It changes only the character that starts a command: by default a
zero-width space after it (`#\u200b#[`, `:\u200b:`), which a reader does not
see and no runner matches; JSON lines pass `json_mark`, an escape that a JSON
reader turns back into the very same text.
"""
from __future__ import annotations

import re
from typing import Callable

ZERO_WIDTH_SPACE = "\u200b"
# Where a line ends for a runner or a terminal: .NET's ReadLine splits on
# \r and \n; the others end a line for Python's splitlines and some viewers.
_LINE_BREAKS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_COMMAND_START = re.compile(
    r"#(?=#(?:vso)?\[)"                                   # `##[…]`, `##vso[…]`: anywhere in a line
    rf"|(?:^|(?<=[{_LINE_BREAKS}]))[^\S{_LINE_BREAKS}]*:(?=:)")  # `::…`: first on a line, after spaces


def visible_mark(char: str) -> str:
    return char + ZERO_WIDTH_SPACE


def json_mark(char: str) -> str:
    """The character as a JSON string escape: the same text once parsed."""
    return f"\\u{ord(char):04x}"


def defuse(text: str, mark: Callable[[str], str] = visible_mark) -> str:
    """`text` with every place a CI runner would read as the start of a
    command broken by `mark` (given the command's first character)."""
    if "#" not in text and ":" not in text:  # nearly every line: nothing to look for
        return text
    return _COMMAND_START.sub(lambda found: found[0][:-1] + mark(found[0][-1]), text)
