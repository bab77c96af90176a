"""Step 2, validate: raw JSON → typed Record, or every Problem found in it.

Every check that protects the output (path segments, link schemes, sizes) lives
here, so later steps can trust a Record completely. Only what a page cannot
exist without rejects a record: the id, repo, slug, message and GitHub link,
the required type and severity, and any value of the wrong JSON type. A bad
optional value (a tag without letters, a malformed date or sha, an
out-of-range line) is dropped with a `dropped:` problem, and the record built.

Every size and count has a ceiling, so that no record makes a page a browser
cannot open (about 1 MB at the very worst, every field at its limit), and the
problems reported for one record are capped. Code a lexer takes too long over
is shown as plain text, and so is Markdown whose HTML would grow out of
proportion: both are found here, so `check` reports them as the build does.
"""
from __future__ import annotations

import json
import re
import unicodedata
from datetime import datetime
from functools import partial
from typing import Callable, NamedTuple
from urllib.parse import urlsplit

from .load import RawRecord, printable
from .markup import (HIGHLIGHT_SECONDS, balance_bidi, highlight_stalls, lexer_for, line_count, markdown_limit,
                     markdown_overgrows, snippet_lexer)
from .model import CODE_ATTRS, FIELDS, Field, Problem, Record
from .urls import DEVICE_NAMES, MAX_SEGMENT_BYTES, url_segment

SCHEMA_VERSION = 2
MAX_MESSAGE = 2_000         # errorMessage / messagePattern: shown in titles and cards
TEXT_LIMITS = {             # characters, by field; the largest real values are a fifth of these or less
    "errorMessage": MAX_MESSAGE, "messagePattern": MAX_MESSAGE,
    "sourceCode": 8_000, "exampleFix": 3_000, "validationCode": 3_000, "typeGuard": 3_000,
    "tryCatchPattern": 3_000, "documentation": 5_000, "triggerScenarios": 5_000, "commonSituations": 5_000,
    "githubUrl": 2_000, "filePath": 500,
    "id": 2_000, "repo": 2_000, "slug": 2_000,  # held to their own, shorter rules in check_values
}
MAX_LABEL = 300             # characters in any other text field (a type, a class, a date…)
MAX_ITEMS = 20              # items in solutions / preventionTips
MAX_ITEM = 400              # characters in one of them
MAX_TAGS = 50
MAX_TAG = 64
MAX_SOURCE_LINES = 500      # lines of sourceCode, each with its own number and anchor
MAX_LINE = 10_000_000       # lineNumber, sourceCodeStart, sourceCodeEnd
MAX_PROBLEMS = 10           # reported per record (of each kind); the rest are counted in one line

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
    elif dataset_version is not None and (problem := text_problem("datasetVersion", dataset_version)):
        issues.drop("datasetVersion", problem)
        dataset_version = None
    if not issues.rejected:
        check_values(values, issues)
    if issues.rejected:
        return Checked(None, issues.problems(path, dropped=False))
    values = {attr: balanced(value) for attr, value in values.items()}  # as the page shows them
    check_markdown(values, issues)
    record = Record(source_file=path, dataset_version=balanced(dataset_version), **values,
                    plain_code=slow_code(values, issues))
    return Checked(record, issues.problems(path, dropped=True))


class Issues:
    """What is wrong with one record, in the order found: the first
    MAX_PROBLEMS rejections and drops, and how many more of each there were."""

    def __init__(self) -> None:
        self.found: list[tuple[str, str, bool]] = []
        self.counts = {False: 0, True: 0}           # by kind (dropped or not)
        self.more: dict[bool, set[str]] = {False: set(), True: set()}  # the fields of those not kept

    @property
    def rejected(self) -> bool:
        return self.counts[False] > 0

    def reject(self, key: str, message: str | Callable[[], str]) -> None:
        self.add(key, message, False)

    def drop(self, key: str, message: str | Callable[[], str]) -> None:
        self.add(key, message, True)

    def add(self, key: str, message: str | Callable[[], str], dropped: bool) -> None:
        self.counts[dropped] += 1
        if self.counts[dropped] <= MAX_PROBLEMS:
            self.found.append((key, message if isinstance(message, str) else message(), dropped))
        else:
            self.more[dropped].add(key.partition("[")[0])

    def problems(self, path: str, dropped: bool) -> list[Problem]:
        """Those of one kind, the ones not kept summed up in one last line."""
        kept = [Problem(path, key, message, dropped) for key, message, kind in self.found if kind == dropped]
        more = self.counts[dropped] - len(kept)
        if more:
            fields = self.more[dropped]
            where = (next(iter(fields)), "field") if len(fields) == 1 else ("record", "record")
            kept.append(Problem(path, where[0], f"and {more} more problems in this {where[1]}, not listed", dropped))
        return kept


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
        if text_fits(key, item):
            kept.append(item)
        else:  # the message only if it is one of those shown: a list may hold a million
            issues.drop(f"{key}[{i}]", partial(text_problem, key, item))
    limit = MAX_TAGS if key == "tags" else MAX_ITEMS
    if len(kept) > limit:
        issues.drop(key, f"has {len(kept)} items, at most {limit} allowed: the first {limit} are kept")
        kept = kept[:limit]
    return tuple(kept)


