"""Where a build keeps its own files between builds: never beside the output.

`--out public/errors` is served with everything in `public/`, so a state file
beside the output (`.errors.state`, with this machine's paths and every
record's problems) would be served too, and a user's file of that name
overwritten. The state, the outcomes, the digests and the lock live instead in
a folder of the user's cache (`~/.cache/errorsite/`, or `--cache-dir`), one
for each output, named for the output's absolute path.
"""
from __future__ import annotations

import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Mapping

APP = "errorsite"


def user_cache_root(environ: Mapping[str, str] = os.environ, platform: str = sys.platform) -> Path:
    """The platform's folder for a user's caches. XDG_CACHE_HOME, when set to an
    absolute path, wins everywhere (the tests point it at a folder of their own)."""
    xdg = environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg)
    if platform == "win32" and os.path.isabs(environ.get("LOCALAPPDATA", "")):
        return Path(environ["LOCALAPPDATA"])
    try:
        home = Path(environ["HOME"]) if os.path.isabs(environ.get("HOME", "")) else Path.home()
    except (KeyError, RuntimeError):  # no home at all (a bare container): this user's temporary folder
        return Path(tempfile.gettempdir()) / f"{APP}-cache-{os.getuid() if hasattr(os, 'getuid') else 0}"
    if platform == "darwin":
        return home / "Library" / "Caches"
    if platform == "win32":
        return home / "AppData" / "Local"
    return home / ".cache"


def state_folder(out_dir: Path, cache_dir: Path | None = None) -> Path:
    """The folder of the build's own files for the output `out_dir`: in
    `cache_dir` (default: the user's cache folder's `errorsite/`), named for the
    output's absolute path (its parent's links resolved, so two spellings of
    one folder share it), readable at a glance by the output's name."""
    out = out_dir.absolute()
    out = out.parent.resolve() / out.name
    root = cache_dir.absolute() if cache_dir is not None else user_cache_root() / APP
    label = re.sub(r"[^A-Za-z0-9._-]+", "-", out.name).strip(".-")[:40] or "site"
    return root / f"{label}-{hashlib.sha256(os.fsencode(out)).hexdigest()[:16]}"


def make_state_folder(folder: Path) -> Path:
    """Make the folder (only this user may read it: it names this machine's
    paths); OSError if it cannot be made."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder
