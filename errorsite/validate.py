"""Step 2, validate: raw JSON → typed Record, or every Problem found in it.

Every check that protects the output (path segments, link schemes, sizes) lives
here, so later steps can trust a Record completely. Only what a page cannot
exist without rejects a record: the id, repo, slug, message and GitHub link,
the required type and severity, and any value of the wrong JSON type. A bad
optional value (a tag without letters, a malformed date or sha, an
out-of-range line) is dropped with a `dropped:` problem, and the record built.
"""
from __future__ import annotations

import json
import re
import unicodedata
from datetime import datetime
from typing import NamedTuple
from urllib.parse import urlsplit

from .load import RawRecord, printable
from .markup import balance_bidi
from .model import FIELDS, Field, Problem, Record
from .urls import DEVICE_NAMES, MAX_SEGMENT_BYTES, url_segment

SCHEMA_VERSION = 2
MAX_TEXT = 200_000          # characters in any one text field
MAX_MESSAGE = 2_000         # errorMessage / messagePattern: shown in titles and cards
MAX_ITEMS = 200             # items in solutions / preventionTips
MAX_TAGS = 50
MAX_TAG = 64

OWNER_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})")
NAME_RE = re.compile(r"[A-Za-z0-9._-]{1,100}")
ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
REF_RE = re.compile(r"[A-Za-z0-9._-]{1,100}")
SURROGATE_RE = re.compile("[\ud800-\udfff]")  # half a UTF-16 pair: no character
NOT_UNICODE = "{} is not valid Unicode (an unpaired surrogate)"
TYPE_NAMES = {str: "a string", int: "an integer", list: "a list of strings"}
SLUG_RULE = "letters or digits of any script in words joined by single hyphens, at most 255 bytes"


class Checked(NamedTuple):
    """A record (None when rejected) and what was wrong: the reasons it was
    rejected, or the values dropped from it."""
    record: Record | None
    problems: list[Problem]


def validate_all(raws: list[RawRecord]) -> tuple[list[Record], list[Problem]]:
    """Validate each file, then drop later duplicates of an id or a URL."""
    records, problems = [], []
    for raw in raws:
        if raw.problem:
            problems.append(raw.problem)
            continue
        checked = check(raw.path, raw.data)
        problems.extend(checked.problems)
        if checked.record:
            records.append(checked.record)
    unique, duplicates = drop_duplicates(records)
    return unique, problems + duplicates


def drop_duplicates(records: list[Record]) -> tuple[list[Record], list[Problem]]:
    seen = Seen()
    kept, problems = [], []
    for record in records:
        problem = seen.duplicate(record)
        if problem:
            problems.append(problem)
        else:
            kept.append(record)
    return kept, problems


class Seen:
    """Ids and URLs taken so far: a later file with either is a duplicate."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}
        self.urls: dict[tuple[str, str], str] = {}

    def duplicate(self, record) -> Problem | None:
        """The problem if `record` (a Record or a Summary) repeats an id or URL; else None, and it is taken."""
        url_key = (record.repo.lower(), record.slug)
        if record.id in self.ids:
            return Problem(record.source_file, "id",
                           f"duplicate id {record.id!r}, already used by {self.ids[record.id]}")
        if url_key in self.urls:
            return Problem(record.source_file, "slug", f"duplicate repo and slug {record.repo}/{record.slug}, "
                                                       f"already used by {self.urls[url_key]}")
        self.ids[record.id] = self.urls[url_key] = record.source_file
        return None


def validate(path: str, data: object) -> Record | list[Problem]:
    """The record, or the reasons it was rejected (dropped values aside)."""
    checked = check(path, data)
    return checked.record or checked.problems


def check(path: str, data: object) -> Checked:
    if not isinstance(data, dict):
        return Checked(None, [Problem(path, "file", f"expected a JSON object, got {describe(data)}")])
    body = data.get("record")
    if not isinstance(body, dict):
        what = "is missing" if "record" not in data else f"must be an object, got {describe(body)}"
        return Checked(None, [Problem(path, "record", what)])
    issues = Issues()
    values = {field.attr: read_field(field, body, issues) for field in FIELDS}
    dataset_version = data.get("datasetVersion")
    if dataset_version is not None and not isinstance(dataset_version, str):
        issues.reject("datasetVersion", f"expected a string, got {describe(dataset_version)}")
    elif dataset_version is not None and SURROGATE_RE.search(dataset_version):
        issues.drop("datasetVersion", NOT_UNICODE.format(short(dataset_version)))
        dataset_version = None
    if not issues.rejected:
        check_values(values, issues)
    problems = [Problem(path, key, message, dropped) for key, message, dropped in issues.found]
    if issues.rejected:
        return Checked(None, [p for p in problems if not p.dropped])
    record = Record(source_file=path, dataset_version=balanced(dataset_version),
                    **{attr: balanced(value) for attr, value in values.items()})
    return Checked(record, problems)


class Issues:
    """What is wrong with one record, in the order found."""

    def __init__(self) -> None:
        self.found: list[tuple[str, str, bool]] = []

    @property
    def rejected(self) -> bool:
        return any(not dropped for _, _, dropped in self.found)

    def reject(self, key: str, message: str) -> None:
        self.found.append((key, message, False))

    def drop(self, key: str, message: str) -> None:
        self.found.append((key, message, True))


def read_field(field: Field, body: dict, issues: Issues):
    """The field's value, checked for type and size; a bad optional value is dropped."""
    value = body.get(field.key)
    empty = () if field.kind is list else None
    if value is None:
        if not field.nullable:
            issues.reject(field.key, "required field is missing" if field.key not in body else "must not be null")
        return empty
    if field.kind is list:
        return read_list(field.key, value, issues)
    if not isinstance(value, field.kind) or isinstance(value, bool):
        issues.reject(field.key, f"expected {TYPE_NAMES[field.kind]}, got {describe(value)}")
        return empty
    problem = text_problem(field.key, value) if field.kind is str else None
    if problem:
        (issues.drop if field.nullable else issues.reject)(field.key, problem)
        return empty
    return value


