/* Search core: the engine. It reads a paste into a query (search-paste.js),
 * asks lunr for candidates and ranks them (search-rank.js, with the patterns
 * of search-match.js). The tokenizer is search-tokens.js.
 *
 * No DOM here, so the same files run in the browser (search-ui.js drives
 * them) and under Node in the tests.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./vendor/lunr-2.3.9/lunr.min.js"), require("./search-tokens.js"),
                             require("./search-paste.js"), require("./search-match.js"), require("./search-rank.js"));
  } else {
    root.ErrorSearch = factory(root.lunr, root.ErrorSearchTokens, root.ErrorSearchPaste, root.ErrorSearchMatch,
                               root.ErrorSearchRank);
  }
})(typeof self !== "undefined" ? self : this, function (lunr, tokens, paste, match, ranking) {
  "use strict";

  var tokenize = tokens.tokenize, stem = tokens.stem, unique = tokens.unique, toSet = tokens.toSet;
  var DIGITS = tokens.DIGITS;

  // ---- The query ------------------------------------------------------------
  var TYPED_QUERY_TOKENS = 6;   // at most this many words: typed, so typos are likely
  var MAX_QUERY_TOKENS = 48;    // a 10 KB paste stays fast
  var CANDIDATES = 300;         // re-ranked with coverage, patterns and names
  var COMMON_SHARE = 0.05;      // a word in more than 5% of records…
  var COMMON_MIN_DOCS = 100;    // …and in more than 100 of them is not searched for
  var CONTEXT_BOOST = 0.4;
  var FUZZY_BOOST = 0.3;
  var PREFIX_BOOST = 0.2;
  var LONG_PASTE_TYPOS = 4;     // a long paste: typos forgiven in this many message words
  var CLASS_NAME = /\b[A-Za-z][A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*\b/g;  // CamelCase: DTypeMismatchBinaryOp

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

  /* Query text → {core, context, typed, message, frames, lines, classes}: the
   * tokens the ranking will use. The words of the message lines come first, so
   * a long paste keeps them; `message` lists them, `classes` the CamelCase
   * names in the text (an error class named in a title). */
  function analyse(text) {
    var noise = paste.stripNoise(text);
    var lines = paste.messageLines(text);
    var message = lines.length ? unique(tokenize(paste.stripNoise(lines.join("\n")).core)) : [];
    var core = unique(message.concat(tokenize(noise.core))).slice(0, MAX_QUERY_TOKENS);
    var coreSet = toSet(core);
    var context = unique(tokenize(noise.context)).filter(function (t) { return !coreSet[t]; })
      .slice(0, MAX_QUERY_TOKENS);
    var classes = (String(noise.core).slice(0, 20000).match(CLASS_NAME) || [])
      .map(function (c) { return c.toLowerCase(); });
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
    var core = q.core.filter(known), context = q.context.filter(known);
    var prefix = q.typed && lastToken && lastToken.length >= 3 && /^[\p{L}\p{N}]+$/u.test(lastToken);
    if (!prefix && !core.length && !context.length && !Object.keys(fuzzy).length) {
      return [];  // lunr would return every record for an empty query
    }
    // Terms go in stemmed (the stems are cached), so lunr skips its own
    // stemmer, the same Porter stemmer, on each of them.
    var results = this.index.query(function (query) {
      var term = function (token, options) { options.usePipeline = false; query.term(stem(token), options); };
      core.forEach(function (token) { term(token, { boost: 1 }); });
      Object.keys(fuzzy).forEach(function (token) { term(token, { boost: FUZZY_BOOST, editDistance: 1 }); });
      context.forEach(function (token) { term(token, { boost: CONTEXT_BOOST }); });
      if (prefix) {
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

  ErrorSearch.prototype.rank = function (text, q, results) {
    return ranking.rank(this, text, q, results);
  };

  ErrorSearch.tokenize = tokenize;
  ErrorSearch.stripNoise = paste.stripNoise;
  ErrorSearch.analyse = analyse;
  ErrorSearch.compilePattern = match.compilePattern;
  ErrorSearch.paste = paste;
  ErrorSearch.match = match;
  return ErrorSearch;
});
