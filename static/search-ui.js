/* Search UI: the search page, the `/` shortcut, and highlighting searched words
 * on a record page; the results list itself is search-results.js's, loaded
 * before this script. Record text only ever reaches the page as DOM text nodes.
 * The search code itself (lunr.js and the engine, listed in this script's
 * data-engine attribute) loads only when it is needed: on the search page, when
 * a search box takes the focus, or to highlight words on a record page. */
(function () {
  "use strict";
  var ROOT = document.documentElement.getAttribute("data-root") || "/";
  var SELF = document.currentScript;
  var engine = null;
  var scripts = null;

  /* Load the scripts of data-engine, in their order, once. */
  function loadScripts() {
    if (!scripts && window.ErrorSearchData && window.searchCutoff) scripts = Promise.resolve();  // the search page has it
    if (!scripts) {
      var sources = ((SELF && SELF.getAttribute("data-engine")) || "").split(" ").filter(Boolean);
      scripts = Promise.all(sources.map(function (src) {
        return new Promise(function (resolve, reject) {
          var script = document.createElement("script");
          script.src = src;
          script.async = false;  // run in the order listed, as deferred scripts would
          script.onload = resolve;
          script.onerror = function () { reject(new Error(src + " could not be loaded")); };
          document.head.appendChild(script);
        });
      }));
    }
    return scripts;
  }

  function fetchJson(url, revalidate) {
    return fetch(url, revalidate ? { cache: "no-cache" } : {}).then(function (response) {
      if (!response.ok) throw new Error(url.replace(/\?.*/, "") + ": HTTP " + response.status);
      return response.json();
    });
  }

  // meta.json, asked for beside the scripts rather than after them: on a
  // phone, a round trip less before the first search can ask for its words.
  var META = ROOT + "-/search/meta.json";
  var earlyMeta = null;

  function engineReady() {
    if (!engine && !earlyMeta) {
      earlyMeta = fetchJson(META, true);
      earlyMeta.catch(function () {});  // reported by the search that takes it
    }
    return loadScripts().then(loadEngine);
  }

  function loadEngine() {
    if (!engine) {
      var search = new window.ErrorSearchData.SplitSearch(ROOT + "-/search/", function (url, revalidate) {
        if (url !== META || !earlyMeta) return fetchJson(url, revalidate);
        var early = earlyMeta;
        earlyMeta = null;
        return early;
      });
      engine = search.start().then(function () { return search; }, function (error) { engine = null; throw error; });
    }
    return engine;
  }

  var KEYSTROKE_WAIT = 60;  // ms a keystroke's search waits for the next keystroke

  /* Runs `run` for a box's input event: at once for an input that put more
   * than one character in the box (a paste, a drop, an autocompletion: no
   * keystroke is likely to follow it), else after KEYSTROKE_WAIT. Returns
   * the timer to clear when the next input comes. */
  function afterInput(event, run) {
    if (/^insertFrom/.test(event.inputType || "") || (event.data || "").length > 1) { run(); return null; }
    return setTimeout(run, KEYSTROKE_WAIT);
  }

  /* The step an arrow key takes through a box's results (1 down, -1 up, 0
   * none): inside a paste of several lines, the arrows move the caret until it
   * is on the first or the last line. */
  function arrowStep(box, event) {
    if (event.key === "ArrowDown" && box.value.indexOf("\n", box.selectionEnd) < 0) return 1;
    if (event.key === "ArrowUp" && box.value.lastIndexOf("\n", box.selectionStart - 1) < 0) return -1;
    return 0;
  }

  /* One search a text, for a box whose input events may repeat its text (a
   * paste can come as one event a line, with the whole text in each):
   * `shared.run(query)` returns the promise of the search for `query` on its
   * way or shown last, or starts `search(query)`, a promise of whether its
   * results were shown. A search whose results were not shown (the box
   * changed meanwhile, or it failed) is forgotten, so the next input tries
   * again; `shared.reset()` forgets any, for a box emptied. */
  function sharedSearch(search) {
    var last = null;  // {query, promise}
    function forget(entry) { if (last === entry) last = null; }
    return {
      run: function (query) {
        if (last && last.query === query) return last.promise;
        var entry = { query: query };
        entry.promise = search(query).then(function (shown) {
          if (!shown) forget(entry);
        }, function () { forget(entry); });
        last = entry;
        return entry.promise;
      },
      reset: function () { last = null; }
    };
  }

  // ---- The search page --------------------------------------------------------
  /* The query a search page's address carries: in its fragment (#q=…), which
   * no host receives, or, from older links and the form without JavaScript,
   * in ?q=. Line breaks as the box keeps them: a form sends a textarea's as CR LF. */
  function queryInAddress(location) {
    var query = window.ErrorSearchFilters ? window.ErrorSearchFilters.parse(location.hash).query : null;
    if (query === null) {
      var hash = /^#q=(.*)$/s.exec(location.hash || "");
      if (hash) {
        try { query = decodeURIComponent(hash[1].replace(/\+/g, " ")); } catch (error) { query = hash[1]; }
      } else {
        query = new URL(location.href).searchParams.get("q") || "";
      }
    }
    return query.replace(/\r\n?/g, "\n");
  }

  /* The filters after the query in the fragment (search-filters.js): #q=…&repo=…. */
  function filtersInAddress(location) {
    return window.ErrorSearchFilters ? window.ErrorSearchFilters.parse(location.hash).filters : {};
  }

  /* The search page's address for `query` (and `filters`), in its fragment. */
  function searchPageAddress(query, filters) {
    var url = new URL(ROOT + "-/search/", window.location.href);
    var shown = shareable(query);
    var hash = window.ErrorSearchFilters ? window.ErrorSearchFilters.fragment(shown, filters)
      : shown ? "q=" + encodeURIComponent(shown) : "";
    if (hash) url.hash = hash;
    return url.toString();
  }

  /* A query as it may leave the browser in an address: what the engine reads
   * of it (a long log's error lines), redacted (search-redact.js); before
   * the engine, which brings both, has loaded: nothing. */
  function shareable(query) {
    return redacted(query).text;
  }

  function redacted(query) {
    return query && window.ErrorSearchRedact && window.ErrorSearch
      ? window.ErrorSearchRedact.redact(window.ErrorSearch.read(query)) : { text: "", found: {} };
  }

  /* The search page's address and title name the query whose results are
   * shown: the query in the fragment, never to the host (nor its logs), so a
   * ?q= is dropped; both hold it redacted (search-redact.js), the title its
   * message line only, so each search in the history says which. Returns the
   * redacted query. */
  function nameInAddress(query, filters, pageTitle) {
    var url = new URL(window.location.href);
    var hidden = redacted(query);
    url.searchParams.delete("q");
    url.hash = window.ErrorSearchFilters ? window.ErrorSearchFilters.fragment(hidden.text, filters)
      : query ? "q=" + encodeURIComponent(hidden.text) : "";
    window.history.replaceState(null, "", url.toString());
    var shown = window.ErrorSearchRedact ? window.ErrorSearchRedact.messageLine(hidden.text) : "";
    document.title = (shown ? "“" + (shown.length > 60 ? shown.slice(0, 59) + "…" : shown) + "” — " : "") + pageTitle;
    return hidden;
  }

  /* What the address and the title leave out of the paste, and the text they
   * hold instead: a fold over the status line, there when they leave out
   * something. Returns the function that shows a redacted query in it. */
  function redactionPreview(status) {
    var privacy = document.createElement("details");
    privacy.id = "search-redacted";
    privacy.className = "search-redacted";
    privacy.hidden = true;
    var summary = document.createElement("summary");
    var text = document.createElement("pre");
    privacy.appendChild(summary);
    privacy.appendChild(text);
    status.parentNode.insertBefore(privacy, status);
    return function (redacted) {
      var hidden = window.ErrorSearchRedact ? window.ErrorSearchRedact.describe(redacted.found) : "";
      privacy.hidden = !hidden;
      if (!hidden) return;
      summary.textContent = "This page's address and title leave out " + hidden + ": what a copied link holds";
      text.textContent = redacted.text;
    };
  }

  /* "Request this error": a new issue in the dataset's repository, when the
   * site names one, titled with the paste's message line and holding the
   * paste, both redacted (what goes to GitHub is what a copied link holds). */
  function addRequest(status, redacted) {
    var repo = status.getAttribute("data-request-repo");
    if (!repo || !window.ErrorSearchRedact) return;
    var line = window.ErrorSearchRedact.messageLine(redacted.text).slice(0, 180);
    var fence = "```";
    while (redacted.text.indexOf(fence) >= 0) fence += "`";
    var body = "Please add a record for this error.\n\n" + fence + "\n" + redacted.text.slice(0, 3000) + "\n" + fence + "\n";
    var link = document.createElement("a");
    link.className = "request-record";
    link.rel = "noopener";
    link.href = "https://github.com/" + repo.split("/").map(encodeURIComponent).join("/") + "/issues/new?title=" +
      encodeURIComponent("Request: " + line) + "&body=" + encodeURIComponent(body);
    link.textContent = "Request this error";
    status.appendChild(document.createTextNode(" "));
    status.appendChild(link);
  }

  /* A link's query into the search page's box, and searched (`run`). One
   * longer than the engine reads (a link that holds a whole log) goes in as
   * what the engine reads of it, once the engine is there: a megabyte in a
   * textarea costs far more layout than the search. */
  function fromAddress(input, query, run) {
    function fill(text) {
      input.value = text;
      fitBox(input);
      run();
    }
    if (query.length <= ADDRESS_READ_LIMIT) return fill(query);
    engineReady().then(function () { fill(window.ErrorSearch.read(query)); },
                       function () { fill(query.slice(0, ADDRESS_READ_LIMIT)); });
  }

  /* The held results (`held`: {query, results, search}, the last search's
   * pool) the filters leave, at most SHOWN, as a list to render: the
   * engine's judgement holds for its first result only. */
  function narrowed(held, query, filters) {
    var F = window.ErrorSearchFilters, all = held && held.query === query ? held.results : [];
    var shown = F ? F.apply(all, filters).slice(0, SHOWN) : all.slice(0, SHOWN);
    shown.match = shown.length && shown[0] === all[0] ? all.match : "none";
    return shown;
  }

  var POOL = 100;   // results a search keeps: the filters choose among them, and count them
  var SHOWN = 20;   // results a list shows
  var ADDRESS_READ_LIMIT = 20000;  // the engine's READ_LIMIT (search-paste.js), known before it loads

  /* The search page: `parts` are its results' elements (search-results.js),
   * `filterBox` holds the filters' controls. */
  function searchPage(input, parts, filterBox) {
    var filters = filtersInAddress(window.location);
    var held = null;  // {query, results, search}: the last search's pool, which the filters narrow
    var timer = null, renderedQuery = null, pageTitle = document.title;
    var results = window.ErrorSearchResults.list(parts, window.ErrorSearchResults.PAGE);
    var preview = redactionPreview(parts.status);

    function run() {
      var query = input.value;
      if (!query.trim()) { searches.reset(); held = null; show(query); return Promise.resolve(); }
      return searches.run(query);
    }

    /* The held results the filters leave, shown, with the filters' controls. */
    function show(query) {
      var F = window.ErrorSearchFilters, hidden = nameInAddress(query, filters, pageTitle);
      preview(hidden);
      renderedQuery = query;
      var state = results.render(query, narrowed(held, query, filters)).state;
      if (state === "none" || state === "related") addRequest(parts.status, hidden);
      if (!F || !filterBox) return;
      var names = held && held.search.meta.facets && held.search.meta.facets.languages;
      F.controls(filterBox, held && held.query === query ? held.results : [], filters, names, function (next) {
        filters = next;
        var was = renderedQuery;
        show(was === null ? input.value : was);
        if (held && held.query === was) completeCards(was);
      });
      if (!F.active(filters)) return;
      parts.status.appendChild(document.createTextNode(" Filtered by " + F.describe(filters, names) + "."));
      if (!filterBox.children.length) filterBox.hidden = true;
    }

    /* Past the first screen, a result found by no word of its message has
     * its card fetched once the first screen is drawn; with a filter on,
     * every held result's, as the filter needs it. */
    function completeCards(query) {
      var F = window.ErrorSearchFilters, all = held.results, search = held.search;
      var wanted = F && F.active(filters) ? all : all.slice(0, SHOWN);
      if (wanted.every(function (r) { return r.doc; })) return;
      new Promise(function (resolve) { setTimeout(resolve, 0); }).then(function () {
        return search.cards(wanted);
      }).then(function () {
        if (input.value !== query || renderedQuery !== query || !held || held.query !== query) return;
        var was = results.active();
        show(query);
        if (was >= 0 && was < parts.list.children.length) results.choose(was);  // the reader's choice stays
      }, function () {});
    }

    var searches = sharedSearch(function (query) {
      return engineReady().then(function (search) {
        if (input.value !== query) return false;  // a newer keystroke is on its way
        return search.search(query, POOL).then(function (found) {
          if (input.value !== query) return false;
          held = { query: query, results: found, search: search };
          show(query);
          completeCards(query);
          return true;
        });
      }).catch(function (error) {
        if (input.value === query) {
          parts.status.textContent = "Search is unavailable: the search data could not be loaded (" + error.message + ").";
        }
        return false;  // the next input tries again
      });
    });

    // Someone on the search page is about to search: fetch the index now.
    input.addEventListener("focus", function () { engineReady().catch(function () {}); });
    input.addEventListener("input", function (event) {
      clearTimeout(timer);
      timer = afterInput(event, run);
    });
    // Arrows move through the results (but in a paste of several lines, see arrowStep).
    input.addEventListener("keydown", function (event) {
      var step = arrowStep(input, event);
      if (step) { event.preventDefault(); results.move(step); }
    });
    input.form.addEventListener("submit", function (event) {
      event.preventDefault();
      clearTimeout(timer);
      (input.value === renderedQuery ? Promise.resolve() : run()).then(function () {
        var chosen = results.chosen();
        if (chosen && input.value === renderedQuery) window.location.href = chosen;
      });
    });
    // A #q= link followed from this page, or typed into its address, searches it.
    window.addEventListener("hashchange", function () {
      var query = queryInAddress(window.location);
      filters = filtersInAddress(window.location);
      if (query === input.value || query === renderedQuery) { if (held) show(renderedQuery); return; }
      fromAddress(input, query, run);
    });
    engineReady().catch(function () {});  // the search page will search: its code and meta.json load at once
    fromAddress(input, queryInAddress(window.location), run);
  }

  // ---- Record pages: highlight the words searched for ------------------------
  /* Marks the searched words in the message and the raised source lines
   * only: elsewhere the page's prose shares the query's common words. */
  function highlightRecord(container, words) {
    var stems = window.ErrorSearchResults.stemSet(words.split(/\s+/).filter(Boolean));
    if (!Object.keys(stems).length) return;
    var nodes = [];
    Array.prototype.forEach.call(container.querySelectorAll("h1, .source-code code > .raised"), function (part) {
      var walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) nodes.push(walker.currentNode);
    });
    nodes.forEach(function (node) {
      if (!node.nodeValue.trim() || node.parentNode.closest("a.anchor, .ln")) return;
      var fragment = document.createDocumentFragment();
      window.ErrorSearchResults.appendMarked(fragment, node.nodeValue, stems);
      if (fragment.childNodes.length > 1) node.parentNode.replaceChild(fragment, node);
    });
  }

  // ---- Search boxes: textareas, so a pasted traceback keeps its lines --------
  // They grow with what is in them; Enter submits, Shift+Enter starts a line.
  function fitBox(box) {
    if (!box.value) {  // one line, as the stylesheet lays it out: a wrapping placeholder must not shift the page
      box.style.height = "";
      box.classList.remove("scrolls");
      return;
    }
    box.style.height = "auto";
    var borders = box.offsetHeight - box.clientHeight;
    box.style.height = box.scrollHeight + borders + "px";
    box.classList.toggle("scrolls", box.scrollHeight > box.clientHeight + 1);
  }

  /* A paste longer than the engine reads (a whole CI log) goes into the box
   * as what the engine reads of it, its error blocks (ErrorSearch.read): a
   * megabyte in a text box costs the browser half a second of layout, and
   * the box then shows what was searched, as the address holds it. Before
   * the engine has loaded, the paste goes in as it is. */
  function pasteRead(box, event) {
    var text = event.clipboardData && event.clipboardData.getData("text/plain");
    if (!text || !window.ErrorSearch || text.length <= window.ErrorSearch.paste.READ_LIMIT) return;
    event.preventDefault();
    var read = window.ErrorSearch.read(text), start = box.selectionStart, end = box.selectionEnd;
    box.value = box.value.slice(0, start) + read + box.value.slice(end);
    box.selectionStart = box.selectionEnd = start + read.length;
    box.dispatchEvent(new InputEvent("input", { inputType: "insertFromPaste", bubbles: true }));
  }

  function searchBox(box) {
    box.addEventListener("paste", function (event) { pasteRead(box, event); });
    box.addEventListener("input", function () { fitBox(box); });
    box.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      var button = box.form && box.form.querySelector("[type=submit]");
      if (button) button.click();  // fires "submit", as Enter in a one-line field does
    });
    fitBox(box);
  }

  function isTyping(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event.target)) {
      var box = document.getElementById("search-input");
      if (box) { event.preventDefault(); box.focus(); box.select(); }
    }
  });

  // The "/" hint and the description of the keys tell what this script does,
  // so it is this script that adds them: a page without it promises no keys,
  // and the site's thousands of pages do not each carry them.
  function describeKeys(box) {
    if (box.id !== "search-input" || document.getElementById("search-help")) return;
    var hint = document.createElement("span");
    hint.className = "key-hint";
    hint.setAttribute("aria-hidden", "true");
    hint.title = "Press / to search";
    hint.textContent = "/";
    box.parentNode.insertBefore(hint, box.nextSibling);  // the stylesheet hides it once the box is in use (~)
    var help = document.createElement("span");
    help.id = "search-help";
    help.className = "visually-hidden";
    help.textContent = "Results show as you type. Enter opens the top result, Shift+Enter starts a new line; " +
      "arrow keys move through results.";
    box.form.appendChild(help);
    box.setAttribute("aria-describedby", help.id);
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("textarea.search-input"), function (box) {
      describeKeys(box);
      searchBox(box);
      // Someone is about to search: fetch the search code and meta.json (none
      // of the index's words yet) now.
      box.addEventListener("focus", function () { engineReady().catch(function () {}); });
    });
    var list = document.getElementById("search-results");
    var input = document.getElementById("search-input");
    if (list && input) {
      input.setAttribute("aria-controls", "search-results");
      searchPage(input, { list: list, status: document.getElementById("search-status"),
                          weak: document.getElementById("search-weaker"),
                          related: document.getElementById("search-related"),
                          verdict: document.getElementById("search-verdict") },
                 document.getElementById("search-filters"));
    }
    var go = document.getElementById("go-status");
    if (go) goPage(go);
    var url = new URL(window.location.href);
    var highlight = url.searchParams.get("highlight");
    var record = document.querySelector("[data-highlightable]");
    if (highlight !== null && record) {
      // The address people copy is the page's own: ?highlight= is for this visit only.
      url.searchParams.delete("highlight");
      window.history.replaceState(window.history.state, "", url.toString());
      if (highlight.trim()) {
        loadScripts().then(function () { highlightRecord(record, highlight); },
                           function (error) { console.warn("no highlighting", error); });
      }
    }
  }

  // ---- /-/go/#q=…: a link any tool can build from an error's text ---------------
  /* Searches the text in the fragment: a first result that is an exact match
   * replaces this page with its record's page; anything else, the search
   * page with the text in its box. Either way with location.replace, so the
   * browser's history keeps no address holding the paste. */
  function goPage(status) {
    var query = queryInAddress(window.location);
    if (!query.trim()) { window.location.replace(searchPageAddress("")); return; }
    engineReady().then(function (search) {
      return search.search(query, 1);
    }).then(function (results) {
      if (results.length && results.match === "exact" && results[0].doc) {
        window.location.replace(new URL(ROOT + encodeURI(results[0].doc[2]), window.location.href).toString());
      } else {
        window.location.replace(searchPageAddress(query));
      }
    }, function (error) {
      status.textContent = "Search is unavailable: the search data could not be loaded (" + error.message + "). ";
      var link = document.createElement("a");
      link.href = searchPageAddress(query);
      link.textContent = "Try the search page";
      status.appendChild(link);
    });
  }

  // For the results panel of the other pages' boxes (search-panel.js): the same code, loaded once.
  window.ErrorSearchUI = { loadScripts: loadScripts, engineReady: engineReady, afterInput: afterInput,
                          arrowStep: arrowStep, sharedSearch: sharedSearch, searchPageAddress: searchPageAddress };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
