"""The search-quality suite: every real paste we have (bench/quality.py: the
shared queries, ../shared/real-pastes/, the hard pastes and the pastes we
mined, tests/fixtures/mined/) searched cold on the split files of their
records among 12,000 distractors, under Node with the site's own engine.

- top-1 and top-3 per set and per kind, against floors (FLOORS);
- every code-shaped errorCode, in each written form, puts its record first as
  an exact match;
- the engine's judgement: of the right first results, the share called a
  match; of each shared set's pastes searched on a site built without its
  records, the share called a match (at most 10%); of the near misses
  (tests/fixtures/near-misses/: real pastes of errors without a record, each
  beside a sibling record), the share called a match, per kind; how often
  `exact` is right;
- every paste inside long CI logs (bench/longlog.py) keeps its rank and its
  verdict, but for those no line of which looks like an error in the middle
  of a 200 KB log;
- the split search answers what the true whole index answers (lunr.py's, no
  split files), query for query, on every one of them.

The figures are printed at the end of the run (conftest's terminal summary)
and by `python -m bench.quality`.
"""
from __future__ import annotations

import pytest

from bench import quality
from tests.conftest import need_shared
from tests.search_node import need_node

pytestmark = pytest.mark.slow
DISTRACTORS = 12000
FIGURES: dict[str, str] = {}  # printed by conftest's pytest_terminal_summary

# What the suite must keep: issue 39's targets where they are met, else the
# level reached (a fall below it is a regression; docs/search.md has the
# figures and the targets not yet met).
FLOORS = {
    ("all", "all"): (0.98, 0.99),        # the targets (98.5% and 99.1% reached at 12k)
    ("set", "shared"): (1.0, 1.0),
    ("set", "hard"): (0.95, 1.0),
    ("set", "set-a"): (1.0, 1.0),
    ("set", "set-b"): (1.0, 1.0),
    ("set", "set-c"): (1.0, 1.0),
    ("kind", "issue-title"): (0.98, 0.99),
    ("kind", "issue-paste"): (0.99, 0.99),
}
KIND_FLOOR = 0.90      # top-1 of every kind of paste…
KIND_BELOW = {"frames-only": 0.70}  # …but these (target 90%: a frame names a library, seldom its error)
MATCHED_RIGHT = 0.97   # of the right first results of pastes holding their message, called a match
MATCHED_RIGHT_ALL = 0.955  # …of all right first results, frames alone included (each one made right lowers it)
MATCHED_ABSENT = 0.10  # of pastes whose record is absent, called a match
# Near misses called a match, per kind, at most (issue 61's target, 2% in all, is
# reached; the kinds are held where they are: docs/search.md).
NEAR_CALLED = {"all": 0.02, "same-class": 0.01, "same-repo": 0.03, "same-words": 0.03}
EXACT_RIGHT = 0.995    # of the first results called exact, the paste's record
# Of the suite's pastes (not titles nor typed words), inside long logs, those
# that keep their rank and verdict, at least.
LONG_KEPT = {"end-26k": 0.985, "middle-200k": 0.94, "ansi-stamped": 0.98}
PASTE_KINDS = {"issue-paste", "ci-log", "structured-log", "non-english", "pasted", "tool-prefix", "windows-path",
               "prompt"}


@pytest.fixture(scope="module")
def suite():
    need_shared()
    need_node()
    return quality.load_suite()


@pytest.fixture(scope="module")
def near(suite):
    return quality.load_near_misses(suite)


@pytest.fixture(scope="module")
def site(suite, near, mined_messages, tmp_path_factory):
    folder = tmp_path_factory.mktemp("quality")
    return folder, quality.write_search(folder, quality.corpus(suite, DISTRACTORS, near_misses=near), whole=True)


@pytest.fixture(scope="module")
def outcomes(suite, site):
    folder, search_dir = site
    queries = suite.queries + quality.code_queries(suite)
    return queries, quality.run(search_dir, queries, whole=folder / "whole")


@pytest.fixture(scope="module")
def near_outcomes(near, site):
    return quality.run(site[1], [quality.Query(n.text, n.sibling, n.kind, "near") for n in near])


