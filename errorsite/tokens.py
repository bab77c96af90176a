"""The search tokenizer. `static/search-tokens.js` implements the same rules for
queries, and a test runs both over the real records and queries to prove it.

Rules, in order:
1. lowercase;
2. cut the text into chunks: runs of letters, digits and the connectors
   `_ . : = / -` (so `kv_cache_enabled=true`, `Result::unwrap`, `res.sendFile`);
3. from each chunk keep the whole identifier (connectors trimmed from its ends)
   when it joins two or more parts and holds a letter, and every part: a run
   of letters and digits;
4. drop parts that are only numbers (concrete values, not words: digits,
   numerals, fractions), one character long, or one of lunr's English stop
   words; drop wholes over 64 characters.
Letters and numbers are Unicode's (categories L and N), lengths count
characters (code points), on both sides.
"""
from __future__ import annotations

import re
import unicodedata

from lunr.stop_word_filter import WORDS

STOP_WORDS = frozenset(WORDS)
CONNECTORS = "_.:=/-"
_CHUNK = re.compile(r"(?:[^\W_]|[_.:=/\-])+")
_PART = re.compile(r"[^\W_]+")
MAX_TOKEN = 64


def tokenize(text: str) -> list[str]:
    tokens = []
    for chunk in _CHUNK.findall(text.lower()):
        if chunk.isalnum():  # one part ([^\W_] is isalnum), as most are: chunk_tokens keeps it alone
            if keep_part(chunk):
                tokens.append(chunk)
        else:
            tokens.extend(chunk_tokens(chunk))
    return tokens


def chunk_tokens(chunk: str) -> list[str]:
    """Rules 3 and 4 for one chunk: its whole, when it joins parts and holds a letter, then its kept parts."""
    parts = _PART.findall(chunk)
    whole = chunk.strip(CONNECTORS)
    joined = [whole] if len(parts) > 1 and len(whole) <= MAX_TOKEN and any(c.isalpha() for c in whole) else []
    return joined + [part for part in parts if keep_part(part)]


def numbers_only(part: str) -> bool:
    """Every character a number (category N: `42`, `²`, `½`, `Ⅻ`), as JavaScript's /^\\p{N}+$/u."""
    return part.isdigit() or (part.isnumeric() and all(unicodedata.category(c)[0] == "N" for c in part))


def keep_part(part: str) -> bool:
    # isnumeric first: it is false for most parts, which then skip numbers_only's call.
    return 1 < len(part) <= MAX_TOKEN and part not in STOP_WORDS and not (part.isnumeric() and numbers_only(part))


def code_terms(code: str) -> list[str]:
    """What a code is searched by: the code whole and each of its dotted tails
    (`parse_error.108` and `exception.parse_error.108` of
    `json.exception.parse_error.108`), as users write it; a code that the
    tokenizer does not keep whole (with spaces) as its tokens."""
    whole = code.lower().strip(CONNECTORS)
    tails = [whole[i + 1:] for i, c in enumerate(whole) if c == "."]
    terms = [tokens[0] for tail in [whole, *tails] for tokens in [tokenize(tail)] if tokens and tokens[0] == tail]
    return terms or tokenize(code)


_SEGMENT = re.compile(r"(?:\.|::|\\|\$|/)")


def class_terms(error_class: str) -> list[str]:
    """What an error class is searched by: the name whole and its last
    segment's words (`MissingSchema` of `requests.exceptions.MissingSchema`),
    not its namespace's: a paste naming `EntityFrameworkCore` names a package,
    not every error class in it (the names of repositories say that)."""
    text = error_class.strip()
    last = _SEGMENT.split(text)[-1] if text else ""
    whole = [token for token in tokenize(text) if len(_PART.findall(token)) > 1][:1]
    return list(dict.fromkeys(whole + tokenize(last)))


PLACEHOLDER = re.compile(r"\{[^{}\s]{0,40}\}")


def pattern_words(pattern: str) -> str:
    """A messagePattern with its `{placeholders}` blanked, for indexing."""
    return PLACEHOLDER.sub(" ", pattern)
