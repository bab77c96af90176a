"""The shapes an identifier, a link or a date must have: the checks that keep
path segments and links safe."""
from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from urllib.parse import urlsplit

from ..urls import DEVICE_NAMES, MAX_SEGMENT_BYTES
from .wording import short


OWNER_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})")
NAME_RE = re.compile(r"[A-Za-z0-9._-]{1,100}")
ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
REF_RE = re.compile(r"[A-Za-z0-9._-]{1,100}")


SLUG_RULE = "letters or digits of any script in words joined by single hyphens, at most 255 bytes"


def normalized_slug(slug: str) -> str:
    return unicodedata.normalize("NFC", slug).lower()


def slug_problems(original: str) -> str | None:
    """None for a slug that, normalized, is safe as one path segment on every
    file system: words of letters, marks and digits (any script), single
    hyphens between."""
    slug = normalized_slug(original)
    if _ASCII_SLUG.fullmatch(slug) and len(slug) <= MAX_SEGMENT_BYTES and slug not in DEVICE_NAMES:
        return None  # as slug_rule says, told by one match: most slugs are ASCII
    return slug_rule(original, slug)


_ASCII_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def slug_rule(original: str, slug: str) -> str | None:
    """slug_problems for `slug`, `original` normalized, in any script."""
    words = slug.split("-")
    if not all(word and unicodedata.category(word[0])[0] in "LN"
               and all(unicodedata.category(c)[0] in "LMN" for c in word) for word in words) \
            or len(slug.encode()) > MAX_SEGMENT_BYTES:
        return f"{short(original)} is not a slug ({SLUG_RULE})"
    if slug in DEVICE_NAMES:
        return f"{short(original)} is a reserved device name"
    return None


def derived_slug(original: str, record_id: str) -> str:
    """A valid slug made from one that is not: its letters and digits (any
    script, with the marks that follow them), lower-cased where they have case,
    in words joined by single hyphens, cut at a word to fit; from the record's
    id when nothing is left, or when what is left is a reserved device name."""
    for source in (original, record_id):
        text = unicodedata.normalize("NFC", normalized_slug(source))
        words, word = [], ""
        for c in text:
            kind = unicodedata.category(c)[0]
            if kind in "LN" or (kind == "M" and word):
                word += c
            elif word:
                words.append(word)
                word = ""
        words += [word] if word else []
        slug = "-".join(words)
        while len(slug.encode()) > MAX_SEGMENT_BYTES:
            slug = slug.rpartition("-")[0] if "-" in slug else \
                slug.encode()[:MAX_SEGMENT_BYTES].decode("utf-8", "ignore")
        if slug and slug_problems(slug) is None:
            return slug
    return "record"  # an id of only "-" and "_": the URL is still unique, or a duplicate is reported


def repo_problems(repo: str) -> list[str]:
    owner, _, name = repo.partition("/")
    if not (OWNER_RE.fullmatch(owner) and NAME_RE.fullmatch(name)) or name in (".", ".."):
        return [f"{short(repo)} is not a GitHub owner/name"]
    if any(part.lower().split(".")[0] in DEVICE_NAMES for part in (owner, name)):
        return [f"{short(repo)} contains a reserved device name"]
    return []


# A character no URL of ours holds: \s is str.isspace's, for str patterns.
_NOT_IN_URL = re.compile(r"[\s<>\"'`\\\x00-\x1f]")


def is_github_url(url: str) -> bool:
    if _NOT_IN_URL.search(url):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme == "https" and parts.netloc == "github.com" and parts.path.count("/") >= 2


def is_iso_date(text: str) -> bool:
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True
