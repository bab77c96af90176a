"""Step 2, validate: raw JSON → typed Record, or every Problem found in it.

Every check that protects the output (path segments, link schemes, sizes) lives
here, so later steps can trust a Record completely.
"""
from __future__ import annotations

import json
import re
from datetime import datetime
from urllib.parse import urlsplit

from .load import RawRecord, printable
from .markup import balance_bidi
from .model import FIELDS, Problem, Record
from .urls import DEVICE_NAMES, url_segment

SCHEMA_VERSION = 2
MAX_TEXT = 200_000          # characters in any one text field
MAX_MESSAGE = 2_000         # errorMessage / messagePattern: shown in titles and cards
MAX_ITEMS = 200             # items in solutions / preventionTips
MAX_TAGS = 50
MAX_TAG = 64

OWNER_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})")
NAME_RE = re.compile(r"[A-Za-z0-9._-]{1,100}")
SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
REF_RE = re.compile(r"[A-Za-z0-9._-]{1,100}")
# Top-level folders of the site: an owner with one of these names would collide.
RESERVED_OWNERS = frozenset({"search", "tags", "types", "severities", "repos", "static"})
RESERVED_SLUGS = frozenset({"page"})  # pagination lives in <listing>/page/N/
SURROGATE_RE = re.compile("[\ud800-\udfff]")  # half a UTF-16 pair: no character
NOT_UNICODE = "{} is not valid Unicode (an unpaired surrogate)"
TYPE_NAMES = {str: "a string", int: "an integer", list: "a list of strings"}


def validate_all(raws: list[RawRecord]) -> tuple[list[Record], list[Problem]]:
    """Validate each file, then drop later duplicates of an id or a URL."""
    records, problems = [], []
    for raw in raws:
        if raw.problem:
            problems.append(raw.problem)
            continue
        result = validate(raw.path, raw.data)
        if isinstance(result, Record):
            records.append(result)
        else:
            problems.extend(result)
    unique, duplicates = drop_duplicates(records)
    return unique, problems + duplicates


def drop_duplicates(records: list[Record]) -> tuple[list[Record], list[Problem]]:
    seen_ids: dict[str, str] = {}
    seen_urls: dict[tuple[str, str], str] = {}
    kept, problems = [], []
    for record in records:
        url_key = (record.repo.lower(), record.slug)
        if record.id in seen_ids:
            problems.append(Problem(record.source_file, "id",
                                    f"duplicate id {record.id!r}, already used by {seen_ids[record.id]}"))
        elif url_key in seen_urls:
            problems.append(Problem(record.source_file, "slug",
                                    f"duplicate repo and slug {record.repo}/{record.slug}, "
                                    f"already used by {seen_urls[url_key]}"))
        else:
            seen_ids[record.id] = seen_urls[url_key] = record.source_file
            kept.append(record)
    return kept, problems


def validate(path: str, data: object) -> Record | list[Problem]:
    if not isinstance(data, dict):
        return [Problem(path, "file", f"expected a JSON object, got {describe(data)}")]
    body = data.get("record")
    if not isinstance(body, dict):
        what = "is missing" if "record" not in data else f"must be an object, got {describe(body)}"
        return [Problem(path, "record", what)]
    problems: list[str | tuple[str, str]] = []
    values: dict[str, object] = {}
    for field in FIELDS:
        value = body.get(field.key)
        if value is None:
            if not field.nullable:
                problems.append((field.key, "required field is missing" if field.key not in body
                                 else "must not be null"))
            values[field.attr] = () if field.kind is list else None
            continue
        error = check_type(field.key, field.kind, value)
        if error:
            problems.append(error)
        values[field.attr] = tuple(value) if field.kind is list else value
    dataset_version = data.get("datasetVersion")
    if dataset_version is not None and not isinstance(dataset_version, str):
        problems.append(("datasetVersion", f"expected a string, got {describe(dataset_version)}"))
        dataset_version = None
    elif dataset_version is not None and SURROGATE_RE.search(dataset_version):
        problems.append(("datasetVersion", NOT_UNICODE.format(short(dataset_version))))
    if not problems:
        problems.extend(check_values(values))
    if problems:
        return [Problem(path, field, message) for field, message in problems]
    return Record(source_file=path, dataset_version=balanced(dataset_version),
                  **{attr: balanced(value) for attr, value in values.items()})


def balanced(value):
    """A checked value for the Record: every string has its bidi controls
    balanced, so none can reorder the page around it."""
    if isinstance(value, str):
        return balance_bidi(value)
    if isinstance(value, tuple):
        return tuple(balance_bidi(item) for item in value)
    return value


