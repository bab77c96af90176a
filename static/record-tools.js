/* Record page: copy the permalink, the Markdown snippet, and links to each
 * section, solution and source line. Without JavaScript the buttons stay
 * hidden and the same text is in the page (the "Permanent link and Markdown"
 * fields, and the # links). "Copied" is announced through #copy-status. */
(function () {
  "use strict";
  var article = document.querySelector("article.record[data-permalink]");
  var status = document.getElementById("copy-status");
  if (!article || !status) return;
  var canonical = article.getAttribute("data-canonical");

  function announce(text) {
    status.textContent = "";
    window.setTimeout(function () { status.textContent = text; }, 50);
  }

  function confirm(button, ok) {
    announce(ok ? "Copied" : "Could not copy: select the text and copy it");
    if (!ok || !button) return;
    var label = button.textContent;
    button.textContent = "Copied";
    window.setTimeout(function () { button.textContent = label; }, 1500);
  }

  function copyByHand(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }

  function copy(text, button) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(
        function () { confirm(button, true); },
        function () { confirm(button, copyByHand(text)); });
    } else {
      confirm(button, copyByHand(text));
    }
  }

  function button(label, name, text) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copy copy-anchor";
    b.textContent = label;
    b.setAttribute("aria-label", name);
    b.addEventListener("click", function () { copy(text(), b); });
    return b;
  }

  // The buttons in the page: the permalink, and the Markdown snippet.
  Array.prototype.forEach.call(article.querySelectorAll("button.copy[data-copy-text], button.copy[data-copy-from]"), function (b) {
    b.hidden = false;
    b.addEventListener("click", function () {
      var from = b.getAttribute("data-copy-from");
      copy(from ? document.getElementById(from).value : b.getAttribute("data-copy-text"), b);
    });
  });

  // A copy button beside every section heading and every solution.
  Array.prototype.forEach.call(article.querySelectorAll("h2.anchored[id]"), function (h) {
    var name = h.firstChild ? h.firstChild.textContent.trim() : h.id;
    h.appendChild(button("Copy link", "Copy link to section: " + name, function () { return canonical + "#" + h.id; }));
  });
  Array.prototype.forEach.call(article.querySelectorAll("li[id^='solution-']"), function (li) {
    var n = li.id.slice("solution-".length);
    li.appendChild(button("Copy link", "Copy link to solution " + n, function () { return canonical + "#" + li.id; }));
  });

  // The source: a link to the raised line, or to the line chosen by its number.
  var lineButton = article.querySelector("button.copy-line[data-line]");
  if (lineButton) {
    var line = lineButton.getAttribute("data-line");
    var follow = function () {
      var chosen = /^#L(\d+)$/.exec(window.location.hash);
      if (chosen && document.getElementById("L" + chosen[1])) line = chosen[1];
      lineButton.textContent = "Copy link to line " + line;
    };
    follow();
    window.addEventListener("hashchange", follow);
    lineButton.hidden = false;
    lineButton.addEventListener("click", function () { copy(canonical + "#L" + line, lineButton); });
  }
}());
