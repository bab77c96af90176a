"""validate/: every rule, each on a real record with one field changed.

The base record is tests/fixtures/bad/good-dataclass-on-model.json, a copy of a
real pydantic record with every optional field but two filled in.
"""
from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from errorsite import urls
from errorsite.load import RawRecord
from errorsite.model import FIELDS, Problem, Record
from errorsite.tools.reporting import summary_line
from errorsite.validate import check, drop_duplicates, validate, validate_all
from errorsite.validate.wording import short
from tests.conftest import build_quietly, folder_reader, search_cards

GOOD = Path(__file__).parent / "fixtures" / "bad" / "good-dataclass-on-model.json"
BASE = json.loads(GOOD.read_text(encoding="utf-8"))
PATH = "records/x.json"


def data_with(**changes) -> dict:
    """The base file with record fields set (a value of ... deletes the key)."""
    data = copy.deepcopy(BASE)
    for key, value in changes.items():
        if value is ...:
            del data["record"][key]
        else:
            data["record"][key] = value
    return data


def lines(data) -> list[str]:
    result = validate(PATH, data)
    assert not isinstance(result, Record), "expected problems, got a Record"
    return [str(problem) for problem in result]


def one_line(**changes) -> str:
    [line] = lines(data_with(**changes))
    return line


def dropped_lines(**changes) -> tuple[Record, list[str]]:
    """The record, still built, and the lines for the values dropped from it."""
    record, problems = check(PATH, data_with(**changes))
    assert record is not None, f"expected a record, got {[str(p) for p in problems]}"
    assert all(p.dropped for p in problems)
    return record, [str(p) for p in problems]


# --- a good record -----------------------------------------------------------

def test_good_record_becomes_a_typed_record():
    record = validate(PATH, copy.deepcopy(BASE))
    assert isinstance(record, Record)
    assert record.source_file == PATH
    assert record.dataset_version == "2026-11-30T00:00:00.000Z"
    assert record.repo == "pydantic/pydantic" and (record.owner, record.repo_name) == ("pydantic", "pydantic")
    assert record.message == "Cannot create a Pydantic dataclass from User as it is already a Pydantic model"
    assert record.shown_pattern == "Cannot create a Pydantic dataclass from {cls} as it is already a Pydantic model"
    assert record.error_code == "dataclass-on-model"
    assert record.line_number == 133 and (record.source_start, record.source_end) == (118, 153)
    assert record.solutions == ("Remove the decorator and keep the class as a BaseModel",
                                "Or stop inheriting from BaseModel and keep it as a Pydantic dataclass",
                                "Use model_dump() instead of dataclasses.asdict() for models")
    assert isinstance(record.tags, tuple) and isinstance(record.prevention_tips, tuple)
    assert record.http_status is None and record.content_changed_at is None


def test_every_model_field_is_read():
    record = validate(PATH, copy.deepcopy(BASE))
    for field in FIELDS:
        expected = BASE["record"][field.key]
        actual = getattr(record, field.attr)
        assert actual == (tuple(expected) if isinstance(expected, list) else expected), field.key


def test_minimal_record_has_empty_optionals():
    data = {"record": {key: BASE["record"][key] for key in
                       ("id", "repo", "slug", "errorMessage", "errorType", "severity", "githubUrl")}}
    record = validate(PATH, data)
    assert isinstance(record, Record)
    assert record.solutions == record.tags == record.prevention_tips == ()
    assert record.pattern is None and record.shown_pattern is None and record.dataset_version is None


def test_pattern_equal_to_message_is_not_shown():
    record = validate(PATH, data_with(messagePattern=BASE["record"]["errorMessage"]))
    assert record.shown_pattern is None


@pytest.mark.parametrize("key, value", [
    ("httpStatus", 404),
    ("contentChangedAt", "2026-12-01"),
    ("analyzedSha", "v2.11.0"),
    ("schemaVersion", 1),
    ("tags", []),
    ("slug", "a" * 120),
    ("repo", "a-b/c.d_e"),
    ("githubUrl", "https://github.com/pydantic/pydantic"),
])
def test_accepted_values(key, value):
    assert isinstance(validate(PATH, data_with(**{key: value})), Record)


