"""What a build may take from the previous one: pure functions of typed values.

Three levels of reuse, each correct by construction (keys.py):
- nothing changed (the same record files, byte for byte, the same render
  fingerprint, the site's own URL history): the served site stays as it is;
- a record file whose bytes did not change: its previous outcome (problems,
  summary, pages) stands, and the file is not read;
- global pages whose key (every summary and the URL history they start
  from) did not change: the previous build's files are linked.
"""
from __future__ import annotations

from typing import Callable, Iterable, NamedTuple

from ..model import Outcome, Problem
from .previous import NO_GLOBAL_PAGES, GlobalPages, PreviousBuild
from .outcomes import OutcomesAltered, outcome_of_json

__all__ = ["NO_GLOBAL_PAGES", "GlobalPages", "NextBuild", "PreviousBuild", "Reusable", "comparable", "global_reuse",
           "GlobalPlan", "kept_instead", "plan_global", "reusable_outcomes", "still_served", "unchanged"]


def comparable(previous: PreviousBuild, fingerprint: str, records_folder: str) -> bool:
    """Whether the previous build's digests and outcomes may stand for this
    one's: it had the same render fingerprint and read the same records folder."""
    return (previous.fingerprint, previous.records_folder) == (fingerprint, records_folder)


def unchanged(previous: PreviousBuild, fingerprint: str, records_folder: str, sources: dict,
              own_history: bool) -> bool:
    """Whether nothing a page depends on changed since the previous build: the
    same record files, byte for byte, the same render fingerprint, and the URL
    history the site itself serves (then its redirects are already ours)."""
    return (comparable(previous, fingerprint, records_folder) and previous.sources == sources and own_history
            and previous.global_pages is not None and previous.problems is not None
            and previous.records is not None and previous.complete)


class Reusable(NamedTuple):
    """What the previous build's outcomes give this one."""
    known: dict[int, Outcome]        # outcomes that stand, by the file's place: the file is not read
    last_good: dict[str, Outcome]    # by file key, for a file read again: its page, kept if it now fails
    page_keys: dict[str, str] = {}   # the other outcomes' record pages → key: a record read again may
                                     # make one of them again (records.Worker)


def reusable_outcomes(previous: PreviousBuild, fingerprint: str, records_folder: str, names: list[str],
                      links: list[bool], sources: dict, stored: Iterable[tuple[str, object]]) -> Reusable:
    """The outcomes the previous build left (`stored`, read only if they
    can be used). A record file whose bytes did not change keeps its
    outcome: with the same code and settings, loading, validating and
    rendering it again would give the same problems, summary and pages, so it
    is not read at all. A symbolic link is always read: what it points to
    decides whether it may be loaded. A file that changed is read again, and
    its last good outcome kept aside in case it no longer loads. The pages of
    every outcome not kept, the same code made them: their keys are kept too."""
    if previous.fingerprint != fingerprint:
        return Reusable({}, {})
    digests = previous.sources or {}
    place = {name: index for index, name in enumerate(names)} if previous.records_folder == records_folder else {}
    known, last_good, keys = {}, {}, {}
    try:
        for name, entry in stored:  # each made into an Outcome as it is read: never all parsed at once
            outcome, index = built(entry), place.get(name)
            if outcome is None:
                continue
            if index is not None:
                if sources[name] is not None and digests.get(name) == sources[name] and not links[index]:
                    known[index] = outcome
                    continue
                last_good[name] = outcome
            keys.update((page.path, outcome.key) for page in outcome.pages)
    except OutcomesAltered:
        return Reusable({}, {})
    return Reusable(known, last_good, keys)


