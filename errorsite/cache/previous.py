"""The previous build as typed values: what its marker and state say, as
far as the files it served confirm them (stored.previous_build)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..model import Problem


class ServedFiles(NamedTuple):
    """Every file of the served site, as stored.previous_build found them: the
    inode of each page's file by its output name (urls.output_name; the
    manifest's `inodes` itself, not a copy: one entry per file of the site), and the served folder's own inode, which
    tells whether another build replaced the site since."""
    folder: int
    inodes: dict[str, int]


class Keep(NamedTuple):
    """What the writer may take from the served site instead of writing it
    again (write/staging.py links a file whose inode is still the one it was
    served with), and every served file when all were found (write/spare.py)."""
    inodes: dict[str, int] = {}
    served: ServedFiles | None = None


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
    confirm (stored.previous_build). Empty when there is none of ours."""
    fingerprint: str = ""
    records_folder: object = None
    inodes: dict[str, int] = field(default_factory=dict)      # output name → the served file's inode
    served: ServedFiles | None = None                         # every served file, when all were found
    sources: dict | None = None                               # record file → digest of its bytes
    global_pages: GlobalPages | None = None
    problems: list[Problem] | None = None
    records: int | None = None
    files: int = 0
    complete: bool = False                                    # every record page's file is still there
    missing: frozenset[str] = frozenset()                     # the record pages whose files are gone
    page_files: int = 0                                       # the record pages it wrote
    outcomes_digest: str = ""                                 # of its outcomes file (outcomes.previous_outcomes)

    @property
    def keep(self) -> Keep:
        return Keep(self.inodes, self.served)

    @staticmethod
    def from_manifest(manifest: dict) -> "PreviousBuild":
        if not manifest:
            return PreviousBuild()
        problems, records = manifest.get("problems"), manifest.get("records")
        sources = manifest.get("sources")
        return PreviousBuild(
            fingerprint=manifest.get("fingerprint") or "", records_folder=manifest.get("records_folder"),
            inodes=manifest.get("inodes", {}), served=manifest.get("served"),
            sources=sources if isinstance(sources, dict) else None,
            global_pages=GlobalPages.from_json(manifest.get("global")),
            problems=[Problem(*problem) for problem in problems] if isinstance(problems, list) else None,
            records=records if isinstance(records, int) else None,
            files=manifest.get("files", 0) if isinstance(manifest.get("files"), int) else 0,
            complete=manifest.get("complete") is True, missing=manifest.get("missing", frozenset()),
            page_files=manifest.get("page_files", 0) if isinstance(manifest.get("page_files"), int) else 0,
            outcomes_digest=str(manifest.get("outcomes_digest") or ""))
