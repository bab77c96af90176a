/* Ranking: lunr's candidates in their final order. See rank() for the order;
 * the weights are below.
 *
 * No DOM here: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./search-tokens.js"), require("./search-match.js"), require("./search-evidence.js"));
  } else root.ErrorSearchRank = factory(root.ErrorSearchTokens, root.ErrorSearchMatch, root.ErrorSearchEvidence);
})(typeof self !== "undefined" ? self : this, function (tokens, match, evidence) {
  "use strict";

  var stem = tokens.stem, toSet = tokens.toSet;
  var haystackOf = evidence.haystackOf, pastedWords = evidence.pastedWords;
  var unaskedShare = evidence.unaskedShare, literalShare = evidence.literalShare;

  // Weights of the final score: coverage of the query, lunr's BM25 (rarity,
  // field boosts, context), coverage of the record's message, and a named
  // repository (per unit of strength: 1 weak, 2 strong).
  var QUERY_COVERAGE_WEIGHT = 1;
  var LUNR_WEIGHT = 0.6;
  var MESSAGE_COVERAGE_WEIGHT = 0.5;
  var NAME_WEIGHT = 0.15;
  var FUZZY_CREDIT = 0.5;       // a word matched only through a typo counts half
  var NAME_FACTOR = 0.125;      // a named repository's pattern is worth 12.5% more per unit
  var CLASS_VALUE = 4;          // a record whose error class the query names, below any pattern
  var CODE_VALUE = 1000;        // a record whose error code the query holds, above any pattern
  var CODE_SHAPED = /[0-9_.:-]/;  // a code with a digit or a connector (`E0308`, `parse_error.108`), not `ERR`
  var EXACT_SHARE = 0.25;       // share of a record's message words in the paste to try its pattern…
  var HEAD_TRY_SHARE = 0.75;    // …or share of its first sentence's words
  var NEAR_CANDIDATES = 20;     // best-scored records tried for a near match…
  var NEAR_SHARE = 0.5;         // …among those with half their message's words in the paste, or a
                                // quarter when the paste names their repository
  var NEAR_TEXT = evidence.NEAR_TEXT;

  /* Within one edit, a swap of neighbours counting as one (as lunr's fuzzy does). */
  function nearlyEqual(a, b) {
    if (a === b) return true;
    if (Math.abs(a.length - b.length) > 1) return false;
    var i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    if (a.length === b.length) {
      return a.slice(i + 1) === b.slice(i + 1) ||
        (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
    }
    return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
  }

  /* The share of the query's own words this record matched: lunr adds scores
   * up and has no notion of "all the words I typed are here". A word the
   * query may have misspelt counts half when only its near form matched. */
  function queryCoverage(coreStems, fuzzyStems, terms) {
    if (!coreStems.length) return 0;
    var matched = 0;
    for (var i = 0; i < coreStems.length; i++) {
      var best = 0, fuzzy = fuzzyStems[coreStems[i]] === true;
      for (var j = 0; j < terms.length && best < 1; j++) {
        if (terms[j] === coreStems[i]) best = 1;
        else if (fuzzy && nearlyEqual(terms[j], coreStems[i])) best = FUZZY_CREDIT;
      }
      matched += best;
    }
    return matched / coreStems.length;
  }

  function inMessage(fields) {
    return !!(fields && (fields.message || fields.pattern));
  }

  /* How many of the query's words this record has in its message or pattern. */
  function messageWords(coreStems, metadata) {
    var count = 0;
    for (var i = 0; i < coreStems.length; i++) {
      var fields = metadata[coreStems[i]];
      if (fields && (fields.message || fields.pattern)) count++;
    }
    return count;
  }

  /* Final order:
   * 1. a pattern found in the paste, worth its literal length (the longest
   *    wins), less for a dropped prefix or a few edits, and 12.5% more per
   *    unit of strength when the paste names the record's repository;
   *    A record whose error class the query names in its text (`DTypeMismatchBinaryOp
 *    on add`) comes after those, before the rest;
 * 2. for a paste of stack frames with no message line, the repositories
   *    the frames name, then the record whose file the innermost frame is
   *    in, then the rarer words of the frames (frameWords);
   * 3. the weighted sum of query coverage, lunr's score, message coverage and
   *    a named repository; ties fall to the record's position. */
  /* Whether a term's match is one that decides what the error is: in its
   * message, pattern, code or class; not its tags, repository, file or summary. */
  function decides(fields) {
    return !!(fields && (fields.message || fields.pattern || fields.code || fields.cls));
  }

  function rank(engine, text, q, results) {
    var haystack = haystackOf(q, text);
    var queryTokens = toSet(q.core.concat(q.context));
    var top = results.length ? results[0].score : 1;
    var coreStems = q.core.map(stem);
    var asked = toSet(q.core.concat(q.context).map(stem));  // not what a prefix or a typo expands to
    var fuzzyStems = toSet(Object.keys(q.fuzzy || {}).map(stem));
    var named = q.named || { any: false };
    var classStems = (q.classes || []).map(stem);
    var guard = false;
    var coverage = engine.coverage(queryTokens);
    var anyNamed = named.any;
    var ranked = results.map(function (result) {
      var ref = Number(result.ref);
      var counts = coverage(ref), covered = counts[0], words = counts[1];
      var metadata = result.matchData.metadata;
      var terms = Object.keys(metadata);
      var name = anyNamed ? named.of(ref) : 0;
      var everyWord = coreStems.length > 0 && terms.length >= coreStems.length &&
        messageWords(coreStems, metadata) === coreStems.length;
      if (everyWord) guard = true;
      var shared = words ? covered / words : 0;  // of the record's message words, in the paste
      return {
        ref: ref,
        words: words,
        terms: terms,
        decided: terms.filter(function (t) { return decides(metadata[t]); }),
        named: name,
        everyWord: everyWord,
        metadata: metadata,
        shared: shared,
        covered: covered,
        code: codeHeld(metadata, asked),
        found: "",  // "exact" or "near": how its pattern was found in the paste
        classNamed: classStems.length > 0 && namesClass(classStems, metadata),
        pattern: 0,
        value: 0,
        score: LUNR_WEIGHT * result.score / top + QUERY_COVERAGE_WEIGHT * queryCoverage(coreStems, fuzzyStems, terms) +
               MESSAGE_COVERAGE_WEIGHT * shared + NAME_WEIGHT * name,
      };
    });
    // A short pattern such as "{x} not supported" must not win over a record
    // whose message has every word typed: when one does, only such records'
    // patterns count. A pattern found in the paste brings its record's words
    // along: records with less than a quarter of them there are not tried.
    var found = false, near = [];
    ranked.forEach(function (r) {
      if (guard && !r.everyWord) return;
      // With none of its message words looked up, a record's pattern is not at hand (it travels with them).
      if (!(r.shared > 0)) return;
      var matcher = engine.matcher(r.ref);
      if (r.shared < EXACT_SHARE) {
        var pasted = pastedWords(q, text);
        r.shared = Math.max(r.shared + unaskedShare(engine, r, pasted, queryTokens), matcher ? literalShare(matcher, pasted) : 0);
        // A long message cut after its first sentence: that sentence's words are there.
        if (r.shared < EXACT_SHARE && !(matcher && matcher.head && literalShare(matcher.head, pasted) >= HEAD_TRY_SHARE)) return;
      }
      if (matcher) r.pattern = match.exactValue(matcher, haystack);
      if (r.pattern) { found = true; r.found = "exact"; r.literal = matcher.literal; }
      else if (matcher && (r.shared >= NEAR_SHARE || r.named > 0)) near.push(r);
      var head = !r.pattern && matcher ? match.headLiteral(matcher, haystack) : 0;
      if (head) {  // its start alone, if nothing better comes
        r.pattern = match.HEAD_SHARE * head;
        r.found = "head";
        r.literal = head;
      }
      var unquoted = !r.pattern && matcher ? match.unquotedValue(matcher, haystack) : 0;
      if (unquoted) {  // without the quotes around its values, as titles write it
        r.pattern = unquoted;
        r.found = "unquoted";
        r.literal = unquoted;
      }
    });
    var exact = ranked.filter(function (r) { return r.pattern > 0; });
    nearMatches(engine, q, near, haystack);
    ranked.forEach(function (r) {
      r.value = r.code ? CODE_VALUE + r.code
                       : (r.pattern || (r.classNamed ? CLASS_VALUE : 0)) * (1 + NAME_FACTOR * r.named);
      if (r.pattern) found = true;
    });
    evidence.holdingMatches(engine, exact, haystack);
    var framesOnly = q.framesAlone && !found;
    if (framesOnly) frameWords(engine, q, ranked);
    ranked.sort(function (a, b) {
      return (b.value - a.value) ||
        (framesOnly ? (b.named - a.named) || (b.innermost - a.innermost) || (b.frameWords - a.frameWords) : 0) ||
        (b.score - a.score) || (a.ref - b.ref);
    });
    return ranked;
  }

  /* For a paste of frames alone, among the records of the libraries it
   * names: how rare the frames' other words each record has are (the sum of
   * their idf), since the library's name, which all of them share, says
   * nothing more, and a record whose text names the method that threw
   * (`IdentityMap.ThrowIdentityConflict`) is where the error came from. */
  function frameWords(engine, q, ranked) {
    var names = toSet(Object.keys(q.names || {}).concat(engine.rules.names.domains).map(stem));
    var innermost = q.innermost ? stem(q.innermost) : "";
    ranked.forEach(function (r) {
      // The file of the frame that raised is the record's (`sync/waitgroup.go`, .NET's `ConnectHelper`).
      r.innermost = innermost && r.metadata[innermost] && r.metadata[innermost].file ? 1 : 0;
      var sum = 0;
      if (r.named) r.terms.forEach(function (t) {
        var df = engine.df(t);
        if (!names[t] && df && !engine.isCommon(t)) sum += Math.log(1 + engine.records / df);
      });
      r.frameWords = sum;
    });
  }

  /* The length of the longest form of the record's error code that the query
   * holds as itself (the code field holds the code and its dotted tails: search/index.py),
   * 0 for none or for a code of letters alone, which a word of the paste may be. */
  function codeHeld(metadata, asked) {
    var longest = 0;
    for (var term in metadata) {
      if (asked[term] && metadata[term].code && CODE_SHAPED.test(term) && term.length > longest) longest = term.length;
    }
    return longest;
  }

  function namesClass(classStems, metadata) {
    for (var i = 0; i < classStems.length; i++) if (metadata[classStems[i]] && metadata[classStems[i]].cls) return true;
    return false;
  }

  /* Near matches for the best-scored of the given records, tried on each
   * message line, or on the start of the paste without one. */
  function nearMatches(engine, q, candidates, haystack) {
    if (!candidates.length) return;
    var texts = q.lines.length ? q.lines.map(function (line) { return match.squash(line).slice(0, NEAR_TEXT); })
                               : [haystack.slice(0, NEAR_TEXT)];
    var work = match.nearWork();
    candidates.sort(function (a, b) { return b.score - a.score; }).slice(0, NEAR_CANDIDATES).forEach(function (r) {
      var matcher = engine.matcher(r.ref), near = nearest(matcher, texts, work), literal = matcher.literal;
      if (!near && matcher.head) {  // its first sentence alone, within a few edits
        near = match.HEAD_SHARE * nearest(matcher.head, texts, work);
        literal = matcher.head.literal;
      }
      if (near > r.pattern) { r.pattern = near; r.found = "near"; r.literal = literal; }
    });
  }

  function nearest(matcher, texts, work) {
    var best = 0;
    for (var i = 0; i < texts.length; i++) best = Math.max(best, match.nearValue(matcher, texts[i], work));
    return best;
  }

  return { rank: rank, CODE_SHAPED: CODE_SHAPED, nearlyEqual: nearlyEqual, inMessage: inMessage };
});
