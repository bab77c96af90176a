/* Live reload for `build.py serve`, which adds this file to the pages it serves;
 * it is never part of a built site. It waits for the next build, then reloads
 * the page, or shows what is wrong (bad records, a failed rebuild) in an
 * overlay. Text reaches the page only as DOM text nodes, and styles go through
 * the CSSOM, so the pages' CSP needs no 'unsafe-inline'. */
(function () {
  "use strict";
  var script = document.currentScript;
  var site = script.getAttribute("data-site");
  var statusUrl = script.getAttribute("data-status");
  var overlay = null;
  var dismissed = null;

  function element(tag, styles, text) {
    var node = document.createElement(tag);
    Object.keys(styles).forEach(function (name) { node.style[name] = styles[name]; });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function hide() {
    if (overlay) overlay.remove();
    overlay = null;
  }

  function show(state) {
    var lines = (state.error ? [state.error] : []).concat(state.problems);
    if (!lines.length || dismissed === state.version) return hide();
    hide();
    overlay = element("div", {
      position: "fixed", left: "1rem", right: "1rem", bottom: "1rem", zIndex: "2147483647",
      maxHeight: "50vh", overflow: "auto", padding: "0.75rem 1rem", background: "#2b0b0e",
      color: "#ffe8e8", border: "2px solid #e5484d", borderRadius: "6px",
      font: "14px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
    });
    overlay.id = "errorsite-serve-overlay";
    overlay.setAttribute("role", "alert");
    var count = state.problems.length;
    // One sentence, the terminal's summary of what became of those records (reporting.overlay_heading).
    var heading = state.error ? "The rebuild failed: this is the last good build."
      : state.heading || count + " problem" + (count === 1 ? "" : "s") + " in the records:";
    var close = element("button", { float: "right", font: "inherit", cursor: "pointer" }, "Dismiss");
    close.type = "button";
    close.addEventListener("click", function () { dismissed = state.version; hide(); });
    overlay.appendChild(close);
    overlay.appendChild(element("strong", {}, heading));
    var list = element("ul", { margin: "0.5rem 0 0", paddingLeft: "1.25rem" });
    lines.forEach(function (line) { list.appendChild(element("li", { whiteSpace: "pre-wrap" }, line)); });
    overlay.appendChild(list);
    document.body.appendChild(overlay);
  }

  function poll(since) {
    fetch(statusUrl + (since ? "?since=" + encodeURIComponent(since) : ""), { cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (state) {
        if (state.site !== site) return location.reload();
        show(state);
        poll(state.version);
      })
      .catch(function () { setTimeout(function () { poll(since); }, 1000); });  // the server is restarting
  }

  poll("");
})();
