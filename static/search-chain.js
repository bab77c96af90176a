/* A pattern's literal pieces found in a text in order, each within reach
 * of the one before: as far as the placeholders between them may stand for.
 * search-match.js builds its matchers (whole, with a prefix dropped, its
 * first sentence…) on it.
 *
 * No DOM here: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ErrorSearchChain = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var PLACEHOLDER = /\{[^{}\s]{0,40}\}/g;   // as errorsite/tokens.py PLACEHOLDER
  var MIN_LITERAL = 8;  // shorter literal text would match half of any paste
  var MAX_GAP = 200;    // characters a placeholder may stand for
  var WORD = /^[\p{L}\p{N}_]/u, WORD_END = /[\p{L}\p{N}_]$/u;

  function squash(text) {
    text = String(text).toLowerCase();
    return /\s\s|[^\S ]/.test(text) ? text.replace(/\s+/g, " ").trim() : text.trim();
  }

  /* The literal pieces between placeholders, trimmed, outer empty ones gone;
   * `glued[i]` says whether a placeholder between piece i - 1 and piece i
   * touches a letter or digit of the pattern (`{timeout}ms`, `v{version}`):
   * it stands for part of a word, so its value holds no space; `spaced[i]`
   * counts the spaces beside that placeholder (`decoding {path}: ` has one). */
  function piecesOf(pattern) {
    var text = squash(pattern);
    if (text.indexOf("{") < 0) return text ? [text] : [];  // most patterns: no placeholder
    var raw = text.split(PLACEHOLDER), glued = [false], spaced = [0];
    for (var i = 1; i < raw.length; i++) {
      glued.push(WORD_END.test(raw[i - 1]) || WORD.test(raw[i]));
      spaced.push(/ $/.test(raw[i - 1]) + /^ /.test(raw[i]));
    }
    var pieces = raw.map(function (p) { return p.trim(); });
    while (pieces.length && pieces[0] === "") { pieces.shift(); glued.shift(); spaced.shift(); }
    while (pieces.length && pieces[pieces.length - 1] === "") { pieces.pop(); glued.pop(); spaced.pop(); }
    if (glued.length) glued[0] = spaced[0] = 0;
    pieces.glued = glued;
    pieces.spaced = spaced;
    return pieces;
  }

  /* The pieces as links of a chain: {text, gap, tight}, `gap` the most
   * characters allowed between the link before and this one, MAX_GAP for
   * each placeholder between them (adjacent placeholders, `{a}{b}` or `{a}
   * {b}`, leave an empty piece between them: it only widens the gap),
   * `tight` when one of them is glued to a word: what stands between the
   * two links then holds no space but at its edges. */
  function linksOf(pieces) {
    var links = [], gap = 0, tight = false, spaced = 0, glued = pieces.glued || [];
    for (var i = 0; i < pieces.length; i++) {
      if (i > 0) gap += MAX_GAP;
      tight = tight || !!glued[i];
      spaced += (pieces.spaced || [])[i] || 0;
      if (pieces[i] === "") continue;
      links.push({ text: pieces[i], gap: gap, tight: tight, spaced: spaced });
      gap = spaced = 0;
      tight = false;
    }
    return links;
  }

  /* What the index holds of a pattern: its text with placeholders blanked. */
  function literalText(pattern) {
    return String(pattern).replace(PLACEHOLDER, " ");
  }

  /* Whether a letter, digit or `_` ends just before `i` / starts at `i`
   * (code points, so that a letter outside the BMP counts as one). */
  function wordBefore(text, i) {
    if (i <= 0) return false;
    var low = text.charCodeAt(i - 1);
    var pair = (low & 0xfc00) === 0xdc00 && i >= 2 && (text.charCodeAt(i - 2) & 0xfc00) === 0xd800;
    return WORD.test(text.slice(pair ? i - 2 : i - 1, i));
  }

  function wordAt(text, i) {
    return i < text.length && WORD.test(text.slice(i, i + 2));
  }

  /* Where a value that starts at `i` (past one space) and holds no space
   * ends: the next link starts there at the latest (past one more space).
   * `seen` keeps the last space found, so that a link's occurrences, taken
   * in order, read the text once. */
  function valueEnd(text, i, seen) {
    var from = text.charCodeAt(i) === 32 ? i + 1 : i;
    if (seen.space < from) {
      seen.space = text.indexOf(" ", from);
      if (seen.space < 0) seen.space = text.length;
    }
    return Math.min(text.length, seen.space + 1);
  }

  function next(text, piece, from) {
    var at = text.indexOf(piece, from);
    return at < 0 ? Infinity : at;
  }

  /* Where the links occur in `text` in order, each within its gap of the
   * end of the one before (the first not right after a word character when it
   * starts with one, the last not right before one when it ends with one):
   * the end of the first such chain to end, or -1.
   *
   * Linear in the text for each link, whatever the pattern: where the next
   * link may start is a list of intervals, [from, to, from, to…], at most one
   * per MAX_GAP characters. Occurrences that follow each other within the gap
   * make one interval, so a run of them is crossed with lastIndexOf; one
   * cursor walks the text forward through all the intervals. Nothing
   * backtracks: a regex with `[\s\S]{0,200}?` gaps did, exponentially in the
   * number of adjacent placeholders. */
  function chainFound(links, text, wordStart, wordEnd) {
    var allowed = [0, text.length];
    for (var k = 0; k < links.length; k++) {
      var piece = links[k].text, m = piece.length, last = k === links.length - 1;
      var gap = last ? 0 : links[k + 1].gap, tight = !last && links[k + 1].tight;
      var checkStart = k === 0 && wordStart, checkEnd = last && wordEnd;
      var starts = [], at = -1, seen = { space: -1 };
      for (var a = 0; a < allowed.length && at !== Infinity; a += 2) {
        var to = Math.min(allowed[a + 1], text.length - m);
        if (at < allowed[a]) at = next(text, piece, allowed[a]);
        while (at <= to) {
          if ((checkStart && wordBefore(text, at)) || (checkEnd && wordAt(text, at + m))) {
            at = next(text, piece, at + 1);
            continue;
          }
          if (last) return at + m;
          var run = at;
          while (!checkStart && !tight) {
            var far = text.lastIndexOf(piece, Math.min(to, run + gap));
            if (far <= run) break;
            run = far;
          }
          var end = tight ? Math.min(run + m + gap, valueEnd(text, run + m, seen)) : run + m + gap;
          if (starts.length && at + m <= starts[starts.length - 1] + 1) starts[starts.length - 1] = end;
          else starts.push(at + m, end);
          at = next(text, piece, run + 1);
        }
      }
      if (!starts.length) return -1;
      allowed = starts;
    }
    return -1;
  }

  /* {literal, links, test(haystack)} for a list of pieces, or null when too
   * short. `haystack` is squash()ed: one space wherever the paste has any. */
  function exact(pieces, open) {
    var links = linksOf(pieces), literal = 0, longest = "";
    for (var i = 0; i < links.length; i++) {
      literal += links[i].text.length;
      if (links[i].text.length > longest.length) longest = links[i].text;
    }
    if (literal < MIN_LITERAL) return null;
    var wordStart = WORD.test(links[0].text), wordEnd = WORD_END.test(links[links.length - 1].text);
    var reach = 0;  // the most characters a match can span
    for (i = 0; i < links.length; i++) reach += links[i].text.length + links[i].gap;
    function end(haystack) {
      // Most candidates stop here: their longest piece is not in the paste.
      return haystack.indexOf(longest) >= 0 ? chainFound(links, haystack, wordStart, wordEnd) : -1;
    }
    return {
      literal: literal,
      links: links,
      text: links.map(function (link) { return link.text; }).join(" "),  // the literal text, squashed
      test: function (haystack) { return end(haystack) >= 0; },
      /* Where the first match to end is, or null: {literal: [start, end)
       * from the first occurrence of the first link that a match ending there
       * can start at (so it holds the match, and may start a little before
       * it), open: where its placeholders can stand, between its first and
       * last literal pieces and up to MAX_GAP out on a side that ends with
       * one}. */
      span: function (haystack) {
        var stop = end(haystack);
        if (stop < 0) return null;
        var first = links[0].text, at = haystack.indexOf(first, Math.max(0, stop - reach));
        while (at >= 0 && wordStart && wordBefore(haystack, at)) at = haystack.indexOf(first, at + 1);
        if (at < 0 || at > stop) at = Math.max(0, stop - reach);
        var wide = [Math.max(0, at - (open.head ? MAX_GAP : 0)),
                    Math.min(haystack.length, stop + (open.tail ? MAX_GAP : 0))];
        var places = [[at + first.length, stop - links[links.length - 1].text.length]];
        if (open.head) places.push([wide[0], at]);
        if (open.tail) places.push([stop, wide[1]]);
        return { literal: [at, stop], open: places };
      },
    };
  }

  return { PLACEHOLDER: PLACEHOLDER, WORD_END: WORD_END, squash: squash, piecesOf: piecesOf, literalText: literalText,
           exact: exact, wordBefore: wordBefore, wordAt: wordAt };
});
