/* Search core: the engine. It reads a paste into a query (search-paste.js),
 * asks lunr for candidates, ranks them (search-rank.js, with the patterns
 * of search-match.js and what the paste holds of each, search-evidence.js)
 * and judges the first (search-judge.js). The tokenizer is search-tokens.js.
 *
 * No DOM here, so the same files run in the browser (search-ui.js drives
 * them) and under Node in the tests.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./vendor/lunr-2.3.9/lunr.min.js"), require("./search-tokens.js"),
                             require("./search-paste.js"), require("./search-match.js"), require("./search-rank.js"),
                             require("./search-judge.js"), require("./search-context.js"), require("./search-whole.js"));
  } else {
    root.ErrorSearch = factory(root.lunr, root.ErrorSearchTokens, root.ErrorSearchPaste, root.ErrorSearchMatch,
                               root.ErrorSearchRank, root.ErrorSearchJudge, root.ErrorSearchContext,
                               root.ErrorSearchWhole);
  }
})(typeof self !== "undefined" ? self : this, function (lunr, tokens, paste, match, ranking, judging, pasteContext,
                                                       whole) {
  "use strict";

  var tokenize = tokens.tokenize, stem = tokens.stem, unique = tokens.unique, toSet = tokens.toSet;
  var DIGITS = tokens.DIGITS;

  // ---- The query ------------------------------------------------------------
  var TYPED_QUERY_TOKENS = 6;   // at most this many words: typed, so typos are likely
  var MAX_QUERY_TOKENS = 48;    // a 10 KB paste stays fast
  var CANDIDATES = 300;         // re-ranked with coverage, patterns and names
  var CONTEXT_BOOST = 0.4;
  var FUZZY_BOOST = 0.3;
  var PREFIX_BOOST = 0.2;
  var FIRST_SCREEN = 8;         // results whose cards a search waits for (the panel shows as many)
  var PREFIX_TERMS = 12;        // a trailing prefix stands for the first this many terms it starts
  var VOCABULARY_AHEAD = 12;    // vocabulary files asked for ahead, in case a typed word is a typo (two a word)
  var CLASS_NAME = /\b[A-Za-z][A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*\b/g;  // CamelCase: DTypeMismatchBinaryOp

  function ErrorSearch(serializedIndex, docs, names, rules) {
    this.data = new whole.WholeIndex(serializedIndex, docs, rules);
    this.names = names || {};
  }

  ErrorSearch.prototype.search = function (text, limit) {
    return find(this.data, this.names, text, limit);
  };

  ErrorSearch.prototype.namedRepos = function (text) {
    return namedRepos(this.names, this.data.rules, text);
  };

  /* Words in a large share of the records ("error", "invalid") cost lunr a
   * score for every one of those records and tell almost nothing apart: their
   * idf is near zero. They are left out of the query, as stop words are, and
   * out of what a typo or a prefix expands to. The build decides which
   * (meta.json's commonAbove): it stores their postings apart. */
  function isCommon(data, term) {
    return data.df(term) > data.rules.commonAbove;
  }

  /* What a typo or a prefix expands to: the uncommon ones of `terms`, sorted. */
  function expansions(data, terms) {
    return terms.filter(function (term) { return !isCommon(data, term); }).sort();
  }

  /* Query text → {core, context, typed, message, frames, lines, framesAlone,
   * innermost, classes}: the tokens the ranking will use. The words of the
   * message lines come first, so a long paste keeps them; `message` lists
   * them, `classes` the CamelCase names in the text (an error class named in
   * a title). `framesAlone`: frames without the error's message, none of its
   * lines or only a cause's (a paste cut before its error); `innermost` their
   * innermost frame's file. */
  function analyse(text) {
    return analyseRead(paste.read(text));
  }

  /* The same, of text already read (find reads a paste once: reading it again
   * would replace paste.read's one remembered paste, and the next round would
   * read a long log anew). */
  function analyseRead(text) {
    var noise = paste.stripNoise(text);
    var lines = paste.messageLines(text);
    var message = lines.length ? unique(tokenize(paste.stripNoise(lines.join("\n")).core)) : [];
    var core = unique(message.concat(tokenize(noise.core))).slice(0, MAX_QUERY_TOKENS);
    var coreSet = toSet(core);
    var context = unique(tokenize(noise.context).concat(hexCodes(text))).filter(function (t) { return !coreSet[t]; })
      .slice(0, MAX_QUERY_TOKENS);
    var classes = (String(noise.core).slice(0, 20000).match(CLASS_NAME) || [])
      .map(function (c) { return c.toLowerCase(); });
    var framesAlone = noise.frames > 0 && (!lines.length || paste.cutBeforeError(text));
    return { core: core, context: context, typed: core.length + context.length <= TYPED_QUERY_TOKENS,
             message: message.filter(function (t) { return coreSet[t]; }), frames: noise.frames, lines: lines,
             framesAlone: framesAlone, innermost: framesAlone ? pasteContext.innermostFile(text) : "",
             classes: classes.filter(function (t) { return coreSet[t]; }) };
  }

  function noResults() {
    var none = [];
    none.match = "none";
    return none;
  }

  /* Windows error codes (HRESULTs) are sought as the hex code records hold
   * (`0x80070005`), printed in hex or in decimal (`-2147024891`,
   * `2147942405`: a 32-bit code with its high bit set, which a paste seldom
   * holds otherwise). The noise rules drop hex numbers as addresses: these go
   * in as context, never weighing on what the paste's words cover. */
  var HEX_CODE = /(?:^|[^\w.])(?:0x([0-9a-f]{8})|(-?\d{10}))(?![\w.])/gi;
  function hexCodes(text) {
    var found = [], m;
    HEX_CODE.lastIndex = 0;
    while ((m = HEX_CODE.exec(String(text).slice(0, 20000))) && found.length < 4) {
      var n = m[1] ? parseInt(m[1], 16) : Number(m[2]);
      if ((n < 0 && n >= -0x80000000) || (n >= 0x80000000 && n <= 0xffffffff)) {
        found.push("0x" + ("0000000" + (n >>> 0).toString(16)).slice(-8));
      }
    }
    return found;
  }

  /* Search: [{ref, doc, score, terms}] best first, never throws on text;
   * `data` must hold every file the query needs (lookup says which). */
  function find(data, names, text, limit) {
    var step = lookup(data, names, text, limit);
    if (step.wanted) throw new Error("search: the data lacks " + step.wanted.join(", "));
    return step.results;
  }

  /* One try of the search on what `data` holds: {results} when it holds
   * every file the query needs, else {wanted: [the files it lacks]}, to be
   * fetched (all at once) before the next try. */
  function lookup(data, names, text, limit) {
    limit = limit || 20;
    data.restart();
    text = paste.read(text);
    // Every word of the paste is weighed, as the whole index weighs it: the
    // split index fetches the term file of each (one request a file, all in
    // one round), and the paste's names (the same message vendored in a fork
    // or a wrapper is told apart by them alone).
    var q = analyseRead(text), found = pasteContext.pasteNames(text, data.rules.names);
    if (!q.core.length && !q.context.length) return { results: noResults() };
    var known = function (token) { return data.df(stem(token)) !== undefined; };
    var rare = function (token) { return !isCommon(data, stem(token)); };
    q.core.concat(q.context).forEach(function (token) { data.df(stem(token)); });
    q.named = data.named(found, names);
    q.names = found;
    q.raised = pasteContext.raisedIn(text, data.rules.facets && data.rules.facets.extensions);
    q.owners = data.named(pasteContext.errorOwners(text, data.rules.names), names);
    // A query of common words alone needs their postings: asked for with the words.
    var words = q.core.concat(q.context).map(stem);
    if (words.every(function (t) { return data.df(t) > data.rules.commonAbove; })) words.forEach(data.wants, data);
    var lastToken = q.core[q.core.length - 1];
    var prefix = q.typed && lastToken && lastToken.length >= 3 && /^[\p{L}\p{N}]+$/u.test(lastToken);
    var prefixed = prefix ? data.prefixed(lastToken, PREFIX_TERMS) : [];
    // Vocabulary files, in case a word is a typo, asked for with the term
    // files: a typo then costs no round of its own (past the first few, it does).
    if (q.typed) q.core.forEach(function (token) { if (mayBeTypo(token)) data.mayNeedNeighbours(stem(token), VOCABULARY_AHEAD); });
    // A message of common words alone (`error: invalid argument: -hf`) is
    // still the message: its least common word is weighed, with its postings,
    // which bring the patterns of the records that have it (one file: the
    // others' would bring the same records, at a cost). So is one with a
    // single rare word, most often its value (`hf`, which another record has).
    var messageWords = q.message.filter(known), leastCommon = null;
    var commonWords = messageWords.filter(function (t) { return !rare(t); });
    if (commonWords.length >= 2 && messageWords.length - commonWords.length <= 1) {
      leastCommon = commonWords.reduce(function (a, b) { return data.df(stem(b)) < data.df(stem(a)) ? b : a; });
      data.wants(stem(leastCommon));
    }
    if (data.pending()) return { wanted: data.wanted() };
    var kept = function (token) { return rare(token) || token === leastCommon; };
    var filtered = { core: q.core.filter(kept), context: q.context.filter(rare) };
    if (filtered.core.length || filtered.context.length) { q.core = filtered.core; q.context = filtered.context; }
    // Typos: any word of a short typed query the index does not know. A paste
    // is machine output: a word it has that the index lacks is a value, and an
    // older wording is found near by its pattern (search-match.js).
    var fuzzy = Object.create(null);
    if (q.typed) q.core.forEach(function (token) { if (mayBeTypo(token) && !known(token)) fuzzy[token] = true; });
    q.fuzzy = fuzzy;
    // A word the index does not have matches nothing as it is: lunr is not
    // asked for it (each term costs lunr a walk of its vocabulary).
    var core = q.core.filter(known).map(stem), context = q.context.filter(known).map(stem);
    var near = Object.keys(fuzzy).map(function (token) {
      var found = data.neighbours(stem(token));
      return found && expansions(data, found.slice().sort());
    });
    if (near.some(function (n) { return !n; })) return { wanted: data.wanted() };  // a vocabulary file is on its way
    prefixed = expansions(data, prefixed);
    if (data.pending()) return { wanted: data.wanted() };
    if (!prefixed.length && !core.length && !context.length && !near.some(function (n) { return n.length; })) {
      return { results: noResults() };  // lunr would return every record for an empty query
    }
    // Terms go in stemmed (the stems are cached), so lunr skips its own
    // stemmer, the same Porter stemmer, on each of them. Typos and the prefix
    // go in as the terms they expand to.
    var wanted = unique(core.concat(context, prefixed, [].concat.apply([], near)));
    var index = data.index(wanted);
    if (data.pending()) return { wanted: data.wanted() };
    // A record whose error code the query holds is a candidate however low
    // lunr scores it: a code outranks every pattern (search-rank.js).
    var codes = core.concat(context).filter(function (t) { return ranking.CODE_SHAPED.test(t); });
    // So is, for a paste of frames without the error's message, a record of
    // a library the paste names strongly: frames name it, seldom its words.
    var named = q.named;
    var keep = q.framesAlone && named.any ? function (ref) { return named.of(Number(ref)) >= 2; } : null;
    var results = index.query(function (query) {
      var term = function (t, boost) { query.term(t, { boost: boost, usePipeline: false }); };
      core.forEach(function (t) { term(t, 1); });
      near.forEach(function (terms) { terms.forEach(function (t) { term(t, FUZZY_BOOST); }); });
      context.forEach(function (t) { term(t, CONTEXT_BOOST); });
      prefixed.forEach(function (t) { term(t, PREFIX_BOOST); });
    }, CANDIDATES, codes, keep);  // the split index leaves out the rest; lunr's own index ignores them
    results = results.filter(function (r, i) { return i < CANDIDATES || holdsCode(r, codes) || (keep && keep(r.ref)); });
    var ranked = ranking.rank(data, text, q, results).slice(0, limit);
    ranked.match = judging.judge(data, text, q, ranked);
    // The first screen's cards are waited for; the others are taken when
    // they came with the postings, and fetched after (SplitSearch.cards).
    ranked.forEach(function (r, i) { r.doc = i < FIRST_SCREEN ? data.doc(r.ref) : data.card(r.ref); });
    return data.pending() ? { wanted: data.wanted() } : { results: ranked };
  }

  function holdsCode(result, codes) {
    var metadata = result.matchData.metadata;
    return codes.some(function (t) { return metadata[t] && metadata[t].code; });
  }

  /* The buckets the terms that start with `prefix` can be in: from the one
   * its sorted place falls in, while the next starts with it or before. */
  function prefixRun(bounds, prefix) {
    var run = [];
    for (var n = Math.max(0, bucketOf(bounds, prefix)); n < bounds.length; n++) {
      if (run.length && bounds[n].slice(0, prefix.length) > prefix) break;
      run.push(n);
    }
    return run;
  }

  /* The bucket whose run holds `term` (meta.json's buckets: where each
   * starts); -1 before the first. */
  function bucketOf(bounds, term) {
    var low = 0, high = bounds.length - 1;
    if (high < 0 || term < bounds[0]) return -1;
    while (low < high) {
      var mid = (low + high + 1) >> 1;
      if (bounds[mid] <= term) low = mid; else high = mid - 1;
    }
    return low;
  }

  /* Whether a word of the query would be read as a typo were the index without it. */
  function mayBeTypo(token) {
    return token.length >= 4 && !DIGITS.test(token);
  }

  /* repo → how strongly the paste's context names it (0 none, 1 weak, 2 strong). */
  function namedRepos(names, rules, text) {
    return whole.namedIn(names, pasteContext.pasteNames(text, rules.names));
  }


  ErrorSearch.find = find;
  ErrorSearch.lookup = lookup;
  ErrorSearch.FIRST_SCREEN = FIRST_SCREEN;
  ErrorSearch.bucketOf = bucketOf;
  ErrorSearch.prefixRun = prefixRun;
  ErrorSearch.WholeIndex = whole.WholeIndex;
  ErrorSearch.tokenize = tokenize;
  ErrorSearch.stripNoise = paste.stripNoise;
  ErrorSearch.analyse = analyse;
  ErrorSearch.read = paste.read;
  ErrorSearch.compilePattern = match.compilePattern;
  ErrorSearch.paste = paste;
  ErrorSearch.context = pasteContext;
  ErrorSearch.match = match;
  return ErrorSearch;
});
