/* The split search data (errorsite/search/chunks.py says what each file
 * holds): a view of the index that answers from the files fetched so far and
 * lists what else a query needs. ErrorSearch.lookup tries the query on it: it
 * answers, or names the files it lacks, which are fetched, all at once, before
 * the next try. The last try has everything it asked for, so its results are
 * the ones the whole index gives.
 *
 * No DOM: `fetchJson(path)` → Promise of the parsed file, so the same code
 * runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./vendor/lunr-2.3.9/lunr.min.js"), require("./search-core.js"),
                             require("./search-match.js"), require("./search-tokens.js"), require("./search-score.js"),
                             require("./search-vocabulary.js"));
  } else {
    root.ErrorSearchData = factory(root.lunr, root.ErrorSearch, root.ErrorSearchMatch, root.ErrorSearchTokens,
                                   root.ErrorSearchScore, root.ErrorSearchVocabulary);
  }
})(typeof self !== "undefined" ? self : this, function (lunr, ErrorSearch, match, tokens, score, vocabulary) {
  "use strict";

  var MAX_ROUNDS = 8;

  var MESSAGE_STEP = 4;  // a message posting: ref, weight, the record's distinct message words, which variants

  /* A term bucket's entry: [term, _index, records, variants, message postings,
   * postings of each other field] (a common term stops after `records`; its
   * postings are in c/<_index>.json, and meta.json lists it). A bucket file
   * is [entries, names, cards, texts]: the result cards, [ref, …card], of
   * each entry's best records (by its own weights in the message, code and
   * class fields), so that the results a query's words find most often show
   * without another request (else from d/), and [ref, text…]: the pattern
   * texts of the rest of its message records, which the ranking matches. */
  function SplitIndex(meta, files) {  // kept for the page's life: what it read stays read
    this.meta = meta;
    this.rules = meta;             // the build's rules: commonAbove, names
    this.fields = meta.fields;
    this.records = meta.records;
    this.files = files;            // path → parsed file, shared across queries
    this.missing = Object.create(null);
    this.entries = Object.create(null);   // term → its bucket entry
    this.postings = Object.create(null);  // term → [variants, message, other fields…, texts]
    this.names = Object.create(null);     // name → runs of records [first, end…], from the buckets read
    this.texts = [];               // record → its pattern's text, from the cards and message postings read
    this.cards = [];               // record → its result card, from the buckets read
    this.matchers = [];
    this.vocabulary = [];          // vocabulary file → its lunr.TokenSet
    this.cache = { key: null, index: null };
  }

  SplitIndex.prototype.pending = function () { return Object.keys(this.missing).length > 0; };
  SplitIndex.prototype.wanted = function () { return Object.keys(this.missing); };
  /* A new try of a search or of its cards: what the last one lacked is forgotten. */
  SplitIndex.prototype.restart = function () { this.missing = Object.create(null); };

  SplitIndex.prototype.file = function (path) {
    if (path in this.files) return this.files[path];
    this.missing[path] = true;
    return undefined;
  };

  /* The bucket that holds `term`: the last whose first term is not after it. */
  SplitIndex.prototype.bucketOf = function (term) { return ErrorSearch.bucketOf(this.meta.buckets, term); };

  SplitIndex.prototype.bucket = function (n) {
    var file = this.file("t/" + n + ".json");
    if (!file) return file;
    if (!file.read) {
      var bucket = file[0], names = file[1], cards = file[2], texts = file[3];
      for (var i = 0; i < bucket.length; i++) this.entries[bucket[i][0]] = bucket[i];
      for (var name in names) this.names[name] = names[name];
      for (var c = 0; c < cards.length; c++) {
        var card = cards[c].slice(1);
        this.cards[cards[c][0]] = card;
        this.texts[cards[c][0]] = card[5] || card[0];
      }
      for (var t = 0; t < texts.length; t += 2) this.texts[texts[t]] = texts[t + 1];
      file.read = true;
    }
    return file[0];
  };

  /* A term's bucket entry; null when the index lacks it, undefined while its bucket is missing. */
  SplitIndex.prototype.entry = function (term) {
    if (term in this.entries) return this.entries[term];
    var common = this.meta.common[term];
    if (common && Object.prototype.hasOwnProperty.call(this.meta.common, term)) {
      return (this.entries[term] = [term, common[0], common[1]]);
    }
    var n = this.bucketOf(term);
    if (n < 0) return null;
    return this.bucket(n) ? null : undefined;
  };

  /* Whether a term is common, known from meta.json without fetching. */
  SplitIndex.prototype.isCommon = function (term) {
    return Object.prototype.hasOwnProperty.call(this.meta.common, term);
  };

  SplitIndex.prototype.df = function (term) {
    var entry = this.entry(term);
    return entry ? entry[2] : undefined;
  };

  SplitIndex.prototype.posting = function (term) {
    if (term in this.postings) return this.postings[term];
    var entry = this.entry(term);
    if (!entry) return undefined;
    var posting = entry.length > 3 ? entry.slice(3) : this.commonPostings(entry[1]);
    if (posting) this.postings[term] = posting;
    return posting;
  };

  /* A common term's postings, from c/<_index>.json: there each message
   * posting also has its pattern text's place in the list of texts after
   * the postings, and the file ends with the cards of the term's best
   * records (not of all: these files are the largest). */
  SplitIndex.prototype.commonPostings = function (index) {
    var file = this.file("c/" + index + ".json");
    if (!file) return file;
    var flat = file[1], texts = file[file.length - 2], cards = file[file.length - 1], message = [];
    for (var c = 0; c < cards.length; c++) {
      if (!this.cards[cards[c][0]]) this.cards[cards[c][0]] = cards[c].slice(1);
    }
    for (var i = 0; i < flat.length; i += MESSAGE_STEP + 1) {
      message.push(flat[i], flat[i + 1], flat[i + 2], flat[i + 3]);
      if (this.texts[flat[i]] === undefined) this.texts[flat[i]] = texts[flat[i + 4]];
    }
    return [file[0], message].concat(file.slice(2, file.length - 2));
  };

  /* Asks for a term's postings now, ahead of the query that will read them. */
  SplitIndex.prototype.wants = function (term) { this.posting(term); };

  /* The terms a prefix or a typo stands for (search-vocabulary.js). */
  SplitIndex.prototype.prefixed = function (prefix, limit) { return vocabulary.prefixed(this, prefix, limit); };
  SplitIndex.prototype.neighbours = function (term) { return vocabulary.neighbours(this, term); };
  SplitIndex.prototype.mayNeedNeighbours = function (term, room) { vocabulary.mayNeedNeighbours(this, term, room); };

  /* What lunr would answer on an index of just `terms` (search-score.js). */
  SplitIndex.prototype.index = function (terms) {
    var key = terms.slice().sort().join(" ");
    if (this.cache.key === key) return this.cache.index;
    var self = this, found = Object.create(null);
    terms.forEach(function (term) { self.posting(term); });
    if (this.pending()) return null;
    terms.forEach(function (term) {
      found[term] = { index: self.entries[term][1], fields: self.fields.map(function (_, f) { return self.postings[term][f + 1]; }) };
    });
    var steps = this.fields.map(function (_, f) { return f === 0 ? MESSAGE_STEP : 2; });
    var index = new score.TermScores(this.fields, this.records, found, steps);
    this.cache = { key: key, index: index };
    return index;
  };

  /* A record's result card if it came with the postings read, else undefined. */
  SplitIndex.prototype.card = function (ref) { return this.cards[ref]; };

  /* A record's result card: beside the postings that found it, else from d/. */
  SplitIndex.prototype.doc = function (ref) {
    if (this.cards[ref]) return this.cards[ref];
    var file = this.file("d/" + Math.floor(ref / this.meta.docsPerFile) + ".json");
    return file ? file[ref % this.meta.docsPerFile] : undefined;
  };

  /* The paste's names (name → strength) → {any, of(ref)}: how strongly the
   * paste names each record's repository. A name is in the bucket its sorted
   * place falls in; undefined while one of those is missing. */
  SplitIndex.prototype.named = function (found) {
    var runs = [], self = this, waiting = false;
    Object.keys(found).forEach(function (key) {
      if (!(key in self.names) && !self.bucket(Math.max(0, self.bucketOf(key)))) waiting = true;
      if (key in self.names) runs.push([self.names[key], found[key]]);
    });
    if (waiting) return undefined;
    return { any: runs.length > 0, of: function (ref) {
      var strength = 0;
      runs.forEach(function (run) {
        for (var i = 0; i < run[0].length; i += 2) {
          if (run[0][i] <= ref && ref < run[0][i + 1]) strength = Math.max(strength, run[1]);
        }
      });
      return strength;
    } };
  };

  /* A record's pattern matcher, from its text beside its message postings
   * (the ranking asks only for records the query's words are in the message
   * of), else from its result card. */
  SplitIndex.prototype.matcher = function (ref) {
    if (this.matchers[ref] === undefined) {
      var text = this.texts[ref];
      if (text === undefined) {
        var doc = this.doc(ref);
        if (!doc) return null;
        text = doc[5] || doc[0];
      }
      this.matchers[ref] = match.compilePattern(text);
    }
    return this.matchers[ref];
  };

  /* From the message postings of the query's words: each record's count of
   * distinct message words, and which of a term's words it has. */
  SplitIndex.prototype.coverage = function (queryTokens) {
    var covered = Object.create(null), words = Object.create(null);
    for (var token in queryTokens) {
      var term = tokens.stem(token), entry = this.entries[term], posting = entry && this.postings[term];
      if (!posting) continue;
      var variant = posting[0].indexOf(token), flat = posting[1];
      if (variant < 0) continue;
      for (var i = 0; i < flat.length; i += MESSAGE_STEP) {
        var has = flat[i + 3], ref = flat[i];
        if (has === variant || (Array.isArray(has) && has.indexOf(variant) >= 0)) {
          covered[ref] = (covered[ref] || 0) + 1;
          words[ref] = flat[i + 2];
        }
      }
    }
    return function (ref) { return ref in covered ? [covered[ref], words[ref]] : [0, 0]; };
  };

  /* The search over the split files under `base`; search() returns a Promise
   * of what ErrorSearch.search returns. `fetchJson(url, revalidate)` → Promise
   * of JSON; `revalidate` asks for the server's copy, never a cached one unchecked. */
  function SplitSearch(base, fetchJson) {
    this.base = base;
    this.fetchJson = fetchJson;
    this.files = Object.create(null);
    this.fetches = Object.create(null);
    this.ready = null;
  }

  /* meta.json: fetched on focus, before the first word. */
  SplitSearch.prototype.start = function () {
    var self = this;
    if (!this.ready) {
      // Revalidated on every visit: it names the build whose files the rest are (`?v=`).
      this.ready = this.fetchJson(this.base + "meta.json", true).then(function (meta) {
        self.meta = meta;
        self.version = "?v=" + encodeURIComponent(self.meta.version || "");
        self.data = new SplitIndex(self.meta, self.files);
        return self;
      });
      this.ready.catch(function () { self.ready = null; });
    }
    return this.ready;
  };

  SplitSearch.prototype.fetchFile = function (path) {
    var self = this;
    if (!this.fetches[path]) {
      this.fetches[path] = this.fetchJson(this.base + path + this.version).then(function (data) {
        self.files[path] = data;
      }, function (error) { delete self.fetches[path]; throw error; });
    }
    return this.fetches[path];
  };

  SplitSearch.prototype.search = function (text, limit) {
    var self = this;
    return this.start().then(function () {
      var rounds = 0;
      var data = self.data;
      function attempt() {  // fetch what the query needs, then find
        var step = ErrorSearch.lookup(data, null, text, limit);
        if (!step.wanted) return step.results;
        if (++rounds > MAX_ROUNDS) throw new Error("search: the data did not settle after " + MAX_ROUNDS + " rounds");
        return Promise.all(step.wanted.map(function (path) { return self.fetchFile(path); })).then(attempt);
      }
      return attempt();
    });
  };

  /* The cards of results past the first screen that search() left without
   * one (they were found by no word of their message): a Promise, resolved
   * once every result has its `doc`. */
  SplitSearch.prototype.cards = function (results) {
    var self = this, data = this.data;
    function attempt() {
      data.restart();
      results.forEach(function (r) { if (!r.doc) r.doc = data.doc(r.ref); });
      if (!data.pending()) return Promise.resolve(results);
      return Promise.all(data.wanted().map(function (path) { return self.fetchFile(path); })).then(attempt);
    }
    return attempt();
  };

  return { SplitIndex: SplitIndex, SplitSearch: SplitSearch, fnv1a: vocabulary.fnv1a };
});