# --- the file and the record object ------------------------------------------

@pytest.mark.parametrize("data, line", [
    ([1, 2], "records/x.json: file: expected a JSON object, got a list"),
    ("text", 'records/x.json: file: expected a JSON object, got "text"'),
    (None, "records/x.json: file: expected a JSON object, got null"),
    ({}, "records/x.json: record: is missing"),
    ({"record": None}, "records/x.json: record: must be an object, got null"),
    ({"record": []}, "records/x.json: record: must be an object, got a list"),
    ({"record": 7}, "records/x.json: record: must be an object, got 7"),
])
def test_file_shape(data, line):
    assert lines(data) == [line]


def test_dataset_version_must_be_a_string():
    data = copy.deepcopy(BASE)
    data["datasetVersion"] = 2026
    assert lines(data) == ["records/x.json: datasetVersion: expected a string, got 2026"]


# --- presence and types --------------------------------------------------------

@pytest.mark.parametrize("field", [f.key for f in FIELDS if not f.nullable])
def test_required_field_missing(field):
    assert one_line(**{field: ...}) == f"records/x.json: {field}: required field is missing"


@pytest.mark.parametrize("field", [f.key for f in FIELDS if not f.nullable])
def test_required_field_null(field):
    assert one_line(**{field: None}) == f"records/x.json: {field}: must not be null"


@pytest.mark.parametrize("field", [f.key for f in FIELDS if f.nullable])
def test_optional_field_may_be_null_or_absent(field):
    assert isinstance(validate(PATH, data_with(**{field: None})), Record)
    assert isinstance(validate(PATH, data_with(**{field: ...})), Record)


@pytest.mark.parametrize("changes, line", [
    ({"errorMessage": 3}, "errorMessage: expected a string, got 3"),
    ({"errorMessage": ["a"]}, "errorMessage: expected a string, got a list"),
    ({"repo": {"owner": "x"}}, "repo: expected a string, got an object"),
    ({"errorCode": True}, "errorCode: expected a string, got true"),
    ({"lineNumber": "133"}, 'lineNumber: expected an integer, got "133"'),
    ({"lineNumber": 133.0}, "lineNumber: expected an integer, got 133.0"),
    ({"lineNumber": True}, "lineNumber: expected an integer, got true"),
    ({"httpStatus": "404"}, 'httpStatus: expected an integer, got "404"'),
    ({"schemaVersion": False}, "schemaVersion: expected an integer, got false"),
    ({"solutions": "just one"}, 'solutions: expected a list of strings, got "just one"'),
    ({"tags": {"a": 1}}, "tags: expected a list of strings, got an object"),
    ({"solutions": ["a", 3]}, "solutions[1]: expected a string, got 3"),
    ({"preventionTips": [None]}, "preventionTips[0]: expected a string, got null"),
    ({"tags": ["a", "b", ["c"]]}, "tags[2]: expected a string, got a list"),
])
def test_wrong_types(changes, line):
    assert one_line(**changes) == f"records/x.json: {line}"


def test_a_message_over_the_limit_rejects_the_record():
    assert one_line(errorMessage="x" * 2001) == \
        "records/x.json: errorMessage: is 2001 characters long, at most 2000 allowed"


@pytest.mark.parametrize("changes, line, attr, kept", [
    ({"messagePattern": "x" * 2001}, "messagePattern: dropped: is 2001 characters long, at most 2000 allowed",
     "pattern", None),
    ({"documentation": "x" * 5_001},
     "documentation: dropped: is 5001 characters long, at most 5000 allowed", "documentation", None),
    ({"solutions": ["x"] * 21}, "solutions: dropped: has 21 items, at most 20 allowed: the first 20 are kept",
     "solutions", ("x",) * 20),
    ({"tags": ["x"] * 51}, "tags: dropped: has 51 items, at most 50 allowed: the first 50 are kept",
     "tags", ("x",) * 50),
    ({"preventionTips": ["ok", "x" * 401]},
     "preventionTips[1]: dropped: is 401 characters long, at most 400 allowed", "prevention_tips", ("ok",)),
])
def test_sizes_over_the_limit_drop_the_value(changes, line, attr, kept):
    record, printed = dropped_lines(**changes)
    assert printed == [f"records/x.json: {line}"]
    assert getattr(record, attr) == kept


