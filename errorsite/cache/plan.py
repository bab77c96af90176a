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

from dataclasses import dataclass, field
from typing import Callable, Iterable, NamedTuple

from ..model import Outcome, Problem, Reuse, Summary
from .stored import ServedFiles


class GlobalPages(NamedTuple):
    """What a build's global pages were made from, and their paths."""
    key: str             # summaries + the URL history as redirect_pages reads it (redirects.history_key)
    paths: list[str]
    summaries: str       # the key's part from the summaries alone
    history_served: str  # keys.history_digest of the URL history the pages served

    def to_json(self) -> dict:
        return {"key": self.key, "paths": self.paths, "summaries": self.summaries,
                "history served": self.history_served}

    @staticmethod
    def from_json(data: object) -> "GlobalPages | None":
        if not isinstance(data, dict) or not isinstance(data.get("paths"), list) or not data.get("key"):
            return None
        return GlobalPages(str(data["key"]), list(data["paths"]), str(data.get("summaries", "")),
                           str(data.get("history served", "")))


NO_GLOBAL_PAGES = GlobalPages("", [], "", "")


@dataclass(frozen=True)
class PreviousBuild:
    """The build that wrote the output folder, as its marker says and its files
    confirm (stored.previous_manifest). Empty when there is none of ours."""
    fingerprint: str = ""
    records_folder: object = None
    pages: dict[str, str] = field(default_factory=dict)       # record page path → key, its file still there
    inodes: dict[str, int] = field(default_factory=dict)      # page path → the served file's inode
    served: ServedFiles | None = None                         # every served file, when all were found
    sources: dict | None = None                               # record file → digest of its bytes
    global_pages: GlobalPages | None = None
    problems: list[Problem] | None = None
    records: int | None = None
    files: int = 0
    complete: bool = False                                    # every record page's file is still there

    @staticmethod
    def from_manifest(manifest: dict) -> "PreviousBuild":
        if not manifest:
            return PreviousBuild()
        problems, records = manifest.get("problems"), manifest.get("records")
        sources = manifest.get("sources")
        return PreviousBuild(
            fingerprint=manifest.get("fingerprint") or "", records_folder=manifest.get("records_folder"),
            pages=manifest.get("pages", {}), inodes=manifest.get("inodes", {}), served=manifest.get("served"),
            sources=sources if isinstance(sources, dict) else None,
            global_pages=GlobalPages.from_json(manifest.get("global")),
            problems=[Problem(*problem) for problem in problems] if isinstance(problems, list) else None,
            records=records if isinstance(records, int) else None,
            files=manifest.get("files", 0) if isinstance(manifest.get("files"), int) else 0,
            complete=len(manifest.get("pages", {})) == manifest.get("page_files"))


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


def page_keys(previous: PreviousBuild, fingerprint: str) -> dict[str, str]:
    """The previous build's record page keys, when its pages were made by this fingerprint."""
    return previous.pages if previous.fingerprint == fingerprint else {}


class Reusable(NamedTuple):
    """What the previous build's outcomes give this one."""
    known: dict[int, Outcome]        # outcomes that stand, by the file's place: the file is not read
    last_good: dict[str, Outcome]    # by file key, for a file read again: its page, kept if it now fails


def reusable_outcomes(previous: PreviousBuild, fingerprint: str, records_folder: str, names: list[str],
                      links: list[bool], sources: dict,
                      read_outcomes: Callable[[], Iterable[tuple[str, object]]]) -> Reusable:
    """The outcomes the previous build left (`read_outcomes()`, called only if
    they can be used). A record file whose bytes did not change keeps its
    outcome: with the same code and settings, loading, validating and
    rendering it again would give the same problems, summary and pages, so it
    is not read at all. A symbolic link is always read: what it points to
    decides whether it may be loaded. A file that changed is read again, and
    its last good outcome kept aside in case it no longer loads."""
    if not comparable(previous, fingerprint, records_folder):
        return Reusable({}, {})
    digests, pages = previous.sources or {}, previous.pages
    place = {name: index for index, name in enumerate(names)}
    known, last_good = {}, {}
    for name, entry in read_outcomes():  # each made into an Outcome as it is read: never all of them parsed at once
        index = place.get(name)
        outcome = None if index is None else published(entry, pages)
        if outcome is None:
            continue
        if sources[name] is not None and digests.get(name) == sources[name] and not links[index]:
            known[index] = outcome
        else:
            last_good[name] = outcome
    return Reusable(known, last_good)


def published(entry: object, pages: dict[str, str]) -> Outcome | None:
    """A stored outcome ([problems, summary, paths, key]) whose record was
    built and whose files are still served as they were made; else None."""
    try:
        problems, summary, paths, key = entry
        if summary is None or not all(pages.get(path) == key for path in paths):
            return None
        return Outcome([Problem(*problem) for problem in problems], Summary.from_json(summary),
                       [Reuse(path) for path in paths], key)
    except (TypeError, ValueError):
        return None  # no entry, or not one this version wrote


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


def global_reuse(previous: GlobalPages | None, summaries: str, history: str,
                 precise_key: Callable[[], str]) -> tuple[bool, str]:
    """Whether the previous build's global pages stand for this build's, and
    the key of this build's. The same summaries starting from the URL history
    the previous pages served give the same pages: merging a history with the
    records that made it changes nothing (redirects.history_key). Otherwise the
    precise key decides; it merges the history, which grows with the records."""
    if previous is None:
        return False, precise_key()
    if (previous.summaries, previous.history_served) == (summaries, history):
        return True, previous.key
    key = precise_key()
    return key == previous.key, key


class NextBuild(NamedTuple):
    """What this build leaves for the next one (read back as PreviousBuild)."""
    fingerprint: str
    pages: dict[str, str]        # record page path → key
    records: int
    history: str                 # keys.history_digest of the URL history this build started from
    global_pages: GlobalPages
    sources: dict[str, str]      # record file → digest of its bytes
    outcomes: dict[str, list]    # record file → [problems, summary, paths, key]: reusable_outcomes reads them
    records_folder: str          # as given: problems name files by it
    problems: list[Problem]

    def to_json(self) -> dict:
        return {"fingerprint": self.fingerprint, "pages": self.pages, "page_files": len(self.pages),
                "records": self.records, "history": self.history, "global": self.global_pages.to_json(),
                "sources": self.sources, "outcomes": self.outcomes, "records_folder": self.records_folder,
                "problems": [list(problem) for problem in self.problems]}
