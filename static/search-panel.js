/* Results as you type, from the search box of any page but the search page:
 * a panel under the box with the top results, ranked by the same engine on
 * the same split index as the search page (search-ui.js loads both, once, and
 * lends them through window.ErrorSearchUI), in the same list
 * (search-results.js, its PANEL wording). ↑ ↓ choose, Enter opens the
 * chosen result (the top one unless another was chosen), Escape closes; "All
 * results" is the search page with #q= (the search page alone before a search). With no result, or without
 * JavaScript, the form submits to the search page as before.
 * Record text only ever reaches the page as DOM text nodes.
 */
(function () {
  "use strict";

  function element(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /* The panel, at the end of the box's form: the status line, the filters,
   * the label of related records, the verdict, the list and "All results". */
  function makePanel(box) {
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
    [status, filterBox, related, verdict, list, all].forEach(function (part) { panel.appendChild(part); });
    box.form.appendChild(panel);
    box.setAttribute("aria-controls", list.id);
    return { panel: panel, filterBox: filterBox, all: all,
             parts: { list: list, status: status, related: related, verdict: verdict } };
  }

  function panelFor(box) {
    var UI = window.ErrorSearchUI, made = makePanel(box), panel = made.panel, all = made.all;
    var results = window.ErrorSearchResults.list(made.parts, window.ErrorSearchResults.PANEL);
    var timer = null, shownQuery = null;
    var filters = {}, held = null;  // the filters (search-filters.js) and the last search's pool they narrow
    var F = window.ErrorSearchFilters;  // once the engine is loaded

    function open() { panel.hidden = false; }
    function emptied() { searches.reset(); shownQuery = null; panel.hidden = true; }  // the box holds no query

    /* The held pool, narrowed by the filters, shown; the filters' counts are of the whole pool. */
    function showHeld() {
      var pool = held.results;
      var kept = F ? F.apply(pool, filters) : pool.slice();
      kept.match = kept.length && kept[0] === pool[0] ? pool.match : "none";
      show(held.query, kept);
      if (!F) return;
      var names = held.search.meta.facets && held.search.meta.facets.languages;
      F.controls(made.filterBox, pool, filters, names, function (next) {
        filters = next;
        var wanted = F.active(filters) ? pool.filter(function (r) { return !r.doc; }) : [];
        showHeld();
        if (wanted.length) held.search.cards(wanted).then(function () { if (held && held.results === pool) showHeld(); }, function () {});
        var select = made.filterBox.querySelector("select");
        if (select) select.focus();  // the controls were made again: the focus stays in the panel
      });
    }

    function show(query, found) {
      shownQuery = query;
      panel.scrollTop = 0;
      all.href = UI.searchPageAddress(query, filters);
      var shown = results.render(query, found);
      all.hidden = shown.state === "noise";
      all.textContent = found.length > shown.strong.length ? "All results on the search page" : "Open on the search page";
      open();
    }

    /* Search for what the box holds now; resolves once its results are shown. */
    function run() {
      var query = box.value;
      if (!query.trim()) { emptied(); return Promise.resolve(); }
      return searches.run(query);
    }

    var searches = UI.sharedSearch(function (query) {
      var search;
      return UI.engineReady().then(function (engine) {
        search = engine;
        F = window.ErrorSearchFilters;  // loaded with the engine
        return search.search(query, F ? 100 : 20);
      }).then(function (found) {
        if (box.value !== query) return false;
        held = { query: query, results: found, search: search };
        showHeld();
        return true;
      }, function (error) {
        if (box.value !== query) return false;
        shownQuery = null;
        made.parts.list.textContent = "";
        all.hidden = false;
        all.href = UI.searchPageAddress(query);
        all.textContent = "Search on the search page";
        made.parts.status.textContent = "Search is unavailable here: " + error.message + ".";
        open();
        return false;  // the next input tries again
      });
    });

    box.addEventListener("input", function (event) {
      clearTimeout(timer);
      if (!box.value.trim()) { emptied(); return; }
      timer = UI.afterInput(event, run);
    });
    // Back in the box (a focus, a click, ↓ after Escape), its results show again.
    function reopen() {
      if (!panel.hidden || shownQuery === null || shownQuery !== box.value) return false;
      open();
      return true;
    }
    box.addEventListener("focus", reopen);
    box.addEventListener("click", reopen);
    panelKeys(box, panel, results, reopen);
    // Enter (search-ui.js turns it into a submit) opens the chosen result once
    // the box's results are shown; with none, the search page takes the query.
    box.form.addEventListener("submit", function (event) {
      var query = box.value;
      if (!query.trim()) return;
      event.preventDefault();
      clearTimeout(timer);
      (shownQuery === query ? Promise.resolve() : run()).then(function () {
        if (box.value !== query) return;
        var chosen = results.chosen();
        window.location.href = chosen && shownQuery === query ? chosen : UI.searchPageAddress(query, filters);
      });
    });
  }

  /* The panel's keys and pointer: Escape closes, ↓ reopens, the arrows
   * choose a result (ErrorSearchUI.arrowStep), the pointer the one under
   * it, and the panel closes when the focus or a click goes elsewhere. */
  function panelKeys(box, panel, results, reopen) {
    var form = box.form, list = panel.querySelector("ol");
    box.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && !panel.hidden) {
        event.preventDefault();
        panel.hidden = true;
        return;
      }
      if (event.key === "ArrowDown" && panel.hidden && reopen()) {
        event.preventDefault();
        return;
      }
      var step = panel.hidden || !list.children.length ? 0 : window.ErrorSearchUI.arrowStep(box, event);
      if (step) { event.preventDefault(); results.move(step); }
    });
    form.addEventListener("focusout", function (event) {
      if (!event.relatedTarget || !form.contains(event.relatedTarget)) panel.hidden = true;
    });
    document.addEventListener("pointerdown", function (event) {
      if (!form.contains(event.target)) panel.hidden = true;
    });
    list.addEventListener("pointermove", function (event) {
      var item = event.target.closest && event.target.closest("li");
      if (item && item.parentNode === list) results.choose(Array.prototype.indexOf.call(list.children, item));
    });
  }

  function start() {
    if (!window.ErrorSearchUI || !window.ErrorSearchResults || document.getElementById("search-results")) return;  // the search page has its own list
    Array.prototype.forEach.call(document.querySelectorAll("form[role=search] textarea.search-input"), panelFor);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