def read_list(key: str, value: object, issues: Issues) -> tuple[str, ...]:
    if not isinstance(value, list):
        issues.reject(key, f"expected a list of strings, got {describe(value)}")
        return ()
    for i, item in enumerate(value):
        if not isinstance(item, str):
            issues.reject(f"{key}[{i}]", f"expected a string, got {describe(item)}")
            return ()
    kept = []
    for i, item in enumerate(value):
        problem = text_problem(key, item)
        if problem:
            issues.drop(f"{key}[{i}]", problem)
        else:
            kept.append(item)
    limit = MAX_TAGS if key == "tags" else MAX_ITEMS
    if len(kept) > limit:
        issues.drop(key, f"has {len(kept)} items, at most {limit} allowed: the first {limit} are kept")
        kept = kept[:limit]
    return tuple(kept)


def text_problem(key: str, value: str) -> str | None:
    limit = MAX_MESSAGE if key in ("errorMessage", "messagePattern") else MAX_TEXT
    if len(value) > limit:
        return f"is {len(value)} characters long, at most {limit} allowed"
    if SURROGATE_RE.search(value):  # JSON can spell one: "\ud800"
        return NOT_UNICODE.format(short(value))
    return None


def balanced(value):
    """A checked value for the Record: every string has its bidi controls
    balanced, so none can reorder the page around it."""
    if isinstance(value, str):
        return balance_bidi(value)
    if isinstance(value, tuple):
        return tuple(balance_bidi(item) for item in value)
    return value


def check_values(v: dict, issues: Issues) -> None:
    """Checks on content, run once every field has the right type. Rejects
    what the page needs; drops (and sets to None) what it can do without."""

    def require(ok: bool, key: str, message: str) -> None:
        if not ok:
            issues.reject(key, message)

    def keep(ok: bool, key: str, attr: str, message: str) -> None:
        if not ok:
            issues.drop(key, message)
            v[attr] = None

    require(ID_RE.fullmatch(v["id"]) is not None, "id", "must be 1-64 letters, digits, '-' or '_'")
    for message in repo_problems(v["repo"]):
        issues.reject("repo", message)
    slug_problem = slug_problems(v["slug"])
    require(slug_problem is None, "slug", slug_problem or "")
    v["slug"] = normalized_slug(v["slug"])
    require(v["message"].strip() != "", "errorMessage", "must not be empty")
    require(is_github_url(v["github_url"]), "githubUrl",
            f"{short(v['github_url'])} is not an https://github.com/ URL")
    for key, attr in (("errorType", "error_type"), ("severity", "severity")):
        require(url_segment(v[attr]) != "", key, f"{short(v[attr])} has no letters or digits")
    if v["schema_version"] is not None:
        require(v["schema_version"] <= SCHEMA_VERSION, "schemaVersion",
                f"version {v['schema_version']} is newer than this build reads ({SCHEMA_VERSION})")
    v["tags"] = tuple(checked_tags(v["tags"], issues))
    if v["analyzed_sha"] is not None:
        keep(REF_RE.fullmatch(v["analyzed_sha"]) is not None, "analyzedSha", "analyzed_sha",
             f"{short(v['analyzed_sha'])} is not a commit sha or tag")
    for key, attr in (("analyzedAt", "analyzed_at"), ("contentChangedAt", "content_changed_at")):
        if v[attr] is not None:
            keep(is_iso_date(v[attr]), key, attr, f"{short(v[attr])} is not an ISO 8601 date")
    if v["http_status"] is not None:
        keep(100 <= v["http_status"] <= 599, "httpStatus", "http_status",
             f"{v['http_status']} is not an HTTP status")
    start, end, line = v["source_start"], v["source_end"], v["line_number"]
    if start is not None and end is not None and not 1 <= start <= end:
        issues.drop("sourceCodeStart", f"{start}..{end} is not a line range, so sourceCodeStart and "
                                       "sourceCodeEnd are left out")
        v["source_start"] = v["source_end"] = None
    elif start is not None and end is not None and line is not None:
        keep(start <= line <= end, "lineNumber", "line_number",
             f"{line} is outside sourceCodeStart..sourceCodeEnd ({start}..{end})")


def checked_tags(tags: tuple[str, ...], issues: Issues):
    for i, tag in enumerate(tags):
        if not url_segment(tag):
            issues.drop(f"tags[{i}]", f"{short(tag)} has no letters or digits")
        elif len(tag) > MAX_TAG:
            issues.drop(f"tags[{i}]", f"{short(tag)} is {len(tag)} characters long, at most {MAX_TAG} allowed")
        else:
            yield tag


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


def describe(value: object) -> str:
    """A JSON value as a user would recognise it in their file, kept short."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        return short(value)
    return json.dumps(value)


def short(text: str, limit: int = 60) -> str:
    """A string quoted as JSON, cut to `limit` characters."""
    quoted = printable(json.dumps(text, ensure_ascii=False))
    return quoted if len(quoted) <= limit else quoted[: limit - 2] + '…"'