def still_served(reusable: Reusable, missing: frozenset[str]) -> Reusable:
    """The outcomes and page keys of `reusable` whose files are still served:
    none of their pages `missing` (stored.Served), as the lookup beside
    `reusable_outcomes` found them. Their keys are the outcomes file's, the
    one the state names (outcomes.previous_outcomes)."""
    if not missing:
        return reusable

    def served(outcome: Outcome) -> bool:
        return not any(page.path in missing for page in outcome.pages)
    return Reusable({index: outcome for index, outcome in reusable.known.items() if served(outcome)},
                    {name: outcome for name, outcome in reusable.last_good.items() if served(outcome)},
                    {path: key for path, key in reusable.page_keys.items() if path not in missing})


def built(entry: object) -> Outcome | None:
    """A stored outcome (outcomes.outcome_json) whose record was built; else None."""
    try:
        outcome = outcome_of_json(entry)
    except (TypeError, ValueError):
        return None  # no entry, or not one this version wrote
    return None if outcome.summary is None else outcome


def kept_instead(failed: Outcome, last_good: Outcome) -> Outcome:
    """A record file that no longer loads or validates, published before: the
    site keeps its last good page, and its problems say so."""
    problems, told = [], False
    for problem in failed.problems:
        if not problem.dropped:
            message = problem.message if told else f"{problem.message}; kept its page from the previous build"
            problem, told = problem._replace(message=message, kept=True), True
        problems.append(problem)
    return last_good._replace(problems=problems, digest=failed.digest)


def global_reuse(previous: GlobalPages, summaries: str, history: str,
                 precise_key: Callable[[], str]) -> tuple[bool, str]:
    """Whether the previous build's global pages stand for this build's, and
    the key of this build's. The same summaries starting from the URL history
    the previous pages served give the same pages: merging a history with the
    records that made it changes nothing (redirects.history_key). Otherwise the
    precise key decides; it merges the history, which grows with the records."""
    if (previous.summaries, previous.history_served) == (summaries, history):
        return True, previous.key
    key = precise_key()
    return key == previous.key, key


class GlobalPlan(NamedTuple):
    """What the global step does (plan_global)."""
    summaries: str                   # the summaries' part of the key (keys.summaries_key)
    reuse: GlobalPages | None        # the previous build's pages, standing for this build's; None: make them


def plan_global(previous: GlobalPages | None, as_before: bool, summaries_key: Callable[[], str],
                history: str, precise_key: Callable[[str], str]) -> GlobalPlan:
    """Whether the previous build's global pages stand. `as_before`: the
    summaries are the ones they were made from, so the summaries' key is
    theirs and `summaries_key()` is not worked out. Pages made from other
    summaries cannot stand (their key holds the summaries'), whatever the URL
    history (digest `history`); with the same summaries `precise_key(summaries)`
    decides when the history is not the one they served (global_reuse). The
    search data starts once this says no: before the precise key, which waits
    for the pages, unless it decided here."""
    same = as_before and previous is not None and previous.summaries
    summaries = previous.summaries if same else summaries_key()
    if previous is None or (previous.summaries and previous.summaries != summaries):
        return GlobalPlan(summaries, None)
    reuse, _ = global_reuse(previous, summaries, history, lambda: precise_key(summaries))
    return GlobalPlan(summaries, previous._replace(summaries=summaries) if reuse else None)


class NextBuild(NamedTuple):
    """What this build leaves for the next one (read back as PreviousBuild)."""
    fingerprint: str
    page_files: int              # the record pages; the outcomes name each, with its key
    records: int
    history: str                 # keys.history_digest of the URL history this build started from
    global_pages: GlobalPages
    sources: dict[str, str]      # record file → digest of its bytes
    outcomes: dict[str, list]    # record file → outcomes.outcome_json(): reusable_outcomes reads them
    records_folder: str          # as given: problems name files by it
    problems: list[Problem]

    def to_json(self) -> dict:
        return {"fingerprint": self.fingerprint, "page_files": self.page_files,
                "records": self.records, "history": self.history, "global": self.global_pages.to_json(),
                "sources": self.sources, "outcomes": self.outcomes, "records_folder": self.records_folder,
                "problems": [list(problem) for problem in self.problems]}
