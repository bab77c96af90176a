/* Ranking: lunr's candidates in their final order. See rank() for the order;
 * the weights are below.
 *
 * No DOM here: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./search-tokens.js"), require("./search-match.js"), require("./search-agree.js"));
  } else root.ErrorSearchRank = factory(root.ErrorSearchTokens, root.ErrorSearchMatch, root.ErrorSearchAgree);
})(typeof self !== "undefined" ? self : this, function (tokens, match, agree) {
  "use strict";

  var stem = tokens.stem, toSet = tokens.toSet;

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
  var NEAR_TEXT = 2000;
  var HOLDING_SHARE = 0.5;      // a pattern found around another's match, with half its literal text or more…
  var HOLDING_MATCHES = 12;     // …among the best this many found whole, ranks above it

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
    holdingMatches(engine, exact, haystack);
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

  /* The paste's words (its first 20,000 characters), worked out once a search. */
  function pastedWords(q, text) {
    if (!q.pasted) q.pasted = toSet(tokens.tokenize(text.slice(0, 20000)));
    return q.pasted;
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

  return { rank: rank, judge: judge, CODE_SHAPED: CODE_SHAPED };
});
