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
    words = slug.split("-")
    if not all(word and unicodedata.category(word[0])[0] in "LN"
               and all(unicodedata.category(c)[0] in "LMN" for c in word) for word in words) \
            or len(slug.encode()) > MAX_SEGMENT_BYTES:
        return f"{short(original)} is not a slug ({SLUG_RULE})"
    if slug in DEVICE_NAMES:
        return f"{short(original)} is a reserved device name"
    return None


def repo_problems(repo: str) -> list[str]:
    owner, _, name = repo.partition("/")
    if not (OWNER_RE.fullmatch(owner) and NAME_RE.fullmatch(name)) or name in (".", ".."):
        return [f"{short(repo)} is not a GitHub owner/name"]
    if any(part.lower().split(".")[0] in DEVICE_NAMES for part in (owner, name)):
        return [f"{short(repo)} contains a reserved device name"]
    return []


def is_github_url(url: str) -> bool:
    if any(c.isspace() or c in "<>\"'`\\" or ord(c) < 32 for c in url):
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
