"""Break each rule of the Python side that users and tools act on, in turn, in
a copy of the checkout, and run the fast test that pins it on the copy: every
mutant must make its test fail. The twin of tests/js/mutants.py.

    .venv/bin/python tests/py_mutants.py [LABEL…]

The copy is the checkout's files as they are now (tracked and untracked, not
ignored), in a folder of its own beside a link to ../shared. The named tests
first run on it unbroken, and must pass. Prints each mutant with the test
that killed it, or SURVIVED; exits 1 if one survived or a rule is not in its
file exactly once.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"

# label → (file, the rule as written, the rule broken, the test that must fail)
MUTANTS = {
    "find: no match exits 0": (
        "errorsite/tools/find/command.py", 'return 0 if found.match != "none" else 1', "return 0",
        "tests/test_find_exit.py::test_no_match_exits_1"),
    "find: a likely match exits 1": (
        "errorsite/tools/find/command.py", 'return 0 if found.match != "none" else 1',
        'return 0 if found.match == "exact" else 1',
        "tests/test_find_exit.py::test_a_match_exits_0"),
    "bot: its comment carries no marker": (
        "errorsite/tools/bot.py", 'the source that raises it.</sub>", MARKER]', 'the source that raises it.</sub>"]',
        "tests/test_bot_marker.py::test_a_second_run_on_the_issue_posts_nothing"),
    "bot: reads the first page of comments only": (
        "errorsite/tools/bot.py", "            page += 1\n", "            return False\n",
        "tests/test_bot_marker.py::test_a_marker_past_the_first_page_of_comments_counts"),
    "bot: a likely match answered by default": (
        "errorsite/tools/bot.py", 'ACCEPTED = {"exact": ("exact",),', 'ACCEPTED = {"exact": ("exact", "likely"),',
        "tests/test_bot_marker.py::test_a_likely_match_is_answered_only_when_likely_is_accepted[exact-silent: no "
        "record matches surely enough]"),
    "bot: no second read before posting": (
        "errorsite/tools/bot.py", "    if github.has_commented(post.repo, post.issue):\n        return \"silent: already "
        "commented on this issue\"\n    github.comment(", "    github.comment(",
        "tests/test_bot_marker.py::test_a_marker_that_arrives_while_it_searches_counts"),
    "/-/go/code/: one record's code opens the code page": (
        "errorsite/pages/links.py", "target = urls.record_path(members[0]) if len(members) == 1 else path",
        "target = path",
        "tests/test_links.py::test_a_link_built_from_a_code_opens_its_record_or_its_records"),
    "build: guesses a base URL": (
        "errorsite/cli.py", '    if "base_url" not in s.defaulted:\n        return False',
        "    if True:\n        return False",
        "tests/test_cli.py::test_a_build_without_a_base_url_writes_nothing"),
    "write: a failed build still swaps in": (
        "errorsite/write/__init__.py", "        for page in pages:\n            tree.put(page)\n",
        "        try:\n            for page in pages:\n                tree.put(page)\n        except Exception:\n"
        "            pass\n",
        "tests/test_write_spare.py::test_a_failed_build_from_the_spare_leaves_the_site_and_removes_what_it_wrote"),
    "write: --force replaces a foreign folder inside a protected one": (
        "errorsite/write/guard.py", "if made_by_us(out_dir) or (force and inside is None):",
        "if made_by_us(out_dir) or force:",
        "tests/test_guard.py::test_inside_a_protected_folder_only_an_absent_an_empty_or_an_earlier_site_is_replaced"),
    "urls: an output path may climb out with ..": (
        "errorsite/urls.py", ' or "/../" in wrapped', "",
        "tests/test_urls.py::test_output_file_refuses_paths_that_could_escape"),
    "redirects: a renamed repository's old listings go home": (
        "errorsite/pages/redirects.py", "if path.startswith(old):", "if path == old:",
        "tests/test_redirects.py::test_nearest_page_for_a_vanished_listing"),
    "highlighting: a stall drops the blocks before it too": (
        "errorsite/markup/code.py", "    except budget.OverBudget:\n        pass\n    return made",
        "    except budget.OverBudget:\n        return []\n    return made",
        "tests/test_lexer_budget.py::test_blocks_before_the_stall_keep_their_highlighting"),
}


def copy_checkout(folder: Path) -> Path:
    """The checkout's files, as they are now, in folder/main, beside a link to ../shared."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    copy = folder / "main"
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    if (ROOT.parent / "shared").exists():
        (folder / "shared").symlink_to(ROOT.parent / "shared")
    return copy


def pytest(copy: Path, *tests: str) -> subprocess.CompletedProcess:
    """The tests, run on the copy: `import errorsite` finds the copy's package."""
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    where = subprocess.run([PYTHON, "-c", "import errorsite; print(errorsite.__file__)"], cwd=copy, env=env,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(copy), f"errorsite imported from {where}, not from the copy {copy}"
    return subprocess.run([PYTHON, "-m", "pytest", "-q", "-x", "-rs", "-p", "no:cacheprovider", *tests],
                          cwd=copy, env=env, capture_output=True, text=True)


def run(label: str, folder: Path) -> str:
    name, rule, broken, test = MUTANTS[label]
    copy = copy_checkout(folder)
    source = (copy / name).read_text(encoding="utf-8")
    if source.count(rule) != 1:
        return f"NOT RUN: the rule is in {name} {source.count(rule)} times, not once"
    (copy / name).write_text(source.replace(rule, broken), encoding="utf-8")
    result = pytest(copy, test)
    if result.returncode == 0:
        return "SURVIVED" + (" (skipped)" if "skipped" in result.stdout else "")
    if result.returncode == 1:
        return f"killed by {test}"
    return f"killed by {test} (pytest exit {result.returncode}: {result.stdout.strip().splitlines()[-1:]})"


def main() -> int:
    labels = sys.argv[1:] or list(MUTANTS)
    unknown = [label for label in labels if label not in MUTANTS]
    if unknown:
        print(f"no such mutant: {', '.join(unknown)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="py-mutants-") as folder:
        baseline = pytest(copy_checkout(Path(folder) / "baseline"), *sorted({MUTANTS[label][3] for label in labels}))
        if baseline.returncode != 0 or "skipped" in baseline.stdout:
            print("the named tests do not all pass on the unbroken copy:\n" + baseline.stdout[-2000:])
            return 1
        failed = 0
        for number, label in enumerate(labels):
            outcome = run(label, Path(folder) / str(number))
            failed += not outcome.startswith("killed")
            print(f"{label:64} {outcome}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
