"""What may be replaced: an output folder is replaced only when it is absent,
empty, or holds the marker a previous build wrote; anything else needs
`force`. Never, even with `force`: the filesystem root, the home folder, the
current folder, a protected folder (the project's own folders, the records,
the templates) or a parent of any of them, a folder inside a site a build
made, and inside a protected folder anything that is not absent, empty or
ours; inside a sealed one (what the build reads, and `.git`), nothing."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Iterator, NamedTuple

from ..cache.stored import our_marker

KEPT = ".git"               # carried from the old site into the new one, never deleted
_COUNT_LIMIT = 100_000      # stop counting a foreign folder's files here
PACKAGE = Path(__file__).resolve().parent.parent


class OutputRefused(Exception):
    """The output folder may not be replaced; the message is the one line to show."""


class Protected(NamedTuple):
    """A folder no build replaces, nor any parent of it. Inside it, only a folder
    that is absent, empty or made by a build may be an output, whatever `force`
    says; inside a `sealed` one, none: the build reads it, or it is git's."""
    folder: Path
    what: str
    sealed: bool = False


def protected_folders(project: Path, records: Path | None = None,
                      templates: Path | None = None) -> list[Protected]:
    """The folders no build may replace: the project's own (every folder in it
    holds tracked files, or may), the package and what the build reads, the
    records and the folder `--templates` names."""
    return [Protected(project, "the project's own folder"),
            Protected(project / ".git", "the project's git folder", sealed=True),
            Protected(PACKAGE, "the errorsite package", sealed=True),
            Protected(project / "templates", "the templates folder", sealed=True),
            Protected(project / "static", "the static files' folder", sealed=True),
            Protected(project / "tests", "the project's tests folder"),
            Protected(project / "docs", "the project's docs folder"),
            *([Protected(records, "the records folder")] if records else []),
            *([Protected(templates, "the site's templates folder (--templates)", sealed=True)] if templates else [])]


def check_output(out_dir: Path, force: bool, protected: Iterable[tuple[Path, str] | Protected] = ()) -> None:
    """Raise OutputRefused unless `out_dir` may be replaced by a new site.
    `protected`: Protected folders, or (folder, what it is) pairs."""
    shown = str(out_dir)
    if out_dir.is_symlink():
        raise OutputRefused(f"refusing to replace {shown}: it is a symbolic link; give the folder it points to")
    protected = [Protected(*entry) for entry in protected]
    resolved = out_dir.resolve()
    for folder, what in never_replaced(protected):
        if resolved == folder or folder.is_relative_to(resolved):
            raise OutputRefused(f"refusing to replace {shown}: it is {what}"
                                f"{'' if resolved == folder else ' or one of its parents'}, never an output folder")
    if out_dir.name == "..":  # the build works beside the folder a path names: here, inside another
        raise OutputRefused(f"refusing to replace {shown}: it ends in '..'; give the folder's own path, {resolved}")
    site = enclosing_site(resolved)
    if site is not None:
        raise OutputRefused(f"refusing to replace {shown}: it is inside {site}, a site made by build.py "
                            "that its next build replaces whole; give a folder outside it")
    inside = innermost(resolved, protected)
    if inside is not None and inside.sealed:
        raise OutputRefused(f"refusing to replace {shown}: it is inside {inside.what}, never an output folder")
    if not out_dir.exists():
        return
    if not out_dir.is_dir():
        raise OutputRefused(f"refusing to replace {shown}: it is a file, not a folder")
    if made_by_us(out_dir) or (force and inside is None):
        return
    count, example = foreign_files(out_dir)
    if count:
        held = (f"it holds {f'over {_COUNT_LIMIT:,}' if count > _COUNT_LIMIT else f'{count:,}'} "
                f"file{'s' if count != 1 else ''}, e.g. {example}")
        if inside is not None:
            raise OutputRefused(f"refusing to replace {shown}: it is inside {inside.what} and was not made by "
                                f"build.py ({held}); not even --force replaces it")
        raise OutputRefused(f"refusing to replace {shown}: it was not made by build.py ({held}); "
                            "pass --force to replace it")


def never_replaced(protected: Iterable[Protected]) -> Iterator[tuple[Path, str]]:
    yield Path("/").resolve(), "the filesystem root"
    yield Path.home().resolve(), "the home folder"
    yield Path.cwd().resolve(), "the current folder"
    for folder, what, _ in protected:
        yield folder.resolve(), what


def innermost(resolved: Path, protected: Iterable[Protected]) -> Protected | None:
    """The deepest protected folder that holds `resolved` (strictly inside it)."""
    holders = [entry._replace(folder=entry.folder.resolve()) for entry in protected]
    holders = [entry for entry in holders if resolved != entry.folder and resolved.is_relative_to(entry.folder)]
    return max(holders, key=lambda entry: len(entry.folder.parts), default=None)


def enclosing_site(resolved: Path) -> Path | None:
    """The nearest folder above `resolved` that a build made, if any."""
    for folder in resolved.parents:
        if made_by_us(folder):
            return folder
    return None


def made_by_us(out_dir: Path) -> bool:
    """Whether a build made the folder, as its marker says (cache/ reads it)."""
    return our_marker(out_dir) is not None


def foreign_files(out_dir: Path) -> tuple[int, str]:
    """How many files the folder holds, `.git` aside, and the first one by name.
    A link to a folder counts as a file: it is not followed, nor overlooked."""
    count, example = 0, ""
    for root, dirs, files in os.walk(out_dir):
        top = root == str(out_dir)
        dirs[:] = sorted(d for d in dirs if not (top and d == KEPT))
        names = sorted([f for f in files if not (top and f == KEPT)] + [d for d in dirs if Path(root, d).is_symlink()])
        if names and not example:
            example = Path(root, names[0]).relative_to(out_dir).as_posix()
        count += len(names)
        if count > _COUNT_LIMIT:
            break
    return count, example
