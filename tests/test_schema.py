"""The record JSON Schema: generated from the model, shipped in the repository,
published in the site, and in agreement with the validator.

After an intended change to the model or the validator's limits, rewrite the
shipped copy with

    python -m errorsite.pages.schema > schema/record.v2.json
"""
from __future__ import annotations

import json
import re

import jsonschema
import pytest

from errorsite import urls
from errorsite.load import load_records
from errorsite.model import FIELDS
from errorsite.pages.schema import DESCRIPTIONS, record_schema, schema_json
from errorsite.validate import validate_all
from tests.conftest import ROOT, SHARED_RECORDS, build_quietly, need_shared

SHIPPED = ROOT / "schema" / "record.v2.json"
BAD = ROOT / "tests" / "fixtures" / "bad"
HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
VALIDATOR = jsonschema.Draft202012Validator(record_schema())
# Fixtures whose one defect is a wrong JSON type or a missing required field:
# there the schema and the validator must name the same field. (Content rules
# such as the slug's spelling, and rules across fields, are the validator's.)
TYPE_OR_REQUIRED = {
    "record-missing.json": {"record"},
    "required-field-missing.json": {"errorMessage"},
    "required-field-null.json": {"repo"},
    "line-number-not-an-integer.json": {"lineNumber"},
    "solutions-item-not-a-string.json": {"solutions[1]"},
}


def schema_fields(data) -> set[str]:
    """The fields the schema rejects, spelled as the validator spells them."""
    fields = set()
    for error in VALIDATOR.iter_errors(data):
        path = list(error.absolute_path)
        if error.validator == "required":
            path += sorted(set(error.validator_value) - set(error.instance))
        if path[:1] == ["record"] and len(path) > 1:
            path = path[1:]
        if not path:  # the file itself is not an object
            path = ["file"]
        field = str(path[0]) + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path[1:])
        fields.add(field)
    return fields


def checked(folder):
    """(file name, parsed JSON, fields the validator names) for each parsable file."""
    raws = [raw for raw in load_records(folder) if raw.problem is None]
    _, problems = validate_all(raws)
    named: dict[str, set[str]] = {}
    for problem in problems:
        named.setdefault(problem.path, set()).add(problem.field)
    return [(raw.path, raw.data, named.get(raw.path, set())) for raw in raws]


def test_the_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(record_schema())
    assert record_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_shipped_schema_is_the_generated_one():
    assert SHIPPED.read_bytes() == schema_json(), \
        "schema/record.v2.json is stale: python -m errorsite.pages.schema > schema/record.v2.json"


def test_the_schema_has_every_model_field_and_only_those():
    record = record_schema()["properties"]["record"]
    assert list(record["properties"]) == [field.key for field in FIELDS]
    assert record["required"] == [field.key for field in FIELDS if not field.nullable]
    assert set(DESCRIPTIONS) == {field.key for field in FIELDS}
    for field in FIELDS:
        types = record["properties"][field.key]["type"]
        assert ("null" in types) == field.nullable, field.key


def test_every_shared_record_is_valid():
    need_shared()
    files = sorted(SHARED_RECORDS.glob("*.json"))
    assert files
    for path in files:
        errors = [e.message for e in VALIDATOR.iter_errors(json.loads(path.read_text(encoding="utf-8")))]
        assert errors == [], path.name


def test_every_demo_record_is_valid():
    files = sorted((ROOT / "records").glob("*.json"))
    assert files
    for path in files:
        errors = [e.message for e in VALIDATOR.iter_errors(json.loads(path.read_text(encoding="utf-8")))]
        assert errors == [], path.name


def test_the_good_fixture_is_valid():
    VALIDATOR.validate(json.loads((BAD / "good-dataclass-on-model.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", sorted(TYPE_OR_REQUIRED))
def test_schema_and_validator_name_the_same_field(name):
    [(_, data, validator_fields)] = [c for c in checked(BAD) if c[0].endswith("/" + name)]
    assert schema_fields(data) == validator_fields == TYPE_OR_REQUIRED[name]


@pytest.mark.parametrize("folder", [BAD, HOSTILE], ids=["bad", "hostile"])
def test_whatever_the_schema_rejects_the_validator_reports(folder):
    """So a dataset that passes `check` never fails the schema for a reason the
    build would not mention — and a file the build takes as it is, the schema takes."""
    for path, data, validator_fields in checked(folder):
        rejected = schema_fields(data)
        if rejected:
            assert validator_fields, f"{path}: the schema rejects {rejected}, the validator nothing"
        if not validator_fields:
            assert not rejected, f"{path}: the validator takes it, the schema rejects {rejected}"


def test_schema_patterns_are_anchored():
    for key, rules in record_schema()["properties"]["record"]["properties"].items():
        pattern = rules.get("pattern")
        if pattern and key not in ("errorMessage", "githubUrl"):
            assert pattern.startswith("^") and pattern.endswith("$"), key
            re.compile(pattern)


def test_the_site_publishes_the_schema(tmp_path):
    out = tmp_path / "site"
    result, _ = build_quietly(ROOT / "records", out, "https://example.org/errors/")
    assert result.written
    published = json.loads(urls.output_file(out, urls.SCHEMA_PATH).read_bytes())
    assert published.pop("$id") == "https://example.org/errors/" + urls.SCHEMA_PATH
    assert published == json.loads(SHIPPED.read_bytes())
