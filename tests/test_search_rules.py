"""Each rule of the browser's pattern matcher and ranker, one test each, under
Node in the fast loop: break a rule and a test here fails.

Matcher (static/search-match.js): a pattern's literal pieces in order, each
gap at most MAX_GAP characters per placeholder, and without a space when a
placeholder is glued to a word (`{timeout}ms`); a word boundary at its ends;
MIN_LITERAL; a dropped prefix or closing full stop (DROP_PENALTY); near matches (NEAR_PENALTY per
edit, an edit budget of one per twelve characters, at most four; a line cut
short counts its missing tail as edits; pieces under MIN_NEAR_PIECE exact).
Ranker (static/search-rank.js): the longest pattern wins, found whole before
found with edits; a pattern found around another's match ranks above it
unless the paste names the inner one's repository more strongly; patterns
are tried only for records with a share of their message words in the paste
(counting the words of their pattern the query left out), and only among
records with every typed word when there are any.
"""
from __future__ import annotations

from errorsite.model import Summary
from errorsite.search import build_index, repo_names, result_doc, search_rules
from tests.search_node import node_core  # noqa: F401  (a fixture)

VALUES = """([pattern, text]) => {
  const m = ErrorSearchMatch.compilePattern(pattern), t = ErrorSearchMatch.squash(text);
  return m && [ErrorSearchMatch.exactValue(m, t), ErrorSearchMatch.nearValue(m, t)];
}"""
WRONGTYPE = "Operation against a key holding the wrong kind of value"  # 55 characters


def values(node_core, pattern: str, text: str):
    """[exact value, near value] of a pattern in a paste, or None when it is too short to match."""
    return node_core.evaluate(VALUES, [pattern, text])


# ---- The matcher -------------------------------------------------------------------

def test_a_pattern_is_worth_its_literal_length(node_core):
    assert values(node_core, "accepts {n} arg(s), received {m}", "Error: accepts 1 arg(s), received 3") == \
        [len("accepts") + len("arg(s), received"), 0]


def test_a_leading_word_boundary(node_core):
    assert values(node_core, "syntax error", "ERR syntax error")[0] == 12
    assert values(node_core, "syntax error", "ERR xsyntax error")[0] == 0
    assert values(node_core, "syntax error", "ERR _syntax error")[0] == 0
    assert values(node_core, "syntax error", "ERR 𝐀syntax error")[0] == 0  # a letter outside the BMP
    assert values(node_core, "(syntax error)", "x(syntax error)")[0] == 14  # no word at its start: no boundary


def test_a_trailing_word_boundary(node_core):
    assert values(node_core, "syntax error", "syntax errors")[0] == 0
    assert values(node_core, "syntax error", "syntax error: x")[0] == 12
    assert values(node_core, "syntax error:", "syntax error:x")[0] == 13


def test_each_placeholder_stands_for_at_most_200_characters(node_core):
    # Around a placeholder the pattern's spaces go with it: ` {x} ` is up to 200 characters.
    one, two = "invalid {x} value here", "invalid {x}{y} value here"
    assert values(node_core, one, "invalid " + "z" * 198 + " value here")[0] == 17
    assert values(node_core, one, "invalid " + "z" * 199 + " value here")[0] == 0
    assert values(node_core, two, "invalid " + "z" * 398 + " value here")[0] == 17
    assert values(node_core, two, "invalid " + "z" * 399 + " value here")[0] == 0
    assert values(node_core, "value here {x} invalid", "invalid z value here")[0] == 0  # in order


def test_a_placeholder_glued_to_a_word_stands_for_part_of_one(node_core):
    # `{timeout}ms` is a number of milliseconds: its value holds no space.
    assert values(node_core, "Timeout {timeout}ms exceeded", "Error: Timeout 30000ms exceeded.")[0] == 18
    assert values(node_core, "Timeout {timeout}ms exceeded", "Error: timeout of 120000ms exceeded")[0] == 0
    assert values(node_core, "unsupported version v{major}.{minor}", "unsupported version v1.2")[0] == 22
    assert values(node_core, "unsupported version v{major}.{minor}", "unsupported version very old 1.2")[0] == 0
    # Not glued (a space, a quote): any value.
    assert values(node_core, "Timeout {timeout} exceeded", "Error: timeout of 120000ms exceeded")[0] == 15
    assert values(node_core, "unknown model architecture: '{arch}'", "unknown model architecture: 'a b'")[0] == 30


