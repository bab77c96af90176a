"""The typed record model: one frozen dataclass per record, built only by `validate`
(and given its `plain_code` by `plain`).

Field names follow Python style; `FIELDS` maps each to its JSON key, its type and
whether it may be null, so validation and the model can never drift apart.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Callable, Iterator, NamedTuple


class Field(NamedTuple):
    key: str          # the JSON key in the record file
    attr: str         # the attribute on Record
    kind: type        # str, int or list (of str)
    nullable: bool    # may be null or absent


FIELDS: tuple[Field, ...] = (
    Field("id", "id", str, False),
    Field("repo", "repo", str, False),
    Field("slug", "slug", str, False),
    Field("errorMessage", "message", str, False),
    Field("messagePattern", "pattern", str, True),
    Field("errorCode", "error_code", str, True),
    Field("errorType", "error_type", str, False),
    Field("errorClass", "error_class", str, True),
    Field("httpStatus", "http_status", int, True),
    Field("severity", "severity", str, False),
    Field("filePath", "file_path", str, True),
    Field("lineNumber", "line_number", int, True),
    Field("sourceCode", "source_code", str, True),
    Field("sourceCodeStart", "source_start", int, True),
    Field("sourceCodeEnd", "source_end", int, True),
    Field("githubUrl", "github_url", str, False),
    Field("documentation", "documentation", str, True),
    Field("triggerScenarios", "trigger_scenarios", str, True),
    Field("commonSituations", "common_situations", str, True),
    Field("solutions", "solutions", list, True),
    Field("exampleFix", "example_fix", str, True),
    Field("handlingStrategy", "handling_strategy", str, True),
    Field("validationCode", "validation_code", str, True),
    Field("typeGuard", "type_guard", str, True),
    Field("tryCatchPattern", "try_catch_pattern", str, True),
    Field("preventionTips", "prevention_tips", list, True),
    Field("tags", "tags", list, True),
    Field("backgroundTag", "background_tag", str, True),
    Field("analyzedSha", "analyzed_sha", str, True),
    Field("analyzedAt", "analyzed_at", str, True),
    Field("contentChangedAt", "content_changed_at", str, True),
    Field("schemaVersion", "schema_version", int, True),
)


CODE_ATTRS = ("source_code", "example_fix", "validation_code", "type_guard", "try_catch_pattern")  # highlighted


def shown_pattern(pattern: str | None, message: str) -> str | None:
    """The pattern, only when it tells the reader more than the message."""
    return pattern if pattern and pattern != message else None


@dataclass(frozen=True)
class Record:
    """One error record. Optional fields are None (or an empty tuple for lists)."""

    source_file: str          # the path it was loaded from, for error messages
    dataset_version: str | None
    id: str
    repo: str
    slug: str
    message: str
    pattern: str | None
    error_code: str | None
    error_type: str
    error_class: str | None
    http_status: int | None
    severity: str
    file_path: str | None
    line_number: int | None
    source_code: str | None
    source_start: int | None
    source_end: int | None
    github_url: str
    documentation: str | None
    trigger_scenarios: str | None
    common_situations: str | None
    solutions: tuple[str, ...]
    example_fix: str | None
    handling_strategy: str | None
    validation_code: str | None
    type_guard: str | None
    try_catch_pattern: str | None
    prevention_tips: tuple[str, ...]
    tags: tuple[str, ...]
    background_tag: str | None
    analyzed_sha: str | None
    analyzed_at: str | None
    content_changed_at: str | None
    schema_version: int | None
    plain_code: tuple[str, ...] = ()  # code attributes shown escaped, not highlighted: their lexer was too slow

    @property
    def owner(self) -> str:
        return self.repo.split("/", 1)[0]

    @property
    def repo_name(self) -> str:
        return self.repo.split("/", 1)[1]

    @property
    def shown_pattern(self) -> str | None:
        return shown_pattern(self.pattern, self.message)


class Problem(NamedTuple):
    """One thing wrong with one input file, printed as `path: field: message`.
    A `dropped` problem cost only that value: the record was still built. A
    `kept` one cost the record its update: the site keeps its page from the
    previous build."""

    path: str
    field: str
    message: str
    dropped: bool = False
    kept: bool = False

    def __str__(self) -> str:
        return f"{self.path}: {self.field}: {'dropped: ' if self.dropped else ''}{self.message}"


class Summary(NamedTuple):
    """What the global steps (listings, search, sitemap) need of one record,
    and nothing more: small enough to keep for every record of a large build,
    and to pass between processes and shards. Attribute names match Record's."""

    source_file: str
    id: str
    repo: str
    slug: str
    message: str
    pattern: str | None
    error_code: str | None
    error_type: str
    error_class: str | None
    severity: str
    file_path: str | None
    tags: tuple[str, ...]
    analyzed_at: str | None
    content_changed_at: str | None
    card: str             # the one-paragraph summary shown on result cards
    unfurl: str = ""      # the page's description, for unfurl cards (describe.record_description)
    fix: str = ""         # the first solution in one short line (describe.first_fix), on cards and list rows

    @property
    def shown_pattern(self) -> str | None:
        return shown_pattern(self.pattern, self.message)

    def to_json(self) -> list:
        return list(self)

    @classmethod
    def from_json(cls, values: list) -> "Summary":
        """TypeError unless `values` is what to_json gave. Made directly, not
        with _replace: a rebuild makes one per unchanged record; its values
        shared as sharing_values shares them."""
        if not isinstance(values, list) or len(values) != len(cls._fields):
            raise TypeError(f"a Summary has {len(cls._fields)} values")
        return cls(*_shared(values.copy()))


