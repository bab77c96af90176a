/* The judge: whether the first result is the paste's error ("exact"),
 * probably is ("likely"), or is only related ("none"), and by which rule.
 * Ranking (search-rank.js) decides the order; this decides what the page,
 * `/-/go/`, `find` and the bot say of the first result.
 *
 * No DOM here: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./search-tokens.js"), require("./search-match.js"), require("./search-agree.js"),
                             require("./search-rank.js"), require("./search-evidence.js"));
  } else {
    root.ErrorSearchJudge = factory(root.ErrorSearchTokens, root.ErrorSearchMatch, root.ErrorSearchAgree,
                                    root.ErrorSearchRank, root.ErrorSearchEvidence);
  }
})(typeof self !== "undefined" ? self : this, function (tokens, match, agree, ranking, evidence) {
  "use strict";

  var stem = tokens.stem, toSet = tokens.toSet;
  var haystackOf = evidence.haystackOf, held = evidence.held;
  var nearlyEqual = ranking.nearlyEqual, inMessage = ranking.inMessage;

  /* Whether every typed word is in the record's message, a typo's within an
   * edit (`laest`: least): asked of the first result only. */
  function everyWordNear(q, r) {
    var fuzzy = toSet(Object.keys(q.fuzzy || {}).map(stem)), stems = q.core.map(stem);
    var slips = toSet(Object.keys(q.fuzzy || {}).filter(tokens.nearStopWord).map(stem));
    var said = function (s) {
      return says(r.metadata[s]) || slips[s] === true || (fuzzy[s] === true && r.terms.some(function (t) {
        return says(r.metadata[t]) && nearlyEqual(t, s);
      }));
    };
    // A compound (`kv_cache_enabled`) is said when its parts are (`kv_cache_enabled=true`);
    // `no-warmup` has one part, `warmup`, which says too little.
    return r.everyWord || (stems.length > 0 && q.core.every(function (token, i) {
      var parts = (token.match(/[\p{L}\p{N}]+/gu) || []).filter(tokens.keepPart);
      return said(stems[i]) || (parts.length > 1 && parts.every(function (part) { return said(stem(part)); }));
    }));
  }

  /* A typed word the record has: in its message, or naming where it is
   * raised (`cobra duplicate argument`, `metavoice kv_cache_enabled`). */
  function says(fields) {
    return inMessage(fields) || !!(fields && (fields.repo || fields.file));
  }


  /* Whether the first result is the paste's error, or only related. A
   * match means the paste holds the record's message: "exact" when its
   * pattern is found whole (long enough to say something, or most of the
   * line it is on), "likely" when found within a few edits or when the paste
   * holds enough of its distinctive words, "none" otherwise. Every rule asks
   * for a word of the message that is not common: "timed out" alone says
   * nothing. A record of a runtime other than the paste's frames' is
   * none: its code did not raise the paste's error. So is one whose library
   * the paste does not name, where its error's class is another library's.
   * A code is exact unless the line around it says another message. Measured on real pastes
   * searched with and without their records (bench/quality.py): see
   * docs/search.md. */
  var MATCH = {
    literal: 20,          // a pattern found whole with this much literal text…
    shortLiteral: 16,     // …or this much, making this share of its line
    shortLine: 0.4,
    alone: 11,            // a pattern found whole with this much literal text, standing alone (match.standsAlone)
    line: 0.6,            // a pattern found (or near) making this share of its line
    foundShare: 0.5,      // a pattern found (or near) with this share of its words held…
    foundRare: 3,         // …and this many of them not common
    rare: 4,              // this many distinctive words held…
    rareShare: 0.2,       // …and this share of its words
    wordsShare: 0.6,      // this share of its words held, two of them distinctive,
    wordsLine: 0.7,       // making this share of the line
    classRecords: 2,      // an error class named with its library, of at most this many records
    substituted: 0.25,    // another message: a line's words in place of the record's, this share of those aligned
    covered: 0.5,         // another line: no line of the paste holds this share of the record's words…
    coveredOf: 8,         // …of at most this many
  };

  /* The runtimes whose errors are raised by their own code, told by their
   * language codes: a Python library's message does not come out of a Node
   * stack. C, C++, Go and Rust are left out: other languages relay their
   * messages (a server's reply, a native extension's error). */
  var RUNTIME = { py: "py", js: "js", ts: "js", java: "jvm", kt: "jvm", scala: "jvm", groovy: "jvm",
                  cs: "cs", rb: "rb", php: "php" };

  /* Whether the paste's frames say the error was raised in other languages
   * than the record's runtime (q.raised: search-paste.js raisedIn). */
  function raisedElsewhere(engine, r, q) {
    var doc = engine.doc(r.ref), runtime = doc && RUNTIME[doc[7]];
    if (!runtime || !q.raised) return false;
    var languages = Object.keys(q.raised);
    return languages.length > 0 && !languages.some(function (l) { return (RUNTIME[l] || l) === runtime; });
  }

  /* Whether the paste names an error class that this record raises and at
   * most MATCH.classRecords records have (`GuzzleHttp\Exception\ClientException`,
   * candle's `DTypeMismatchBinaryOp`): with its library named, the class is
   * the error, as a code is. */
  function ownClass(engine, q, r) {
    return (q.classes || []).some(function (c) {
      var s = stem(c), fields = r.metadata[s];
      return !!(fields && fields.cls) && engine.df(s) <= MATCH.classRecords;
    });
  }

  /* The verdict on the first result, and the rule that gave it (ranked.rule:
   * what bench/quality.py --misses prints). */
  function judge(engine, text, q, ranked) {
    var said = verdict(engine, text, q, ranked);
    ranked.rule = said[1];
    return said[0];
  }

  function verdict(engine, text, q, ranked) {
    var r = ranked[0];
    if (!r) return ["none", "no result"];
    var h = held(engine, r, text, q);
    r.held = h;
    var matcher = engine.matcher(r.ref);
    var said = matcher ? agree.agreement(matcher.pattern, text.split("\n"), function (w) { return engine.isCommon(w); }) : null;
    r.agree = said;
    // A paste whose message lines say nothing of their own (a class alone,
    // `Uncaught GuzzleHttp\Exception\ClientException`) contradicts no record.
    // Nor do a few typed words, in any order, with or without a slip.
    var says = agree.words(q.lines.length ? q.lines.join(" ") : text).filter(function (w) {
      return w && !engine.isCommon(w);
    }).length >= 2;
    if (!says || (q.typed && !q.lines.length) || Object.keys(q.fuzzy || {}).length) said = null;
    var other = said &&
      ((said.substituted.length > 0 && said.substituted.length >= MATCH.substituted * said.aligned) ||
       said.requoted || said.head < (said.headOf >= 3 ? 2 : 1));
    var thin = said && !q.typed && said.head < said.headOf && said.aligned < MATCH.covered * Math.min(said.of, MATCH.coveredOf);
    if (r.code) return other || thin ? ["none", "code, another message"] : ["exact", "code"];
    if (raisedElsewhere(engine, r, q)) return ["none", "raised elsewhere"];
    // `psycopg2.InterfaceError: connection already closed` is psycopg2's error,
    // not execnet's of the same words, when psycopg2 has records and the paste
    // names execnet nowhere.
    if (q.owners && q.owners.any && !q.owners.of(r.ref) && !r.named) return ["none", "another library's class"];
    var found = r.found === "exact" && said && said.empty ? "emptied" : r.found;
    var likely = function (rule) {
      return other ? ["none", rule + ", another message"] : thin ? ["none", rule + ", another line"] : ["likely", rule];
    };
    var classSays = r.named > 0 && r.classNamed && ownClass(engine, q, r);
    // A message of common words alone says what it is where the paste names its
    // repository strongly and holds its pattern whole (`error: invalid argument:
    // {arg}` under a llama-server command line).
    if (h.rare < 1) {
      // The class says it, unless the line has a distinctive word where the
      // record has its own (`The payload is invalid.` is not `The MAC is invalid.`).
      var reworded = r.agree && r.agree.substituted.length > 0;
      if (classSays) return reworded ? ["none", "common words, class, another message"] : likely("common words, class");
      return found === "exact" && r.named >= 2 && r.literal >= MATCH.literal ? likely("common words, found, named")
        : ["none", "common words"];
    }
    if (found === "exact" && (r.literal >= MATCH.literal || (r.literal >= MATCH.shortLiteral &&
                                                            h.line >= MATCH.shortLine))) return ["exact", "found"];
    if (found === "exact" && r.literal >= MATCH.alone &&
        match.standsAlone(matcher, haystackOf(q, text))) return likely("found alone");
    if (classSays) return likely("class");
    if (found === "head" && r.literal >= MATCH.literal) return likely("head");
    if (found === "near" && r.literal >= MATCH.literal && h.share === 1 && h.rare >= 2) return likely("near, every word");
    if (found && (r.named > 0 || h.line >= MATCH.line || (h.share >= MATCH.foundShare && h.rare >= MATCH.foundRare))) {
      return likely("found " + found + (r.named > 0 ? ", named" : h.line >= MATCH.line ? ", line" : ", words"));
    }
    if (q.typed && everyWordNear(q, r)) return likely("typed");
    if (r.named >= 2 && h.share === 1 && h.rare >= 2) return likely("named, every word");
    // Words alone are a match only where a message line of the paste has some of them.
    if (h.rare >= MATCH.rare && h.share >= MATCH.rareShare && h.line > 0) return likely("rare words");
    if (h.share >= MATCH.wordsShare && h.rare >= 2 && h.line >= MATCH.wordsLine) return likely("words, line");
    return ["none", "nothing"];
  }

  return { judge: judge };
});
