"""JavaScript's functions and comments, read by a small scanner (no JS parser
is vendored, and none may be installed for a test): it knows strings,
template literals with their ${…}, comments and regular expression literals,
and matches every bracket. A function is a `{` that opens the body of
`function name(…)`, of a method `name(…) {`, or of an arrow `… => {`.

`scan` fails (JSScanError) on a bracket it cannot match, so a construct it
misreads breaks the test by name rather than miscounting quietly."""
from __future__ import annotations

import re
from dataclasses import dataclass

NOT_FUNCTIONS = {"if", "for", "while", "switch", "catch", "with", "return", "typeof", "in", "of", "new",
                 "delete", "void", "throw", "case", "do", "else", "yield", "await", "instanceof"}
# After one of these (or nothing, or a punctuator but `)` `]` `}`) a `/` starts a regular expression.
BEFORE_REGEX = NOT_FUNCTIONS - {"if", "for", "while", "switch", "catch", "with"}
WORD = re.compile(r"[A-Za-z_$][\w$]*")
NUMBER = re.compile(r"\d[\w.]*|\.\d[\w.]*")


class JSScanError(ValueError):
    pass


@dataclass(frozen=True)
class Function:
    name: str
    first_line: int
    last_line: int
    wrapper: bool  # a function expression outside every block: the module's UMD factory or IIFE

    @property
    def lines(self) -> int:
        return self.last_line - self.first_line + 1


@dataclass(frozen=True)
class Token:
    kind: str    # "word", "number", "string", "punct"
    text: str
    line: int


@dataclass
class Scan:
    functions: list[Function]
    comments: list[tuple[int, str]]  # (first line, text)


def _skip_string(source: str, at: int, quote: str) -> int:
    """The index after the string that opens at `at`."""
    index = at + 1
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == quote:
            return index + 1
        if char == "\n":
            break
        index += 1
    raise JSScanError(f"unterminated string at offset {at}")


def _skip_regex(source: str, at: int) -> int:
    index, in_class = at + 1, False
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == "\n":
            break
        if char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "/" and not in_class:
            index += 1
            while index < len(source) and (source[index].isalnum() or source[index] == "_"):
                index += 1
            return index
        index += 1
    raise JSScanError(f"unterminated regular expression at offset {at}")


def _skip_template(source: str, at: int) -> tuple[int, bool]:
    """From inside a template literal at `at`: the index after its end (False)
    or after a `${` (True)."""
    index = at
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == "`":
            return index + 1, False
        if char == "$" and source.startswith("${", index):
            return index + 2, True
        index += 1
    raise JSScanError(f"unterminated template literal at offset {at}")


def _regex_may_start(previous: Token | None) -> bool:
    if previous is None:
        return True
    if previous.kind == "word":
        return previous.text in BEFORE_REGEX
    if previous.kind in ("number", "string"):
        return False
    return previous.text not in (")", "]", "}")


def _function_at(tokens: list[Token], opener_of: dict[int, int], depth: int) -> Function | None:
    """Whether the `{` about to be pushed (after `tokens`) opens a function's
    body: its name and first line, its last line left 0."""
    last = tokens[-1] if tokens else None
    if last is None:
        return None
    if last.text == "=>":
        before = opener_of.get(len(tokens) - 2, len(tokens) - 2)   # `(a, b) =>` or `a =>`
        first = tokens[before]
        name = _assigned_name(tokens[:before])
        return Function(name or f"<arrow at line {first.line}>", first.line, 0, wrapper=depth == 0)
    if last.text != ")":
        return None
    opened = opener_of[len(tokens) - 1]
    head = tokens[opened - 1] if opened else None
    if head is None:
        return None
    if head.kind == "word" and head.text == "function":
        name = _assigned_name(tokens[:opened - 1])
        return Function(name or f"<function at line {head.line}>", head.line, 0, wrapper=depth == 0)
    if head.kind == "word" and head.text not in NOT_FUNCTIONS:
        keyword = tokens[opened - 2] if opened > 1 else None
        if keyword is not None and keyword.text == "*":
            keyword = tokens[opened - 3] if opened > 2 else None
        declared = keyword is not None and keyword.text == "function"
        expression = declared and opened > 2 and tokens[opened - 3].text in ("(", "=", ",", ":", "return")
        first = keyword.line if declared else head.line
        return Function(head.text, first, 0, wrapper=depth == 0 and expression)
    return None


def _assigned_name(tokens: list[Token]) -> str | None:
    """`name = function…`, `name: function…`, `obj.name = (…) =>`: the name."""
    if len(tokens) >= 2 and tokens[-1].text in ("=", ":") and tokens[-2].kind in ("word", "string"):
        return tokens[-2].text.strip("'\"")
    return None


def scan(source: str) -> Scan:
    tokens: list[Token] = []
    opener_of: dict[int, int] = {}       # the index of a `)`/`]` token → the index of its opener
    stack: list[tuple[str, int, Function | None]] = []   # (bracket, token index, the function it opens)
    functions, comments = [], []
    index, line = 0, 1
    while index < len(source):
        char = source[index]
        if char == "\n":
            line += 1
            index += 1
        elif char.isspace():
            index += 1
        elif source.startswith("//", index):
            end = source.find("\n", index)
            end = len(source) if end < 0 else end
            comments.append((line, source[index + 2:end]))
            index = end
        elif source.startswith("/*", index):
            end = source.find("*/", index + 2)
            if end < 0:
                raise JSScanError(f"line {line}: unterminated comment")
            comments.append((line, source[index + 2:end]))
            line += source.count("\n", index, end)
            index = end + 2
        elif char in "'\"":
            end = _skip_string(source, index, char)
            tokens.append(Token("string", source[index:end], line))
            index = end
        elif char == "`" or (char == "}" and stack and stack[-1][0] == "${"):
            if char == "}":
                stack.pop()
            end, opened = _skip_template(source, index + 1)
            line += source.count("\n", index, end)
            tokens.append(Token("string", "`", line))
            if opened:
                stack.append(("${", len(tokens), None))
            index = end
        elif char == "/" and _regex_may_start(tokens[-1] if tokens else None):
            end = _skip_regex(source, index)
            tokens.append(Token("string", source[index:end], line))
            index = end
        elif match := WORD.match(source, index):
            tokens.append(Token("word", match.group(), line))
            index = match.end()
        elif match := NUMBER.match(source, index):
            tokens.append(Token("number", match.group(), line))
            index = match.end()
        elif source.startswith("=>", index):
            tokens.append(Token("punct", "=>", line))
            index += 2
        elif char in "([{":
            function = None
            if char == "{":
                depth = sum(1 for bracket, _, _ in stack if bracket in "{${")
                function = _function_at(tokens, opener_of, depth)
            stack.append((char, len(tokens), function))
            tokens.append(Token("punct", char, line))
            index += 1
        elif char in ")]}":
            if not stack or stack[-1][0] != {")": "(", "]": "[", "}": "{"}[char]:
                raise JSScanError(f"line {line}: {char!r} closes {stack[-1][0] if stack else 'nothing'!r}")
            _, opened, function = stack.pop()
            opener_of[len(tokens)] = opened
            tokens.append(Token("punct", char, line))
            if function is not None:
                functions.append(Function(function.name, function.first_line, line, function.wrapper))
            index += 1
        else:
            tokens.append(Token("punct", char, line))
            index += 1
    if stack:
        raise JSScanError(f"{stack[-1][0]!r} of token {stack[-1][1]} is never closed")
    return Scan(functions, comments)
