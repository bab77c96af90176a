"""The previous build's marker in the site and its state in the build's own
folder (folder.py), read and written; the record files' digests kept there
too."""
from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import stat
from array import array
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Iterable, NamedTuple

from .. import __version__
from ..model import inert_json_pieces
from ..urls import output_name
from . import DIGESTS, MARKER, OUTCOME_FILE, STATE
from .folder import make_state_folder
from .outcomes import OutcomesAltered, OutcomesRead, outcome_lines, outcome_paths, outcomes_before
from .previous import PreviousBuild, ServedFiles


MARKER_MOST_BYTES = 1 << 16  # a marker is a few hundred bytes: a file much larger is not one of ours


def marker(tie: dict, files: int) -> dict:
    """What a site's marker holds: whose it is, its number of files (the
    marker's own included), and the fields that tie it to its state (save_state)."""
    return {**tie, "generator": "errorsite", "version": __version__, "files": files}


def our_marker(folder: Path) -> dict | None:
    """The marker in `folder`, if a build made the folder; else None."""
    try:
        with open(folder / MARKER, "rb") as file:
            content = file.read(MARKER_MOST_BYTES + 1)
        data = json.loads(content) if len(content) <= MARKER_MOST_BYTES else None
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) and data.get("generator") == "errorsite" else None


def served_fingerprint(out_dir: Path) -> str | None:
    """The render fingerprint of the site in `out_dir`, as its marker says; None if no build of ours made it."""
    data = our_marker(out_dir)
    return data.get("fingerprint") if data else None


def previous_build(out_dir: Path, state_dir: Path) -> PreviousBuild:
    """The build that wrote `out_dir`, as its marker and its state in
    `state_dir` say and its files confirm; empty if there is none of ours."""
    with read_previous_build(out_dir, state_dir) as previous:
        return previous.confirmed()


class StatedBuild:
    """The previous build as its marker and state say (`claimed`), while its
    served files are looked up (ServedLookup); `confirmed()` waits for them:
    what of it is still served. Use it in a `with`."""

    def __init__(self, manifest: dict, served: Path, state_dir: Path | None = None):
        self.manifest = manifest
        shared = manifest.get("global")
        paths = shared.get("paths") if isinstance(shared, dict) else None
        self.global_paths = paths if isinstance(paths, list) else None
        self.claimed = PreviousBuild.from_manifest({**manifest, "inodes": {}, "served": None, "complete": True}) \
            if manifest else PreviousBuild()
        self.lookup = ServedLookup(served, state_dir, self.claimed.outcomes_digest, self.global_paths,
                                   self.claimed.page_files) if manifest else None
        self._served: Served | None = None
        self._confirmed: dict[bool, PreviousBuild] = {}

    def confirmed(self, inodes: bool = True) -> PreviousBuild:
        """What is still served; without `inodes`, only whether all of it is
        (a build with nothing to do needs no more)."""
        if self._served is None and self.lookup:
            self._served = self.lookup.served()
        if self._confirmed.get(inodes) is None:
            self._confirmed[inodes] = PreviousBuild.from_manifest(
                confirmed_manifest(self.manifest, self.global_paths, self._served, inodes) if self.lookup else {})
        return self._confirmed[inodes]

    def __enter__(self) -> "StatedBuild":
        return self

    def __exit__(self, *_) -> None:
        if self.lookup:
            self.lookup.close()


def read_previous_build(out_dir: Path, state_dir: Path) -> StatedBuild:
    """The build that wrote `out_dir`, as its marker and its state in
    `state_dir` say ({} if none of ours), its served files being looked up."""
    site = our_marker(out_dir)
    try:
        folder = os.lstat(out_dir).st_ino  # before the files: see describe_spare
        state = (state_dir / STATE).read_bytes()
        manifest = json.loads(state)
    except (OSError, ValueError):
        return StatedBuild({}, out_dir)
    if not (site is not None and isinstance(manifest, dict) and site.get("state") == state_digest(state)):
        return StatedBuild({}, out_dir)  # not ours, or the state of another build (one that failed after writing it, say)
    manifest["files"], manifest["folder"] = site.get("files"), folder
    return StatedBuild(manifest, out_dir, state_dir)


class Served(NamedTuple):
    """The previous build's files still served (ServedLookup)."""
    names: str               # those found, as output names (urls.output_name), joined by "\0", which no
                             # name holds: one string, fast to pickle
    found: array             # their inodes, in that order
    missing: frozenset[str]  # the record pages whose files are gone
    record_pages: int        # the record pages its outcomes name; -1 if they could not be read
    global_pages: bool       # every global page the state names is served

    def inodes(self) -> dict[str, int]:
        return dict(zip(self.names.split("\0"), self.found)) if self.found else {}


def confirmed_manifest(manifest: dict, global_paths: list | None, served: Served, inodes: bool = True) -> dict:
    """The manifest as far as the `served` files confirm it: (`missing`) the
    record pages gone, (`complete`) whether every record page is there, no
    global pages unless all are, and with `inodes`, the inodes of the files
    found and (`served`) the ServedFiles, or None unless every file of the
    site was found."""
    manifest = dict(manifest)
    manifest["missing"] = served.missing
    manifest["complete"] = served.record_pages == manifest.get("page_files") and not served.missing
    if global_paths is None or not served.global_pages:
        manifest["global"] = {}
    # The inodes are for this build only: never written back. The served files
    # are all listed when they count as many as the build that wrote the site
    # made: none of them missing, none listed twice.
    manifest["inodes"] = served.inodes() if inodes else {}
    complete = inodes and len(served.found) + 1 == manifest.get("files")  # and the marker
    manifest["served"] = ServedFiles(manifest.pop("folder"), manifest["inodes"]) if complete else None
    return manifest


