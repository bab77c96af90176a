/* The split search data (errorsite/search/chunks.py says what each file
 * holds): a view of the index that answers from the files fetched so far and
 * lists what else a query needs. ErrorSearch.find runs on it; when it returns
 * null, the missing files are fetched, all at once, and it runs again. The
 * last run has everything it asked for, so its results are the ones the whole
 * index gives.
 *
 * No DOM: `fetchJson(path)` → Promise of the parsed file, so the same code
 * runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./vendor/lunr-2.3.9/lunr.min.js"), require("./search-core.js"),
                             require("./search-match.js"), require("./search-tokens.js"));
  } else {
    root.ErrorSearchData = factory(root.lunr, root.ErrorSearch, root.ErrorSearchMatch, root.ErrorSearchTokens);
  }
})(typeof self !== "undefined" ? self : this, function (lunr, ErrorSearch, match, tokens) {
  "use strict";

  var MAX_ROUNDS = 8;

  /* A term bucket's entry: [term, _index, records, variants, message postings,
   * postings of each other field, pattern texts] (a common term stops after
   * `records`; its postings are in c/<_index>.json, and meta.json lists it). */
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
    this.texts = [];               // record → its pattern's text, from the message postings read
    this.matchers = [];
    this.vocabulary = [];          // vocabulary file → its lunr.TokenSet
    this.cache = { key: null, index: null };
  }

  SplitIndex.prototype.pending = function () { return Object.keys(this.missing).length > 0; };

  SplitIndex.prototype.file = function (path) {
    if (path in this.files) return this.files[path];
    this.missing[path] = true;
    return undefined;
  };

  /* The bucket that holds `term`: the last whose first term is not after it. */
  SplitIndex.prototype.bucketOf = function (term) {
    var bounds = this.meta.buckets, low = 0, high = bounds.length - 1;
    if (high < 0 || term < bounds[0]) return -1;
    while (low < high) {
      var mid = (low + high + 1) >> 1;
      if (bounds[mid] <= term) low = mid; else high = mid - 1;
    }
    return low;
  };

  SplitIndex.prototype.bucket = function (n) {
    var file = this.file("t/" + n + ".json");
    if (!file) return file;
    if (!file.read) {
      var bucket = file[0], names = file[1];
      for (var i = 0; i < bucket.length; i++) this.entries[bucket[i][0]] = bucket[i];
      for (var name in names) this.names[name] = names[name];
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

  SplitIndex.prototype.df = function (term) {
    var entry = this.entry(term);
    return entry ? entry[2] : undefined;
  };

  SplitIndex.prototype.posting = function (term) {
    if (term in this.postings) return this.postings[term];
    var entry = this.entry(term);
    if (!entry) return undefined;
    var posting = entry.length > 3 ? entry.slice(3) : this.file("c/" + entry[1] + ".json");
    if (posting) {
      this.postings[term] = posting;
      var flat = posting[1], texts = posting[posting.length - 1];
      for (var i = 0; i < flat.length; i += 5) this.texts[flat[i]] = texts[flat[i + 4]];
    }
    return posting;
  };

  /* Asks for a term's postings now, ahead of the query that will read them. */
  SplitIndex.prototype.wants = function (term) { this.posting(term); };

  SplitIndex.prototype.prefixed = function (prefix) {
    // The terms starting with `prefix` are a run of the sorted vocabulary: its buckets.
    var first = Math.max(0, this.bucketOf(prefix)), bounds = this.meta.buckets, found = [];
    for (var n = first; n < bounds.length && (n === first || bounds[n].slice(0, prefix.length) <= prefix); n++) {
      var bucket = this.bucket(n);
      if (!bucket) continue;
      for (var i = 0; i < bucket.length; i++) {
        if (bucket[i][0].slice(0, prefix.length) === prefix) found.push(bucket[i][0]);
      }
    }
    return found;
  };

  SplitIndex.prototype.neighbours = function (term) {
    var keys = term.length <= 4 ? ["="] : ["<" + term.slice(0, 2), ">" + term.slice(-2)];
    var fuzzy = lunr.TokenSet.fromFuzzyString(term, 1), near = [], self = this;
    keys.forEach(function (key) {
      var n = fnv1a(key) % self.meta.vocabularyFiles, words = self.vocabulary[n];
      if (!words) {
        var file = self.file("v/" + n + ".json");
        if (!file) return;
        words = self.vocabulary[n] = lunr.TokenSet.fromArray(file);  // sorted by the build
      }
      near = near.concat(words.intersect(fuzzy).toArray());
    });
    near = tokens.unique(near);
    near.forEach(function (t) { self.entry(t); });  // their postings come next
    return near;
  };

  /* A lunr index of just `terms`, in lunr's own serialized form. */
  SplitIndex.prototype.index = function (terms) {
    var key = terms.slice().sort().join(" ");
    if (this.cache.key === key) return this.cache.index;
    var self = this, fields = this.fields, inverted = [], vectors = Object.create(null);
    terms.forEach(function (term) { self.posting(term); });
    if (this.pending()) return null;
    terms.slice().sort().forEach(function (term) {
      var entry = self.entries[term], posting = self.postings[term], lunrPosting = { _index: entry[1] };
      fields.forEach(function (field, f) {
        var flat = posting[f + 1], step = f === 0 ? 5 : 2, refs = {};
        for (var i = 0; i < flat.length; i += step) {
          refs[flat[i]] = {};
          var fieldRef = field + "/" + flat[i];
          (vectors[fieldRef] || (vectors[fieldRef] = [])).push([entry[1], flat[i + 1]]);
        }
        lunrPosting[field] = refs;
      });
      inverted.push([term, lunrPosting]);
    });
    var fieldVectors = Object.keys(vectors).map(function (fieldRef) {
      var pairs = vectors[fieldRef].sort(function (a, b) { return a[0] - b[0]; }), flat = [];
      pairs.forEach(function (pair) { flat.push(pair[0], pair[1]); });
      return [fieldRef, flat];
    });
    var index = lunr.Index.load({ version: this.meta.lunr, fields: fields, fieldVectors: fieldVectors,
                                  invertedIndex: inverted, pipeline: ["stemmer"] });
    this.cache = { key: key, index: index };
    return index;
  };

  SplitIndex.prototype.doc = function (ref) {
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
      for (var i = 0; i < flat.length; i += 5) {
        var has = flat[i + 3], ref = flat[i];
        if (has === variant || (Array.isArray(has) && has.indexOf(variant) >= 0)) {
          covered[ref] = (covered[ref] || 0) + 1;
          words[ref] = flat[i + 2];
        }
      }
    }
    return function (ref) { return ref in covered ? [covered[ref], words[ref]] : [0, 0]; };
  };

  function fnv1a(key) {
    var value = 0x811c9dc5;
    for (var i = 0; i < key.length; i++) value = Math.imul(value ^ key.charCodeAt(i), 0x01000193) >>> 0;
    return value;
  }

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
      function attempt() {
        data.missing = Object.create(null);
        var results = ErrorSearch.find(data, null, text, limit);
        if (results) return results;
        if (++rounds > MAX_ROUNDS) throw new Error("search: the data did not settle after " + MAX_ROUNDS + " rounds");
        return Promise.all(Object.keys(data.missing).map(function (path) { return self.fetchFile(path); }))
          .then(attempt);
      }
      return attempt();
    });
  };

  return { SplitIndex: SplitIndex, SplitSearch: SplitSearch, fnv1a: fnv1a };
});
