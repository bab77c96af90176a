"""No pattern and no paste hangs a visitor's tab: the browser's search modules
under Node, on the patterns and pastes that froze it (adjacent placeholders,
a natural pattern with five of them in a row, 100 KB pastes of one unbroken
token), and on random patterns and pastes.

The bound per search (2 s) is a hang guard, generous enough never to flake:
each case takes milliseconds. `python -m tests.test_search_hangs` prints the
time of each case in Node.
"""
from __future__ import annotations


import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errorsite.model import Summary
from errorsite.search import build_index, repo_names, result_doc, search_rules
from tests.search_node import node_core  # noqa: F401  (a fixture)

BOUND_MS = 2000
# A hang guard, not a timing: Node answers within BOUND_MS or the test fails on
# the figure; no answer in fifteen times that means the search never ends.
HANG_GUARD = 30


def summary(message: str, pattern: str | None = None, repo: str = "a/b", slug: str = "x") -> Summary:
    return Summary(source_file="x.json", id=slug, repo=repo, slug=slug, message=message, pattern=pattern,
                   error_code=None, error_type="runtime", error_class=None, severity="error", file_path=None,
                   tags=(), analyzed_at=None, content_changed_at=None, card="It fails.")


TYPE_ERROR = ("TypeError: Cannot read properties of undefined (reading 'map')\n"
              "    at render (/srv/app/src/list.js:12:19)\n"
              "    at main (/srv/app/src/index.js:4:3)")
REQUEST_FAILED = ("2026-11-28 10:14:03 ERROR request failed: POST https://api.example.com/v1/orders 503 "
                  "Service Unavailable {\"error\":\"upstream connect error or disconnect/reset before headers. "
                  "reset reason: connection termination\",\"retry_after\":30}")
HEX = "".join("0123456789abcdef"[(i * 7919) % 16] for i in range(100_000))

# name → (record pattern, record message, paste)
CASES = {
    "10 adjacent placeholders": ("Cannot read {a}{a}{a}{a}{a}{a}{a}{a}{a}{a} TypeError",
                                 "Cannot read properties of undefined TypeError", TYPE_ERROR),
    # Glued to words: their value holds no space (search-match.js valueEnd).
    "10 adjacent placeholders glued to words": ("Cannot read{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}TypeError",
                                                "Cannot read.properties.TypeError", TYPE_ERROR),
    "request failed: 5 placeholders in a row": (
        "request failed: {method} {url} {status} {reason} {body} after {n} retries",
        "request failed: GET /x 500 Internal Server Error {} after 3 retries", REQUEST_FAILED),
    "100 KB hex token": ("checksum mismatch: {hex}", "checksum mismatch: 00ff",
                         "Error: checksum mismatch: " + HEX),
    "100 KB of dots": ("checksum mismatch: {x}", "checksum mismatch: 00ff",
                       "Error: checksum mismatch: " + "." * 100_000),
    "100 KB path-like token": ("cannot open {path}", "cannot open a/b/c.txt",
                               "Error: cannot open " + "ab/" * 33_334),
    "100 KB path-like lines": ("cannot open {path}", "cannot open a/b/c.txt",
                               "Error: cannot open x\n" + "  at a/b.c/d-e/f@g/h.txt:x\n" * 4_000),
    "100 KB of line breaks": ("cannot open {path}", "cannot open a/b/c.txt", "Error: cannot open x" + "\n" * 100_000),
    "100 KB of spaces and dots": ("cannot open {path}", "cannot open a/b/c.txt",
                                  "Error: cannot open x " + ". " * 50_000),
    "100 KB dotted name": ("cannot open {path}", "cannot open a/b/c.txt", "Error: cannot open " + "a." * 50_000),
    # The namespace and installed-package name rules: long runs of their parts.
    "100 KB PHP namespace": ("cannot open {path}", "cannot open a/b/c.txt", "Error: " + "Ab\\" * 25_000 + "x"),
    "100 KB .NET namespace": ("cannot open {path}", "cannot open a/b/c.txt", "Error: " + "Ab." * 33_334 + "x"),
    "100 KB vendor folders": ("cannot open {path}", "cannot open a/b/c.txt", "vendor/" * 14_286),
    "100 KB gems folders": ("cannot open {path}", "cannot open a/b/c.txt", "gems/a-1.2" * 10_000),
    "100 KB .NET frame never called": ("cannot open {path}", "cannot open a/b/c.txt", "   at " + "Ab." * 33_334),
    "100 KB frame never closed": ("cannot open {path}", "cannot open a/b/c.txt", "   at f " + "(a" * 50_000),
    "100 KB of colons and digits": ("cannot open {path}", "cannot open a/b/c.txt",
                                    "Error: cannot open x " + "a:1" * 33_334),
    # The rules for what prompts, tools and CI services write before a line.
    "100 KB command at a prompt": ("cannot open {path}", "cannot open a/b/c.txt", "$ " + "a" * 100_000),
    "100 KB Windows prompt without its >": ("cannot open {path}", "cannot open a/b/c.txt", "C:\\" + "ab\\" * 33_334),
    "100 KB user@host": ("cannot open {path}", "cannot open a/b/c.txt", "a@" * 50_000 + "$ x"),
    "100 KB tag never closed": ("cannot open {path}", "cannot open a/b/c.txt", "Error: [" + "a" * 100_000),
    "100 KB of CI marks": ("cannot open {path}", "cannot open a/b/c.txt", "##[error]" * 11_112 + "::error " * 100),
    "100 KB of step prefixes": ("cannot open {path}", "cannot open a/b/c.txt", "#1 2.3 " * 14_286),
    "100 KB ERROR before a tag": ("cannot open {path}", "cannot open a/b/c.txt", "E" * 100_000 + "rror: [x]"),
    "1 MB one-line paste of words": ("cannot open {path}", "cannot open a/b/c.txt",
                                     "Error: " + " ".join(["alpha", "beta", "cannot", "open"] * 62_500)[:1_000_000]),
    # The shapes a probe pasted and linked (2 MB each), bench/long_paste.py's PROBES.
    **{f"2 MB of {unit.strip()[:12]!r}": ("cannot open {path}", "cannot open a/b/c.txt", (unit * (2_000_000 // len(unit)))
                                         + "\nError: cannot open a/b/c.txt")
       for unit in ("a ", "Error: ", "a.", "a-", "x@", "    at Object.<anonymous> (/app/node_modules/lib/index.js:10:15)\n")},
}

SEARCH = ("([index, docs, names, rules, q]) => new ErrorSearch(index, docs, names, rules).search(q, 10)"
          ".map(r => r.doc[1])")


def search_args(records: list[Summary], paste: str) -> list:
    return [build_index(records), [result_doc(r) for r in records], repo_names(records), search_rules(len(records)),
            paste]


def case_records(pattern: str, message: str) -> list[Summary]:
    return [summary(message, pattern, repo="hostile/pattern"), summary("something else entirely", repo="c/d", slug="y")]


@pytest.mark.parametrize("name", list(CASES))
def test_each_search_finishes_well_under_a_second(node_core, name):
    pattern, message, paste = CASES[name]
    hits, ms = node_core.timed(SEARCH, search_args(case_records(pattern, message), paste), timeout=HANG_GUARD)
    assert ms < BOUND_MS, f"{name}: {ms:.0f} ms"
    assert isinstance(hits, list)


def test_the_hostile_patterns_are_still_found(node_core):
    """Fast because it is right, not because it gave up: each pattern is found in its paste."""
    value = "([p, t]) => ErrorSearchMatch.exactValue(ErrorSearchMatch.compilePattern(p), ErrorSearchMatch.squash(t))"
    for name in CASES:
        pattern, _, paste = CASES[name]
        _, ms = node_core.timed(value, [pattern, paste], timeout=HANG_GUARD)
        assert ms < BOUND_MS, f"{name}: {ms:.0f} ms"
    adjacent, request = CASES["10 adjacent placeholders"][0], CASES["request failed: 5 placeholders in a row"][0]
    assert node_core.evaluate(value, [adjacent, TYPE_ERROR]) == 0  # its `TypeError` comes before `Cannot read`
    assert node_core.evaluate(value, [adjacent, "Cannot read properties of undefined (reading 'map'): TypeError"]) \
        == len("cannot read") + len("typeerror")
    glued = CASES["10 adjacent placeholders glued to words"][0]
    assert node_core.evaluate(value, [glued, "Cannot read.properties.of.undefined:TypeError"]) == \
        len("cannot read") + len("typeerror")
    assert node_core.evaluate(value, [glued, "Cannot read properties of undefined (reading 'map'): TypeError"]) == 0
    assert node_core.evaluate(value, [request, REQUEST_FAILED]) == 0  # no `after {n} retries`
    assert node_core.evaluate(value, [request, REQUEST_FAILED + " after 3 retries"]) \
        == len("request failed:") + len("after") + len("retries")


REPEATED = ("alpha beta " * 200)[:2000]


def test_near_identical_long_patterns_and_a_paste_of_their_lines_search_within_the_bound(node_core):
    """24 records of 2,000-character patterns alike but for a word, and a
    paste of 8 lines of their text: repetitive text defeats the edit-distance
    table's cut-off (O(m·n) a pattern and a line); it froze a tab for 3 s."""
    records = [summary(REPEATED, REPEATED[:100 * i] + "gamma" + REPEATED[100 * i + 5:] + " {x}", repo=f"o/r{i}",
                       slug=f"s{i}") for i in range(24)]
    paste = "\n".join(REPEATED[:1990] + "zeta" for _ in range(8))
    hits, ms = node_core.timed(SEARCH, search_args(records, paste), timeout=HANG_GUARD)
    assert ms < BOUND_MS, f"{ms:.0f} ms"
    assert len(hits) == 10


def test_near_matching_spends_no_more_than_its_budget(node_core):
    """The bound is a count, not a clock: a search's near matches share a
    budget of table cells (search-match.js NEAR_WORK); once spent, nothing
    more is found near, whatever the input."""
    near = ("([p, t, cells]) => { const m = ErrorSearchMatch.compilePattern(p), work = {cells};"
            " const v = ErrorSearchMatch.nearValue(m, ErrorSearchMatch.squash(t), work); return [v, work.cells]; }")
    pattern, text = REPEATED + " {x}", REPEATED[:1000] + "x" + REPEATED[1001:] + " zeta"
    value, left = node_core.evaluate(near, [pattern, text, 1e9])
    assert value > 0  # found within a few edits when the budget allows
    value, left = node_core.evaluate(near, [pattern, text, 5000])
    assert value == 0 and -2001 <= left < 0  # stopped within one column of the budget


# ---- Random patterns and pastes ------------------------------------------------
# Few distinct characters, so that pieces recur in the paste and a backtracking
# matcher would meet its worst case; long runs, so that paste rules would.
ALPHABET = "ab /.:-_{}\n" + "E"
PIECE = st.text(alphabet="ab /.:-_E", min_size=0, max_size=12)
PLACEHOLDERS = st.sampled_from(["{a}", "{}", "{n}", "{a}{b}", "{x} {y}"])


@st.composite
def patterns(draw) -> str:
    pieces = draw(st.lists(PIECE, min_size=1, max_size=12))
    return "".join(piece + draw(PLACEHOLDERS) for piece in pieces[:-1]) + pieces[-1]


@st.composite
def pastes(draw) -> str:
    parts = draw(st.lists(st.one_of(st.text(alphabet=ALPHABET, max_size=40),
                                    st.tuples(st.sampled_from(list(ALPHABET) + ["ab", "a/", "a.", ":1", "Error: "]),
                                              st.integers(1, 3000)).map(lambda t: t[0] * t[1])),
                          min_size=1, max_size=8))
    return "".join(parts)


@settings(max_examples=60, deadline=None)
@given(patterns(), pastes())
def test_random_patterns_and_pastes_search_within_the_bound(node_core, pattern, paste):
    message = "".join(ch for ch in pattern if ch not in "{}") or "ab"
    records = [summary(message, pattern, repo="random/pattern"), summary("ab ab ab", repo="c/d", slug="y")]
    _, ms = node_core.timed(SEARCH, search_args(records, paste), timeout=HANG_GUARD)
    assert ms < BOUND_MS, (pattern, paste[:200], ms)
    _, ms = node_core.timed(
        "([p, t]) => { const m = ErrorSearchMatch.compilePattern(p), h = ErrorSearchMatch.squash(t);"
        " return m && [ErrorSearchMatch.exactValue(m, h), ErrorSearchMatch.nearValue(m, h.slice(0, 2000))]; }",
        [pattern, paste], timeout=HANG_GUARD)
    assert ms < BOUND_MS, (pattern, paste[:200], ms)


def seeded_cases(count: int, seed: int = 30) -> list[tuple[str, str]]:
    """Random patterns and pastes of the kinds above, from a fixed seed: the
    fast loop's share of the property test below."""
    rng = random.Random(seed)
    pieces = ["ab", "a b", "a/", "a.", ":1", "E", "-", "_", "", "Error: ", "ab ab ab"]
    cases = []
    for _ in range(count):
        parts = [rng.choice(pieces) for _ in range(rng.randint(1, 12))]
        pattern = "".join(part + rng.choice(["{a}", "{}", "{a}{b}", "{x} {y}"]) for part in parts[:-1]) + parts[-1]
        paste = "".join(rng.choice(list(ALPHABET) + pieces) * rng.choice([1, 5, 200, 3000]) for _ in range(8))
        cases.append((pattern, paste))
    return cases


def test_seeded_random_patterns_and_pastes_search_within_the_bound(node_core):
    records = [summary(message, pattern, repo="random/pattern", slug=f"r{i}")
               for i, (pattern, _) in enumerate(seeded_cases(40))
               for message in ["".join(ch for ch in pattern if ch not in "{}") or "ab"]]
    args = search_args(records, "")
    for _, paste in seeded_cases(40, seed=31):
        args[4] = paste
        _, ms = node_core.timed(SEARCH, args, timeout=HANG_GUARD)
        assert ms < BOUND_MS, (paste[:200], ms)


# The regex the matcher replaced, as the reference for what a pattern matches:
# its pieces in order with lazy gaps of up to 200 characters per placeholder,
# word boundaries at its ends. Adjacent placeholders make one gap of their
# widths added up, which it matches alike: a gap per placeholder, as the
# regex had, backtracks exponentially in their number. A gap with a
# placeholder glued to a word holds no space but one at either edge.
REFERENCE = r"""([pattern, haystack]) => {
  const text = ErrorSearchMatch.squash(pattern);
  const raw = text.indexOf("{") < 0 ? (text ? [text] : []) : text.split(ErrorSearchMatch.PLACEHOLDER);
  const glued = raw.map((p, i) => i > 0 && (/[\p{L}\p{N}_]$/u.test(raw[i - 1]) || /^[\p{L}\p{N}_]/u.test(p)));
  let pieces = raw.map((p) => p.trim());
  while (pieces.length && pieces[0] === "") { pieces.shift(); glued.shift(); }
  while (pieces.length && pieces[pieces.length - 1] === "") { pieces.pop(); glued.pop(); }
  if (pieces.join("").length < 8) return null;
  const escape = (t) => t.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
  let body = "", gaps = 0, tight = false;
  pieces.forEach((p, i) => {
    if (i > 0) gaps++;
    tight = tight || (i > 0 && glued[i]);
    if (p === "") return;
    const n = 200 * gaps;
    if (i > 0 && tight) body += `(?:[^ ]{0,${n}}| [^ ]{0,${n - 1}}|[^ ]{0,${n - 1}} | [^ ]{0,${n - 2}} )`;
    else if (i > 0) body += "[\\s\\S]{0," + n + "}?";
    body += escape(p).replace(/ /g, "\\s+");
    gaps = 0;
    tight = false;
  });
  const start = /^[\p{L}\p{N}_]/u.test(pieces[0]) ? "(?<![\\p{L}\\p{N}_])" : "";
  const end = /[\p{L}\p{N}_]$/u.test(pieces[pieces.length - 1]) ? "(?![\\p{L}\\p{N}_])" : "";
  const matcher = ErrorSearchMatch.compilePattern(pattern);
  return [new RegExp(start + body + end, "u").test(haystack), matcher ? matcher.test(haystack) : null];
}"""
SMALL_PIECE = st.text(alphabet="ab é_.-1", max_size=9)


@st.composite
def pattern_and_paste(draw) -> tuple[str, str]:
    """A pattern of up to three placeholders, and a paste made of its pieces,
    some altered or left out, with gaps on both sides of 200 characters."""
    pieces = draw(st.lists(SMALL_PIECE, min_size=1, max_size=4))
    pattern = "".join(p + draw(st.sampled_from(["{a}", "{a}{b}", " {a} "])) for p in pieces[:-1]) + pieces[-1]
    paste = ""
    for piece in pieces * draw(st.integers(1, 2)):
        if draw(st.integers(0, 9)) == 0:
            continue
        if piece and draw(st.booleans()):
            i = draw(st.integers(0, len(piece) - 1))
            piece = piece[:i] + draw(st.sampled_from("ab é_.")) + piece[i + 1:]
        paste += piece + draw(st.sampled_from(["", " ", "a", "é"])) * draw(st.sampled_from([0, 1, 150, 199, 201, 390]))
    return pattern, paste


@settings(max_examples=300, deadline=None)
@given(pattern_and_paste())
def test_the_matcher_finds_what_the_regex_it_replaced_found(node_core, case):
    pattern, paste = case
    found = node_core.evaluate(REFERENCE, [pattern, node_core.evaluate("t => ErrorSearchMatch.squash(t)", paste)])
    if found is not None:
        assert found[0] == found[1], (pattern, paste)


def main() -> None:
    """Print each case's time per search in Node (a case over 60 s is given up)."""
    from tests.search_node import NodeCore
    core = NodeCore()
    for name, (pattern, message, paste) in CASES.items():
        try:
            _, ms = core.timed(SEARCH, search_args(case_records(pattern, message), paste), timeout=60)
            print(f"{name:45} {ms:10.1f} ms")
        except BaseException as error:  # pytest.fail on the timeout
            print(f"{name:45}   > 60 s   ({type(error).__name__})")
    core.close()


if __name__ == "__main__":
    main()