def test_limits_themselves_are_allowed():
    assert isinstance(validate(PATH, data_with(errorMessage="x" * 2000, tags=["t"] * 50)), Record)


def test_every_type_problem_is_reported_in_field_order():
    assert lines(data_with(repo=None, errorMessage=3, lineNumber="x", tags=[1])) == [
        "records/x.json: repo: must not be null",
        "records/x.json: errorMessage: expected a string, got 3",
        "records/x.json: lineNumber: expected an integer, got \"x\"",
        "records/x.json: tags[0]: expected a string, got 1",
    ]


def test_long_values_are_shortened_in_messages():
    line = one_line(lineNumber="9" * 100)
    assert line == 'records/x.json: lineNumber: expected an integer, got "' + "9" * 57 + '…"'


# --- content rules -----------------------------------------------------------------

NOT_A_SLUG = "is not a slug (letters or digits of any script in words joined by single hyphens, at most 255 bytes)"


@pytest.mark.parametrize("changes, line", [
    ({"id": "has space"}, "id: must be 1-64 letters, digits, '-' or '_'"),
    ({"id": "x" * 65}, "id: must be 1-64 letters, digits, '-' or '_'"),
    ({"id": ""}, "id: must be 1-64 letters, digits, '-' or '_'"),
    ({"repo": "pydantic"}, 'repo: "pydantic" is not a GitHub owner/name'),
    ({"repo": "a/b/c"}, 'repo: "a/b/c" is not a GitHub owner/name'),
    ({"repo": "../etc"}, 'repo: "../etc" is not a GitHub owner/name'),
    ({"repo": "owner/.."}, 'repo: "owner/.." is not a GitHub owner/name'),
    ({"repo": "owner/."}, 'repo: "owner/." is not a GitHub owner/name'),
    ({"repo": "-owner/x"}, 'repo: "-owner/x" is not a GitHub owner/name'),
    ({"repo": "owner/a b"}, 'repo: "owner/a b" is not a GitHub owner/name'),
    ({"repo": "-/x"}, 'repo: "-/x" is not a GitHub owner/name'),
    ({"repo": "con/x"}, 'repo: "con/x" contains a reserved device name'),
    ({"repo": "owner/NUL.txt"}, 'repo: "owner/NUL.txt" contains a reserved device name'),
    ({"errorMessage": "   "}, "errorMessage: must not be empty"),
    ({"githubUrl": "http://github.com/a/b"}, 'githubUrl: "http://github.com/a/b" is not an https://github.com/ URL'),
    ({"githubUrl": "https://gitlab.com/a/b"}, 'githubUrl: "https://gitlab.com/a/b" is not an https://github.com/ URL'),
    ({"githubUrl": "https://github.com.evil.example/a/b"},
     'githubUrl: "https://github.com.evil.example/a/b" is not an https://github.com/ URL'),
    ({"githubUrl": "https://user@github.com/a/b"},
     'githubUrl: "https://user@github.com/a/b" is not an https://github.com/ URL'),
    ({"githubUrl": "https://github.com/a"}, 'githubUrl: "https://github.com/a" is not an https://github.com/ URL'),
    ({"githubUrl": "https://github.com/a/b\" onmouseover=\"x"},
     'githubUrl: "https://github.com/a/b\\" onmouseover=\\"x" is not an https://github.com/ URL'),
    ({"githubUrl": "https://github.com/a/b c"}, 'githubUrl: "https://github.com/a/b c" is not an https://github.com/ URL'),
    ({"githubUrl": "javascript:alert(1)//https://github.com/a/b"},
     'githubUrl: "javascript:alert(1)//https://github.com/a/b" is not an https://github.com/ URL'),
    ({"errorType": "???"}, 'errorType: "???" has no letters or digits'),
    ({"severity": " - "}, 'severity: " - " has no letters or digits'),
    ({"schemaVersion": 3}, "schemaVersion: version 3 is newer than this build reads (2)"),
])
def test_content_rules_that_reject_the_record(changes, line):
    assert one_line(**changes) == f"records/x.json: {line}"