def test_real_pastes_rank_their_record_first(outcomes):
    queries, found = outcomes
    real = [(q, o) for q, o in zip(queries, found) if q.set != "codes"]
    figures = quality.figures([q for q, _ in real], [o for _, o in real])
    FIGURES[f"every real paste, {DISTRACTORS} distractors"] = quality.table(figures)
    low = [f"{axis} {name}: top-1 {figures[axis][name]['top1']:.1%} < {top1:.0%} or top-3 "
           f"{figures[axis][name]['top3']:.1%} < {top3:.0%}"
           for (axis, name), (top1, top3) in FLOORS.items()
           if figures[axis][name]["top1"] < top1 or figures[axis][name]["top3"] < top3]
    low += [f"kind {kind}: top-1 {f['top1']:.1%} < {KIND_BELOW.get(kind, KIND_FLOOR):.0%}"
            for kind, f in figures["kind"].items() if f["top1"] < KIND_BELOW.get(kind, KIND_FLOOR)]
    assert not low, "\n".join(low + quality.misses([q for q, _ in real], [o for _, o in real]))


def test_every_written_form_of_a_code_puts_its_record_first(outcomes):
    queries, found = outcomes
    codes = [(q, o) for q, o in zip(queries, found) if q.set == "codes"]
    assert len(codes) >= 20
    wrong = [f"{q.text} → {o['results'][:1]} ({o['match']})" for q, o in codes
             if quality.rank_of(q, o) != 1 or o["match"] != "exact"]
    assert not wrong, wrong


def test_a_right_first_result_is_called_a_match(outcomes):
    """A match holds the record's message: a paste of frames alone cannot,
    so the target is on the pastes that hold theirs, and a floor on all."""
    counts = quality.called_right(*outcomes)
    (called, right), (held, holding) = counts["all"], counts["holding"]
    FIGURES["right first results called a match"] = f"{called / right:.1%} of {right}"
    FIGURES["of the pastes holding their message"] = f"{held / holding:.1%} of {holding}"
    assert held >= MATCHED_RIGHT * holding
    assert called >= MATCHED_RIGHT_ALL * right


@pytest.mark.parametrize("left_out", quality.ABSENT_SETS)
def test_a_paste_whose_record_is_absent_is_seldom_called_a_match(suite, mined_messages, left_out):
    queries, found = quality.absent(suite, DISTRACTORS, left_out)
    called = quality.called(queries, found)
    FIGURES[f"{left_out} without its records, called a match"] = f"{len(called) / len(queries):.1%} of {len(queries)}"
    assert len(called) <= MATCHED_ABSENT * len(queries), called


def test_the_split_search_answers_as_the_true_whole_index(outcomes):
    queries, found = outcomes
    differ = [f"{q.text[:80]!r}: whole {o['whole']['results'][:3]} {o['whole']['match']}, "
              f"split {o['results'][:3]} {o['match']}"
              for q, o in zip(queries, found) if (o["results"], o["match"]) != (o["whole"]["results"], o["whole"]["match"])]
    assert not differ, differ[:10]


def test_a_near_miss_is_seldom_called_a_match(suite, outcomes, near, near_outcomes):
    """A real paste of an error without a record, beside a record of its
    repository (its class, its words): a match called for it is wrong."""
    assert len(near) >= 150
    judged = quality.verdicts(*outcomes, near, near_outcomes)
    FIGURES["near misses called a match"] = ", ".join(f"{kind} {f['called']}/{f['of']}" for kind, f in judged["near"].items())
    high = [f"{kind}: {judged['near'][kind]['called']} of {judged['near'][kind]['of']}"
            for kind, share in NEAR_CALLED.items() if judged["near"][kind]["called"] > share * judged["near"][kind]["of"]]
    assert not high, "\n".join(high + quality.near_called(near, near_outcomes))
    FIGURES["exact right"] = f"{judged['exact']['precision']:.1%} of {judged['exact']['called']}"
    assert judged["exact"]["precision"] >= EXACT_RIGHT


def test_a_paste_inside_a_long_log_keeps_its_rank_and_verdict(suite, site, outcomes):
    """Each paste at the end of a 26 KB CI log, in the middle of a 200 KB one,
    and stamped and coloured as a runner shows it: judged by its error lines
    as it is alone. (A paste none of whose lines looks like an error cannot be
    found in the middle of 200 KB of a log's own output.)"""
    queries, found = outcomes
    pastes = [(q, o) for q, o in zip(queries, found) if q.kind in PASTE_KINDS]
    plain = [q for q, _ in pastes]
    long_found = quality.run(site[1], quality.long_variants(plain))
    lost = quality.long_changes(plain, [o for _, o in pastes], long_found)
    FIGURES["pastes in long logs keeping rank and verdict"] = ", ".join(
        f"{name} {len(plain) - len(changes)}/{len(plain)}" for name, changes in lost.items())
    low = [f"{name}: {len(plain) - len(changes)} of {len(plain)}" for name, changes in lost.items()
           if len(plain) - len(changes) < LONG_KEPT[name] * len(plain)]
    assert not low, "\n".join(low + [line for changes in lost.values() for line in changes][:40])
