"""What one build carries from stage to stage, and what it leaves in the
site's marker for the next build to decide what it can reuse."""
from __future__ import annotations

import hashlib
import json
import time
from contextlib import contextmanager
from typing import Callable

from .model import Problem, Summary


class Collected:
    """What the record stage hands the global stages, filled as it runs."""

    def __init__(self) -> None:
        self.summaries: list[Summary] = []
        self.problems: list[Problem] = []
        self.warnings: list[str] = []    # about the site as a whole, e.g. a search file over its budget
        self.keys: dict[str, str] = {}   # record path → page key, for the next build
        self.html_paths: list[str] = []
        self.entries: list = []          # every file's outcome, in order, when a shard keeps them
        self.keep_entries = False
        self.reused = 0
        self.timings: dict[str, float] = {}
        self.progress: Callable[[int, int], None] = lambda done, total: None  # records done of total
        self.total = 0
        self.fingerprint = ""
        self.previous_global: dict = {}  # the previous build's global key and paths
        self.global_key = ""
        self.summaries_key = ""          # the global key's part from the summaries alone
        self.history_served = ""         # history_digest of the URL history this build serves
        self.global_paths: list[str] = []
        self.records = 0                 # records built
        self.previous_urls: object = None  # the previous build's URL manifest (redirects.py)
        self.history = ""                # its digest: the redirect pages depend on it
        # Read from the output itself: then, with the same records, the previous build's
        # history already holds every URL this one serves, and its redirects are ours.
        self.own_history = True
        self.sources: dict[str, str] = {}  # record file → digest of its bytes
        self.outcomes: dict[str, list] = {}  # record file → its outcome, as pipeline.known_outcomes reads it
        self.records_folder = ""         # as given: problems name files by it
        self.jobs = 1                    # processes the build may use
        self.served_inodes: dict[str, int] = {}  # page path → the served file's inode (write.previous_manifest)
        self.served = None                       # every file of the served site (write.ServedFiles), or None

    def manifest(self) -> dict:
        """What the next build reads back (see write.previous_manifest)."""
        return {"fingerprint": self.fingerprint, "pages": self.keys, "page_files": len(self.keys),
                "records": self.records, "history": self.history,
                "global": {"key": self.global_key, "paths": self.global_paths, "summaries": self.summaries_key,
                           "history served": self.history_served},
                "sources": self.sources, "outcomes": self.outcomes, "records_folder": self.records_folder,
                "problems": [list(problem) for problem in self.problems]}


@contextmanager
def stage(collected: Collected, name: str):
    """Adds the wall time of a block (writing its pages included) to `collected.timings`."""
    start = time.perf_counter()
    try:
        yield
    finally:
        collected.timings[name] = collected.timings.get(name, 0.0) + time.perf_counter() - start


def global_key(fingerprint: str, summaries: list[Summary]) -> str:
    """A key for what depends on `fingerprint` and every summary (in order)."""
    digest = hashlib.sha256(fingerprint.encode())
    for summary in summaries:
        digest.update(repr(summary).encode() + b"\0")
    return digest.hexdigest()[:32]


def comparable(previous: dict, collected: Collected) -> bool:
    """Whether the previous build's digests and outcomes may stand for this
    one's: it had the same render fingerprint and read the same records folder."""
    return (previous.get("fingerprint"), previous.get("records_folder")) == (collected.fingerprint,
                                                                             collected.records_folder)


def unchanged_since(previous: dict, collected: Collected) -> bool:
    """Whether nothing a page depends on changed since the previous build: the
    same record files, byte for byte, and the same render fingerprint."""
    return (comparable(previous, collected) and previous.get("sources") == collected.sources
            and collected.own_history and bool(previous.get("global"))
            and isinstance(previous.get("problems"), list) and isinstance(previous.get("records"), int)
            and len(previous.get("pages", {})) == previous.get("page_files"))


def history_digest(previous_urls: object) -> str:
    """The URL history a build starts from (redirect pages depend on it)."""
    text = json.dumps(previous_urls, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:24]
