"""The outcomes a rebuild keeps for the next one: the lines of those that
stand as the previous build left them are copied from its file, byte for
byte what writing them again would give, and only while that file is the one
they were read from."""
from __future__ import annotations

import json
import os

import pytest
from hypothesis import example, given, strategies as st

from errorsite import cache
from errorsite.cache import outcomes as outcome_file, stored
from errorsite.cache.outcomes import OutcomesRead, previous_outcomes
from errorsite.model import Summary, inert_json, whole


def summary(name: str, message: str) -> Summary:
    return Summary(f"{name}.json", name, "o/r", name, message, None, None, "t", None, "error", None, (), None, None,
                   "Card.")


OUTCOMES = {"a.json": [[], summary("a", "<b>"), ["a/"], "k1"], "b.json": [[], summary("b", "b"), ["b/"], "k2"],
            "c&d.json": [[["c&d.json", "tags", "dropped"]], summary("c", "c"), ["c/"], "k3"],
            "e.json": [[], summary("e", "e"), ["e/"], "k4"]}


def written(outcomes: dict) -> bytes:
    """The file as it was made, each summary read whole: a line's head, a tab, the summary."""
    def line(key: str, outcome: list) -> bytes:
        problems, whole_summary, paths, page_key = outcome
        return (inert_json([key, problems, paths, page_key, list(whole_summary[:4])]) + b"\t" +
                inert_json(whole_summary) + b"\n")
    return b"".join(line(key, outcomes[key]) for key in sorted(outcomes))


def read_back(folder) -> tuple[dict, OutcomesRead]:
    digest = json.loads((folder / cache.STATE).read_text())["outcomes_digest"]
    stored = previous_outcomes(folder, digest)
    outcomes = {key: [problems, whole(read), paths, page_key]
                for key, (problems, read, paths, page_key) in stored.entries}
    return outcomes, stored.file


def saved(folder, outcomes: dict, unchanged: OutcomesRead) -> bytes:
    stored.save_state(folder, {"outcomes": dict(outcomes)}, unchanged)
    return (folder / cache.OUTCOME_FILE).read_bytes()


def test_unchanged_outcomes_are_copied_and_the_file_is_as_written_anew(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    stored.save_state(folder, {"outcomes": dict(OUTCOMES)})
    assert (folder / cache.OUTCOME_FILE).read_bytes() == written(OUTCOMES)
    previous, file = read_back(folder)
    assert previous == OUTCOMES
    now = {**{key: previous[key] for key in ("a.json", "c&d.json", "e.json")},  # b.json removed
           "b2.json": [[], summary("b2", "b2"), ["b2/"], "k5"], "e.json": [[], summary("e", "edited"), ["e/"], "k6"]}
    encoded = []
    real = outcome_file.inert_json
    monkeypatch.setattr(outcome_file, "inert_json", lambda value: encoded.append(value) or real(value))
    content = saved(folder, now, OutcomesRead(file, frozenset({"a.json", "c&d.json"})))
    assert content == written(now)
    # Only the new and the changed lines were made (and the two copied lines' starts).
    assert sorted(value[0] for value in encoded if isinstance(value, list)) == ["b2.json", "e.json"]


def test_a_replaced_outcomes_file_is_not_copied_from(tmp_path):
    """Another build may have replaced the file since this one read it: its
    lines are then not this build's, so every line is written anew."""
    folder = tmp_path / "cache"
    stored.save_state(folder, {"outcomes": dict(OUTCOMES)})
    previous, file = read_back(folder)
    other = {**OUTCOMES, "a.json": [[], summary("a", "another build's"), ["a/"], "k1"]}
    stored.save_state(folder, {"outcomes": dict(other)})
    assert saved(folder, previous, OutcomesRead(file, frozenset(previous))) == written(OUTCOMES)


def test_an_outcomes_file_changed_in_place_is_not_copied_from(tmp_path):
    folder = tmp_path / "cache"
    stored.save_state(folder, {"outcomes": dict(OUTCOMES)})
    previous, file = read_back(folder)
    path = folder / cache.OUTCOME_FILE
    with open(path, "r+b") as handle:
        handle.write(handle.read().replace(b'"\\u003cb\\u003e"', b'"\\u003cx\\u003e"'))
    os.utime(path, ns=(file[3] + 10**9, file[3] + 10**9))
    assert saved(folder, previous, OutcomesRead(file, frozenset(previous))) == written(OUTCOMES)


def test_without_a_file_read_every_line_is_written(tmp_path):
    folder = tmp_path / "cache"
    assert saved(folder, OUTCOMES, OutcomesRead(None, frozenset(OUTCOMES))) == written(OUTCOMES)


def test_stored_summaries_are_written_back_as_read_whether_read_whole_or_not(tmp_path):
    """A summary a step read whole (model.StoredSummary) has its line made from
    the Summary; one never read, from the file it is in: the same bytes."""
    folder = tmp_path / "cache"
    stored.save_state(folder, {"outcomes": dict(OUTCOMES)})
    digest = json.loads((folder / cache.STATE).read_text())["outcomes_digest"]
    read = dict(previous_outcomes(folder, digest).entries)
    for key in ("a.json", "e.json"):
        whole(read[key][1])
    assert [outcome[1].whole is not None for outcome in read.values()] == [True, False, False, True]
    assert saved(folder, read, OutcomesRead(None, frozenset())) == written(OUTCOMES)


def test_a_stored_summary_is_read_from_the_file_it_came_from_once_another_replaced_it(tmp_path):
    """The outcomes file stays open for its summaries: a build that renames
    its own over it in the meantime changes nothing they read."""
    folder = tmp_path / "cache"
    stored.save_state(folder, {"outcomes": dict(OUTCOMES)})
    digest = json.loads((folder / cache.STATE).read_text())["outcomes_digest"]
    read = dict(previous_outcomes(folder, digest).entries)
    stored.save_state(folder, {"outcomes": {**OUTCOMES, "a.json": [[], summary("a", "another"), ["a/"], "k1"]}})
    assert whole(read["a.json"][1]) == OUTCOMES["a.json"][1]
    assert read["b.json"][1].json() == inert_json(OUTCOMES["b.json"][1])


@given(st.text(st.characters(blacklist_categories=("Cs",))))
@example('a"b\\c<d>&e\x00\x1f\x7f\u2028é.json')
def test_a_lines_start_is_its_key_as_inert_json(key):
    """outcome_lines finds an unchanged outcome's line by its start, made
    without json.dumps for a key that needs no escaping."""
    assert outcome_file.line_start(key) == b"[" + inert_json(key) + b","
    assert outcome_file.outcome_line(key, [[], None, [], None]).startswith(outcome_file.line_start(key))


def test_the_outcomes_json_is_read_as_json_loads_reads_it():
    line = outcome_file.outcome_line("é<&>.json", [[], None, ["a/"], "k"])
    head = line.partition(b"\t")[0]
    assert outcome_file._json_value(head) == json.loads(head)
    for bad in (head + b" ", head + b"[]", b" " + head, head[:-1], b"\xff" + head):
        with pytest.raises(ValueError):  # stricter than json.loads on spaces: the outcomes hold none
            outcome_file._json_value(bad)
