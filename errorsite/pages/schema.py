"""The JSON Schema (draft 2020-12) of a record file, generated from the record
model (`model.FIELDS`) and the validator's limits, so the three never drift.

The repository ships it as `schema/record.v2.json` (a test checks that file is
what this module generates; `python -m errorsite.pages.schema > schema/record.v2.json`
rewrites it) and every site publishes it at `urls.SCHEMA_PATH`.

A schema cannot say everything the validator checks: cross-field rules (the
line inside the source range), duplicates, dates, which characters are letters,
and that `1.0` is not an integer (JSON Schema counts it as one) are the
validator's alone. The schema says what a correct record is; the validator is
kinder, and drops a bad optional value rather than the record.
"""
from __future__ import annotations

import json
import re

from .. import urls
from ..model import FIELDS, Page
from ..validate import ID_RE, MAX_ITEMS, MAX_LINE, MAX_TAGS, NAME_RE, OWNER_RE, SCHEMA_VERSION, text_limit

JSON_TYPES = {str: "string", int: "integer", list: "array"}
DESCRIPTIONS = {
    "id": "Unique id of the record.",
    "repo": "GitHub owner/name of the repository that raises the error; part of the URL.",
    "slug": "Name of the error, unique per repository, part of the URL: words of letters or digits of any "
            "script joined by single hyphens, at most 255 bytes; normalized to NFC and lower case.",
    "errorMessage": "The message, as shown.",
    "messagePattern": "The message with {placeholders} for its variable parts.",
    "errorCode": "The error's code, if it has one.",
    "errorType": "Kind of error (usage, io, …); each gets a browse page.",
    "errorClass": "Exception class or error type in the source.",
    "httpStatus": "HTTP status the error maps to.",
    "severity": "Severity (error, warning, …); each gets a browse page.",
    "filePath": "File that raises the error, relative to the repository root.",
    "lineNumber": "Line that raises the error, within sourceCodeStart..sourceCodeEnd.",
    "sourceCode": "The source lines around the raising line.",
    "sourceCodeStart": "Line number of the first line of sourceCode.",
    "sourceCodeEnd": "Line number of the last line of sourceCode.",
    "githubUrl": "Link to the source on GitHub.",
    "documentation": "What the error means (Markdown, raw HTML shown as text).",
    "triggerScenarios": "What triggers it (Markdown).",
    "commonSituations": "Where people meet it (Markdown).",
    "solutions": "Ways to fix it, one per item (inline Markdown).",
    "exampleFix": "Code showing a fix.",
    "handlingStrategy": "How to handle the error in code.",
    "validationCode": "Code that validates input before the call.",
    "typeGuard": "A type guard that tells this error apart.",
    "tryCatchPattern": "Code that catches and handles the error.",
    "preventionTips": "How to avoid it, one per item (inline Markdown).",
    "tags": "Free-form tags; each gets a browse page.",
    "backgroundTag": "Background tag of the dataset's pipeline.",
    "analyzedSha": "Commit sha (or tag) that was analysed.",
    "analyzedAt": "When it was analysed (ISO 8601).",
    "contentChangedAt": "When the record's content last changed (ISO 8601).",
    "schemaVersion": f"Version of this format ({SCHEMA_VERSION}).",
}


def record_schema(schema_id: str | None = None) -> dict:
    """The schema of one record file; `schema_id` is the URL it is published at."""
    record = {
        "type": "object",
        "description": "One error record.",
        "required": [field.key for field in FIELDS if not field.nullable],
        "properties": {field.key: field_schema(field) for field in FIELDS},
    }
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **({"$id": schema_id} if schema_id else {}),
        "title": f"Error record, schema version {SCHEMA_VERSION}",
        "description": "One error record file. Unknown fields are allowed and ignored.",
        "type": "object",
        "required": ["record"],
        "properties": {
            "record": record,
            "datasetVersion": {"type": ["string", "null"], "description": "Version of the dataset."},
        },
    }
    return schema


def field_schema(field) -> dict:
    kind = JSON_TYPES[field.kind]
    schema: dict = {"type": [kind, "null"] if field.nullable else kind,
                    "description": DESCRIPTIONS[field.key]}
    if field.kind is str:
        schema["maxLength"] = text_limit(field.key)
    if field.kind is list:
        tags = field.key == "tags"
        schema["items"] = {"type": "string", **({"minLength": 1} if tags else {}),
                           "maxLength": text_limit(field.key)}
        schema["maxItems"] = MAX_TAGS if tags else MAX_ITEMS
    schema.update(CONTENT_RULES.get(field.key, {}))
    return schema


def whole(pattern: re.Pattern) -> str:
    """A `fullmatch` pattern as a JSON Schema pattern, which may match anywhere."""
    return f"^(?:{pattern.pattern})$"


CONTENT_RULES: dict[str, dict] = {
    "id": {"pattern": whole(ID_RE)},
    "repo": {"pattern": f"^(?:{OWNER_RE.pattern})/(?:{NAME_RE.pattern})$"},
    # Letters and digits of any script, which a regex portable to every JSON
    # Schema tool cannot name: it leaves out what is never part of a word here.
    "slug": {"pattern": r"^[^\s/\\._-]+(?:-[^\s/\\._-]+)*$", "maxLength": 255},
    "errorMessage": {"pattern": r"\S"},
    "githubUrl": {"pattern": r"^https://github\.com/[^/\s]+/"},
    "httpStatus": {"minimum": 100, "maximum": 599},
    "schemaVersion": {"maximum": SCHEMA_VERSION},
    **{key: {"maximum": MAX_LINE} for key in ("lineNumber", "sourceCodeStart", "sourceCodeEnd")},
}


def schema_json(schema_id: str | None = None) -> bytes:
    return (json.dumps(record_schema(schema_id), indent=2, ensure_ascii=False) + "\n").encode()


def schema_page(site: urls.Site) -> Page:
    return Page(urls.SCHEMA_PATH, schema_json(site.absolute(urls.SCHEMA_PATH)))


if __name__ == "__main__":
    print(schema_json().decode(), end="")
