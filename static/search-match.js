/* Patterns: a record's `{placeholder}` message compiled to a matcher that
 * finds it in a paste: exactly, with a known prefix dropped (`ERR `,
 * `WRONGTYPE `, `error: `, a logger's `[mysql] ` — clients and titles strip
 * them) or its closing full stop, or within a few edits of its literal text
 * (older wording, a typo, a line cut short).
 *
 * A match is worth its literal length in characters: the longest pattern found
 * wins. A dropped prefix costs half a character, so the same text found whole
 * ranks first; each edit costs NEAR_PENALTY characters.
 *
 * No DOM here: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("./search-chain.js"));
  else root.ErrorSearchMatch = factory(root.ErrorSearchChain);
})(typeof self !== "undefined" ? self : this, function (chain) {
  "use strict";

  var squash = chain.squash, piecesOf = chain.piecesOf, exact = chain.exact;
  var wordBefore = chain.wordBefore, wordAt = chain.wordAt;
  // A leading error code (Redis's `ERR`, `WRONGTYPE`, Node's `ENOENT:`), level or a logger's tag (`[mysql]`).
  var DROPPABLE = /^(?:[A-Z][A-Z0-9_]{2,}:?|[Ee]rror:|[Ff]atal:|[Ww]arning:|[Pp]anic:|(?:error|warning)\[\w+\]:|\[[\w.-]+\]:?)\s+(?=\S)/;
  // A closing full stop, which a title or a log line often leaves out.
  var FULL_STOP = /([^.])\.\s*$/;
  // A placeholder in quotes: `'{argname}'`, `"{path}"`, `` `{name}` ``.
  var QUOTED = /['"`](\{[^{}\s]{0,40}\})['"`]/g;
  var DROP_PENALTY = 0.5;
  var NEAR_PENALTY = 3;
  var MIN_NEAR_PIECE = 4;   // shorter pieces must be found as they are
  var NEAR_WORK = 4e6;      // cells of edit-distance table a search may spend on near matches
  var MIN_HEAD = 16;        // a first sentence found alone needs this much literal text…
  var HEAD_SHARE = 0.8;     // …and is worth this share of it
  // Where a pattern's first sentence or line ends: its help text after may be
  // left out of a title, cut from a paste, or reworded from release to release.
  var LONG_WORDS = /[\p{L}\p{N}_]{4,}/gu;
  var HEAD_END = /[.!?](?=\s)|\n/, SENTENCE_ENDS = new RegExp(HEAD_END.source, "g");
  // Where in its input a parser failed, which it adds after its message
  // (serde_json's ` at line 1 column 5`): no part of a longer phrase.
  var POSITION_AFTER = /^ *,? *(?:at )?line:? \d+,? column:? \d+(?!\w)/;
  var WORD_END = chain.WORD_END, LETTER = /^\p{L}/u, LETTER_END = /\p{L}$/u;

  /* A matcher for one pattern, or null when it has too little literal text to
   * tell anything apart. `rest` matches it without a leading code, level or
   * tag, `bare` without its closing full stop. */
  function compilePattern(pattern) {
    var matcher = exact(piecesOf(pattern), openEnds(pattern));
    if (!matcher) return null;
    matcher.pattern = String(pattern);
    var text = String(pattern).trim(), drop = DROPPABLE.exec(text);
    matcher.rest = drop ? exact(piecesOf(text.slice(drop[0].length)), openEnds(text)) : null;
    var bare = text.replace(FULL_STOP, "$1");
    matcher.bare = bare !== text ? exact(piecesOf(bare), openEnds(bare)) : null;
    // The forms it is found in, in the order they are tried: whole, then at a cost.
    matcher.forms = [matcher, matcher.rest, matcher.bare].filter(Boolean);
    var end = HEAD_END.exec(text), head = end ? text.slice(0, end.index + 1).trim() : "";
    matcher.head = head && head !== text ? exact(piecesOf(head), openEnds(head)) : null;
    if (matcher.head && matcher.head.literal < MIN_HEAD) matcher.head = null;
    // Its last sentence or line, for a paste whose copy began past its start.
    var tailStart = lastEnd(text), tail = tailStart > 0 ? text.slice(tailStart).trim() : "";
    matcher.tail = tail ? exact(piecesOf(tail), openEnds(tail)) : null;
    if (matcher.tail && matcher.tail.literal < MIN_HEAD) matcher.tail = null;
    matcher.unquoted = unquoted(text);
    if (matcher.head) matcher.head.unquoted = unquoted(head);
    return matcher;
  }

  /* Where the pattern's last sentence or line starts (past the last
   * HEAD_END that has text after it), or 0. */
  function lastEnd(text) {
    var at = 0, m;
    text = text.trimEnd();  // so that every end found has text after it
    SENTENCE_ENDS.lastIndex = 0;
    while ((m = SENTENCE_ENDS.exec(text))) at = m.index + 1;
    return at;
  }

  /* The pattern with the quotes around its placeholders left out, or null
   * when it has none: a title or a log line often drops them (`Fixture
   * mocker not found` for `fixture '{argname}' not found`). For ranking
   * alone: a form this loose says too little to call a match by itself. */
  function unquoted(text) {
    var bare = text.replace(QUOTED, "$1");
    return bare !== text ? exact(piecesOf(bare), openEnds(bare)) : null;
  }

  /* Whether a pattern starts or ends with a placeholder. */
  function openEnds(pattern) {
    var text = squash(pattern);
    return { head: /^\{[^{}\s]{0,40}\}/.test(text), tail: /\{[^{}\s]{0,40}\}$/.test(text) };
  }


  /* How much a matcher's pattern is worth in the paste, found whole or with
   * its prefix or its full stop dropped; 0 when it is not there. */
  function exactValue(matcher, haystack) {
    for (var i = 0; i < matcher.forms.length; i++) {
      if (matcher.forms[i].test(haystack)) return matcher.forms[i].literal - (i ? DROP_PENALTY : 0);
    }
    return 0;
  }

  /* How much the pattern is worth found with the quotes around its
   * placeholders left out, whole or its first sentence alone (as
   * headLiteral); 0 when it is not. */
  function unquotedValue(matcher, haystack) {
    if (matcher.unquoted && matcher.unquoted.test(haystack)) return matcher.unquoted.literal - DROP_PENALTY;
    var head = matcher.head && matcher.head.unquoted;
    return head && head.literal >= MIN_HEAD && head.test(haystack) ? HEAD_SHARE * (head.literal - DROP_PENALTY) : 0;
  }

  /* How much of the start of the pattern is found alone in the paste,
   * without what follows it (a title or a line cut short, help text left
   * out), in characters of literal text: its first sentence whole, or the
   * longest run of whole words its first literal piece starts with, when that
   * is most of its literal text; 0 when neither is there. Such a start is
   * worth HEAD_SHARE of its length. */
  function headLiteral(matcher, haystack) {
    var head = matcher.head && matcher.head.test(haystack) ? matcher.head.literal : 0;
    var tail = matcher.tail && matcher.tail.test(haystack) ? matcher.tail.literal : 0;
    return Math.max(head, tail, prefixFound(matcher, haystack));
  }

  /* The longest prefix of the first piece, cut at a word's end, found in the
   * haystack from a word's start: its length when it is MIN_HEAD or more and
   * half the literal text or more, else 0. Binary search: a prefix found means
   * every shorter one is. */
  function prefixFound(matcher, haystack) {
    var first = matcher.links[0].text, need = Math.max(MIN_HEAD, Math.ceil(matcher.literal / 2));
    if (first.length < need) return 0;
    var ends = [];
    for (var i = need; i <= first.length; i++) {
      if (WORD_END.test(first.slice(i - 1, i)) && !wordAt(first, i)) ends.push(i);
    }
    var low = 0, high = ends.length - 1, best = 0;
    while (low <= high) {
      var mid = (low + high) >> 1;
      if (startsWord(haystack, first.slice(0, ends[mid]))) { best = ends[mid]; low = mid + 1; } else high = mid - 1;
    }
    // Three words of four letters or more: `failed to connect to` starts too many messages.
    return (first.slice(0, best).match(LONG_WORDS) || []).length >= 3 ? best : 0;
  }

  function startsWord(haystack, piece) {
    for (var at = haystack.indexOf(piece), tries = 0; at >= 0 && tries < 8; at = haystack.indexOf(piece, at + 1), tries++) {
      if (!wordBefore(haystack, at)) return true;
    }
    return false;
  }

  /* Where the pattern is found whole or with its prefix dropped, as
   * exactValue finds it (see span), or null. */
  function exactSpan(matcher, haystack) {
    var found = foundForm(matcher, haystack);
    return found ? found.span : null;
  }

  /* The first form the pattern is found in, and where: {form, span}, or null. */
  function foundForm(matcher, haystack) {
    for (var i = 0; i < matcher.forms.length; i++) {
      var span = matcher.forms[i].span(haystack);
      if (span) return { form: matcher.forms[i], span: span };
    }
    return null;
  }

  /* Whether the pattern, found whole, is a message of its own where it
   * stands: where no letter comes before it but across spaces (a line's
   * start, `error: `, `(`, a quote, `file.go:198 `), none follows it unless
   * it ends with a placeholder after punctuation, and a placeholder between its words holds
   * one word at most (what is found has no more spaces than the pattern
   * with a word for each placeholder). `timed out` in `Connection timed out after 30s` is
   * words of another message; so is `error decoding {path}:` in `error
   * decoding response body:`, its placeholder holding two words. */
  function standsAlone(matcher, haystack) {
    var found = foundForm(matcher, haystack);
    if (!found) return false;
    var links = found.form.links, span = found.span, start = span.literal[0], stop = span.literal[1];
    var openHead = span.open.some(function (place) { return place[1] === start && place[0] < start; });
    var openTail = span.open.some(function (place) { return place[0] === stop && place[1] > stop; });
    if (openHead || letterBefore(haystack, start) || (!openTail && letterAfter(haystack, stop))) return false;
    // A placeholder that ends it continues a statement (`RPC failed; {x}`, `Unknown alias: {x}`), not a
    // phrase its value completes (`Could not import {name}`, `unable to get {what}`).
    if (openTail && WORD_END.test(links[links.length - 1].text)) return false;
    var own = links.reduce(function (n, link) { return n + spaces(link.text) + link.spaced; }, 0);
    return spaces(haystack.slice(start, stop)) <= own;
  }

  function spaces(text) {
    return text.split(" ").length - 1;
  }

  function letterBefore(text, i) {
    while (i > 0 && text.charCodeAt(i - 1) === 32) i--;
    return i > 0 && LETTER_END.test(text.slice(Math.max(0, i - 2), i));
  }

  function letterAfter(text, i) {
    if (POSITION_AFTER.test(text.slice(i, i + 40))) return false;
    while (i < text.length && text.charCodeAt(i) === 32) i++;
    return LETTER.test(text.slice(i, i + 2));
  }

  /* The fewest edits that turn `piece` into a substring of text[from, to),
   * within k (Sellers' algorithm with Ukkonen's cut-off: O(k·n)), and where
   * that substring ends. Text that stops early counts its missing tail as edits
   * when `to` is the end of the text: a line cut short still matches. */
  function approxFind(piece, text, from, to, k, work) {
    var m = piece.length, col = new Array(m + 2), best = k + 1, bestEnd = -1, i, j;
    for (i = 0; i <= m + 1; i++) col[i] = Math.min(i, k + 1);
    var last = Math.min(k, m);
    for (j = from; j < to && best > 0; j++) {
      var c = text.charCodeAt(j), diagonal = 0, top = Math.min(m, last + 1);
      for (i = 1; i <= top; i++) {
        var old = col[i];
        var value = diagonal + (piece.charCodeAt(i - 1) === c ? 0 : 1);
        if (old + 1 < value) value = old + 1;
        if (col[i - 1] + 1 < value) value = col[i - 1] + 1;
        col[i] = value > k + 1 ? k + 1 : value;
        diagonal = old;
      }
      last = top;
      // Repetitive text defeats the cut-off (O(m·n)): a search has a budget of cells.
      if (work && (work.cells -= top) < 0) return null;
      while (last > 0 && col[last] > k) last--;
      if (last + 1 <= m) col[last + 1] = k + 1;
      if (last === m && col[m] < best) { best = col[m]; bestEnd = j + 1; }
    }
    if (to === text.length && best > 0) {
      for (i = 0; i <= last; i++) {
        if (col[i] + m - i < best) { best = col[i] + m - i; bestEnd = to; }
      }
    }
    return best <= k ? { edits: best, end: bestEnd } : null;
  }

  /* A pattern found with a few edits in its literal text: worth its literal
   * length less NEAR_PENALTY per edit; 0 when it takes more edits than one per
   * twelve characters (at most four), or is found exactly (exactValue's job).
   * `work` ({cells}), shared by a search's near matches, bounds their time on
   * any input: once spent, nothing more is found near. */
  function nearValue(matcher, text, work) {
    var budget = Math.min(4, Math.max(1, Math.floor(matcher.literal / 12)));
    var edits = 0, position = 0;
    for (var p = 0; p < matcher.links.length; p++) {
      var piece = matcher.links[p].text;
      var to = p === 0 ? text.length : Math.min(text.length, position + matcher.links[p].gap + piece.length + budget);
      if (piece.length < MIN_NEAR_PIECE) {
        // A short piece is there or missing (an older wording without the quotes): missing, its length in edits.
        var at = text.indexOf(piece, position);
        if (at >= 0 && at < to) position = at + piece.length;
        else if ((edits += piece.length) > budget) return 0;
        continue;
      }
      var found = approxFind(piece, text, position, to, budget - edits, work);
      if (!found) return 0;
      edits += found.edits;
      position = found.end;
    }
    return edits ? matcher.literal - NEAR_PENALTY * edits : 0;
  }

  return {
    PLACEHOLDER: chain.PLACEHOLDER,
    squash: squash,
    literalText: chain.literalText,
    compilePattern: compilePattern,
    exactValue: exactValue,
    unquotedValue: unquotedValue,
    exactSpan: exactSpan,
    standsAlone: standsAlone,
    headLiteral: headLiteral,
    HEAD_SHARE: HEAD_SHARE,
    nearWork: function () { return { cells: NEAR_WORK }; },
    nearValue: nearValue,
    approxFind: approxFind,
  };
});