def test_min_literal(node_core):
    assert node_core.evaluate("ps => ps.map(p => ErrorSearchMatch.compilePattern(p) !== null)",
                              ["abcdefg", "abcdefgh", "abcd {x} efg", "abcd {x} efgh", "{x} ab {y} cd {z} efgh"]) == \
        [False, True, False, True, True]


def test_a_dropped_prefix_costs_half_a_character(node_core):
    assert values(node_core, "WRONGTYPE " + WRONGTYPE, WRONGTYPE) == [54.5, 0]
    assert values(node_core, "error: " + WRONGTYPE, WRONGTYPE) == [54.5, 0]
    assert values(node_core, "WRONGTYPE " + WRONGTYPE, "WRONGTYPE " + WRONGTYPE) == [65, 0]


def test_a_loggers_tag_and_a_closing_full_stop_may_be_dropped_for_half_a_character(node_core):
    tagged = "[mysql] {date} {time} packets.go:{line}: unexpected EOF"
    assert values(node_core, tagged, "[mysql] 2024/01/02 10:11:12 packets.go:36: unexpected EOF")[0] == 34
    assert values(node_core, tagged, "packets.go:36: unexpected EOF")[0] == 26.5
    stop = 'Data type "{type}" is not supported by "{database}" database.'
    assert values(node_core, stop, 'Data type "jsonb" is not supported by "mysql" database.')[0] == 45
    assert values(node_core, stop, 'Data type "jsonb" is not supported by "mysql" database')[0] == 43.5
    assert values(node_core, stop, 'Data type "jsonb" is not supported by "mysql" databases')[0] == 0  # a word's end
    assert values(node_core, "Loading failed...", "Loading failed..")[0] == 0  # an ellipsis is no full stop


def test_each_edit_costs_near_penalty(node_core):
    assert values(node_core, WRONGTYPE, WRONGTYPE.replace("value", "walue")) == [0, 55 - 3]
    assert values(node_core, WRONGTYPE, WRONGTYPE.replace("value", "walue").replace("wrong", "wrang")) == [0, 55 - 6]
    assert values(node_core, WRONGTYPE, WRONGTYPE) == [55, 0]  # found whole: not a near match


def test_the_edit_budget_is_one_per_twelve_characters_at_most_four(node_core):
    # 55 characters: four edits.
    four = WRONGTYPE.replace("value", "vaxxx").replace("wrong", "wrang")
    assert values(node_core, WRONGTYPE, four) == [0, 55 - 12]
    assert values(node_core, WRONGTYPE, four.replace("kind", "kint")) == [0, 0]
    five = WRONGTYPE + " in the keyspace"  # 71 characters: still four
    assert values(node_core, five, five.replace("value", "vaxxx").replace("wrong", "wrang"))[1] == 71 - 12
    five_edits = five.replace("value", "vaxxx").replace("wrong", "wrang").replace("key ", "kex ")
    assert values(node_core, five, five_edits)[1] == 0
    # 18 characters: one edit; 22: one.
    assert values(node_core, "connection refused", "connection refuzed") == [0, 18 - 3]
    assert values(node_core, "connection refused", "connectoin refuzed") == [0, 0]
    assert values(node_core, "connection was refused", "connection was refuzed") == [0, 22 - 3]
    assert values(node_core, "connection was refused", "connection waz refuzed") == [0, 0]


def test_a_line_cut_short_counts_its_missing_tail_as_edits(node_core):
    assert values(node_core, WRONGTYPE, WRONGTYPE[:-3]) == [0, 55 - 9]
    assert values(node_core, WRONGTYPE, WRONGTYPE[:-5]) == [0, 0]  # over the budget
    # Cut before its last piece: the piece's four characters are the four edits of 53.
    pattern = "Operation against a key holding the wrong kind of {x} type"
    assert values(node_core, pattern, "Operation against a key holding the wrong kind of") == [0, 53 - 12]


def test_short_pieces_of_a_near_match_are_found_exactly(node_core):
    pattern = "cannot {verb} key {k} in map for region"
    assert values(node_core, pattern, "cannot set key 7 in map for regiom")[1] == 26 - 3
    assert values(node_core, pattern, "cannot set kez 7 in map for region")[1] == 0  # `key`: under MIN_NEAR_PIECE
    pattern = "cannot {verb} keys {k} in map for region"
    assert values(node_core, pattern, "cannot set keyz 7 in map for region")[1] == 27 - 3  # `keys`: not under it


