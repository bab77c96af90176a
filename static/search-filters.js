/* Search filters: narrow a result list by repository, owner, language, error
 * type and severity, each read from the result's card (search/index.py's
 * result_doc: [message, repo, path, type, summary, pattern, severity,
 * language, fix]), so a filter costs no fetch for the results whose cards are
 * held. Each value is counted among the results that pass the other filters.
 * The filters travel in the address's fragment after the query:
 * #q=<query>&repo=<owner/name>&lang=py. Pure, but `controls`, which makes
 * the <select>s when called; record text reaches the page as text only. */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ErrorSearchFilters = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";
  var KEYS = ["repo", "owner", "lang", "type", "severity"];
  var LABELS = { repo: "Repository", owner: "Owner", lang: "Language", type: "Error type", severity: "Severity" };

  function facetsOf(doc) {
    var repo = String(doc[1]);
    return { repo: repo, owner: repo.split("/")[0], type: String(doc[3]), severity: String(doc[6] || ""),
             lang: String(doc[7] || "") };
  }

  function same(key, a, b) {
    return key === "repo" || key === "owner" ? a.toLowerCase() === b.toLowerCase() : a === b;
  }

  function active(filters) {
    return KEYS.some(function (key) { return filters[key]; });
  }

  /* Whether a result passes every filter but `except`; a result with no card yet passes none. */
  function passes(result, filters, except) {
    if (!result.doc) return false;
    var facets = facetsOf(result.doc);
    return KEYS.every(function (key) { return key === except || !filters[key] || same(key, facets[key], filters[key]); });
  }

  /* The results that pass every filter, in their order; with none active, all of them. */
  function apply(results, filters) {
    if (!active(filters)) return results.slice();
    return results.filter(function (result) { return passes(result, filters); });
  }

  /* key → [[value, count], …], most first: each value among the results that pass the other filters. */
  function counts(results, filters) {
    var out = {};
    KEYS.forEach(function (key) {
      var seen = Object.create(null), order = [];
      results.forEach(function (result) {
        if (!passes(result, filters, key)) return;
        var value = facetsOf(result.doc)[key];
        if (!value) return;
        if (!(value in seen)) { seen[value] = 0; order.push(value); }
        seen[value]++;
      });
      out[key] = order.map(function (value) { return [value, seen[value]]; })
        .sort(function (a, b) { return b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0); });
    });
    return out;
  }

  /* The fragment's parts: "q=…&repo=…" → {query, filters}. A part that is no
   * filter stays in the query, as an older link's unencoded "&" did. */
  function parse(hash) {
    var parts = String(hash || "").replace(/^#/, "").split("&"), query = null, filters = {}, rest = [];
    parts.forEach(function (part) {
      var m = /^([a-z]+)=(.*)$/s.exec(part), value;
      if (m && (m[1] === "q" || KEYS.indexOf(m[1]) >= 0)) {
        try { value = decodeURIComponent(m[2].replace(/\+/g, " ")); } catch (error) { value = m[2]; }
        if (m[1] === "q") query = value; else filters[m[1]] = value;
      } else if (query !== null) {
        rest.push(part);
      }
    });
    if (query !== null && rest.length) query = [query].concat(rest).join("&");
    return { query: query, filters: filters };
  }

  function fragment(query, filters) {
    var parts = query ? ["q=" + encodeURIComponent(query)] : [];
    KEYS.forEach(function (key) { if (filters && filters[key]) parts.push(key + "=" + encodeURIComponent(filters[key])); });
    return parts.join("&");
  }

  function valueName(key, value, names) {
    return key === "lang" ? (names && names[value]) || value : value;
  }

  /* "repository huggingface/candle, language Rust" */
  function describe(filters, names) {
    return KEYS.filter(function (key) { return filters[key]; }).map(function (key) {
      return LABELS[key].toLowerCase() + " " + valueName(key, filters[key], names);
    }).join(", ");
  }

  /* Fills `container` with a <select> per filter, each value with its count,
   * the chosen ones kept even when no result has them; `changed(filters)` is
   * called with the new filters on a change. */
  function controls(container, results, filters, names, changed) {
    var tally = counts(results, filters);
    container.textContent = "";
    KEYS.forEach(function (key) {
      var values = tally[key];
      if (!filters[key] && values.length < 2) return;  // nothing to choose between
      var label = document.createElement("label");
      label.className = "search-filter";
      label.appendChild(document.createTextNode(LABELS[key] + " "));
      var select = document.createElement("select");
      select.setAttribute("data-filter-key", key);
      var any = document.createElement("option");
      any.value = "";
      any.textContent = "Any";
      select.appendChild(any);
      var listed = false;
      values.forEach(function (pair) {
        var option = document.createElement("option");
        option.value = pair[0];
        option.textContent = valueName(key, pair[0], names) + " (" + pair[1] + ")";
        if (filters[key] && same(key, pair[0], filters[key])) { option.selected = true; listed = true; }
        select.appendChild(option);
      });
      if (filters[key] && !listed) {
        var kept = document.createElement("option");
        kept.value = filters[key];
        kept.textContent = valueName(key, filters[key], names) + " (0)";
        kept.selected = true;
        select.appendChild(kept);
      }
      select.addEventListener("change", function () {
        var next = {};
        KEYS.forEach(function (k) { if (filters[k]) next[k] = filters[k]; });
        if (select.value) next[key] = select.value; else delete next[key];
        changed(next);
      });
      label.appendChild(select);
      container.appendChild(label);
    });
    container.hidden = !container.children.length;
  }

  return { KEYS: KEYS, facetsOf: facetsOf, active: active, apply: apply, counts: counts, parse: parse,
           fragment: fragment, describe: describe, controls: controls };
});
