/* Results as you type, from the search box of any page but the search page:
 * a panel under the box with the top results, ranked by the same engine on
 * the same split index as the search page (search-ui.js loads both, once, and
 * lends them through window.ErrorSearchUI). ↑ ↓ choose, Enter opens the
 * chosen result (the top one unless another was chosen), Escape closes; "All
 * results" is the search page with #q= (the search page alone before a search). With no result, or without
 * JavaScript, the form submits to the search page as before.
 * Record text only ever reaches the page as DOM text nodes.
 */
(function () {
  "use strict";
  var SHOWN = 8;          // results in the panel; the search page has the rest
  var TITLE_LIMIT = 160;  // characters of a message in the panel

  /* `text` into `parent`, the words whose stems are in `stems` in <mark>. */
  function appendMarked(parent, text, stems) {
    var last = 0;
    window.ErrorSearchTokens.marks(text, stems).forEach(function (mark) {
      if (mark[0] > last) parent.appendChild(document.createTextNode(text.slice(last, mark[0])));
      var element = document.createElement("mark");
      element.textContent = text.slice(mark[0], mark[1]);
      parent.appendChild(element);
      last = mark[1];
    });
    if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
  }

  function element(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function panelFor(box) {
    var form = box.form;
    var root = (document.documentElement.getAttribute("data-root") || "/");
    var panel = element("div", "search-panel");
    panel.id = "search-panel";
    panel.hidden = true;
    panel.tabIndex = -1;  // a click anywhere in it keeps the focus inside the form, and the panel open
    var status = element("p", "search-panel-status");
    status.id = "search-panel-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    var related = element("p", "search-panel-related", "Related records — not this error");
    related.hidden = true;
    var verdict = element("p", "search-panel-verdict");  // on a match: the verdict, over the first result
    verdict.hidden = true;
    var filterBox = element("div", "search-filters");
    filterBox.setAttribute("role", "group");
    filterBox.setAttribute("aria-label", "Filter the results");
    filterBox.hidden = true;
    var list = element("ol", "search-results search-panel-results");
    list.id = "search-panel-results";
    list.setAttribute("data-match", "none");
    var all = element("a", "search-panel-all", "All results");
    all.href = window.ErrorSearchUI.searchPageAddress("");  // a link from the start, as crawlers read it
    panel.appendChild(status);
    panel.appendChild(filterBox);
    panel.appendChild(related);
    panel.appendChild(verdict);
    panel.appendChild(list);
    panel.appendChild(all);
    form.appendChild(panel);
    box.setAttribute("aria-controls", list.id);

    var timer = null, shownQuery = null, active = -1;
    var filters = {}, held = null;  // the filters (search-filters.js) and the last search's pool they narrow
    var F = window.ErrorSearchFilters;  // once the engine is loaded

    function open() { panel.hidden = false; }
    function close() { panel.hidden = true; }
    function emptied() { searches.reset(); shownQuery = null; close(); }  // the box holds no query
    function links() { return list.querySelectorAll("a.result-title"); }

    function choose(n, keyboard) {
      var items = list.children;
      if (active >= 0 && items[active]) items[active].classList.remove("active");
      active = n;
      if (active < 0 || !items[active]) return;
      items[active].classList.add("active");
      if (keyboard) items[active].scrollIntoView({ block: "nearest" });  // never under a moving pointer
    }

    /* The held pool, narrowed by the filters, shown; the filters' counts are of the whole pool. */
    function showHeld() {
      var all = held.results;
      var kept = F ? F.apply(all, filters) : all.slice();
      kept.match = kept.length && kept[0] === all[0] ? all.match : "none";
      show(held.query, kept);
      if (!F) return;
      var names = held.search.meta.facets && held.search.meta.facets.languages;
      F.controls(filterBox, all, filters, names, function (next) {
        filters = next;
        var wanted = F.active(filters) ? all.filter(function (r) { return !r.doc; }) : [];
        showHeld();
        if (wanted.length) held.search.cards(wanted).then(function () { if (held && held.results === all) showHeld(); }, function () {});
        var select = filterBox.querySelector("select");
        if (select) select.focus();  // the controls were made again: the focus stays in the panel
      });
    }

    function show(query, results) {
      shownQuery = query;
      list.textContent = "";
      panel.scrollTop = 0;
      active = -1;
      var match = (results && results.match) || "none";
      list.setAttribute("data-match", match);
      related.hidden = true;
      verdict.hidden = true;
      all.href = window.ErrorSearchUI.searchPageAddress(query, filters);
      var analysed = window.ErrorSearch.analyse(query);
      if (!analysed.core.length && !analysed.context.length) {
        status.textContent = "That looks like noise only (timestamps, paths, numbers): paste the message itself.";
        all.hidden = true;
        open();
        return;
      }
      // The search waits for the first screen's cards; a strong result past it may have none yet.
      var strong = window.searchCutoff(results).strong.filter(function (r) { return r.doc; }).slice(0, SHOWN);
      all.hidden = false;
      all.textContent = results.length > strong.length ? "All results on the search page" : "Open on the search page";
      if (!strong.length) {
        status.textContent = "No results for “" + query.replace(/\s+/g, " ").trim().slice(0, 80) + "”.";
        open();
        return;
      }
      if (match === "none") {
        related.hidden = false;
        status.textContent = "No record for this error yet — ↑ ↓ choose a related one, Enter searches the search page.";
      } else {
        window.ErrorSearchUI.sayVerdict(status, match, strong.length + (strong.length === 1 ? " result" : " results") +
          " — Enter opens the first, ↑ ↓ choose, Esc closes.");
        verdict.textContent = window.ErrorSearchUI.verdict[match];
        verdict.hidden = false;
      }
      strong.forEach(function (result) {
        var words = window.ErrorSearchUI.decidingWords(analysed, result);
        var stems = window.ErrorSearchTokens.stemsOf(words.map(String));
        var item = element("li");
        var link = element("a", "result-title");
        link.href = root + encodeURI(result.doc[2]) + "?highlight=" + encodeURIComponent(words.join(" "));
        var message = String(result.doc[0]);
        if (message.length > TITLE_LIMIT) message = message.slice(0, TITLE_LIMIT - 1).replace(/\s+\S*$/, "") + "…";
        appendMarked(link, message, stems);
        item.appendChild(link);
        item.appendChild(element("span", "meta", result.doc[1] + " · " + result.doc[3]));
        if (result.doc[4]) {
          var summary = element("p", "result-summary");
          appendMarked(summary, String(result.doc[4]), stems);
          item.appendChild(summary);
        }
        if (result.doc[8]) item.appendChild(window.ErrorSearchUI.fixLine(String(result.doc[8])));
        window.ErrorSearchUI.setApart(list, item, result === results[0], match, "p");
        list.appendChild(item);
      });
      // Enter opens the first only when it is a match; a related one, once chosen.
      if (match !== "none") choose(0);
      open();
    }

    /* Search for what the box holds now; resolves once its results are shown. */
    function run() {
      var query = box.value;
      if (!query.trim()) { emptied(); return Promise.resolve(); }
      return searches.run(query);
    }

    var searches = window.ErrorSearchUI.sharedSearch(function (query) {
      var search;
      return window.ErrorSearchUI.engineReady().then(function (engine) {
        search = engine;
        F = window.ErrorSearchFilters;  // loaded with the engine
        return search.search(query, F ? 100 : 20);
      }).then(function (results) {
        if (box.value !== query) return false;
        held = { query: query, results: results, search: search };
        showHeld();
        return true;
      }, function (error) {
        if (box.value !== query) return false;
        shownQuery = null;
        list.textContent = "";
        all.hidden = false;
        all.href = window.ErrorSearchUI.searchPageAddress(query);
        all.textContent = "Search on the search page";
        status.textContent = "Search is unavailable here: " + error.message + ".";
        open();
        return false;  // the next input tries again
      });
    });

    box.addEventListener("input", function (event) {
      clearTimeout(timer);
      if (!box.value.trim()) { emptied(); return; }
      timer = window.ErrorSearchUI.afterInput(event, run);
    });
    // Back in the box (a focus, a click, ↓ after Escape), its results show again.
    function reopen() {
      if (!panel.hidden || shownQuery === null || shownQuery !== box.value) return false;
      open();
      return true;
    }
    box.addEventListener("focus", reopen);
    box.addEventListener("click", reopen);
    // Arrows choose a result, except inside a paste of several lines, where
    // they move the caret until it is on the first or the last line.
    box.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && !panel.hidden) {
        event.preventDefault();
        close();
        return;
      }
      if (event.key === "ArrowDown" && panel.hidden && reopen()) {
        event.preventDefault();
        return;
      }
      var count = links().length, value = box.value;
      if (panel.hidden || !count) return;
      if (event.key === "ArrowDown" && value.indexOf("\n", box.selectionEnd) < 0) {
        event.preventDefault();
        choose((active + 1) % count, true);
      } else if (event.key === "ArrowUp" && value.lastIndexOf("\n", box.selectionStart - 1) < 0) {
        event.preventDefault();
        choose(active < 0 ? count - 1 : (active - 1 + count) % count, true);
      }
    });
    // Enter (search-ui.js turns it into a submit) opens the chosen result once
    // the box's results are shown; with none, the search page takes the query.
    form.addEventListener("submit", function (event) {
      var query = box.value;
      if (!query.trim() || !window.ErrorSearchUI) return;
      event.preventDefault();
      clearTimeout(timer);
      var shown = shownQuery === query ? Promise.resolve() : run();
      shown.then(function () {
        if (box.value !== query) return;
        var found = links();
        if (found.length && active >= 0 && shownQuery === query) window.location.href = found[active].href;
        else window.location.href = window.ErrorSearchUI.searchPageAddress(query, filters);
      });
    });
    // The panel closes when the focus or a click goes elsewhere.
    form.addEventListener("focusout", function (event) {
      if (!event.relatedTarget || !form.contains(event.relatedTarget)) close();
    });
    document.addEventListener("pointerdown", function (event) {
      if (!form.contains(event.target)) close();
    });
    list.addEventListener("pointermove", function (event) {
      var item = event.target.closest && event.target.closest("li");
      if (item && item.parentNode === list) choose(Array.prototype.indexOf.call(list.children, item));
    });
  }

  function start() {
    if (!window.ErrorSearchUI || document.getElementById("search-results")) return;  // the search page has its own list
    Array.prototype.forEach.call(document.querySelectorAll("form[role=search] textarea.search-input"), panelFor);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
