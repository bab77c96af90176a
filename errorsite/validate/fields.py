"""One record's fields: each read with its type and size checked, then their
content checked once all have the right type."""
from __future__ import annotations

from functools import partial

from ..text import line_count
from ..model import Field
from ..urls import url_segment
from .formats import (ID_RE, REF_RE, derived_slug, is_github_url, is_iso_date, normalized_slug, repo_problems,
                      slug_problems)
from .issues import Issues
from .limits import MAX_ITEMS, MAX_LINE, MAX_SOURCE_LINES, MAX_TAG, MAX_TAGS, SCHEMA_VERSION, text_fits, text_problem
from .wording import describe, number, short


TYPE_NAMES = {str: "a string", int: "an integer", list: "a list of strings"}


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


def check_values(v: dict, issues: Issues) -> None:
    """Checks on content, run on every value of the right type, so that one
    run finds every problem of a record. Rejects what the page needs; drops
    (and sets to None) what it can do without. A required value rejected for
    its type or absence (None here) is not checked again."""

    def require(ok: bool, key: str, message: str) -> None:
        if not ok:
            issues.reject(key, message)

    def present(attr: str) -> bool:
        return v[attr] is not None

    def keep(ok: bool, key: str, attr: str, message: str) -> None:
        if not ok:
            issues.drop(key, message)
            v[attr] = None

    if present("id"):
        require(ID_RE.fullmatch(v["id"]) is not None, "id", "must be 1-64 letters, digits, '-' or '_'")
    for message in repo_problems(v["repo"]) if present("repo") else ():
        issues.reject("repo", message)
    slug_problem = slug_problems(v["slug"]) if present("slug") else None
    if present("slug") and slug_problem is None:
        v["slug"] = normalized_slug(v["slug"])
    elif present("slug"):  # the record keeps its page, under a slug made from this one (duplicates are still dropped)
        v["slug"] = derived_slug(v["slug"], v["id"] or "")
        issues.drop("slug", f"{slug_problem}: replaced by {short(v['slug'])}")
    if present("message"):
        require(v["message"].strip() != "", "errorMessage", "must not be empty")
    if present("github_url"):
        require(is_github_url(v["github_url"]), "githubUrl",
                f"{short(v['github_url'])} is not an https://github.com/ URL")
    for key, attr in (("errorType", "error_type"), ("severity", "severity")):
        if present(attr):
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


def checked_tags(tags: tuple[str, ...], issues: Issues):
    for i, tag in enumerate(tags):
        if not url_segment(tag):
            issues.drop(f"tags[{i}]", f"{short(tag)} has no letters or digits")
        elif len(tag) > MAX_TAG:
            issues.drop(f"tags[{i}]", f"{short(tag)} is {len(tag)} characters long, at most {MAX_TAG} allowed")
        else:
            yield tag
