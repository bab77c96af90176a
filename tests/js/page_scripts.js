/* The record page's and the redirect pages' scripts under Node, on a fake
 * page just big enough for them (tests/test_page_scripts.py): what the
 * copy buttons copy, and where a redirect page sends the reader.
 *
 *   node page_scripts.js redirect <static/redirect.js> <json: {target, href}>
 *   node page_scripts.js copy <static/record-tools.js> <json: {permalink, hash, line}>
 *
 * Prints one JSON line: what the script did. */
"use strict";
const fs = require("fs");
const vm = require("vm");

const [, , kind, scriptPath, argument] = process.argv;
const code = fs.readFileSync(scriptPath, "utf8");
const arg = JSON.parse(argument);

function element(tag, attributes, extra) {
  const listeners = {};
  const classes = new Set();
  const node = {
    tagName: tag.toUpperCase(), attributes: Object.assign({}, attributes || {}), children: [], textContent: "",
    hidden: true, parentNode: null, firstChild: null, previousElementSibling: null, id: (attributes || {}).id || "",
    classList: {
      add: (c) => classes.add(c), remove: (c) => classes.delete(c), contains: (c) => classes.has(c),
      toggle: (c) => (classes.has(c) ? (classes.delete(c), false) : (classes.add(c), true)),
    },
    getAttribute: (name) => (name in node.attributes ? node.attributes[name] : null),
    setAttribute: (name, value) => { node.attributes[name] = String(value); },
    addEventListener: (type, f) => { (listeners[type] = listeners[type] || []).push(f); },
    click: () => (listeners.click || []).forEach((f) => f({ preventDefault() {} })),
    appendChild: (child) => { node.children.push(child); child.parentNode = node; return child; },
    insertBefore: (child) => { node.children.unshift(child); child.parentNode = node; return child; },
    querySelector: () => null, querySelectorAll: () => [],
    get buttons() { return node.children.filter((c) => c.tagName === "BUTTON"); },
  };
  return Object.assign(node, extra || {});
}

function run(sandbox) {
  sandbox.window = sandbox;
  sandbox.URL = URL;
  sandbox.setTimeout = () => 0;  // "Copied" and its undoing: not what is tested
  vm.runInNewContext(code, sandbox, { filename: scriptPath });
}

if (kind === "redirect") {
  const script = element("script", { "data-target": arg.target });
  const location = new URL(arg.href);
  let replaced = null;
  run({ document: { currentScript: script },
        location: Object.assign(location, { replace: (href) => { replaced = href; } }) });
  process.stdout.write(JSON.stringify({ replaced }) + "\n");
} else if (kind === "copy") {
  const copied = [];
  const heading = element("h2", { id: "solutions" }, { firstChild: { textContent: "Solutions" } });
  const solution = element("li", { id: "solution-2" });
  const lineButton = element("button", { "data-line": arg.line });
  const lines = {};
  for (let n = 440; n <= 460; n++) lines["L" + n] = element("span", { id: "L" + n });
  const selectors = {
    "h2[id]": [heading], "li[id^='solution-']": [solution], "button.copy-line[data-line]": lineButton,
  };
  const article = element("article", { "data-permalink": arg.permalink }, {
    querySelector: (s) => selectors[s] || null,
    querySelectorAll: (s) => selectors[s] || [],
  });
  const status = element("p", { id: "copy-status" });
  const sandbox = {
    document: {
      readyState: "complete",
      querySelector: (s) => (s === "article.record[data-permalink]" ? article : null),
      getElementById: (id) => (id === "copy-status" ? status : lines[id] || null),
      createElement: (tag) => element(tag),
      createTextNode: (text) => ({ textContent: text }),
      body: element("body"),
    },
    navigator: { clipboard: { writeText: (text) => { copied.push(text); return Promise.resolve(); } } },
    location: { hash: arg.hash || "" },
    history: { replaceState() {} },
    addEventListener() {},
    getComputedStyle: () => ({ lineHeight: "30px", width: "0px" }),
  };
  run(sandbox);
  const clicked = (button) => { const before = copied.length; button.click(); return copied.slice(before); };
  const out = {
    section: heading.buttons.map((b) => ({ text: b.textContent, copied: clicked(b) })),
    solution: solution.buttons.map((b) => ({ text: b.textContent, copied: clicked(b) })),
    line: { text: lineButton.textContent, hidden: lineButton.hidden, copied: clicked(lineButton) },
  };
  process.stdout.write(JSON.stringify(out) + "\n");
} else {
  process.stderr.write("unknown kind " + kind + "\n");
  process.exit(2);
}