@pytest.mark.parametrize("slug, line, derived", [
    ("内存不足-错误-😀", f'"内存不足-错误-😀" {NOT_A_SLUG}', "内存不足-错误"),
    ("Dataclass_On_Model", f'"Dataclass_On_Model" {NOT_A_SLUG}', "dataclass-on-model"),
    ("a--b", f'"a--b" {NOT_A_SLUG}', "a-b"),
    ("-a", f'"-a" {NOT_A_SLUG}', "a"),
    ("../x", f'"../x" {NOT_A_SLUG}', "x"),
    ("a/b", f'"a/b" {NOT_A_SLUG}', "a-b"),
    ("a\\b", f'"a\\\\b" {NOT_A_SLUG}', "a-b"),
    ("a\u0000b", f'"a\\u0000b" {NOT_A_SLUG}', "a-b"),
    ("a.b", f'"a.b" {NOT_A_SLUG}', "a-b"),
    ("Ошибка: Памяти!", f'"Ошибка: Памяти!" {NOT_A_SLUG}', "ошибка-памяти"),
    ("错" * 86, f'"{"错" * 57}…" {NOT_A_SLUG}', "错" * 85),  # cut to 255 bytes
    ("ab-" * 100, f'"{"ab-" * 19}…" {NOT_A_SLUG}', "-".join(["ab"] * 85)),  # cut at a word
    ("-", f'"-" {NOT_A_SLUG}', "r1"),  # nothing left: the record's id
    ("", f'"" {NOT_A_SLUG}', "r1"),
    ("😀", f'"😀" {NOT_A_SLUG}', "r1"),
    ("con", '"con" is a reserved device name', "r1"),
    ("NUL", '"NUL" is a reserved device name', "r1"),
])
def test_a_bad_slug_is_replaced_by_one_made_from_it(slug, line, derived):
    record, printed = dropped_lines(slug=slug, id="R1")
    assert record.slug == derived
    assert printed == [f'records/x.json: slug: dropped: {line}: replaced by {short(derived)}']
    assert validate(PATH, data_with(slug=derived)).slug == derived  # a valid slug, kept as it is
    assert urls.output_name(urls.record_path(record)) == f"pydantic/pydantic/{derived}/index.html"


def test_two_records_never_share_a_url_made_from_their_slugs():
    a = validate("r/a.json", data_with(slug="a-b", id="a"))
    b = validate("r/b.json", data_with(slug="A_B", id="b"))
    kept, problems = drop_duplicates([a, b])
    assert kept == [a] and [str(p) for p in problems] == [
        "r/b.json: slug: duplicate repo and slug pydantic/pydantic/a-b, already used by r/a.json"]


