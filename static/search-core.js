/* Search core: tokenizer, noise stripping, pattern matching and ranking.
 *
 * No DOM here, so the same file runs in the browser (search-ui.js drives it)
 * and under Node in the tests. The tokenizer mirrors errorsite/tokens.py rule
 * for rule; a test compares both on every real record and query.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("./vendor/lunr-2.3.9/lunr.min.js"));
  else root.ErrorSearch = factory(root.lunr);
})(typeof self !== "undefined" ? self : this, function (lunr) {
  "use strict";

  // ---- Tokenizer (see errorsite/tokens.py) --------------------------------
  var CONNECTORS = "_.:=/-";
  var CHUNK = /(?:[\p{L}\p{N}]|[_.:=\/\-])+/gu;
  var PART = /[\p{L}\p{N}]+/gu;
  var HAS_LETTER = /\p{L}/u;
  var DIGITS = /^\p{N}+$/u;
  var MAX_TOKEN = 64;

  function isStopWord(word) {
    return lunr.stopWordFilter(word) === undefined;
  }

  function trimConnectors(text) {
    var start = 0, end = text.length;
    while (start < end && CONNECTORS.indexOf(text[start]) >= 0) start++;
    while (end > start && CONNECTORS.indexOf(text[end - 1]) >= 0) end--;
    return text.slice(start, end);
  }

  function keepPart(part) {
    return part.length > 1 && !DIGITS.test(part) && !isStopWord(part) && part.length <= MAX_TOKEN;
  }

  function tokenize(text) {
    var tokens = [];
    var chunks = String(text).toLowerCase().match(CHUNK) || [];
    for (var i = 0; i < chunks.length; i++) {
      var parts = chunks[i].match(PART) || [];
      var whole = trimConnectors(chunks[i]);
      if (parts.length > 1 && whole.length <= MAX_TOKEN && HAS_LETTER.test(whole)) tokens.push(whole);
      for (var j = 0; j < parts.length; j++) if (keepPart(parts[j])) tokens.push(parts[j]);
    }
    return tokens;
  }

  // ---- Noise: the wrappers around a message in real terminal output --------
  // Each rule's match leaves the message text. "context" rules keep the
  // match's words as weak evidence (a class name, a library in a path);
  // "drop" rules discard them (timestamps, addresses, runtime boilerplate).
  // Every rule is anchored on shapes real messages do not have, such as
  // file:line:col, `what():` or a leading `SomethingError:`.
  var NOISE_RULES = [
    ["drop", /^\s*Traceback \(most recent call last\):\s*$/gm],
    ["context", /^\s*File "[^"\n]*", line \d+(?:, in [^\n]*)?$/gm],
    ["drop", /^\s*(?:stack backtrace:|note: run with `RUST_BACKTRACE=\S+`[^\n]*|exit status \d+|Aborted \(core dumped\))\s*$/gm],
    ["context", /^\s*\d+:\s+0x[0-9a-f]+ - [^\n]*$/gim],
    ["context", /^goroutine \d+ \[[^\]\n]*\]:?$/gm],
    ["context", /^\s+\S+\.go:\d+(?: \+0x[0-9a-f]+)?$/gm],
    ["context", /\bthread '[^'\n]*' panicked at [^\s]+:\d+:\d+:?/g],
    ["context", /\bcalled `(?:Result|Option)::(?:unwrap|expect)\(\)` on an? `(?:Err|None)` value:?/g],
    ["context", /\bterminate called after throwing an instance of '[^'\n]*'/g],
    ["drop", /\bwhat\(\):/g],
    ["context", /\bException in thread "[^"\n]*"/g],
    ["context", /^\s*Caused by:/gm],
    ["context", /(?:^|\s)at\s+(?:[\w$.<>\[\]]+\s+)?\(?(?:[A-Za-z]:)?[^\s()]*:\d+:\d+\)?/gm],
    ["context", /(?:[A-Za-z]:)?(?:[\w.@~-]*[\/\\])+[\w.@-]+\.\w{1,6}(?::\d+){1,2}:?/g],
    ["drop", /\[?\b\d{4}[-\/]\d{2}[-\/]\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\]?/g],
    ["drop", /\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g],
    ["drop", /\b0x[0-9a-f]{6,}\b/gi],
    ["drop", /^\s*(?:\[\s*)?(?:WARN(?:ING)?|ERROR|INFO|DEBUG|TRACE|FATAL|CRITICAL)\b(?:\s*\])?:?/gm],
    ["drop", /^\s*\((?:error|err)\)\s/gim],
    ["context", /(?:^|[\s\[(])(?:Uncaught\s+)?(?:[A-Za-z_$][\w$]*(?:\.|::))*[A-Za-z_$]*(?:Error|Exception|Warning|Reply|Err|panic)(?:\[[^\]\s]*\])?:(?=\s|$)/gm],
  ];

  function stripNoise(text) {
    var core = String(text);
    var context = [];
    for (var i = 0; i < NOISE_RULES.length; i++) {
      var keep = NOISE_RULES[i][0] === "context";
      core = core.replace(NOISE_RULES[i][1], function (match) {
        if (keep) context.push(match);
        return " ";
      });
    }
    return { core: core, context: context.join(" ") };
  }

  // ---- Patterns: `{placeholder}` messages compiled to matchers -------------
  var PLACEHOLDER = /\{[^{}\s]{0,40}\}/g;
  var MIN_LITERAL = 8;  // shorter literal text would match half of any paste

  function squash(text) {
    return String(text).toLowerCase().replace(/\s+/g, " ").trim();
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
  }

  /* A matcher for one pattern: {test(haystack), literal length}, or null when
   * the pattern has too little literal text to tell anything apart. The regex
   * is compiled only once its longest literal piece is found in the paste:
   * most candidates never get that far. */
  function compilePattern(pattern) {
    var pieces = squash(pattern).split(PLACEHOLDER).map(function (p) { return p.trim(); });
    while (pieces.length && pieces[0] === "") pieces.shift();
    while (pieces.length && pieces[pieces.length - 1] === "") pieces.pop();
    var literal = pieces.join("").length;
    if (literal < MIN_LITERAL) return null;
    var longest = pieces.reduce(function (a, b) { return b.length > a.length ? b : a; });
    var regex = null;
    return {
      literal: literal,
      test: function (haystack) {
        if (haystack.indexOf(longest) < 0) return false;
        if (!regex) regex = patternRegex(pieces);
        return regex.test(haystack);
      },
    };
  }

  function patternRegex(pieces) {
    var body = pieces.map(function (p) { return escapeRegExp(p).replace(/ /g, "\\s+"); }).join("[\\s\\S]{0,200}?");
    var start = /^[\p{L}\p{N}_]/u.test(pieces[0]) ? "(?<![\\p{L}\\p{N}_])" : "";
    var end = /[\p{L}\p{N}_]$/u.test(pieces[pieces.length - 1]) ? "(?![\\p{L}\\p{N}_])" : "";
    return new RegExp(start + body + end, "u");
  }

  // ---- The index ------------------------------------------------------------
  var TYPED_QUERY_TOKENS = 6;   // at most this many words: typed, so typos are likely
  var MAX_QUERY_TOKENS = 48;    // a 10 KB paste stays fast
  var CANDIDATES = 300;
  var COMMON_SHARE = 0.05;      // a word in more than 5% of records…
  var COMMON_MIN_DOCS = 100;    // …and in more than 100 of them is not searched for         // re-ranked with coverage and patterns
  var CONTEXT_BOOST = 0.4;
  var FUZZY_BOOST = 0.3;
  var PREFIX_BOOST = 0.2;
  // Weights of the final score: coverage of the query, lunr's BM25 (rarity,
  // field boosts, context), coverage of the record's message.
  var QUERY_COVERAGE_WEIGHT = 1;
  var LUNR_WEIGHT = 0.6;
  var MESSAGE_COVERAGE_WEIGHT = 0.5;
  var FUZZY_CREDIT = 0.5;  // a word matched only through a typo counts half

  function ErrorSearch(serializedIndex, docs) {
    this.index = lunr.Index.load(serializedIndex);
    this.docs = docs;
    this.matchers = [];
    this.messageTokens = [];
    this.documentFrequency = Object.create(null);
  }

  ErrorSearch.prototype.matcher = function (ref) {
    if (this.matchers[ref] === undefined) {
      var doc = this.docs[ref];
      this.matchers[ref] = compilePattern(doc[5] || doc[0]);
    }
    return this.matchers[ref];
  };

  ErrorSearch.prototype.tokensOf = function (ref) {
    if (this.messageTokens[ref] === undefined) this.messageTokens[ref] = unique(tokenize(this.docs[ref][0]));
    return this.messageTokens[ref];
  };

  function unique(items) {
    var seen = Object.create(null), out = [];
    for (var i = 0; i < items.length; i++) if (!seen[items[i]]) { seen[items[i]] = true; out.push(items[i]); }
    return out;
  }

  /* Words in a large share of the records ("error", "invalid") cost lunr a
   * score for every one of those records and tell almost nothing apart: their
   * idf is near zero. They are left out of the query, as stop words are. */
  ErrorSearch.prototype.isCommon = function (token) {
    var term = stem(token);
    if (!(term in this.documentFrequency)) {
      var posting = this.index.invertedIndex[term], refs = Object.create(null), count = 0;
      if (posting) {
        for (var field in posting) {
          if (field === "_index") continue;
          for (var ref in posting[field]) if (!refs[ref]) { refs[ref] = true; count++; }
        }
      }
      this.documentFrequency[term] = count;
    }
    return this.documentFrequency[term] > Math.max(COMMON_MIN_DOCS, this.docs.length * COMMON_SHARE);
  };

  /* Query text → {core, context, typed}: the tokens the ranking will use. */
  function analyse(text) {
    var noise = stripNoise(text);
    var core = unique(tokenize(noise.core)).slice(0, MAX_QUERY_TOKENS);
    var coreSet = Object.create(null);
    core.forEach(function (t) { coreSet[t] = true; });
    var context = unique(tokenize(noise.context)).filter(function (t) { return !coreSet[t]; }).slice(0, MAX_QUERY_TOKENS);
    return { core: core, context: context, typed: core.length + context.length <= TYPED_QUERY_TOKENS };
  }

  /* Search: returns [{ref, doc, score, terms}] best first, never throws on text. */
  ErrorSearch.prototype.search = function (text, limit) {
    limit = limit || 20;
    var q = analyse(text);
    if (!q.core.length && !q.context.length) return [];
    var self = this;
    q = {
      core: q.core.filter(function (t) { return !self.isCommon(t); }),
      context: q.context.filter(function (t) { return !self.isCommon(t); }),
      typed: q.typed,
    };
    if (!q.core.length && !q.context.length) q = analyse(text);  // only common words: use them
    var lastToken = q.core[q.core.length - 1];
    var vocabulary = this.index.invertedIndex;
    var results = this.index.query(function (query) {
      q.core.forEach(function (token) {
        query.term(token, { boost: 1 });
        // A typo is a word the index does not know; known words are not blurred.
        if (q.typed && token.length >= 4 && !DIGITS.test(token) && !(stem(token) in vocabulary)) {
          query.term(token, { boost: FUZZY_BOOST, editDistance: 1 });
        }
      });
      q.context.forEach(function (token) { query.term(token, { boost: CONTEXT_BOOST }); });
      if (q.typed && lastToken && lastToken.length >= 3 && /^[\p{L}\p{N}]+$/u.test(lastToken)) {
        query.term(lastToken, { boost: PREFIX_BOOST, usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING });
      }
    });
    return this.rank(text, q, results.slice(0, CANDIDATES)).slice(0, limit);
  };

  function stem(token) {
    return lunr.stemmer(new lunr.Token(token)).toString();
  }

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
   * up and has no notion of "all the words I typed are here". */
  function queryCoverage(coreStems, terms, typed) {
    if (!coreStems.length) return 0;
    var matched = 0;
    for (var i = 0; i < coreStems.length; i++) {
      var best = 0;
      for (var j = 0; j < terms.length && best < 1; j++) {
        if (terms[j] === coreStems[i]) best = 1;
        else if (typed && nearlyEqual(terms[j], coreStems[i])) best = FUZZY_CREDIT;
      }
      matched += best;
    }
    return matched / coreStems.length;
  }

  /* Final order: a pattern found in the pasted text first (the longest pattern
   * wins), then the weighted sum of query coverage, lunr's score and message
   * coverage; ties fall to the record's position (records are sorted by URL). */
  ErrorSearch.prototype.rank = function (text, q, results) {
    var haystack = squash(text).slice(0, 20000);
    var queryTokens = Object.create(null);
    q.core.concat(q.context).forEach(function (t) { queryTokens[t] = true; });
    var top = results.length ? results[0].score : 1;
    var coreStems = q.core.map(stem);
    var self = this;
    var bestCoverage = 0;
    var ranked = results.map(function (result) {
      var ref = Number(result.ref);
      var words = self.tokensOf(ref);
      var covered = words.filter(function (w) { return queryTokens[w]; }).length;
      var terms = Object.keys(result.matchData.metadata);
      var coverage = queryCoverage(coreStems, terms, q.typed);
      bestCoverage = Math.max(bestCoverage, coverage);
      return {
        ref: ref,
        doc: self.docs[ref],
        terms: terms,
        coverage: coverage,
        pattern: 0,
        score: LUNR_WEIGHT * result.score / top + QUERY_COVERAGE_WEIGHT * coverage +
               MESSAGE_COVERAGE_WEIGHT * (words.length ? covered / words.length : 0),
      };
    });
    // A pattern found in the text lifts its record above the rest, provided
    // the record also has as many of the query's words as any other: a short
    // pattern such as "{x} not supported" must not win over a record that
    // has every word typed.
    ranked.forEach(function (r) {
      var matcher = r.coverage >= bestCoverage ? self.matcher(r.ref) : null;
      r.pattern = matcher && matcher.test(haystack) ? matcher.literal : 0;
    });
    ranked.sort(function (a, b) {
      return (b.pattern - a.pattern) || (b.score - a.score) || (a.ref - b.ref);
    });
    return ranked;
  };

  ErrorSearch.tokenize = tokenize;
  ErrorSearch.stripNoise = stripNoise;
  ErrorSearch.analyse = analyse;
  ErrorSearch.compilePattern = compilePattern;
  return ErrorSearch;
});