_TAGS = Summary._fields.index("tags")
# The values many records have alike: a build keeps every record's Summary to
# its end, and these fields hold few distinct strings among many records
# (repositories, types, tags; messages, slugs and files repeat across forks).
_ALIKE = tuple(Summary._fields.index(name) for name in (
    "repo", "slug", "message", "pattern", "error_code", "error_type", "error_class", "severity", "file_path",
    "content_changed_at"))


def sharing_values(summary: Summary) -> Summary:
    """`summary` with the strings records have alike shared (sys.intern)
    rather than one copy a record, as they come from JSON or another
    process. The values are the same; only the memory held for them is less."""
    return Summary(*_shared(list(summary)))


def _shared(values: list) -> list:
    for index in _ALIKE:
        if values[index] is not None:
            values[index] = sys.intern(values[index])
    values[_TAGS] = tuple(sys.intern(tag) for tag in values[_TAGS])
    return values


# The fields of a Summary that a StoredSummary reads: its first four.
STORED_FIELDS = ("source_file", "id", "repo", "slug")
assert Summary._fields[:len(STORED_FIELDS)] == STORED_FIELDS


class StoredSummary:
    """A Summary as the previous build's outcomes file holds it (cache/stored.py):
    the fields that tell duplicates and addresses apart (validate/duplicates.py,
    urls.record_path) read, the rest left in the file, its JSON read only when
    a step needs the whole summary (whole). A rebuild whose summaries did not
    change never does: the global pages it would make are the ones served.
    `stored()` gives the bytes of that JSON."""
    __slots__ = (*STORED_FIELDS, "stored", "whole")

    def __init__(self, source_file: str, id: str, repo: str, slug: str, stored: Callable[[], bytes]):
        if not (isinstance(source_file, str) and isinstance(id, str) and isinstance(repo, str)
                and isinstance(slug, str)):
            raise TypeError("a stored summary's fields are strings")
        self.source_file, self.id, self.repo, self.slug, self.stored = source_file, id, repo, slug, stored
        self.whole: Summary | None = None

    def json(self) -> bytes:
        """The summary's JSON, as stored (inert_json's bytes)."""
        return inert_json(self.whole) if self.whole is not None else self.stored()

    def summary(self) -> Summary:
        """The whole Summary, read once."""
        if self.whole is None:
            self.whole = Summary.from_json(json.loads(self.stored()))
        return self.whole


def whole(summary: Summary | StoredSummary) -> Summary:
    """The Summary itself, read from its JSON if it is a StoredSummary."""
    return summary.summary() if isinstance(summary, StoredSummary) else summary


class Page(NamedTuple):
    """One output file: its site path (see urls.py) and its bytes."""

    path: str
    content: bytes


class Reuse(NamedTuple):
    """An output file whose bytes are those of an existing file at the same
    path, in the previous build (origin None) or in a shard's folder: the
    writer links it instead of it being rendered again."""

    path: str
    origin: str | None = None


class Outcome(NamedTuple):
    """What became of one record file: load → validate → render. A value:
    cache/outcomes.py writes it to disk and reads it back (outcome_json)."""

    problems: list[Problem]
    summary: Summary | StoredSummary | None  # None: the record was rejected; stored: read back, unchanged
    pages: list[Page | Reuse]     # its files (records.record_files), or Reuses of the same paths
    key: str | None               # what the pages were made from (cache.keys.record_key)
    digest: str | None = None     # of the record file's bytes, when this outcome read them (load.file_digest)
    claims: str | None = None     # a rejected file: the record id it seems to hold, whose old URLs wait for it


def inert_json(value: object) -> bytes:
    """Compact, sorted JSON with `<`, `>` and `&` escaped: the files the site
    serves hold record text, and stay inert if a browser reads one as HTML."""
    return _inert(_ENCODER.encode(value))


# json.dumps with these options makes an encoder a call: a third of its cost for an outcome's head.
_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def inert_json_pieces(value: object, depth: int = 2) -> Iterator[bytes]:
    """inert_json(value) in pieces, the same bytes: the dicts `depth` levels
    down are written key by key, so a large one (the marker's state of every
    record) is never one string, and copies of it, in memory."""
    if not (isinstance(value, dict) and depth):
        yield inert_json(value)
        return
    keys = sorted(value)
    yield b"{"
    if depth == 1:  # values written whole: a few hundred at a time, one json.dumps each
        for start in range(0, len(keys), _KEYS_AT_A_TIME):
            piece = inert_json({key: value[key] for key in keys[start:start + _KEYS_AT_A_TIME]})
            yield (b"," if start else b"") + piece[1:-1]
    else:
        for index, key in enumerate(keys):
            yield (b"," if index else b"") + inert_json(key) + b":"
            yield from inert_json_pieces(value[key], depth - 1)
    yield b"}"


_KEYS_AT_A_TIME = 500


def _inert(text: str) -> bytes:
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").encode()
