"""Break each rule of the browser's matcher and ranker in turn, in a copy of
static/, and run the fast search tests on the copy (SEARCH_STATIC): every
mutant must make at least one test fail.

    /work/venv/bin/python tests/js/mutants.py [LABEL…]

Prints each mutant with the first test that failed, or SURVIVED.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TESTS = ["tests/test_search_rules.py", "tests/test_search_pastes.py", "tests/test_search_ranking.py",
         "tests/test_search_hangs.py", "tests/test_search_parity.py"]

# label → (file, the rule as written, the rule broken)
MUTANTS = {
    "leading word boundary off": ("search-chain.js", "var wordStart = WORD.test(links[0].text), wordEnd",
                                  "var wordStart = false, wordEnd"),
    "trailing word boundary off": ("search-chain.js", "wordEnd = WORD_END.test(links[links.length - 1].text);",
                                   "wordEnd = false;"),
    "per-edit penalty charged once": ("search-match.js", "matcher.literal - NEAR_PENALTY * edits",
                                      "matcher.literal - NEAR_PENALTY"),
    "a line cut short not matched": ("search-match.js", "if (to === text.length && best > 0) {", "if (false) {"),
    "MIN_LITERAL 8 → 7": ("search-chain.js", "var MIN_LITERAL = 8;", "var MIN_LITERAL = 7;"),
    "MIN_LITERAL 8 → 9": ("search-chain.js", "var MIN_LITERAL = 8;", "var MIN_LITERAL = 9;"),
    "NEAR_PENALTY 3 → 2": ("search-match.js", "var NEAR_PENALTY = 3;", "var NEAR_PENALTY = 2;"),
    "NEAR_PENALTY 3 → 4": ("search-match.js", "var NEAR_PENALTY = 3;", "var NEAR_PENALTY = 4;"),
    "DROP_PENALTY 0.5 → 0": ("search-match.js", "var DROP_PENALTY = 0.5;", "var DROP_PENALTY = 0;"),
    "MAX_GAP 200 → 199": ("search-chain.js", "var MAX_GAP = 200;", "var MAX_GAP = 199;"),
    "MAX_GAP 200 → 201": ("search-chain.js", "var MAX_GAP = 200;", "var MAX_GAP = 201;"),
    "adjacent placeholders: one gap": ("search-chain.js", "if (i > 0) gap += MAX_GAP;", "if (i > 0) gap = MAX_GAP;"),
    "pieces found in any order": ("search-chain.js", "      allowed = starts;\n",
                                  "      allowed = [0, text.length];\n"),
    "MIN_NEAR_PIECE 4 → 3": ("search-match.js", "var MIN_NEAR_PIECE = 4;", "var MIN_NEAR_PIECE = 3;"),
    "MIN_NEAR_PIECE 4 → 5": ("search-match.js", "var MIN_NEAR_PIECE = 4;", "var MIN_NEAR_PIECE = 5;"),
    "edit budget at most 5": ("search-match.js", "Math.min(4, Math.max(1, Math.floor(matcher.literal / 12)))",
                              "Math.min(5, Math.max(1, Math.floor(matcher.literal / 12)))"),
    "edit budget one per 11": ("search-match.js", "Math.min(4, Math.max(1, Math.floor(matcher.literal / 12)))",
                               "Math.min(4, Math.max(1, Math.floor(matcher.literal / 11)))"),
    "EXACT_SHARE 0.25 → 0.2": ("search-rank.js", "var EXACT_SHARE = 0.25;", "var EXACT_SHARE = 0.2;"),
    "EXACT_SHARE 0.25 → 0.3": ("search-rank.js", "var EXACT_SHARE = 0.25;", "var EXACT_SHARE = 0.3;"),
    "no every-word guard": ("search-rank.js", "if ((guard && !r.everyWord) || r.shared < EXACT_SHARE) return;",
                            "if (r.shared < EXACT_SHARE) return;"),
    "NEAR_SHARE 0.5 → 1.01 (no near matches)": ("search-rank.js", "var NEAR_SHARE = 0.5;", "var NEAR_SHARE = 1.01;"),
    "NAME_FACTOR 0.125 → 0": ("search-rank.js", "var NAME_FACTOR = 0.125;", "var NAME_FACTOR = 0;"),
    "CLASS_VALUE 4 → 0": ("search-rank.js", "var CLASS_VALUE = 4;", "var CLASS_VALUE = 0;"),
    "frames alone: named repositories not first": ("search-rank.js", "(framesOnly ? b.named - a.named : 0)", "0"),
    "pattern value ignored in the order": ("search-rank.js", "return (b.value - a.value) || ", "return "),
    "common words from meta.json ignored": ("search-core.js", "data.df(term) > data.rules.commonAbove",
                                            "data.df(term) > Infinity"),
}


def run(label: str, static: Path) -> str:
    name, rule, broken = MUTANTS[label]
    shutil.rmtree(static, ignore_errors=True)
    shutil.copytree(ROOT / "static", static)
    source = (static / name).read_text(encoding="utf-8")
    assert source.count(rule) == 1, f"{label}: the rule is not in {name} exactly once"
    (static / name).write_text(source.replace(rule, broken), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-m", "not slow", "-p", "no:cacheprovider",
                             *TESTS], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "SEARCH_STATIC": str(static)})
    if result.returncode == 0:
        return "SURVIVED"
    failed = [line for line in result.stdout.splitlines() if line.startswith("FAILED")]
    return failed[0].split(" - ")[0].removeprefix("FAILED ") if failed else result.stdout[-300:]


def main() -> int:
    labels = sys.argv[1:] or list(MUTANTS)
    survived = 0
    with tempfile.TemporaryDirectory() as folder:
        for label in labels:
            outcome = run(label, Path(folder) / "static")
            survived += outcome == "SURVIVED"
            print(f"{label:45} {outcome}", flush=True)
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