@pytest.mark.parametrize("changes, line, attr, kept", [
    ({"tags": ["ok", ""]}, 'tags[1]: dropped: "" has no letters or digits', "tags", ("ok",)),
    ({"tags": ["+++", "ok"]}, 'tags[0]: dropped: "+++" has no letters or digits', "tags", ("ok",)),
    ({"tags": ["ok", "x", "🔥"]}, 'tags[2]: dropped: "🔥" has no letters or digits', "tags", ("ok", "x")),
    ({"tags": ["x" * 65]}, 'tags[0]: dropped: "' + "x" * 57 + '…" is 65 characters long, at most 64 allowed',
     "tags", ()),
    ({"analyzedSha": "abc def"}, 'analyzedSha: dropped: "abc def" is not a commit sha or tag', "analyzed_sha", None),
    ({"analyzedSha": "../../x"}, 'analyzedSha: dropped: "../../x" is not a commit sha or tag', "analyzed_sha", None),
    ({"analyzedAt": "yesterday"}, 'analyzedAt: dropped: "yesterday" is not an ISO 8601 date', "analyzed_at", None),
    ({"contentChangedAt": "2026-13-01"}, 'contentChangedAt: dropped: "2026-13-01" is not an ISO 8601 date',
     "content_changed_at", None),
    ({"httpStatus": 99}, "httpStatus: dropped: 99 is not an HTTP status", "http_status", None),
    ({"httpStatus": 600}, "httpStatus: dropped: 600 is not an HTTP status", "http_status", None),
    ({"lineNumber": 200}, "lineNumber: dropped: 200 is outside sourceCodeStart..sourceCodeEnd (118..153)",
     "line_number", None),
    ({"lineNumber": 117}, "lineNumber: dropped: 117 is outside sourceCodeStart..sourceCodeEnd (118..153)",
     "line_number", None),
    ({"documentation": "a\ud800b"}, 'documentation: dropped: "a\\ud800b" is not valid Unicode (an unpaired surrogate)',
     "documentation", None),
])
def test_bad_optional_values_are_dropped(changes, line, attr, kept):
    record, printed = dropped_lines(**changes)
    assert printed == [f"records/x.json: {line}"]
    assert getattr(record, attr) == kept


@pytest.mark.parametrize("start", [160, 0])
def test_a_reversed_range_drops_the_range_and_its_line(start):
    record, printed = dropped_lines(sourceCodeStart=start)
    assert printed == [f"records/x.json: sourceCodeStart: dropped: {start}..153 is not a line range, "
                       "so sourceCodeStart and sourceCodeEnd are left out"]
    assert (record.source_start, record.source_end, record.line_number) == (None, None, 133)
    assert record.source_code  # the lines are still shown, numbered from 1


@pytest.mark.parametrize("slug, normalized", [
    ("内存不足-错误", "内存不足-错误"),
    ("Dataclass-On-Model", "dataclass-on-model"),
    ("ошибка-Памяти", "ошибка-памяти"),
    ("cafe\u0301-au-lait", "caf\u00e9-au-lait"),  # NFC: e + combining acute → é
    ("त्रुटि-संदेश", "त्रुटि-संदेश"),  # Devanagari: vowel signs are marks
    ("page", "page"),  # pagination now lives under -/page/
    ("a" * 255, "a" * 255),
])
def test_unicode_slugs_are_accepted_normalized(slug, normalized):
    record = validate(PATH, data_with(slug=slug))
    assert isinstance(record, Record), record
    assert record.slug == normalized


@pytest.mark.parametrize("owner", ["search", "tags", "types", "severities", "repos", "static", "page"])
def test_no_owner_is_reserved_by_the_site(owner):
    assert isinstance(validate(PATH, data_with(repo=f"{owner}/x")), Record)


def test_line_number_at_the_range_ends_is_fine():
    assert isinstance(validate(PATH, data_with(lineNumber=118)), Record)
    assert isinstance(validate(PATH, data_with(lineNumber=153)), Record)


def test_content_rules_all_reported_together():
    assert lines(data_with(id="has space", severity="!!", httpStatus=42, analyzedAt="soon")) == [
        "records/x.json: id: must be 1-64 letters, digits, '-' or '_'",
        'records/x.json: severity: "!!" has no letters or digits',
        'records/x.json: analyzedAt: dropped: "soon" is not an ISO 8601 date',  # a rejected record's too
        "records/x.json: httpStatus: dropped: 42 is not an HTTP status",
    ]
    record, printed = dropped_lines(httpStatus=42, analyzedAt="soon", tags=["🔥"])
    assert printed == [
        'records/x.json: tags[0]: dropped: "🔥" has no letters or digits',
        'records/x.json: analyzedAt: dropped: "soon" is not an ISO 8601 date',
        "records/x.json: httpStatus: dropped: 42 is not an HTTP status",
    ]


