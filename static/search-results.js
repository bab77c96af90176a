/* The results list, as the search page (search-ui.js) and the panel under
 * every other page's box (search-panel.js) show it: its items with the words
 * that decided them marked, the status line, the verdict over a match, the
 * others under their label, and the weaker results folded away. The two
 * lists differ only in their wording and size (PAGE, PANEL). Record text only
 * ever reaches the page as DOM text nodes. Needs the engine
 * (ErrorSearchTokens, ErrorSearch, searchCutoff) for a query that holds words. */
(function () {
  "use strict";
  var ROOT = document.documentElement.getAttribute("data-root") || "/";

  // Said above the first result when it is a match (the same words as `find`
  // and the bot), and above the results after it.
  var VERDICT = { exact: "This is your error", likely: "Probably this error — the wording differs" };
  var OTHERS = "Other results";
  var NO_MATCH = "No record for this error yet";

  function element(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function counted(n, one, many) { return n + " " + (n === 1 ? one : many); }

  /* Append `text` to `parent`, wrapping the words whose stems are in `stems`
   * (ErrorSearchTokens.stemsOf) in <mark>: the search's own tokenizer and
   * stemmer decide what a word is. */
  function appendMarked(parent, text, stems) {
    var last = 0;
    window.ErrorSearchTokens.marks(text, stems).forEach(function (mark) {
      if (mark[0] > last) parent.appendChild(document.createTextNode(text.slice(last, mark[0])));
      parent.appendChild(element("mark", "", text.slice(mark[0], mark[1])));
      last = mark[1];
    });
    if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
  }

  function stemSet(words) {
    return window.ErrorSearchTokens.stemsOf(words.map(String));
  }

  /* The words that decided a result (search-rank.js: `decided`, the terms it
   * matched in its message, pattern, code or class): the query's own words
   * with those stems, then the terms a typo or a prefix expanded to. What its
   * card marks and its page highlights; never every word of the query. */
  function decidingWords(analysed, result) {
    var decided = window.ErrorSearchTokens.toSet(result.decided || []), covered = Object.create(null);
    var words = analysed.core.concat(analysed.context).filter(function (word) {
      var stems = Object.keys(stemSet([word]));
      stems.forEach(function (s) { if (decided[s]) covered[s] = true; });
      return stems.some(function (s) { return decided[s]; });
    });
    (result.decided || []).forEach(function (term) { if (!covered[term]) words.push(term); });
    return window.ErrorSearchTokens.unique(words).slice(0, 40);
  }

  /* A card's fix (the record's first solution, one line), as text. */
  function fixLine(fix) {
    var line = element("p", "result-fix");
    line.appendChild(element("span", "fix-label", "Fix:"));
    line.appendChild(document.createTextNode(" " + fix));
    return line;
  }

  /* The status line's words for a match: the verdict, for a screen reader
   * (the list shows it above the result), then what the keys do. */
  function sayVerdict(status, match, text) {
    status.textContent = "";
    status.appendChild(element("span", "visually-hidden", VERDICT[match] + ". "));
    status.appendChild(document.createTextNode(text));
  }

  function weaker(n) { return n ? " (and " + counted(n, "weaker match", "weaker matches") + ")" : ""; }

  /* How each list words its status and lays out its items. `limit`: the
   * most results shown, those with a card (0: every strong one, the search
   * page's weaker ones folded under them). */
  var PAGE = {
    titleLimit: 200, fullTitle: true, labelTag: "h2", limit: 0,
    empty: "Type or paste an error message into the search box.",
    noise: "That looks like noise only (timestamps, paths, numbers). Paste the message itself, or type a few words from it.",
    none: function (status, query) {
      status.textContent = "No results for “" + query.slice(0, 200) + "”. Try fewer words, check the spelling, or ";
      var browse = element("a", "", "browse by repository");
      browse.href = status.getAttribute("data-browse") || ROOT;
      status.appendChild(browse);
      status.appendChild(document.createTextNode("."));
    },
    related: function (n, weak) {
      return NO_MATCH + ". " + counted(n, "related record", "related records") + weaker(weak) +
        " below share some of its words — ↑ ↓ choose one, Enter opens it.";
    },
    matched: function (n, weak) {
      return counted(n, "result", "results") + weaker(weak) + " — Enter opens the first, ↑ ↓ move.";
    }
  };
  var PANEL = {
    titleLimit: 160, fullTitle: false, labelTag: "p", limit: 8,
    noise: "That looks like noise only (timestamps, paths, numbers): paste the message itself.",
    none: function (status, query) {
      status.textContent = "No results for “" + query.replace(/\s+/g, " ").trim().slice(0, 80) + "”.";
    },
    related: function () {
      return NO_MATCH + " — ↑ ↓ choose a related one, Enter searches the search page.";
    },
    matched: function (n) {
      return counted(n, "result", "results") + " — Enter opens the first, ↑ ↓ choose, Esc closes.";
    }
  };

  /* One result's item: its message (a link to its page, which highlights the
   * words that decided it), repository and type, summary and fix. */
  function resultItem(result, analysed, style) {
    var words = decidingWords(analysed, result);
    var stems = stemSet(words);
    var item = element("li");
    var link = element("a", "result-title");
    link.href = ROOT + encodeURI(result.doc[2]) + "?highlight=" + encodeURIComponent(words.join(" "));
    var message = String(result.doc[0]);
    if (message.length > style.titleLimit) {
      message = message.slice(0, style.titleLimit - 1).replace(/\s+\S*$/, "") + "…";
      if (style.fullTitle) link.title = result.doc[0];
    }
    appendMarked(link, message, stems);
    item.appendChild(link);
    item.appendChild(element("span", "meta", result.doc[1] + " · " + result.doc[3]));
    if (result.doc[4]) {
      var summary = element("p", "result-summary");
      appendMarked(summary, String(result.doc[4]), stems);
      item.appendChild(summary);
    }
    if (result.doc[8]) item.appendChild(fixLine(String(result.doc[8])));
    return item;
  }

  /* `results` as items of `list` (one whose card is on its way, search.cards,
   * waits for it). On a match the judged result (the engine's first) is the
   * answer, chosen from the start, and the next opens the others under a label. */
  function fill(list, results, judged, analysed, match, style) {
    results.forEach(function (result) {
      if (!result.doc) return;
      var item = resultItem(result, analysed, style);
      if (match !== "none" && result === judged) item.classList.add("active", "answer");
      else if (match !== "none" && list.children.length === 1 && list.firstChild.classList.contains("answer")) {
        item.classList.add("others");
        item.insertBefore(element(style.labelTag, "results-label", OTHERS), item.firstChild);
      }
      list.appendChild(item);
    });
  }

  /* The weaker results, in a fold closed at first: one click shows them. */
  function fold(into, weak, analysed, style) {
    var details = element("details");
    details.appendChild(element("summary", "", counted(weak.length, "weaker match", "weaker matches") +
                                ", sharing only common words"));
    var list = element("ol", "search-results weak-results");
    fill(list, weak, null, analysed, "none", style);
    details.appendChild(list);
    into.appendChild(details);
    into.hidden = false;
  }

  /* `results` for `query` into `parts` ({list, status, related, verdict}, and
   * `weak` for the fold); returns what was shown: `state` (empty, noise,
   * none, related or match), and the `strong` results listed. */
  function render(parts, style, query, results) {
    var match = (results && results.match) || "none";
    parts.list.textContent = "";
    parts.list.setAttribute("data-match", match);
    parts.related.hidden = true;
    parts.verdict.hidden = true;
    parts.verdict.textContent = "";
    if (parts.weak) { parts.weak.textContent = ""; parts.weak.hidden = true; }
    // An empty box needs no engine (it may not have loaded yet).
    var analysed = query.trim() ? window.ErrorSearch.analyse(query) : null;
    if (!analysed || (!analysed.core.length && !analysed.context.length)) {
      parts.status.textContent = analysed ? style.noise : style.empty;
      return { state: analysed ? "noise" : "empty", strong: [] };
    }
    var split = window.searchCutoff(results);
    var strong = style.limit ? split.strong.filter(function (r) { return r.doc; }).slice(0, style.limit) : split.strong;
    var weak = parts.weak ? split.weak : [];
    if (!strong.length) {
      style.none(parts.status, query);
      return { state: "none", strong: strong };
    }
    if (match === "none") {
      parts.related.hidden = false;
      parts.status.textContent = style.related(strong.length, weak.length);
    } else {
      sayVerdict(parts.status, match, style.matched(strong.length, weak.length));
      parts.verdict.textContent = VERDICT[match];
      parts.verdict.hidden = false;
    }
    fill(parts.list, strong, results[0], analysed, match, style);
    if (weak.length) fold(parts.weak, weak, analysed, style);
    return { state: match === "none" ? "related" : "match", strong: strong };
  }

  /* A list of results in `parts`, worded as `style`, and the one chosen in it
   * (↑ ↓, or the pointer in the panel): on a match, the first, which Enter opens. */
  function resultList(parts, style) {
    var active = -1;
    function choose(n, keyboard) {
      var items = parts.list.children;
      if (active >= 0 && items[active]) items[active].classList.remove("active");
      active = n;
      if (active < 0 || !items[active]) return;
      items[active].classList.add("active");
      if (keyboard) items[active].scrollIntoView({ block: "nearest" });  // never under a moving pointer
    }
    return {
      render: function (query, results) {
        var shown = render(parts, style, query, results);
        active = -1;
        if (shown.state === "match") choose(0);
        return shown;
      },
      /* One step down (1) or up (-1), round the list; from none chosen, the first or the last. */
      move: function (step) {
        var count = parts.list.children.length;
        if (count) choose(active < 0 ? (step > 0 ? 0 : count - 1) : (active + step + count) % count, true);
      },
      choose: choose,
      active: function () { return active; },
      /* The address of the chosen result, or null. */
      chosen: function () {
        var item = active >= 0 && parts.list.children[active];
        return item ? item.querySelector("a.result-title").href : null;
      }
    };
  }

  window.ErrorSearchResults = { PAGE: PAGE, PANEL: PANEL, list: resultList, appendMarked: appendMarked,
                                stemSet: stemSet };
})();