def check_type(key: str, kind: type, value: object) -> tuple[str, str] | None:
    if kind is list:
        if not isinstance(value, list):
            return key, f"expected a list of strings, got {describe(value)}"
        limit = MAX_TAGS if key == "tags" else MAX_ITEMS
        if len(value) > limit:
            return key, f"has {len(value)} items, at most {limit} allowed"
        for i, item in enumerate(value):
            if not isinstance(item, str):
                return f"{key}[{i}]", f"expected a string, got {describe(item)}"
            if len(item) > MAX_TEXT:
                return f"{key}[{i}]", f"is {len(item)} characters long, at most {MAX_TEXT} allowed"
            if SURROGATE_RE.search(item):
                return f"{key}[{i}]", NOT_UNICODE.format(short(item))
        return None
    if not isinstance(value, kind) or isinstance(value, bool):
        return key, f"expected {TYPE_NAMES[kind]}, got {describe(value)}"
    if kind is str:
        limit = MAX_MESSAGE if key in ("errorMessage", "messagePattern") else MAX_TEXT
        if len(value) > limit:
            return key, f"is {len(value)} characters long, at most {limit} allowed"
        if SURROGATE_RE.search(value):  # JSON can spell one: "\ud800"
            return key, NOT_UNICODE.format(short(value))
    return None


def check_values(v: dict) -> list[tuple[str, str]]:
    """Checks on content, run once every field has the right type."""
    problems = []

    def require(ok: bool, key: str, message: str) -> None:
        if not ok:
            problems.append((key, message))

    require(ID_RE.fullmatch(v["id"]) is not None, "id", "must be 1-64 letters, digits, '-' or '_'")
    problems.extend(check_repo(v["repo"]))
    slug = v["slug"]
    require(SLUG_RE.fullmatch(slug) is not None and len(slug) <= 120, "slug",
            f"{short(slug)} is not a kebab-case slug (a-z, 0-9, single hyphens, at most 120)")
    require(slug not in RESERVED_SLUGS, "slug", f"{slug!r} is reserved by the site")
    require(v["message"].strip() != "", "errorMessage", "must not be empty")
    require(is_github_url(v["github_url"]), "githubUrl",
            f"{short(v['github_url'])} is not an https://github.com/ URL")
    for key, attr in (("errorType", "error_type"), ("severity", "severity")):
        require(url_segment(v[attr]) != "", key, f"{short(v[attr])} has no letters or digits")
    for i, tag in enumerate(v["tags"]):
        require(0 < len(tag) <= MAX_TAG and url_segment(tag) != "", f"tags[{i}]",
                f"{short(tag)} must have letters or digits and at most {MAX_TAG} characters")
    if v["analyzed_sha"] is not None:
        require(REF_RE.fullmatch(v["analyzed_sha"]) is not None, "analyzedSha",
                f"{short(v['analyzed_sha'])} is not a commit sha or tag")
    for key, attr in (("analyzedAt", "analyzed_at"), ("contentChangedAt", "content_changed_at")):
        if v[attr] is not None:
            require(is_iso_date(v[attr]), key, f"{short(v[attr])} is not an ISO 8601 date")
    if v["http_status"] is not None:
        require(100 <= v["http_status"] <= 599, "httpStatus", f"{v['http_status']} is not an HTTP status")
    if v["schema_version"] is not None:
        require(v["schema_version"] <= SCHEMA_VERSION, "schemaVersion",
                f"version {v['schema_version']} is newer than this build reads ({SCHEMA_VERSION})")
    start, end, line = v["source_start"], v["source_end"], v["line_number"]
    if start is not None and end is not None:
        require(1 <= start <= end, "sourceCodeStart", f"{start}..{end} is not a line range")
        if line is not None:
            require(start <= line <= end, "lineNumber", f"{line} is outside sourceCodeStart..sourceCodeEnd ({start}..{end})")
    return problems


def check_repo(repo: str) -> list[tuple[str, str]]:
    owner, _, name = repo.partition("/")
    if not (OWNER_RE.fullmatch(owner) and NAME_RE.fullmatch(name)) or name in (".", ".."):
        return [("repo", f"{short(repo)} is not a GitHub owner/name")]
    if owner.lower() in RESERVED_OWNERS:
        return [("repo", f"owner {owner!r} is reserved by the site")]
    if any(part.lower().split(".")[0] in DEVICE_NAMES for part in (owner, name)):
        return [("repo", f"{short(repo)} contains a reserved device name")]
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
