/* Whether a paste's own message line says a record's message, or another one.
 *
 * A sibling error of the same library shares most of its record's words
 * (`Expecting ',' delimiter: line 4 column 5` beside `Expecting value: line
 * {lineno} column {colno}`), so holding many of them says little. What tells
 * them apart is where the two differ: the record's words and the line's are
 * aligned in order (the longest common subsequence, a placeholder standing
 * for any run of the line's words), and each stretch between two aligned
 * words, or before the first, is read. Where the record has words of its
 * own and the line others in their place, the line says something else
 * there: a substitution. Words the line adds after the record's last
 * aligned word are a cut or reworded tail (help text changes from release to
 * release) and say nothing against it.
 *
 *   ErrorSearchAgree.agreement(pattern, lines, isCommon) → the best line's
 *     {line, aligned, of, substituted: [line's words], empty, head, headOf, requoted}, or null
 *
 * No DOM here: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("./search-tokens.js"));
  else root.ErrorSearchAgree = factory(root.ErrorSearchTokens);
})(typeof self !== "undefined" ? self : this, function (tokens) {
  "use strict";

  var PLACEHOLDER = /\{[^{}\s]{0,40}\}/g;   // as search-match.js
  var MAX_WORDS = 160;                        // words of a pattern or a line aligned: a bounded table

  var URL = /\b[a-z][a-z0-9+.-]{0,15}:\/\/\S*/gi;  // a link says where to read more: it moves between releases
  // A name (`ekino.wordpress_request`, `res.sendFile`, a path) is one word:
  // its parts are no words of the message around it.
  var NAME_OR_PART = /[\p{L}\p{N}][\p{L}\p{N}-]*(?:[._\/\\:][\p{L}\p{N}][\p{L}\p{N}-]*)+|[\p{L}\p{N}]+|[^\s\p{L}\p{N}]+/gu;
  var SENTENCE_END = /[.!?](?=\s)|\n/;

  /* A text's words as the index keeps them (no stop words), stemmed, in
   * order, a name (`Model.findOne`, `ekino.wordpress_request`) as one word;
   * in a line (not a `pattern`), a value that is no word (a number, a link,
   * `<`, a name where the record names none) as "", which fills a
   * placeholder and matches nothing. */
  function words(text, pattern, names) {
    var found = [], parts = String(text).replace(URL, pattern ? " " : " \u0000 ").toLowerCase()
      .match(NAME_OR_PART) || [];
    for (var i = 0; i < parts.length && found.length < MAX_WORDS; i++) {
      var part = parts[i], word = /[\p{L}\p{N}]/u.test(part);
      if (word && /[._\/\\:]/.test(part)) found.push(pattern || names ? part : "");
      else if (word && tokens.keepPart(part)) found.push(tokens.stem(part));
      else if (!pattern && (word ? tokens.DIGITS.test(part) : !/^[.,:;!?]+$/.test(part))) found.push("");
    }
    return found;
  }

  /* The pattern as a sequence: its words, and `null` where a placeholder or a link stands. */
  function patternItems(pattern) {
    var items = [];
    String(pattern).replace(URL, "{link}").split(PLACEHOLDER).forEach(function (piece, i) {
      if (i > 0) items.push(null);
      items.push.apply(items, words(piece, true));
    });
    items = items.slice(0, MAX_WORDS);
    items.names = words(String(pattern).split(SENTENCE_END)[0], true).some(function (w) { return /[._\/\\:]/.test(w); });
    return items;
  }

  /* Its quoted marks (`':'` in `Expecting ':' delimiter`): what a message
   * is about, which no word says. A quoted word may be a value in another release. */
  function quotedIn(pattern) {
    return (String(pattern).match(/(['"`])[^'"`{}\s\p{L}\p{N}]{1,8}\1/gu) || []);
  }

  /* Whether the line's words in a stretch are the record's written otherwise:
   * a slip of the keys (`inavlid`), or words run together or apart
   * (`returncharacter`, `py.test`). */
  function samePhrase(theirs, ours) {
    if (theirs.join("") === ours.join("")) return true;
    return ours.length === theirs.length && ours.every(function (word, i) { return slip(word, theirs[i]); });
  }

  function slip(a, b) {
    if (a === b) return true;
    if (Math.abs(a.length - b.length) > 1 || Math.min(a.length, b.length) < 4) return false;
    var i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    var j = 0;
    while (j < a.length - i && j < b.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) j++;
    var left = a.length - i - j, right = b.length - i - j;
    if (left <= 1 && right <= 1) return true;   // one letter left out, added or changed
    return left === 2 && right === 2 && a[i] === b[i + 1] && a[i + 1] === b[i];  // two swapped
  }

  function same(item, word) {
    return item !== null && word !== "" && (item === word || slip(item, word));
  }

  /* Pairs [i, j] of the longest common subsequence of the pattern's words
   * (items, nulls never matching) and the line's. */
  function align(items, line) {
    var n = items.length, m = line.length, table = [];
    for (var i = 0; i <= n; i++) table.push(new Uint16Array(m + 1));
    for (i = n - 1; i >= 0; i--) {
      for (var j = m - 1; j >= 0; j--) {
        table[i][j] = same(items[i], line[j]) ? table[i + 1][j + 1] + 1
          : Math.max(table[i + 1][j], table[i][j + 1]);
      }
    }
    var pairs = [];
    for (i = 0, j = 0; i < n && j < m;) {
      if (same(items[i], line[j])) { pairs.push([i, j]); i++; j++; }
      else if (table[i + 1][j] >= table[i][j + 1]) i++;
      else j++;
    }
    return pairs;
  }

  /* One line against the pattern's items. A stretch where the record has a
   * placeholder and words of its own, and the line others, is read as a
   * substitution too: the value may be some of the line's words, not all.
   * Before the first aligned word, as many of the line's words as the record
   * has there (and one): the rest is what comes before a message. */
  function against(items, line) {
    var pairs = align(items, line);
    var found = { aligned: pairs.length, substituted: [], empty: 0 };
    var ends = [[-1, -1]].concat(pairs);
    for (var k = 0; k + 1 < ends.length; k++) {  // the tail, after the last: a cut or reworded end says nothing
      var from = ends[k], to = ends[k + 1];
      var theirs = items.slice(from[0] + 1, to[0]), ours = line.slice(from[1] + 1, to[1]);
      var own = theirs.filter(function (item) { return item !== null; });
      if (k === 0) ours = ours.slice(Math.max(0, ours.length - own.length - 1));
      if (k > 0 && !ours.length && theirs.length && !own.length) found.empty++;
      if (!own.length || !ours.filter(Boolean).length || samePhrase(own, ours.filter(Boolean))) continue;
      if (k === 0 && own.length < theirs.length) continue;  // a value before the first aligned word
      found.substituted.push.apply(found.substituted, ours.filter(Boolean));
    }
    return found;
  }

  var MAX_LINES = 400;

  /* The line that says most of the record's words, with where it differs
   * (null for a pattern of no words); `isCommon(word)` keeps the words that
   * tell messages apart. */
  function agreement(pattern, lines, isCommon) {
    var first = String(pattern).split(SENTENCE_END)[0];
    var items = patternItems(pattern), head = patternItems(first), headOf = head.filter(Boolean).length, heard = 0;
    var known = Object.create(null), literal = 0;
    items.forEach(function (item) { if (item !== null && !known[item]) { known[item] = true; literal++; } });
    if (!literal) return null;
    var best = { aligned: 0, substituted: [], empty: 0, line: -1 };
    for (var i = 0; i < lines.length && i < MAX_LINES; i++) {
      var line = words(lines[i], false, items.names);
      if (!line.some(function (w) { return known[w] === true; })) continue;
      var found = against(items, line);
      if (headOf) heard = Math.max(heard, against(head, line).aligned);
      found.substituted = found.substituted.filter(function (w) { return !isCommon(w); });
      found.line = i;
      if (best.line < 0 || found.aligned > best.aligned || (found.aligned === best.aligned &&
          found.substituted.length + found.empty < best.substituted.length + best.empty)) best = found;
    }
    var text = lines.join("\n").toLowerCase(), quoted = quotedIn(first);
    best.of = literal;
    best.head = heard;
    best.headOf = headOf;
    best.requoted = quoted.length > 0 && !quoted.some(function (q) { return text.indexOf(q) >= 0; }) &&
      /(['"`])[^'"`\s\p{L}\p{N}]{1,8}\1/u.test(text);
    return best;
  }

  return { agreement: agreement, words: words };
});
