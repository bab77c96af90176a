"""The README stays a newcomer's ten minutes, and the links between docs/ pages
lead somewhere (a file, and a heading when they name one)."""
from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT

DOCS = sorted((ROOT / "docs").glob("*.md"))
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def broken_links(page: Path) -> list[str]:
    broken = []
    for link in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", link):
            continue
        path, _, fragment = link.partition("#")
        target = (page.parent / path) if path else page
        if not target.exists():
            broken.append(link)
        elif fragment and target.suffix == ".md":
            headings = re.findall(r"^#+ (.*)$", target.read_text(encoding="utf-8"), re.M)
            if fragment not in {anchor(h) for h in headings}:
                broken.append(link)
    return broken


def test_readme_is_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines < 300, f"README.md has {lines} lines: move depth into docs/"


def test_links_between_docs_pages_resolve():
    assert DOCS
    assert {page.name: broken_links(page) for page in DOCS} == {page.name: [] for page in DOCS}


def test_the_readme_links_resolve():
    assert broken_links(ROOT / "README.md") == []


def test_the_quick_starts_lock_installs_what_find_needs():
    """The README's quick start installs requirements.lock: `build.py find` then works."""
    import tomllib
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]["find"]
    pinned = set(re.findall(r"^([A-Za-z0-9_.-]+)==", (ROOT / "requirements.lock").read_text("utf-8"), re.M))
    assert {re.match(r"[A-Za-z0-9_.-]+", requirement)[0].lower() for requirement in extra} <= pinned


def test_the_commands_page_counts_the_commands():
    from errorsite.cli import COMMANDS
    words = {4: "four", 5: "five", 6: "six"}
    text = (ROOT / "docs" / "commands.md").read_text("utf-8")
    assert f"`build.py` has {words[len(COMMANDS) + 1]} commands" in text  # build, the default, and the rest


def test_the_readme_and_docs_speak_to_a_newcomer():
    """No page but the performance notebook speaks of "this machine" or cites
    our internal issue numbers, and no example builds from ../shared, a
    folder only this project's developers have."""
    pages = [ROOT / "README.md", *(page for page in DOCS if page.name != "performance.md")]
    internal = re.compile(r"this \d-core machine|\b[Ii]ssue \d+\b|build\.py[^\n`]*\.\./shared")
    said = {page.name: internal.findall(page.read_text("utf-8")) for page in pages}
    assert {name: found for name, found in said.items() if found} == {}


def test_the_readme_and_the_architecture_draw_one_pipeline():
    def drawn(page):
        text = (ROOT / page).read_text("utf-8")
        return re.findall(r"^```\n([^\n`]* → [^\n`]*)\n```$", text, re.M)
    assert drawn("README.md") == drawn("docs/architecture.md") != []
