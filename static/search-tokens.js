/* The search tokenizer, and the stemmer lunr runs on query terms. The
 * tokenizer mirrors errorsite/tokens.py rule for rule; a test compares both on
 * every real record and query (and the stemmer with the index's).
 *
 * No DOM here: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("./vendor/lunr-2.3.9/lunr.min.js"));
  else root.ErrorSearchTokens = factory(root.lunr);
})(typeof self !== "undefined" ? self : this, function (lunr) {
  "use strict";

  var CONNECTORS = "_.:=/-";
  var CHUNK = /(?:[\p{L}\p{N}]|[_.:=\/\-])+/gu;
  var PART = /[\p{L}\p{N}]+/gu;
  var PART_AT = /[\p{L}\p{N}]+/gu;  // the same, for marks(): its lastIndex is its own
  var HAS_LETTER = /\p{L}/u;
  var DIGITS = /^\p{N}+$/u;
  var MAX_TOKEN = 64;

  function isStopWord(word) {
    return lunr.stopWordFilter(word) === undefined;
  }

  /* Whether a typed word is a stop word but for one slip of the keys (a
   * letter left out, added, changed, or two swapped: `laest`, `shoudl`), which
   * the index, having no stop words, cannot correct. */
  var LETTERS = "abcdefghijklmnopqrstuvwxyz";
  function nearStopWord(word) {
    if (isStopWord(word) || !/^[a-z]{5,8}$/.test(word)) return false;  // `jest` is no slip of `just`
    for (var i = 0; i <= word.length; i++) {
      var head = word.slice(0, i), tail = word.slice(i);
      if (tail && isStopWord(head + tail.slice(1))) return true;
      if (tail.length > 1 && isStopWord(head + tail[1] + tail[0] + tail.slice(2))) return true;
      for (var c = 0; c < LETTERS.length; c++) {
        if (isStopWord(head + LETTERS[c] + tail) || (tail && isStopWord(head + LETTERS[c] + tail.slice(1)))) return true;
      }
    }
    return false;
  }

  function trimConnectors(text) {
    var start = 0, end = text.length;
    while (start < end && CONNECTORS.indexOf(text[start]) >= 0) start++;
    while (end > start && CONNECTORS.indexOf(text[end - 1]) >= 0) end--;
    return text.slice(start, end);
  }

  /* Length in characters (code points), as Python counts it. */
  function size(text) {
    return /[\ud800-\udfff]/.test(text) ? Array.from(text).length : text.length;
  }

  function keepPart(part) {
    var length = size(part);
    return length > 1 && !DIGITS.test(part) && !isStopWord(part) && length <= MAX_TOKEN;
  }

  function tokenize(text) {
    var tokens = [];
    var chunks = String(text).toLowerCase().match(CHUNK) || [];
    for (var i = 0; i < chunks.length; i++) {
      var parts = chunks[i].match(PART) || [];
      var whole = trimConnectors(chunks[i]);
      if (parts.length > 1 && size(whole) <= MAX_TOKEN && HAS_LETTER.test(whole)) tokens.push(whole);
      for (var j = 0; j < parts.length; j++) if (keepPart(parts[j])) tokens.push(parts[j]);
    }
    return tokens;
  }

  /* The highlighter's half: the stems of what was searched for (`words`:
   * the query's tokens, lunr's terms, or a `?highlight=` list), and where in
   * `text` a word with one of those stems is: [start, end) of each part the
   * tokenizer would keep. The same cut and the same stems as the search. */
  function stemsOf(words) {
    var stems = Object.create(null);
    tokenize(words.join(" ")).forEach(function (token) { stems[stem(token)] = true; });
    return stems;
  }

  function marks(text, stems) {
    var found = [], match;
    text = String(text);
    PART_AT.lastIndex = 0;
    while ((match = PART_AT.exec(text))) {
      var part = match[0].toLowerCase();
      if (keepPart(part) && stems[stem(part)]) found.push([match.index, match.index + match[0].length]);
    }
    return found;
  }

  // Stemming runs a dozen regexes; a query stems each of its words several
  // times (common? known? coverage), and consecutive queries share most words.
  var stems = Object.create(null), stemCount = 0;

  function stem(token) {
    var cached = stems[token];
    if (cached !== undefined) return cached;
    if (++stemCount > 50000) { stems = Object.create(null); stemCount = 1; }
    return (stems[token] = lunr.stemmer(new lunr.Token(token)).toString());
  }

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

  return { tokenize: tokenize, stem: stem, unique: unique, toSet: toSet, DIGITS: DIGITS, stemsOf: stemsOf,
           marks: marks, nearStopWord: nearStopWord, keepPart: keepPart };
});
