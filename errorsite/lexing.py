"""Pygments' RegexLexer, token for token, in about half the time.

A RegexLexer state is a list of rules, and Pygments tries them one by one in
Python: about twenty `match` calls for every token of C or Python. Here each
state's rules are joined into one alternation, `(rule1)|(rule2)|…`, so the
regex engine tries them instead. It picks the same rule: alternatives are tried
in order at the same position and nothing follows them, so the first rule that
matches wins, matching just what it matches alone. `lastindex` (the outermost
group, which closes last) names the rule.

A rule joins only when that reasoning holds for it: a plain compiled pattern,
with the lexer's flags (or global flags at its start, which become scoped
ones), no named groups and no back-references, whose numbers the join would
shift. Any other rule is tried on its own, where it stands. A rule's callback
gets the match of its own pattern, as in Pygments.

The loop below is Pygments 2.21's RegexLexer.get_tokens_unprocessed with the
rule search replaced; tests/test_lexing.py holds the two to the same tokens for
every RegexLexer Pygments has. install() puts it in place for this process,
on that Pygments only: another one may have changed the loop. Lexers that
override the method (CLexer adds its own pass) call RegexLexer's, so they get
it too.
"""
from __future__ import annotations

import re
from functools import lru_cache

import pygments
from pygments.lexer import RegexLexer
from pygments.token import Error, Whitespace, _TokenType

STOCK = RegexLexer.get_tokens_unprocessed
MIRRORED = "2.21."  # the Pygments whose loop get_tokens_unprocessed below is

# Conservative: a pattern that merely looks as if it refers to a group is tried alone.
_REFERS_TO_GROUP = re.compile(r"\\[1-9]|\(\?P=|\(\?\(")
_LEADING_FLAGS = re.compile(r"\(\?([imsx]+)\)")
_FLAG_BITS = {"i": re.I, "m": re.M, "s": re.S, "x": re.X}


def install() -> bool:
    """Whether the joined rules are now in place (only on the Pygments mirrored)."""
    if pygments.__version__.startswith(MIRRORED):
        RegexLexer.get_tokens_unprocessed = get_tokens_unprocessed
    return RegexLexer.get_tokens_unprocessed is get_tokens_unprocessed


def uninstall() -> None:
    RegexLexer.get_tokens_unprocessed = STOCK


def _alternative(rule: tuple, flags: int) -> str | None:
    """The rule's pattern as one group of an alternation compiled with
    `flags`, or None when it cannot join one."""
    pattern = getattr(rule[0], "__self__", None)
    if not isinstance(pattern, re.Pattern) or not isinstance(pattern.pattern, str) or pattern.groupindex:
        return None
    source = pattern.pattern
    if source == "":  # Pygments' default(): compiled without the lexer's flags, which cannot matter
        return "()"
    if _REFERS_TO_GROUP.search(source):
        return None
    leading = _LEADING_FLAGS.match(source)
    scoped = leading.group(1) if leading else ""
    expected = flags
    for letter in scoped:
        expected |= _FLAG_BITS[letter]
    if pattern.flags != expected:
        return None
    body = source[leading.end():] if leading else source
    if expected & re.X:
        body += "\n"  # a trailing comment would swallow the closing parenthesis
    return f"((?{scoped}:{body}))" if scoped else f"({body})"


@lru_cache(maxsize=None)  # states often share their rules through include()
def _joined(alternatives: tuple[str, ...], flags: int):
    try:
        return re.compile("|".join(alternatives), flags).match
    except re.error:  # legal alone, not inside a group (global flags after the first ones): keep apart
        return None


def _steps(rules: list[tuple], flags: int) -> list[tuple]:
    """A state's rules as steps to try in order: (match, rule) for a rule tried
    alone; (match, owners) for joined rules, where owners[m.lastindex] is the rule."""
    steps, run = [], []

    def close_run():
        match = _joined(tuple(alternative for alternative, _ in run), flags) if len(run) > 1 else None
        if match is None:  # one rule, or a run the re module would not join
            steps.extend((rule[0], rule) for _, rule in run)
        else:
            owners = [None]
            for _, rule in run:
                owners += [rule] + [None] * rule[0].__self__.groups
            steps.append((match, owners))
        run.clear()

    for rule in rules:
        alternative = _alternative(rule, flags)
        if alternative is None:
            close_run()
            steps.append((rule[0], rule))
        else:
            run.append((alternative, rule))
    close_run()
    return steps


class _Plan(dict):
    """State name → steps, each state planned when the lexer first enters it."""

    def __init__(self, tokens: dict, flags: int):
        super().__init__()
        self.tokens, self.flags = tokens, flags

    def __missing__(self, state: str) -> list[tuple]:
        steps = self[state] = _steps(self.tokens[state], self.flags)
        return steps


_plans: dict[int, _Plan] = {}


def _plan(lexer: RegexLexer) -> _Plan:
    tokens = lexer._tokens  # the class's; CSharpLexer's instances have their own
    plan = _plans.get(id(tokens))  # the plan keeps its table alive: no other table gets that id
    if plan is None:
        plan = _plans[id(tokens)] = _Plan(tokens, re.compile("", type(lexer).flags).flags)
    return plan


def get_tokens_unprocessed(self, text, stack=("root",)):
    pos = 0
    plan = _plan(self)
    statestack = list(stack)
    steps = plan[statestack[-1]]
    while 1:
        for match, rule in steps:
            m = match(text, pos)
            if m:
                if type(rule) is list:  # joined rules: which one matched
                    group = m.lastindex
                    rexmatch, action, new_state = rule[group]
                else:
                    group = 0
                    rexmatch, action, new_state = rule
                if action is not None:
                    if type(action) is _TokenType:
                        yield pos, action, m.group(group)
                    else:  # a callback numbers the groups of its own pattern
                        yield from action(self, rexmatch(text, pos) if group else m)
                pos = m.end()
                if new_state is not None:
                    # state transition
                    if isinstance(new_state, tuple):
                        for state in new_state:
                            if state == "#pop":
                                if len(statestack) > 1:
                                    statestack.pop()
                            elif state == "#push":
                                statestack.append(statestack[-1])
                            else:
                                statestack.append(state)
                    elif isinstance(new_state, int):
                        # pop, but keep at least one state on the stack
                        if abs(new_state) >= len(statestack):
                            del statestack[1:]
                        else:
                            del statestack[new_state:]
                    elif new_state == "#push":
                        statestack.append(statestack[-1])
                    else:
                        assert False, f"wrong state def: {new_state!r}"
                    steps = plan[statestack[-1]]
                break
        else:
            # no rule matched
            try:
                if text[pos] == "\n":
                    # at EOL, reset state to "root"
                    statestack = ["root"]
                    steps = plan["root"]
                    yield pos, Whitespace, "\n"
                    pos += 1
                    continue
                yield pos, Error, text[pos]
                pos += 1
            except IndexError:
                break