class ServedLookup:
    """The previous build's files still served (served_files): the record
    pages its outcomes name and the global pages its state names, looked up in
    a process beside this one when they are many: a rebuild at 100,000
    records reads 400,000 paths and lstats 440,000 files (2 s) while it reads
    the previous outcomes."""

    def __init__(self, out_dir: Path, state_dir: Path | None, digest: str, global_paths: list | None,
                 record_pages: int):
        self.arguments = (out_dir, state_dir, digest, global_paths)
        self.executor = self.future = None
        if record_pages + len(global_paths or ()) >= LOOKED_UP_BESIDE:
            try:
                self.executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
                self.future = self.executor.submit(served_files, *self.arguments)
            except (OSError, RuntimeError):  # no process to spare: looked up here
                self.close()

    def served(self) -> Served:
        if self.future is not None:
            try:
                return self.future.result()
            except (OSError, RuntimeError, BrokenProcessPool):
                pass  # the process beside died: looked up here
            finally:
                self.close()
        return served_files(*self.arguments)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)
        self.executor = self.future = None


# Starting a process costs about 0.1 s, about 30,000 lstats.
LOOKED_UP_BESIDE = 50_000


def served_files(out_dir: Path, state_dir: Path | None, digest: str, global_paths: list | None) -> Served:
    """Which of the record pages named by the outcomes file in `state_dir`
    (whose `digest` the state names) and of the `global_paths` are still
    served in `out_dir`, with their inodes."""
    names, found, missing, named = [], array("q"), set(), 0

    def served(path: str) -> bool:
        name, inode = served_inode(out_dir, path)
        if inode is not None:
            names.append(name)
            found.append(inode)
        return inode is not None

    try:
        for named_paths in outcome_paths(state_dir, digest) if state_dir else ():
            named += len(named_paths)
            missing.update(path for path in named_paths if not served(path))
    except OutcomesAltered:
        names, found, missing, named = [], array("q"), set(), -1
    every_global = all([served(path) for path in global_paths or ()])  # a list: each one looked up
    return Served("\0".join(names), found, frozenset(missing), named, every_global)


def save_state(state_dir: Path, state: dict, unchanged: OutcomesRead = OutcomesRead()) -> dict:
    """Keep in `state_dir` what the next build reads (`state`, whose
    "outcomes" go to a file of their own), atomically, before the site it
    describes is swapped in; the marker's fields that tie that site to it.
    The `unchanged` outcomes' lines are copied from the file they were read
    from, if it is still there, rather than made again."""
    outcomes = state.pop("outcomes", {})
    make_state_folder(state_dir)
    with outcomes_before(state_dir / OUTCOME_FILE, unchanged.file) as before:
        state["outcomes_digest"] = write_kept(state_dir / OUTCOME_FILE, outcome_lines(outcomes, unchanged.names, before))
    return {"fingerprint": state.get("fingerprint", ""), "state": write_kept(state_dir / STATE, inert_json_pieces(state))}


def state_digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()[:24]  # as write_kept makes it


def write_kept(path: Path, pieces: Iterable[bytes]) -> str:
    """Replace the file at `path` with the bytes of `pieces` in one step (a
    temporary file renamed), never over a link; their state_digest. Never
    joined: the outcomes grow with the records."""
    temporary = path.with_name(f"{path.name}-{os.getpid()}")
    digest = hashlib.sha256()
    try:
        with open(temporary, "xb") as file:
            for piece in pieces:
                digest.update(piece)
                file.write(piece)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return digest.hexdigest()[:24]


def served_inode(out_dir: Path, path: object) -> tuple[str, int | None]:
    """The page's file (output_name), and its inode if it is a regular file
    (not a link to one): one system call."""
    try:
        name = output_name(path)
        info = os.lstat(f"{out_dir}/{name}")
    except (ValueError, TypeError, AttributeError, OSError):
        return "", None
    return name, info.st_ino if stat.S_ISREG(info.st_mode) else None


def digests_file(state_dir: Path) -> Path:
    return state_dir / DIGESTS


def save_digests(state_dir: Path, records_folder: str, files: dict[str, list]) -> None:
    """Keep the record files' stats and digests (load.file_digests) in the
    build's own folder for the next build. Not in the site: they are this
    machine's, and the site must be the same bytes wherever it is built. Best
    effort, atomic, and only over a file of ours."""
    path = digests_file(state_dir)
    temporary = path.with_name(f"{path.name}-{os.getpid()}")
    try:
        make_state_folder(state_dir)
        if path.is_symlink() or (path.exists() and not digests_head(path, partial=False)):
            return
        file = open(temporary, "xb")
    except OSError:
        return  # only a slower next build
    try:
        with file:
            file.writelines(inert_json_pieces({"generator": "errorsite", "records": records_folder, "stats": files}))
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)


def digests_head(path: Path, partial: bool) -> bool:
    """Whether `path` begins as a digests file of ours (sorted JSON, "generator"
    first); with `partial`, also one cut short while being written, or empty."""
    try:
        with open(path, "rb") as file:
            head = file.read(len(_DIGESTS_HEAD))
    except OSError:
        return False
    return head == _DIGESTS_HEAD or (partial and _DIGESTS_HEAD.startswith(head))


_DIGESTS_HEAD = b'{"generator":"errorsite",'


def load_digests(path: Path, records_folder: str) -> dict[str, list]:
    """The record files' stats and digests an earlier build left (save_digests),
    if it read the same records folder; {} if none or unreadable."""
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(saved, dict) or saved.get("records") != records_folder or not isinstance(saved.get("stats"), dict):
        return {}
    return saved["stats"]
