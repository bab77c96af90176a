/* Record page: copy the permalink, the Markdown snippet, every code block and links to each
 * section, solution and source line or range (#L445-L452); wrap or scroll the source so the chosen line shows.
 * Every link copied is the permanent one, -/r/<id>/#fragment: it outlives a slug or repository
 * rename (the redirect pages keep the fragment, static/redirect.js). Without JavaScript the buttons stay
 * hidden and the same text is in the page (the "Permanent link and Markdown"
 * fields, and the # links). "Copied" is announced through #copy-status. */
(function () {
  "use strict";
  var article = document.querySelector("article.record[data-permalink]");
  var status = document.getElementById("copy-status");
  if (!article || !status) return;
  var permalink = article.getAttribute("data-permalink");

  function announce(text) {
    status.textContent = "";
    window.setTimeout(function () { status.textContent = text; }, 50);
  }

  function confirm(button, ok) {
    announce(ok ? "Copied" : "Could not copy: select the text and copy it");
    if (!ok || !button) return;
    var label = button.textContent;
    button.textContent = "Copied";
    button.classList.add("copied");
    window.setTimeout(function () { button.textContent = label; button.classList.remove("copied"); }, 1500);
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


  // One link control beside every section heading, the button that copies its
  // permanent link (made here, not in each page's markup; "On this page"
  // already links every section on this page), and one beside every solution.
  Array.prototype.forEach.call(article.querySelectorAll("h2[id]"), function (h) {
    var name = h.firstChild ? h.firstChild.textContent.trim() : h.id;
    h.appendChild(document.createTextNode(" "));
    h.appendChild(button("Copy link", "Copy link to section: " + name, function () { return permalink + "#" + h.id; }));
  });
  Array.prototype.forEach.call(article.querySelectorAll("li[id^='solution-']"), function (li) {
    var n = li.id.slice("solution-".length);
    li.appendChild(button("Copy link", "Copy link to solution " + n, function () { return permalink + "#" + li.id; }));
  });

  // ---- A very long message shows its first lines, and the rest on request ----
  // so that what it means and how to fix it stay near the top. Without
  // JavaScript, or once opened, the heading shows it whole.
  var MESSAGE_LINES = 4;
  var title = article.querySelector("h1");
  if (title) {
    var lineHeight = parseFloat(window.getComputedStyle(title).lineHeight) || 30;
    if (title.scrollHeight > (MESSAGE_LINES + 2.5) * lineHeight) {
      title.classList.add("clamped");
      title.id = title.id || "message";
      var more = document.createElement("button");
      more.type = "button";
      more.className = "copy message-toggle";
      more.textContent = "Show the whole message";
      more.setAttribute("aria-expanded", "false");
      more.setAttribute("aria-controls", title.id);
      more.addEventListener("click", function () {
        var open = title.classList.toggle("clamped") === false;
        more.setAttribute("aria-expanded", String(open));
        more.textContent = open ? "Show less" : "Show the whole message";
      });
      title.parentNode.insertBefore(more, title.nextSibling);
    }
  }

  // ---- Code blocks: a copy button on each; the source can wrap ---------------
  Array.prototype.forEach.call(article.querySelectorAll(".highlight"), function (block) {
    var tools = block.previousElementSibling;
    if (!tools || !tools.classList.contains("code-tools")) {
      tools = document.createElement("p");
      tools.className = "code-tools";
      block.parentNode.insertBefore(tools, block);
    }
    var name = block.getAttribute("aria-label") || "code";
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copy copy-code";
    b.textContent = "Copy code";
    b.setAttribute("aria-label", "Copy code: " + name);
    b.addEventListener("click", function () { copy(block.querySelector("pre").textContent.replace(/\n$/, ""), b); });
    tools.appendChild(b);
  });

  var source = article.querySelector(".source-code");
  if (source) {
    var wrap = document.createElement("button");
    wrap.type = "button";
    wrap.className = "copy wrap-toggle";
    wrap.textContent = "Wrap lines";
    wrap.setAttribute("aria-pressed", "false");
    var indented = false;
    wrap.addEventListener("click", function () {
      if (!indented) indent();
      indented = true;
      var on = source.classList.toggle("wrap");
      wrap.setAttribute("aria-pressed", String(on));
      reveal(false);
    });
    source.previousElementSibling.insertBefore(wrap, source.previousElementSibling.firstChild);
  }

  /* Each line's leading blanks as --indent (in characters, a tab to the next
   * multiple of TAB), so a wrapped line continues under its own code. Set
   * through the CSSOM: the page's CSP allows no style attributes. */
  var TAB = 8, MOST_INDENT = 24;
  function indent() {
    Array.prototype.forEach.call(source.querySelectorAll("code > span"), function (line) {
      var blanks = /^[ \t]*/.exec(line.textContent)[0], width = 0;
      for (var i = 0; i < blanks.length; i++) width = blanks[i] === "\t" ? (Math.floor(width / TAB) + 1) * TAB : width + 1;
      if (width) line.style.setProperty("--indent", String(Math.min(width, MOST_INDENT)));
    });
  }

  // ---- Source lines: #L449 and GitHub-style ranges #L445-L452 -----------------
  // A line is `code > span` with its id; its number is drawn by the stylesheet
  // (::before). A click on the number is a link to the line, shift-click on
  // another number selects the range; the keyboard has the one "Copy link to
  // line" button, as a tab stop per line would bury the page's other controls.
  function chosenRange() {
    var m = /^#L(\d+)(?:-L(\d+))?$/.exec(window.location.hash);
    if (!m) return null;
    var a = +m[1], b = m[2] ? +m[2] : a;
    if (!document.getElementById("L" + a) || !document.getElementById("L" + b)) return null;
    return [Math.min(a, b), Math.max(a, b)];
  }

  function rangeText(range) {
    return range[0] === range[1] ? "L" + range[0] : "L" + range[0] + "-L" + range[1];
  }

  /* The first `count` characters of code on a line, from its first non-blank
   * one: where they start, and how wide they are. */
  function codeStart(line) {
    var walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      var node = walker.currentNode, i = node.data.search(/\S/);
      if (i < 0) continue;
      var r = document.createRange();
      r.setStart(node, i);
      r.setEnd(node, i + 1);
      return r.getBoundingClientRect();
    }
    return null;
  }

  /* Scroll the source box sideways so the chosen line's code starts just
   * right of the line numbers; `vertical` also brings it on screen. Only a
   * #L link chooses: a page opened without one shows every line from its start. */
  function reveal(vertical) {
    if (!source) return;
    var range = chosenRange();
    var line = range && document.getElementById("L" + range[0]);
    if (!line) return;
    if (vertical && range) line.scrollIntoView({ block: "center" });
    var first = codeStart(line), gutter = gutterWidth(line);
    if (!first) return;
    var box = source.getBoundingClientRect();
    var left = first.left - box.left, room = source.clientWidth - gutter;
    var wanted = first.width * 40;  // 40 characters of code, monospaced
    if (left >= gutter && left + wanted <= source.clientWidth) return;  // already in view
    source.scrollLeft = Math.max(0, source.scrollLeft + left - gutter - (room > wanted ? 8 : 0));
    edges();
  }

  /* Which edges of the source box hide code (the stylesheet draws a cue at each). */
  function edges() {
    source.classList.toggle("cut-left", source.scrollLeft > 1);
    source.classList.toggle("cut-right", source.scrollLeft + source.clientWidth < source.scrollWidth - 1);
  }
  if (source) {
    source.addEventListener("scroll", edges, { passive: true });
    window.addEventListener("resize", edges);
    edges();
  }

  /* The width of a line's number (its box is border-box: padding included). */
  function gutterWidth(line) {
    return parseFloat(window.getComputedStyle(line, "::before").width) || 0;
  }

  function select() {
    var range = chosenRange();
    Array.prototype.forEach.call(article.querySelectorAll(".source-code code > .selected"), function (l) {
      l.classList.remove("selected");
    });
    if (!range) return;
    for (var n = range[0]; n <= range[1]; n++) {
      var line = document.getElementById("L" + n);
      if (line) line.classList.add("selected");
    }
  }

  var lineButton = article.querySelector("button.copy-line[data-line]");
  var line = lineButton ? lineButton.getAttribute("data-line") : null;
  function follow(vertical) {
    select();
    var range = chosenRange();
    if (lineButton) {
      if (range) line = rangeText(range).slice(1);
      lineButton.textContent = "Copy link to line" + (/-/.test(line) ? "s " : " ") + line.replace(/L/g, "");
    }
    reveal(vertical);
  }
  if (source) {
    source.addEventListener("click", function (event) {
      var clicked = event.target.closest && event.target.closest("code > span[id]");
      if (!clicked || event.clientX - source.getBoundingClientRect().left - source.clientLeft >= gutterWidth(clicked)) return;
      event.preventDefault();
      var n = +clicked.id.slice(1);
      if (!event.shiftKey) { window.location.hash = "#L" + n; return; }
      var from = chosenRange();
      var anchor = from ? from[0] : +(lineButton ? lineButton.getAttribute("data-line") : n);
      window.history.replaceState(null, "", "#" + rangeText([Math.min(anchor, n), Math.max(anchor, n)]));
      follow(false);
    });
  }
  window.addEventListener("hashchange", function () { follow(true); });
  // A range is no element's id, so the browser does not scroll to it: we do.
  if (document.readyState === "complete") follow(true);
  else window.addEventListener("load", function () { follow(true); });
  if (lineButton) {
    lineButton.hidden = false;
    lineButton.addEventListener("click", function () { copy(permalink + "#L" + line, lineButton); });
  }
}());
