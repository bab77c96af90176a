/* lunr's scores straight from the split postings: what lunr.Index.query
 * returns on an index of just the query's terms (search-data.js), computed
 * without building that index. lunr would make an object for every posting
 * (field refs, match data, vectors): on a large site a paste's terms have
 * tens of thousands of postings, and that was most of a query's time.
 *
 * The same arithmetic in the same order, so the scores are lunr's to the
 * last bit and ties keep lunr's order (the split-equals-whole tests hold
 * this against lunr on the whole index):
 * - the query vector: each clause's boost added to its term's, and its
 *   magnitude summed in the order of the terms' `_index`;
 * - a field's score for a record: the products boost × weight of the terms
 *   it has there, added in the order of `_index`, over the magnitude;
 * - a record's score: its fields' scores, added in the order lunr first met
 *   each (clause by clause, field by field, records in ascending order, as
 *   the build writes the postings);
 * - the results: records in the order first met, sorted by score (a stable
 *   sort, as lunr's), each with lunr's match data (term → field → {}).
 *
 * No DOM: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ErrorSearchScore = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  /* `terms`: term → {index: lunr's _index, fields: per field a flat list
   * [ref, weight, …] with `step` numbers a posting (steps[f])}. */
  function TermScores(fieldNames, records, terms, steps) {
    this.fieldNames = fieldNames;
    this.records = records;
    this.terms = terms;
    this.steps = steps;
  }

  /* lunr.Index's query(fn): `fn(query)` calls query.term(t, {boost}); the
   * results past `limit` are left out (lunr returns them all), but for the
   * records holding one of `kept` (terms) in their code field, and those
   * `keep(ref)` keeps. */
  TermScores.prototype.query = function (fn, limit, kept, keep) {
    var boosts = Object.create(null), order = [], self = this;
    fn({ term: function (term, options) {
      if (!self.terms[term]) return;  // not in the index: lunr expands it to nothing
      var boost = options && options.boost !== undefined ? options.boost : 1;
      if (term in boosts) boosts[term] = boosts[term] + boost;
      else { boosts[term] = boost; order.push(term); }
    } });
    var byIndex = order.slice().sort(function (a, b) { return self.terms[a].index - self.terms[b].index; });
    var squares = 0;
    byIndex.forEach(function (term) { squares += boosts[term] * boosts[term]; });
    var magnitude = Math.sqrt(squares);
    var dots = this.dots(byIndex, boosts);
    var found = this.firstMet(order, dots, magnitude);
    found.sort(function (a, b) { return b.score - a.score; });
    var results = limit === undefined ? found : found.slice(0, limit).concat(this.holding(found.slice(limit), kept, keep));
    this.matchData(order, results);
    return results;
  };

  /* Of `results`, those holding one of `terms` in their code field, or that `keep(ref)` keeps. */
  TermScores.prototype.holding = function (results, terms, keep) {
    var code = this.fieldNames.indexOf("code"), step = this.steps[code], held = Object.create(null), self = this;
    (terms || []).forEach(function (term) {
      var flat = self.terms[term] ? self.terms[term].fields[code] : [];
      for (var i = 0; i < flat.length; i += step) held[flat[i]] = true;
    });
    return results.filter(function (r) { return held[r.ref] || (keep && keep(r.ref)); });
  };

  /* Per field, record → the dot product of the query vector and the
   * record's field vector, added in the order of the terms' `_index`. */
  TermScores.prototype.dots = function (byIndex, boosts) {
    var fields = this.fieldNames.length, records = this.records, dots = [];
    for (var f = 0; f < fields; f++) dots.push(new Float64Array(records));
    for (var t = 0; t < byIndex.length; t++) {
      var entry = this.terms[byIndex[t]], boost = boosts[byIndex[t]];
      for (f = 0; f < fields; f++) {
        var flat = entry.fields[f], step = this.steps[f], dot = dots[f];
        for (var i = 0; i < flat.length; i += step) dot[flat[i]] += boost * flat[i + 1];
      }
    }
    return dots;
  };

  /* The records in the order lunr first meets them, each with its score:
   * its fields' scores added in the order lunr first met each. */
  TermScores.prototype.firstMet = function (order, dots, magnitude) {
    var fields = this.fieldNames.length, records = this.records, met = new Uint8Array(records * fields);
    var score = new Float64Array(records), seen = new Uint8Array(records), found = [];
    for (var t = 0; t < order.length; t++) {
      var entry = this.terms[order[t]];
      for (var f = 0; f < fields; f++) {
        var flat = entry.fields[f], step = this.steps[f], dot = dots[f], base = f * records;
        for (var i = 0; i < flat.length; i += step) {
          var ref = flat[i];
          if (met[base + ref]) continue;
          met[base + ref] = 1;
          var value = dot[ref] / magnitude || 0;
          if (seen[ref]) score[ref] += value;
          else { seen[ref] = 1; score[ref] = value; found.push(ref); }
        }
      }
    }
    return found.map(function (ref) { return { ref: String(ref), score: score[ref], matchData: null }; });
  };

  /* lunr's match data of each result: its first field's terms in clause
   * order, then each later field's terms it lacks. */
  TermScores.prototype.matchData = function (order, results) {
    var fields = this.fieldNames.length, names = this.fieldNames, wanted = Object.create(null);
    results.forEach(function (r) { wanted[r.ref] = { fields: [], terms: [] }; });
    for (var t = 0; t < order.length; t++) {
      var entry = this.terms[order[t]];
      for (var f = 0; f < fields; f++) {
        var flat = entry.fields[f], step = this.steps[f];
        for (var i = 0; i < flat.length; i += step) {
          var of = wanted[flat[i]];
          if (!of) continue;
          var at = of.fields.indexOf(f);
          if (at < 0) { at = of.fields.length; of.fields.push(f); of.terms.push([]); }
          of.terms[at].push(order[t]);
        }
      }
    }
    results.forEach(function (r) {
      var of = wanted[r.ref], metadata = Object.create(null);
      of.fields.forEach(function (f, n) {
        of.terms[n].forEach(function (term) {
          if (!metadata[term]) metadata[term] = Object.create(null);
          metadata[term][names[f]] = Object.create(null);
        });
      });
      r.matchData = { metadata: metadata };
    });
  };

  return { TermScores: TermScores };
});