# --- duplicates and validate_all ---------------------------------------------------

def good(path: str, **changes) -> Record:
    result = validate(path, data_with(**changes))
    assert isinstance(result, Record)
    return result


def test_duplicate_id_keeps_the_first():
    a, b = good("r/a.json"), good("r/b.json", slug="other")
    kept, problems = drop_duplicates([a, b])
    assert kept == [a]
    assert [str(p) for p in problems] == ["r/b.json: id: duplicate id '350f1fa4a59600a1', already used by r/a.json"]


def test_duplicate_url_is_case_insensitive_on_the_repo():
    a, b = good("r/a.json"), good("r/b.json", id="other", repo="Pydantic/PYDANTIC")
    kept, problems = drop_duplicates([a, b])
    assert kept == [a]
    assert [str(p) for p in problems] == [
        "r/b.json: slug: duplicate repo and slug Pydantic/PYDANTIC/cannot-create-a-pydantic-dataclass-from-as-it-is-"
        "already-a-pydantic-model, already used by r/a.json"]


def test_validate_all_collects_load_and_record_problems():
    load_problem = Problem("r/broken.json", "file", "invalid JSON at line 1 column 1: Expecting value")
    raws = [RawRecord("r/a.json", data_with(), None),
            RawRecord("r/broken.json", None, load_problem),
            RawRecord("r/c.json", data_with(id="c", slug="c", tags=[3]), None),
            RawRecord("r/d.json", data_with(slug="d"), None)]
    records, problems = validate_all(raws)
    assert [r.source_file for r in records] == ["r/a.json"]
    assert [str(p) for p in problems] == [
        "r/broken.json: file: invalid JSON at line 1 column 1: Expecting value",
        "r/c.json: tags[0]: expected a string, got 3",
        "r/d.json: id: duplicate id '350f1fa4a59600a1', already used by r/a.json",
    ]


# --- bad-input fixtures: a real build over tests/fixtures/bad/ ----------------------
# One defect per file, each a copy of good-dataclass-on-model.json with one
# thing broken; the good record beside them must still be built.

BAD = GOOD.parent
BAD_LINES = {
    "github-url-not-github.json":
        'githubUrl: "https://gitlab.com/pydantic/pydantic/-/blob/main/pydantic…" is not an https://github.com/ URL',
    "invalid-json.json": "file: invalid JSON at line 26 column 5: Expecting value",
    "line-number-not-an-integer.json": 'lineNumber: expected an integer, got "133"',
    "record-missing.json": "record: is missing",
    "repo-not-owner-name.json": 'repo: "pydantic" is not a GitHub owner/name',
    "required-field-missing.json": "errorMessage: required field is missing",
    "required-field-null.json": "repo: must not be null",
    "solutions-item-not-a-string.json": "solutions[1]: expected a string, got 3",
}


@pytest.fixture(scope="module")
def bad_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("bad") / "site"
    result, printed = build_quietly(BAD, out)
    return result, printed, out


DROPPED_LINES = {  # files whose one defect costs a value, not the record
    "line-number-outside-range.json": "lineNumber: dropped: 200 is outside sourceCodeStart..sourceCodeEnd (118..153)",
    "slug-not-kebab-case.json":
        f'slug: dropped: "Dataclass_On_Model" {NOT_A_SLUG}: replaced by "dataclass-on-model"',
}


def test_bad_fixtures_are_one_file_per_defect():
    names = sorted(p.name for p in BAD.glob("*.json"))
    assert names == sorted([*BAD_LINES, *DROPPED_LINES, GOOD.name])


def test_each_bad_file_prints_its_exact_line(bad_build):
    _, printed, _ = bad_build
    assert printed == [f"{BAD.as_posix()}/{name}: {line}"
                       for name, line in sorted({**BAD_LINES, **DROPPED_LINES}.items())]


