/* Search core: tokenizer, the query, and ranking. Reading the paste (noise,
 * message lines, names) is in search-paste.js; patterns in search-match.js.
 *
 * No DOM here, so the same files run in the browser (search-ui.js drives
 * them) and under Node in the tests. The tokenizer mirrors errorsite/tokens.py
 * rule for rule; a test compares both on every real record and query.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./vendor/lunr-2.3.9/lunr.min.js"), require("./search-paste.js"),
                             require("./search-match.js"));
  } else root.ErrorSearch = factory(root.lunr, root.ErrorSearchPaste, root.ErrorSearchMatch);
})(typeof self !== "undefined" ? self : this, function (lunr, paste, match) {
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

  // ---- The index ------------------------------------------------------------
  var TYPED_QUERY_TOKENS = 6;   // at most this many words: typed, so typos are likely
  var MAX_QUERY_TOKENS = 48;    // a 10 KB paste stays fast
  var CANDIDATES = 300;         // re-ranked with coverage, patterns and names
  var COMMON_SHARE = 0.05;      // a word in more than 5% of records…
  var COMMON_MIN_DOCS = 100;    // …and in more than 100 of them is not searched for
  var CONTEXT_BOOST = 0.4;
  var FUZZY_BOOST = 0.3;
  var PREFIX_BOOST = 0.2;
  var LONG_PASTE_TYPOS = 4;     // a long paste: typos forgiven in this many message words
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
  var CLASS_NAME = /\b[A-Za-z][A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*\b/g;  // CamelCase: DTypeMismatchBinaryOp
  var EXACT_SHARE = 0.25;       // share of a record's message words in the paste to try its pattern
  var NEAR_CANDIDATES = 20;     // best-scored records tried for a near match…
  var NEAR_SHARE = 0.5;         // …among those with half their message's words in the paste
  var NEAR_TEXT = 2000;

  function ErrorSearch(serializedIndex, docs, names) {
    this.index = lunr.Index.load(serializedIndex);
    this.docs = docs;
    this.names = names || {};
    this.matchers = [];
    this.messageTokens = [];
    this.documentFrequency = Object.create(null);
  }

  ErrorSearch.prototype.matcher = function (ref) {
    if (this.matchers[ref] === undefined) {
      var doc = this.docs[ref];
      this.matchers[ref] = match.compilePattern(doc[5] || doc[0]);
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

  function toSet(items) {
    var set = Object.create(null);
    items.forEach(function (item) { set[item] = true; });
    return set;
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

  /* Query text → {core, context, typed, message, frames, lines}: the tokens
   * the ranking will use. The words of the message lines come first, so a
   * long paste keeps them; `message` lists them. */
  function analyse(text) {
    var noise = paste.stripNoise(text);
    var lines = paste.messageLines(text);
    var message = lines.length ? unique(tokenize(paste.stripNoise(lines.join("\n")).core)) : [];
    var core = unique(message.concat(tokenize(noise.core))).slice(0, MAX_QUERY_TOKENS);
    var coreSet = toSet(core);
    var context = unique(tokenize(noise.context)).filter(function (t) { return !coreSet[t]; }).slice(0, MAX_QUERY_TOKENS);
    var classes = (String(noise.core).slice(0, 20000).match(CLASS_NAME) || []).map(function (c) { return c.toLowerCase(); });
    return { core: core, context: context, typed: core.length + context.length <= TYPED_QUERY_TOKENS,
             message: message.filter(function (t) { return coreSet[t]; }), frames: noise.frames, lines: lines,
             classes: classes.filter(function (t) { return coreSet[t]; }) };
  }

  /* Search: returns [{ref, doc, score, terms}] best first, never throws on text. */
  ErrorSearch.prototype.search = function (text, limit) {
    limit = limit || 20;
    var q = analyse(text);
    if (!q.core.length && !q.context.length) return [];
    var self = this;
    var rare = function (t) { return !self.isCommon(t); };
    var filtered = { core: q.core.filter(rare), context: q.context.filter(rare) };
    if (filtered.core.length || filtered.context.length) { q.core = filtered.core; q.context = filtered.context; }
    // Typos: any word of a short typed query; in a long paste, a few words of
    // its message lines. A typo is a word the index does not know.
    var vocabulary = this.index.invertedIndex, fuzzy = Object.create(null), budget = LONG_PASTE_TYPOS;
    var messageSet = toSet(q.message);
    q.core.forEach(function (token) {
      if (token.length < (q.typed ? 4 : 5) || DIGITS.test(token) || stem(token) in vocabulary) return;
      if (q.typed || (messageSet[token] && budget-- > 0)) fuzzy[token] = true;
    });
    q.fuzzy = fuzzy;
    var lastToken = q.core[q.core.length - 1];
    // A word the index does not have matches nothing as it is: lunr is not
    // asked for it (each term costs lunr a walk of its vocabulary).
    var known = function (token) { return stem(token) in vocabulary; };
    var results = this.index.query(function (query) {
      q.core.forEach(function (token) {
        if (known(token)) query.term(token, { boost: 1 });
        if (fuzzy[token]) query.term(token, { boost: FUZZY_BOOST, editDistance: 1 });
      });
      q.context.forEach(function (token) { if (known(token)) query.term(token, { boost: CONTEXT_BOOST }); });
      if (q.typed && lastToken && lastToken.length >= 3 && /^[\p{L}\p{N}]+$/u.test(lastToken)) {
        query.term(lastToken, { boost: PREFIX_BOOST, usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING });
      }
    });
    q.named = this.namedRepos(text);
    return this.rank(text, q, results.slice(0, CANDIDATES)).slice(0, limit);
  };

  /* repo → how strongly the paste's context names it (0 none, 1 weak, 2 strong). */
  ErrorSearch.prototype.namedRepos = function (text) {
    var found = paste.pasteNames(text), named = Object.create(null);
    for (var key in found) {
      var repos = Object.prototype.hasOwnProperty.call(this.names, key) ? this.names[key] : null;
      if (!Array.isArray(repos)) continue;
      for (var i = 0; i < repos.length; i++) named[repos[i]] = Math.max(named[repos[i]] || 0, found[key]);
    }
    return named;
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
   *    the frames name;
   * 3. the weighted sum of query coverage, lunr's score, message coverage and
   *    a named repository; ties fall to the record's position. */
  ErrorSearch.prototype.rank = function (text, q, results) {
    var haystack = match.squash(text).slice(0, 20000);
    var queryTokens = toSet(q.core.concat(q.context));
    var top = results.length ? results[0].score : 1;
    var coreStems = q.core.map(stem);
    var fuzzyStems = toSet(Object.keys(q.fuzzy || {}).map(stem));
    var named = q.named || {};
    var classStems = (q.classes || []).map(stem);
    var self = this;
    var guard = false;
    var ranked = results.map(function (result) {
      var ref = Number(result.ref);
      var doc = self.docs[ref];
      var words = self.tokensOf(ref);
      var covered = 0;
      for (var i = 0; i < words.length; i++) if (queryTokens[words[i]]) covered++;
      var metadata = result.matchData.metadata;
      var terms = Object.keys(metadata);
      var name = named[doc[1]] || 0;
      var everyWord = coreStems.length > 0 && terms.length >= coreStems.length &&
        messageWords(coreStems, metadata) === coreStems.length;
      if (everyWord) guard = true;
      return {
        ref: ref,
        doc: doc,
        terms: terms,
        named: name,
        everyWord: everyWord,
        shared: words.length ? covered / words.length : 0,  // of the record's message words, in the paste
        classNamed: classStems.length > 0 && namesClass(classStems, metadata),
        pattern: 0,
        score: LUNR_WEIGHT * result.score / top + QUERY_COVERAGE_WEIGHT * queryCoverage(coreStems, fuzzyStems, terms) +
               MESSAGE_COVERAGE_WEIGHT * (words.length ? covered / words.length : 0) + NAME_WEIGHT * name,
      };
    });
    // A short pattern such as "{x} not supported" must not win over a record
    // whose message has every word typed: when one does, only such records'
    // patterns count. A pattern found in the paste brings its record's words
    // along: records with less than a quarter of them there are not tried.
    var found = false, near = [];
    ranked.forEach(function (r) {
      if ((guard && !r.everyWord) || r.shared < EXACT_SHARE) return;
      var matcher = self.matcher(r.ref);
      if (matcher) r.pattern = match.exactValue(matcher, haystack);
      if (r.pattern) found = true;
      else if (matcher && r.shared >= NEAR_SHARE) near.push(r);
    });
    this.nearMatches(q, near, haystack);
    ranked.forEach(function (r) {
      r.value = (r.pattern || (r.classNamed ? CLASS_VALUE : 0)) * (1 + NAME_FACTOR * r.named);
      if (r.pattern) found = true;
    });
    var framesOnly = q.frames > 0 && !q.lines.length && !found;
    ranked.sort(function (a, b) {
      return (b.value - a.value) || (framesOnly ? b.named - a.named : 0) || (b.score - a.score) || (a.ref - b.ref);
    });
    return ranked;
  };

  function namesClass(classStems, metadata) {
    for (var i = 0; i < classStems.length; i++) if (metadata[classStems[i]] && metadata[classStems[i]].cls) return true;
    return false;
  }

  /* Near matches for the best-scored of the given records, tried on each
   * message line, or on the start of the paste without one. */
  ErrorSearch.prototype.nearMatches = function (q, candidates, haystack) {
    if (!candidates.length) return;
    var texts = q.lines.length ? q.lines.map(function (line) { return match.squash(line).slice(0, NEAR_TEXT); })
                               : [haystack.slice(0, NEAR_TEXT)];
    var self = this;
    candidates.sort(function (a, b) { return b.score - a.score; }).slice(0, NEAR_CANDIDATES).forEach(function (r) {
      var matcher = self.matcher(r.ref);
      for (var i = 0; i < texts.length; i++) r.pattern = Math.max(r.pattern, match.nearValue(matcher, texts[i]));
    });
  };

  ErrorSearch.tokenize = tokenize;
  ErrorSearch.stripNoise = paste.stripNoise;
  ErrorSearch.analyse = analyse;
  ErrorSearch.compilePattern = match.compilePattern;
  ErrorSearch.paste = paste;
  ErrorSearch.match = match;
  return ErrorSearch;
});