def test_near_matches_span_adjacent_placeholders(node_core):
    assert values(node_core, "unexpected token {a}{b} while parsing the value",
                  "unexpected token " + "x" * 300 + " while parsing the valeu")[1] > 0


# ---- The ranker ----------------------------------------------------------------------

def summary(message: str, pattern: str | None = None, repo: str = "a/b", card: str = "It fails.",
            error_class: str | None = None) -> Summary:
    slug = repo.replace("/", "-")
    return Summary(source_file=f"{slug}.json", id=slug, repo=repo, slug=slug, message=message, pattern=pattern,
                   error_code=None, error_type="runtime", error_class=error_class, severity="error", file_path=None,
                   tags=(), analyzed_at=None, content_changed_at=None, card=card)


def ranked(node_core, records: list[Summary], query: str) -> list[str]:
    return node_core.evaluate(
        "([index, docs, names, rules, q]) => new ErrorSearch(index, docs, names, rules).search(q, 10)"
        ".map(r => r.doc[1])",
        [build_index(records), [result_doc(r) for r in records], repo_names(records), search_rules(len(records)),
         query])


def test_the_longest_pattern_found_ranks_first(node_core):
    records = [summary("syntax error", repo="a/short", card="A syntax error in the command, near the token."),
               summary("ERR syntax error near token", repo="b/long")]
    assert ranked(node_core, records, "(error) ERR syntax error near token") == ["b/long", "a/short"]


def test_a_pattern_found_whole_ranks_above_one_found_with_an_edit(node_core):
    # The near record's pattern is longer by two characters, less than NEAR_PENALTY:
    # found whole, the shorter one wins.
    records = [summary("the wrong kind of value for key holding " + "ab", repo="a/near",
                       card="Operation against a key holding the wrong kind of value."),
               summary("the wrong kind of value for key holding", repo="b/exact")]
    assert ranked(node_core, records, "the wrong kind of value for key holding ac") == ["b/exact", "a/near"]
    # One character longer than NEAR_PENALTY: the near match is worth more.
    records[0] = summary("the wrong kind of value for key holding abcde", repo="a/near")
    assert ranked(node_core, records, "the wrong kind of value for key holding abcdx") == ["a/near", "b/exact"]


def test_a_pattern_is_tried_for_records_with_a_quarter_of_their_message_or_pattern_words_in_the_paste(node_core):
    """A message's own words count its values (a path, a list of names) that a
    paste of another instance lacks: the words of the pattern's literal text
    count too."""
    words = "alpha beta gamma delta epsilon zeta eta theta"
    many = summary(f"{words} iota", "alpha beta {x}", repo="a/many", card="Kappa lambda.")
    enough = summary(words, "alpha beta {x}", repo="a/enough", card="Kappa lambda.")
    rival = summary("kappa alpha beta", repo="b/rival")  # not every word (no guard), not in the paste
    assert ranked(node_core, [enough, rival], "alpha beta kappa lambda")[0] == "a/enough"  # 2 of 8 words
    assert ranked(node_core, [many, rival], "alpha beta kappa lambda")[0] == "a/many"      # 2 of 9, all of its pattern's
    longer = summary(f"{words} iota", "alpha beta gamma delta epsilon zeta eta theta iota {x}", repo="a/longer",
                     card="Kappa lambda.")
    assert ranked(node_core, [longer, rival], "alpha beta kappa lambda")[0] == "b/rival"   # 2 of 9 either way


def test_a_record_whose_error_class_the_query_names_comes_before_word_matches(node_core):
    named = summary("dtype mismatch in binary op", repo="a/class", error_class="DTypeMismatchBinaryOp")
    words = summary("cannot add these tensors", repo="b/words", card="See DTypeMismatchBinaryOp.")
    assert ranked(node_core, [named, words], "DTypeMismatchBinaryOp on add") == ["a/class", "b/words"]
    # Below any pattern found in the paste.
    pattern = summary("tensors on add", repo="c/pattern")
    assert ranked(node_core, [named, pattern], "DTypeMismatchBinaryOp tensors on add")[0] == "c/pattern"


