"""The lexer for a record's code: the one Pygments picks by the file's name,
or a shell session's for a snippet that clearly is one. Found without asking
Pygments, whose search scans (and compiles) every lexer's patterns."""
from __future__ import annotations

import fnmatch
import re
from functools import lru_cache

from pygments.lexer import Lexer
from pygments.lexers import LEXERS, BashSessionLexer, TextLexer, find_lexer_class
from pygments.plugin import find_plugin_lexers
from pygments.util import ClassNotFound


def lexer_for(file_path: str | None) -> Lexer:
    # Pygments picks a lexer by the file's base name alone, and finding it scans
    # every lexer's patterns: cache by base name, which repeats far more than
    # whole paths do (lib.rs, errors.go, index.js).
    return _lexer_for_name(base_name(file_path or ""))


def base_name(path: str) -> str:
    """PurePosixPath(path).name, without making one: a record's lexer is looked
    up many times, and pathlib's objects showed in the record step's profile
    (bench.record_step)."""
    return next((part for part in reversed(path.split("/")) if part not in ("", ".")), "")


@lru_cache(maxsize=16384)
def _lexer_for_name(name: str) -> Lexer:
    # Most base names are new to a build, but they fall into a few dozen kinds:
    # Pygments' choice depends only on which of its filename patterns match, so
    # names matching the same ones share a lexer.
    return _lexer_for_matches(_matching_patterns(name))


@lru_cache(maxsize=1024)
def _lexer_for_matches(matches: tuple[tuple[str, str], ...]) -> Lexer:
    return _chosen_class(matches)(stripnl=False, ensurenl=False)


def _chosen_class(matches: tuple[tuple[str, str], ...]) -> type[Lexer]:
    """The lexer class Pygments' get_lexer_for_filename picks among these
    matches (given no code: by priority, a bonus for a pattern without `*`,
    then class name; the last of equals). Asking Pygments itself would compile
    every one of its patterns in every process."""
    if not matches:
        return TextLexer
    rated = sorted(((_lexer_class(lexer), glob) for lexer, glob in matches),
                   key=lambda match: (match[0].priority + (0.5 if "*" not in match[1] else 0), match[0].__name__))
    return rated[-1][0]


def _lexer_class(lexer: str) -> type[Lexer]:
    """A lexer class by the name _patterns_by_tail gives it: Pygments' name for its
    own lexers, module and qualified name for a plugin's."""
    found = _plugin_lexers().get(lexer) or find_lexer_class(lexer)
    if found is None:
        raise ClassNotFound(f"no lexer named {lexer!r}")
    return found


def _matching_patterns(name: str) -> tuple[tuple[str, str], ...]:
    """(lexer, pattern) for every filename pattern of Pygments' that `name`
    matches, in the order Pygments tries them, as it matches them (fnmatch).
    Only the patterns whose literal ending `name` ends with can match: one dict
    lookup per ending of `name`, instead of ~900 patterns for each new name."""
    by_tail = _patterns_by_tail()
    candidates = sorted(candidate for cut in range(len(name) + 1) for candidate in by_tail.get(name[cut:], ()))
    return tuple((lexer, glob) for _, lexer, glob in candidates if _glob_pattern(glob).match(name))


@lru_cache(maxsize=1)
def _patterns_by_tail() -> dict[str, list[tuple[int, str, str]]]:
    """Pygments' filename patterns (its lexers', then plugins', as
    find_lexer_class_for_filename goes) by the literal text each ends with,
    each with its place in that order."""
    globs = [(lexer, glob) for _, lexer, _, globs, _ in LEXERS.values() for glob in globs]
    globs += [(name, glob) for name, cls in _plugin_lexers().items() for glob in cls.filenames]
    by_tail: dict[str, list[tuple[int, str, str]]] = {}
    for order, (lexer, glob) in enumerate(globs):
        tail = re.split(r"[*?\]]", glob)[-1]
        by_tail.setdefault(tail, []).append((order, lexer, glob))
    return by_tail


@lru_cache(maxsize=1)  # finding them reads every installed package's entry points
def _plugin_lexers() -> dict[str, type[Lexer]]:
    """Plugin lexers by module and qualified name, in the order Pygments tries them."""
    return {f"{cls.__module__}.{cls.__qualname__}": cls for cls in find_plugin_lexers()}


@lru_cache(maxsize=None)  # compiled when first needed: a build meets a few dozen of the ~900
def _glob_pattern(glob: str) -> re.Pattern:
    return re.compile(fnmatch.translate(glob))


def looks_like_shell(code: str) -> bool:
    return code.lstrip().startswith(("$ ", "% "))


def snippet_lexer(code: str, file_path: str | None) -> Lexer:
    """The record's language, unless the snippet is clearly a shell session."""
    if looks_like_shell(code):
        return _SESSION_LEXER
    return lexer_for(file_path)


_SESSION_LEXER = BashSessionLexer(stripnl=False, ensurenl=False)
