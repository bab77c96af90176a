/* The terms a query did not type whole: the run of the sorted vocabulary a
 * prefix starts (from the term buckets), and the terms within one edit of a
 * typo (from the vocabulary files, v/N.json, keyed as
 * errorsite/search/buckets.py keys them). Each asks the split index
 * (search-data.js) for the files it reads.
 *
 * No DOM here: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./vendor/lunr-2.3.9/lunr.min.js"), require("./search-core.js"),
                             require("./search-tokens.js"));
  } else root.ErrorSearchVocabulary = factory(root.lunr, root.ErrorSearch, root.ErrorSearchTokens);
})(typeof self !== "undefined" ? self : this, function (lunr, ErrorSearch, tokens) {
  "use strict";

  /* The first `limit` terms starting with `prefix`, in sorted order: a run
   * of the sorted vocabulary, read bucket by bucket, PREFIX_AHEAD buckets at
   * a time; short while one is on its way (the search then waits for it). */
  var PREFIX_AHEAD = 4;
  function prefixed(index, prefix, limit) {
    var run = ErrorSearch.prefixRun(index.meta.buckets, prefix), found = [];
    for (var i = 0; i < run.length && found.length < limit; i++) {
      var bucket = index.bucket(run[i]);
      if (!bucket) {
        for (var ahead = i + 1; ahead < Math.min(run.length, i + PREFIX_AHEAD); ahead++) index.bucket(run[ahead]);
        return found;
      }
      for (var t = 0; t < bucket.length; t++) {
        if (bucket[t][0].slice(0, prefix.length) === prefix) found.push(bucket[t][0]);
      }
    }
    return found.sort().slice(0, limit);
  }

  function vocabularyKeys(term) {
    return term.length <= 4 ? ["="] : ["<" + term.slice(0, 2), ">" + term.slice(-2)];
  }

  /* The terms within one edit of `term`, from its vocabulary files; null while one is missing. */
  function neighbours(index, term) {
    var fuzzy = lunr.TokenSet.fromFuzzyString(term, 1), near = [], waiting = false;
    vocabularyKeys(term).forEach(function (key) {
      var n = fnv1a(key) % index.meta.vocabularyFiles, words = index.vocabulary[n];
      if (!words) {
        var file = index.file("v/" + n + ".json");
        if (!file) { waiting = true; return; }
        words = index.vocabulary[n] = lunr.TokenSet.fromArray(file);  // sorted by the build
      }
      near = near.concat(words.intersect(fuzzy).toArray());
    });
    return waiting ? null : tokens.unique(near);
  }

  /* Asks, with the word's own bucket, for the vocabulary files its
   * neighbours would be in, should the word turn out to be a typo: a typo
   * then costs no round of its own. Words the index has need none of it. */
  function mayNeedNeighbours(index, term, room) {
    if (term in index.entries || index.isCommon(term)) return;
    var asking = index.wanted(), asked = asking.filter(function (path) { return path[0] === "v"; }).length;
    vocabularyKeys(term).forEach(function (key) {
      var n = fnv1a(key) % index.meta.vocabularyFiles, path = "v/" + n + ".json";
      if (index.vocabulary[n] || path in index.files || asking.indexOf(path) >= 0 || asked >= room) return;
      index.file(path);
      asked++;
    });
  }

  function fnv1a(key) {
    var value = 0x811c9dc5;
    for (var i = 0; i < key.length; i++) value = Math.imul(value ^ key.charCodeAt(i), 0x01000193) >>> 0;
    return value;
  }

  return { prefixed: prefixed, neighbours: neighbours, mayNeedNeighbours: mayNeedNeighbours, fnv1a: fnv1a };
});