def test_records_with_every_typed_word_guard_against_short_patterns(node_core):
    records = [summary("'default' not supported", "{value} not supported", repo="p/prompt"),
               summary("npy/npz error bf16 is not supported", repo="c/candle")]
    assert ranked(node_core, records, "npy bf16 not supported")[0] == "c/candle"
    assert ranked(node_core, records, "ValueError: 'default' not supported")[0] == "p/prompt"


def test_a_word_in_more_records_than_the_builds_threshold_is_left_out_of_the_query(node_core):
    records = [summary("alpha gamma", repo="a/one"), summary("alpha delta", repo="b/two"),
               summary("alpha epsilon", repo="c/three")]
    search = ("([index, docs, rules, q]) => new ErrorSearch(index, docs, {}, rules).search(q, 10).map(r => r.doc[1])")
    args = [build_index(records), [result_doc(r) for r in records]]
    rules = search_rules(len(records))
    assert sorted(node_core.evaluate(search, [*args, rules, "alpha gamma"])) == ["a/one", "b/two", "c/three"]
    # meta.json's threshold, not a constant of the browser's: `alpha` is in 3 records.
    assert node_core.evaluate(search, [*args, {**rules, "commonAbove": 2}, "alpha gamma"]) == ["a/one"]


def test_a_pattern_found_around_another_ranks_above_it(node_core):
    outer = summary("Module not found: Error: Can't resolve './App' in '/app/src'", "Module not found: {error}",
                    repo="a/outer")
    inner = summary("Can't resolve './App' in '/app/src'", "Can't resolve '{request}' in '{path}'", repo="b/inner")
    paste = "ERROR in main Module not found: Error: Can't resolve './src' in 'project'"
    # 17 characters of literal text around 22: the outer one says more of the paste.
    assert ranked(node_core, [inner, outer], paste) == ["a/outer", "b/inner"]
    # Unless the paste names the inner one's repository.
    assert ranked(node_core, [inner, outer], paste + "\n    at /app/node_modules/inner/lib/x.js:1:2")[0] == "b/inner"
    # Not around it: the longer one first, as ever.
    assert ranked(node_core, [inner, outer], "Module not found: x " + "z " * 110 + "Can't resolve './src' in 'project'")[0] \
        == "b/inner"
    # An outer pattern with less than half the inner one's literal text says too little.
    vague = summary("Failed: Error: Can't resolve './App' in '/app/src'", "Failed: {error}", repo="a/outer")
    assert ranked(node_core, [inner, vague], "Failed: Error: Can't resolve './src' in 'project'")[0] == "b/inner"


def test_words_the_query_left_out_count_for_a_patterns_share(node_core):
    # `entry`, `module`, `found` are in more records than the threshold: the query leaves them out,
    # and the record's concrete path leaves three of its thirteen message words in the query.
    target = summary("Entry module not found: Error: Can't resolve './src' in '/home/user/projects/app/web/client'",
                     "Entry module not found: {error}", repo="w/entry")
    others = [summary(f"entry module found {word}", repo=f"o/{word}") for word in ("alpha", "beta", "gamma")]
    rival = summary("resolve src", repo="r/rival", card="Resolve src.")  # short: the query covers it more
    records = [target, *others, rival]
    search = ("([index, docs, names, rules, q]) => new ErrorSearch(index, docs, names, rules).search(q, 10)"
              ".map(r => r.doc[1])")
    args = [build_index(records), [result_doc(r) for r in records], repo_names(records),
            {**search_rules(len(records)), "commonAbove": 3}]
    paste = "ERROR in Entry module not found: Error: Can't resolve './src' in 'C:\\Idessign'"
    assert node_core.evaluate(search, [*args, paste])[0] == "w/entry"


# ---- The highlighter -----------------------------------------------------------------

def test_the_highlighter_marks_the_words_the_search_matches(node_core):
    marks = node_core.evaluate(
        "([text, words]) => ErrorSearchTokens.marks(text, ErrorSearchTokens.stemsOf(words))"
        ".map(([a, b]) => text.slice(a, b))",
        ["Cannot read properties of undefined (reading 'map') in kv_cache_enabled=true 2026",
         ["reading", "properties", "of", "kv_cache_enabled=true", "2026"]])
    # `read` and `reading` stem alike; `of` is a stop word, 2026 a value: neither is searched, neither is marked.
    assert marks == ["read", "properties", "reading", "kv", "cache", "enabled", "true"]
