/* Evidence: how much of a record a paste holds. The words of its pattern
 * in the paste and in the paste's message lines, and where its pattern is
 * found around another's. Ranking (search-rank.js) orders by it; the judge
 * (search-judge.js) decides by it.
 *
 * No DOM here: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./search-tokens.js"), require("./search-match.js"));
  } else root.ErrorSearchEvidence = factory(root.ErrorSearchTokens, root.ErrorSearchMatch);
})(typeof self !== "undefined" ? self : this, function (tokens, match) {
  "use strict";

  var stem = tokens.stem, toSet = tokens.toSet;
  var NEAR_TEXT = 2000;         // characters of a message line a near match is tried on
  var HOLDING_SHARE = 0.5;      // a pattern found around another's match, with half its literal text or more…
  var HOLDING_MATCHES = 12;     // …among the best this many found whole, ranks above it

  /* The share of a record's message words that its pattern's literal text
   * has and the paste has, but the query did not look up (common words such
   * as `module` and `found`, words past the query's limit): the share above
   * counts only the words looked up. From the pattern, which travels with
   * the record's postings, so the whole and the split index see the same. */
  function unaskedShare(engine, r, pasted, asked) {
    var matcher = engine.matcher(r.ref);
    if (!matcher || !r.words) return 0;
    var literal = literalWords(matcher), hits = 0;
    for (var i = 0; i < literal.length; i++) if (pasted[literal[i]] && !asked[literal[i]]) hits++;
    return Math.min(hits, r.words) / r.words;
  }

  /* The share of the words of a pattern's literal text (a record's, or its
   * first sentence's) that the paste has: a message's own words count its
   * values too (a path, a list of file names), which a paste of another
   * instance lacks. */
  function literalShare(matcher, pasted) {
    var literal = literalWords(matcher), hits = 0;
    for (var i = 0; i < literal.length; i++) if (pasted[literal[i]]) hits++;
    return literal.length ? hits / literal.length : 0;
  }

  /* The distinct words of a pattern's literal text, worked out once a matcher. */
  function literalWords(matcher) {
    if (!matcher.words) matcher.words = tokens.unique(tokens.tokenize(matcher.text));
    return matcher.words;
  }

  /* The paste as patterns are sought in it (squashed, its first 20,000
   * characters), worked out once a search. */
  function haystackOf(q, text) {
    if (q.haystack === undefined) {
      q.haystack = match.squash(text).slice(0, 20000);
      if (q.lines.made && q.lines.made.length) q.haystack += " " + match.squash(q.lines.made.join("\n")).slice(0, NEAR_TEXT);
    }
    return q.haystack;
  }

  /* The paste's words (its first 20,000 characters), worked out once a search. */
  function pastedWords(q, text) {
    if (!q.pasted) q.pasted = toSet(tokens.tokenize(text.slice(0, 20000)));
    return q.pasted;
  }

  /* How much of a record's message the paste holds: of the distinct words
   * of its pattern's literal text, the share in the paste, and how many of
   * those are not common (a word in a large share of the records); and how
   * much of the paste's line that holds most of them they explain. */
  function held(engine, r, text, q) {
    var matcher = engine.matcher(r.ref);
    if (!matcher) return { share: 0, rare: 0, line: 0 };
    var words = literalWords(matcher), own = toSet(words);
    var pasted = pastedWords(q, text), hits = 0, rare = 0;
    for (var i = 0; i < words.length; i++) {
      if (!pasted[words[i]]) continue;
      hits++;
      if (!engine.isCommon(stem(words[i]))) rare++;
    }
    var lines = q.lines.length ? q.lines : text.slice(0, 20000).split("\n").slice(0, 200), best = 0, line = 0;
    lines.forEach(function (l) {
      var lineWords = tokens.unique(tokens.tokenize(l)), found = 0;
      for (var j = 0; j < lineWords.length; j++) if (own[lineWords[j]]) found++;
      if (found > best || (found === best && found && found / lineWords.length > line)) {
        best = found;
        line = found / lineWords.length;
      }
    });
    return { share: words.length ? hits / words.length : 0, rare: rare, line: line };
  }

  /* A pattern found whole around the place another record's pattern is
   * found, its placeholder standing for the other's match (`Module not
   * found: {error}` around `Can't resolve '{request}' in '{path}'`, `Unable
   * to download artifact(s): {error}` around `Artifact not found for name:
   * {name}`), says more of the paste: it ranks above, unless the paste names
   * the inner one's repository more strongly. Two patterns each within the
   * other's placeholders hold neither. The outer one needs half the inner
   * one's literal text: `An error occurred: {x}` around a long message says
   * too little to rank above it. */
  function holdingMatches(engine, exact, haystack) {
    if (exact.length < 2) return;
    var spans = exact.sort(function (a, b) { return b.value - a.value || a.ref - b.ref; }).slice(0, HOLDING_MATCHES)
      .map(function (r) {
        var matcher = engine.matcher(r.ref);
        return { r: r, span: match.exactSpan(matcher, haystack), literal: matcher.literal };
      }).filter(function (s) { return s.span; });
    // An outer one may itself be held: a few rounds settle a chain of them.
    for (var round = 0, changed = true; changed && round < spans.length; round++) {
      changed = false;
      spans.forEach(function (outer) {
        spans.forEach(function (inner) {
          if (inner !== outer && holds(outer.span, inner.span) && !holds(inner.span, outer.span) &&
              outer.literal >= HOLDING_SHARE * inner.literal && inner.r.named <= outer.r.named &&
              inner.r.value >= outer.r.value) {
            inner.r.value = outer.r.value - 0.01;
            changed = true;
          }
        });
      });
    }
  }

  /* Whether the inner match lies where one of the outer pattern's
   * placeholders stands, sharing none of its literal text: `error decoding
   * {path}: {e}` does not hold `error decoding response body`. */
  function holds(outer, inner) {
    return outer.open.some(function (place) {
      return place[0] <= inner.literal[0] && inner.literal[1] <= place[1];
    });
  }

  return { NEAR_TEXT: NEAR_TEXT, haystackOf: haystackOf, pastedWords: pastedWords, literalWords: literalWords,
           literalShare: literalShare, unaskedShare: unaskedShare, held: held, holdingMatches: holdingMatches };
});
