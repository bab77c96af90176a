"""Pygments' RegexLexer, token for token, in about a third of the time.

A RegexLexer state is a list of rules, and Pygments tries them one by one in
Python at each position: about twenty `match` calls for every token of C or
Python, most of them for rules that cannot match there because their match
cannot start with the character at hand (a string's quote, a keyword's first
letter, a comment's slash). Here each state keeps, by character, the rules
whose match can start with it, in their order, and tries only those. It picks
the same rule: a rule left out would have failed where it stands, so the
first rule that matches is the same. At the end of the text only the rules
that can match nothing are tried; at a character outside ASCII, every rule.

What a match can start with is read from the re module's own parse of the
pattern: the first one-character items it can meet (stepping over anchors,
lookarounds, and items that may repeat zero times), each compiled alone with
the flags it has there, so that case folding, `.`, and the categories behave
as in the whole pattern. A pattern that can match the empty string, or holds
what is not worked out (a back-reference), can start with any character.

The loop below is Pygments 2.21's RegexLexer.get_tokens_unprocessed with the
rules looked up by character; tests/test_lexing.py holds the two to the same
tokens for every RegexLexer Pygments has. install() puts it in place for
this process, on that Pygments only: another one may have changed the loop.
Lexers that override the method (CLexer adds its own pass) call
RegexLexer's, so they get it too.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

import pygments
from pygments.lexer import RegexLexer
from pygments.token import Error, Whitespace, _TokenType

try:  # the re module's own parser (private): without it, Pygments' loop stays in place
    from re import _compiler, _parser
    from re._constants import (ANY, ASSERT, ASSERT_NOT, AT, ATOMIC_GROUP, BRANCH, IN, LITERAL, MAX_REPEAT,
                               MIN_REPEAT, NOT_LITERAL, POSSESSIVE_REPEAT, SUBPATTERN)
except ImportError:
    _parser = None

STOCK = RegexLexer.get_tokens_unprocessed
MIRRORED = "2.21."  # the Pygments whose loop get_tokens_unprocessed below is

Starts = Callable[[str], bool]


def install() -> bool:
    """Whether the rules by character are now in place (only on the Pygments mirrored)."""
    if pygments.__version__.startswith(MIRRORED) and _parser is not None:
        RegexLexer.get_tokens_unprocessed = get_tokens_unprocessed
    return RegexLexer.get_tokens_unprocessed is get_tokens_unprocessed


def uninstall() -> None:
    RegexLexer.get_tokens_unprocessed = STOCK


def first_characters(rule: tuple) -> Starts | None:
    """Whether a match of the rule's pattern can start with a character; None
    when it can start with any, or match nothing, or is not worked out."""
    pattern = getattr(rule[0], "__self__", None)
    if not isinstance(pattern, re.Pattern) or not isinstance(pattern.pattern, str):
        return None
    return _pattern_starts(pattern.pattern, pattern.flags)


class _Unknown(Exception):
    """A part of a pattern whose first character is not worked out."""


@lru_cache(maxsize=None)  # states share rules (include()), and lexers share patterns
def _pattern_starts(source: str, flags: int) -> Starts | None:
    try:
        parsed = _parser.parse(source, flags)
        leaves: list = []
        if _can_be_empty(parsed, parsed.state.flags, leaves):
            return None
        matchers = [_one_character(leaf, leaf_flags) for leaf, leaf_flags in leaves]
    except (_Unknown, re.error, RecursionError, TypeError, ValueError):  # not understood: any character
        return None
    return lambda char: any(match(char) for match in matchers)


def _can_be_empty(items, flags: int, leaves: list) -> bool:
    """Whether the parsed `items` can match the empty string; adds to `leaves`
    each one-character item (with its flags) that their match can start with."""
    for op, av in items:
        if op in (LITERAL, NOT_LITERAL, IN, ANY):
            leaves.append(((op, av), flags))
            return False
        if op in (AT, ASSERT, ASSERT_NOT):  # zero-width: what follows is what the match starts with
            continue
        if op is BRANCH:
            empty = [_can_be_empty(branch, flags, leaves) for branch in av[1]]  # every branch's leaves
            if not any(empty):
                return False
        elif op is SUBPATTERN:
            _, added, removed, inner = av  # a scoped (?a:) keeps UNICODE beside ASCII: wider, never narrower
            if not _can_be_empty(inner, (flags | added) & ~removed, leaves):
                return False
        elif op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT):
            least, _, inner = av
            if not _can_be_empty(inner, flags, leaves) and least > 0:
                return False
        elif op is ATOMIC_GROUP:
            if not _can_be_empty(av, flags, leaves):
                return False
        else:  # a back-reference, a conditional group
            raise _Unknown(op)
    return True


_compiled_leaves: dict[tuple[str, int], Callable[[str], object]] = {}  # many patterns start alike (\s, [a-zA-Z_])


def _one_character(leaf: tuple, flags: int) -> Callable[[str], object]:
    """A one-character item of a parsed pattern compiled alone, with its flags."""
    key = (repr(leaf), flags)  # the item holds lists, which do not hash
    if key not in _compiled_leaves:
        state = _parser.State()
        state.flags = flags
        _compiled_leaves[key] = _compiler.compile(_parser.SubPattern(state, [leaf]), flags).fullmatch
    return _compiled_leaves[key]


class _ByCharacter(dict):
    """A state's rules that can match at a character, in their order: kept
    for ASCII characters; at any other, every rule is tried, as Pygments
    does, so that what is kept stays small whatever characters a text holds."""

    def __init__(self, rules: list[tuple]):
        super().__init__()
        self.rules = [(rule, first_characters(rule)) for rule in rules]
        self.every = tuple(rules)
        self.at_end = tuple(rule for rule, starts in self.rules if starts is None)

    def __missing__(self, char: str) -> tuple:
        if not char.isascii():
            return self.every
        rules = self[char] = tuple(rule for rule, starts in self.rules if starts is None or starts(char))
        return rules


class _Plan(dict):
    """State name → _ByCharacter, each state planned when the lexer first enters it."""

    def __init__(self, tokens: dict):
        super().__init__()
        self.tokens = tokens

    def __missing__(self, state: str) -> _ByCharacter:
        planned = self[state] = _ByCharacter(self.tokens[state])
        return planned


_plans: dict[int, _Plan] = {}


def _plan(lexer: RegexLexer) -> _Plan:
    tokens = lexer._tokens  # the class's; CSharpLexer's instances have their own
    plan = _plans.get(id(tokens))  # the plan keeps its table alive: no other table gets that id
    if plan is None:
        plan = _plans[id(tokens)] = _Plan(tokens)
    return plan


def get_tokens_unprocessed(self, text, stack=("root",)):
    pos = 0
    plan = _plan(self)
    statestack = list(stack)
    statetokens = plan[statestack[-1]]
    while 1:
        try:
            rules = statetokens[text[pos]]
        except IndexError:
            rules = statetokens.at_end
        for rexmatch, action, new_state in rules:
            m = rexmatch(text, pos)
            if m:
                if action is not None:
                    if type(action) is _TokenType:
                        yield pos, action, m.group()
                    else:
                        yield from action(self, m)
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
                    statetokens = plan[statestack[-1]]
                break
        else:
            # no rule matched
            try:
                if text[pos] == "\n":
                    # at EOL, reset state to "root"
                    statestack = ["root"]
                    statetokens = plan["root"]
                    yield pos, Whitespace, "\n"
                    pos += 1
                    continue
                yield pos, Error, text[pos]
                pos += 1
            except IndexError:
                break
