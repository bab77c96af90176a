/* The whole index and every record's entry in memory (lunr.py's index.json,
 * docs.json and names.json): what the tests and the bench load, and the
 * reference the split data (search-data.js) answers as. Both are views the
 * engine (search-core.js) asks the same questions of.
 *
 * No DOM here: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./vendor/lunr-2.3.9/lunr.min.js"), require("./search-tokens.js"),
                             require("./search-match.js"));
  } else root.ErrorSearchWhole = factory(root.lunr, root.ErrorSearchTokens, root.ErrorSearchMatch);
})(typeof self !== "undefined" ? self : this, function (lunr, tokens, match) {
  "use strict";

  var tokenize = tokens.tokenize, unique = tokens.unique;

  /* The whole index and every record's entry, in memory: the reference the
   * split data (search-data.js) is tested against, and what the tests load.
   * A view answers what the query and the ranking ask of the data; its
   * `rules` are the build's (meta.json's commonAbove and names, which
   * errorsite.search.search_rules makes). */
  function WholeIndex(serializedIndex, docs, rules) {
    if (!rules || rules.commonAbove === undefined || !rules.names) {
      throw new Error("ErrorSearch: the build's rules (meta.json's commonAbove and names) are required");
    }
    this.rules = rules;
    this.lunr = lunr.Index.load(serializedIndex);
    this.docs = docs;
    this.records = docs.length;
    this.frequency = Object.create(null);
    this.messageTokens = [];
    this.matchers = [];
  }

  WholeIndex.prototype.pending = function () { return false; };
  WholeIndex.prototype.restart = function () {};
  WholeIndex.prototype.wanted = function () { return []; };

  /* In how many records the term is, or undefined for a term the index lacks. */
  WholeIndex.prototype.df = function (term) {
    if (!(term in this.frequency)) {
      var posting = this.lunr.invertedIndex[term], refs = Object.create(null), count = 0;
      if (posting) {
        for (var field in posting) {
          if (field === "_index") continue;
          for (var ref in posting[field]) if (!refs[ref]) { refs[ref] = true; count++; }
        }
      }
      this.frequency[term] = posting ? count : undefined;
    }
    return this.frequency[term];
  };

  WholeIndex.prototype.isCommon = function (term) { return this.df(term) > this.rules.commonAbove; };

  WholeIndex.prototype.index = function () { return this.lunr; };
  WholeIndex.prototype.wants = function () {};
  WholeIndex.prototype.mayNeedNeighbours = function () {};

  /* The first `limit` of the index's terms that start with `prefix`, in
   * their sorted order (the split index reads them so), or the terms within
   * one edit of `term` (lunr's fuzzy match). */
  WholeIndex.prototype.prefixed = function (prefix, limit) {
    return this.lunr.tokenSet.intersect(lunr.TokenSet.fromString(prefix + "*")).toArray().sort().slice(0, limit);
  };

  WholeIndex.prototype.neighbours = function (term) {
    return this.lunr.tokenSet.intersect(lunr.TokenSet.fromFuzzyString(term, 1)).toArray();
  };

  WholeIndex.prototype.doc = function (ref) { return this.docs[ref]; };
  WholeIndex.prototype.card = WholeIndex.prototype.doc;

  /* The paste's names (name → strength) → {any, of(ref)}: how strongly the
   * paste names each record's repository, through `names` (name → repositories). */
  WholeIndex.prototype.named = function (found, names) {
    var strength = namedIn(names || {}, found), docs = this.docs;
    return { any: Object.keys(strength).length > 0, of: function (ref) { return strength[docs[ref][1]] || 0; } };
  };

  WholeIndex.prototype.matcher = function (ref) {
    if (this.matchers[ref] === undefined) {
      var doc = this.docs[ref];
      this.matchers[ref] = match.compilePattern(doc[5] || doc[0]);
    }
    return this.matchers[ref];
  };

  /* For a query's words: ref → [how many of the record's message words are
   * among them, how many distinct words its message has]. */
  WholeIndex.prototype.coverage = function (queryTokens) {
    var self = this;
    return function (ref) {
      if (self.messageTokens[ref] === undefined) self.messageTokens[ref] = unique(tokenize(self.docs[ref][0]));
      var words = self.messageTokens[ref], covered = 0;
      for (var i = 0; i < words.length; i++) if (queryTokens[words[i]]) covered++;
      return [covered, words.length];
    };
  };

  /* The paste's names (name → strength), through `names` (name → repositories): repo → strength. */
  function namedIn(names, found) {
    var named = Object.create(null);
    for (var key in found) {
      var repos = Object.prototype.hasOwnProperty.call(names, key) ? names[key] : null;
      if (!Array.isArray(repos)) continue;
      for (var i = 0; i < repos.length; i++) named[repos[i]] = Math.max(named[repos[i]] || 0, found[key]);
    }
    return named;
  }

  return { WholeIndex: WholeIndex, namedIn: namedIn };
});