@pytest.mark.parametrize("name", sorted(BAD_LINES))
def test_each_bad_file_alone(name, tmp_path):
    """The same single line when the file sits alone beside the good record."""
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(BAD / name, folder / name)
    shutil.copy(GOOD, folder / GOOD.name)
    result, printed = build_quietly(folder, tmp_path / "out")
    assert printed == [f"{folder.as_posix()}/{name}: {BAD_LINES[name]}"]
    assert summary_line(result) == "built 1 record, skipped 1 — see above"


def test_the_good_records_are_still_built(bad_build):
    result, _, out = bad_build
    assert result.written and result.records == 3
    page = out / "pydantic" / "pydantic" / "cannot-create-a-pydantic-dataclass-from-as-it-is-already-a-pydantic-model" / "index.html"
    assert "<bdi>Cannot create a Pydantic dataclass from User as it is already a Pydantic model</bdi>" in page.read_text()
    assert (out / "pydantic" / "pydantic" / "line-number-outside-range" / "index.html").is_file()
    assert (out / "pydantic" / "pydantic" / "dataclass-on-model" / "index.html").is_file()  # its slug replaced
    assert search_cards(folder_reader(out))[0][0] == \
        "Cannot create a Pydantic dataclass from User as it is already a Pydantic model"


def test_summary_line_counts_built_skipped_and_dropped(bad_build):
    result, _, _ = bad_build
    assert summary_line(result) == "built 3 records, skipped 8, dropped 2 values — see above"


@pytest.mark.parametrize("changes, field", [
    ({"tags": ["python", "🔥"]}, "tags[1]"),
    ({"tags": ["x" * 65]}, "tags[0]"),
    ({"analyzedSha": "not a sha"}, "analyzedSha"),
    ({"analyzedAt": "last tuesday"}, "analyzedAt"),
    ({"contentChangedAt": "2026-02-30"}, "contentChangedAt"),
    ({"httpStatus": 1000}, "httpStatus"),
    ({"lineNumber": 999}, "lineNumber"),
    ({"sourceCodeEnd": 100}, "sourceCodeStart"),
    ({"slug": "内存不足-错误"}, None),
])
def test_a_record_with_one_odd_value_still_gets_its_page(changes, field, tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "x.json").write_text(json.dumps(data_with(**changes)), encoding="utf-8")
    result, printed = build_quietly(folder, tmp_path / "out")
    assert result.written and result.records == 1
    if field is None:
        assert printed == []
    else:
        [line] = printed
        assert line.startswith(f"{folder.as_posix()}/x.json: {field}: dropped: ")
        assert summary_line(result) == "built 1 record, dropped 1 value — see above"
    slug = changes.get("slug", BASE["record"]["slug"])
    assert (tmp_path / "out" / "pydantic" / "pydantic" / slug / "index.html").is_file()


def test_an_ascii_slug_is_judged_as_the_rule_judges_any_slug():
    """slug_problems answers most slugs (ASCII) by one match: the same answer
    as the rule for any script gives, on the shapes either could get wrong."""
    from errorsite.validate.formats import normalized_slug, slug_problems, slug_rule
    cases = ["a", "a-b", "ab-12-c3", "A-B", "a--b", "-a", "a-", "", "-", "a_b", "a b", "a.b", "a/b", "a\n",
             "con", "CON", "com1", "lpt9", "lpt10", "nul-x", "x" * 255, "x" * 256, "é", "e\u0301", "a-é",
             "ﬁle", "İstanbul", "K", "١٢", "a-١", "\u0301a", "a\u0301", "ab\u200b", "Ⅻ", "x" * 254 + "é"]
    for case in cases:
        assert slug_problems(case) == slug_rule(case, normalized_slug(case)), case


def test_url_check_refuses_exactly_blanks_quotes_brackets_and_controls():
    from errorsite.validate.formats import _NOT_IN_URL
    refused = {chr(n) for n in range(0x110000) if _NOT_IN_URL.search(chr(n))}
    assert refused == {chr(n) for n in range(0x110000)
                       if chr(n).isspace() or chr(n) in "<>\"'`\\" or n < 32}