def text_limit(key: str) -> int:
    """The most characters a text field, or an item of a list field, may have."""
    if key in ("solutions", "preventionTips"):
        return MAX_ITEM
    if key == "tags":
        return MAX_TAG
    return TEXT_LIMITS.get(key, MAX_LABEL)


def text_fits(key: str, value: str) -> bool:
    return (len(value) <= text_limit(key) or key == "tags") and not SURROGATE_RE.search(value)


def text_problem(key: str, value: str) -> str | None:
    limit = text_limit(key)
    if len(value) > limit and key != "tags":  # a long tag is reported by checked_tags
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
                f"version {number(v['schema_version'])} is newer than this build reads ({SCHEMA_VERSION})")
    v["tags"] = tuple(checked_tags(v["tags"], issues))
    for key, attr in (("lineNumber", "line_number"), ("sourceCodeStart", "source_start"),
                      ("sourceCodeEnd", "source_end")):
        if v[attr] is not None:
            keep(abs(v[attr]) <= MAX_LINE, key, attr, f"{number(v[attr])} is not a line number (at most {MAX_LINE})")
    if v["source_code"] is not None:
        lines = line_count(v["source_code"])
        keep(lines <= MAX_SOURCE_LINES, "sourceCode", "source_code",
             f"has {lines} lines, at most {MAX_SOURCE_LINES} allowed")
    if v["analyzed_sha"] is not None:
        keep(REF_RE.fullmatch(v["analyzed_sha"]) is not None, "analyzedSha", "analyzed_sha",
             f"{short(v['analyzed_sha'])} is not a commit sha or tag")
    for key, attr in (("analyzedAt", "analyzed_at"), ("contentChangedAt", "content_changed_at")):
        if v[attr] is not None:
            keep(is_iso_date(v[attr]), key, attr, f"{short(v[attr])} is not an ISO 8601 date")
    if v["http_status"] is not None:
        keep(100 <= v["http_status"] <= 599, "httpStatus", "http_status",
             f"{number(v['http_status'])} is not an HTTP status")
    start, end, line = v["source_start"], v["source_end"], v["line_number"]
    if start is not None and end is not None and not 1 <= start <= end:
        issues.drop("sourceCodeStart", f"{start}..{end} is not a line range, so sourceCodeStart and "
                                       "sourceCodeEnd are left out")
        v["source_start"] = v["source_end"] = None
    elif start is not None and end is not None and line is not None:
        keep(start <= line <= end, "lineNumber", "line_number",
             f"{line} is outside sourceCodeStart..sourceCodeEnd ({start}..{end})")


MARKDOWN_FIELDS = (("documentation", "documentation"), ("triggerScenarios", "trigger_scenarios"),
                   ("commonSituations", "common_situations"))


def check_markdown(v: dict, issues: Issues) -> None:
    """Prose whose HTML would grow out of proportion (one long link used many
    times) is shown as plain text: reported, the value kept."""
    texts = [(key, v[attr]) for key, attr in MARKDOWN_FIELDS if v[attr]]
    texts += [(f"{key}[{i}]", item) for key, attr in (("solutions", "solutions"), ("preventionTips", "prevention_tips"))
              for i, item in enumerate(v[attr])]
    for key, text in texts:
        size = markdown_overgrows(text)
        if size is not None:
            issues.drop(key, f"its Markdown makes {size} characters of HTML, over {markdown_limit(text)}: "
                             "shown as plain text")


def slow_code(v: dict, issues: Issues) -> tuple[str, ...]:
    """The code fields a lexer takes too long over, to be shown as plain text
    (the lexer is stopped when its time is up)."""
    slow = []
    for field in (field for field in FIELDS if field.attr in CODE_ATTRS and v[field.attr]):
        code = v[field.attr]
        lexer = lexer_for(v["file_path"]) if field.attr == "source_code" else snippet_lexer(code, v["file_path"])
        if highlight_stalls(code, lexer):
            issues.drop(field.key, f"highlighting with the {lexer.name} lexer took over {HIGHLIGHT_SECONDS:g} s; "
                                   "shown as plain text")
            slow.append(field.attr)
    return tuple(slow)


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
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    return json.dumps(value)


def number(value: int) -> str:
    """An integer as written, or its length when that is long."""
    digits = len(str(abs(value)))
    return str(value) if digits <= 20 else f"a {digits}-digit number"


def short(text: str, limit: int = 60) -> str:
    """A string quoted as JSON, cut to `limit` characters."""
    quoted = printable(json.dumps(text, ensure_ascii=False))
    return quoted if len(quoted) <= limit else quoted[: limit - 2] + '…"'
