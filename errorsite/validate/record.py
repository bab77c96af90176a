"""One record file's JSON → a Record, or the reasons it was rejected."""
from __future__ import annotations

from typing import NamedTuple

from ..text import balance_bidi
from ..model import FIELDS, Problem, Record
from .fields import check_values, read_field
from .issues import Issues
from .limits import text_problem
from .wording import describe


class Checked(NamedTuple):
    """A record (None when rejected) and what was wrong: the reasons it was
    rejected, or the values dropped from it."""
    record: Record | None
    problems: list[Problem]


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
    check_values(values, issues)
    values = {attr: balanced(value) for attr, value in values.items()}  # as the page shows them
    if issues.rejected:  # what rejects it, then what would be dropped once that is fixed
        return Checked(None, issues.problems(path, dropped=False) + issues.problems(path, dropped=True))
    record = Record(source_file=path, dataset_version=balanced(dataset_version), **values)
    return Checked(record, issues.problems(path, dropped=True))


def balanced(value):
    """A checked value for the Record: every string has its bidi controls
    balanced, so none can reorder the page around it."""
    if isinstance(value, str):
        return balance_bidi(value)
    if isinstance(value, tuple):
        return tuple(balance_bidi(item) for item in value)
    return value
