/* The /-/go/ page's script (static/search-ui.js's goPage) under Node, on a
 * fake page and a stub engine that answers with the verdict it is given
 * (tests/test_go_decision.py): where the page sends the reader.
 *
 *   node go_page.js <static/search-ui.js> <json: {href, match, results, fails}>
 *
 * `results` is how many results the stub's search returns, its first with a
 * record at repo/slug/; `fails` makes the engine fail to load. Prints one JSON
 * line: {replaced: the address location.replace was given, or null; status:
 * the page's status text}. */
"use strict";
const fs = require("fs");
const vm = require("vm");

const [, , scriptPath, argument] = process.argv;
const code = fs.readFileSync(scriptPath, "utf8");
const arg = JSON.parse(argument);

function element(id) {
  return {
    id, textContent: "", children: [], attributes: {},
    getAttribute(name) { return name in this.attributes ? this.attributes[name] : null; },
    setAttribute(name, value) { this.attributes[name] = String(value); },
    appendChild(child) { this.children.push(child); return child; },
    addEventListener() {},
  };
}

const status = element("go-status");
const replaced = [];
const location = new URL(arg.href);
location.replace = (address) => replaced.push(String(address));

class SplitSearch {  // the engine, judging every query as `arg.match`
  start() { return arg.fails ? Promise.reject(new Error("meta.json: HTTP 404")) : Promise.resolve(); }
  search() {
    const results = Array.from({ length: arg.results }, (_, n) => ({ doc: ["id" + n, "x", `acme/tool/record-${n}/`] }));
    results.match = arg.match;
    return Promise.resolve(results);
  }
}

const sandbox = {
  URL, Promise, console,
  location,
  history: { state: null, replaceState() {} },
  fetch: () => Promise.resolve({ ok: true, json: () => Promise.resolve({}) }),
  ErrorSearchData: { SplitSearch }, searchCutoff: () => 0,  // the scripts are there: nothing to load
  ErrorSearch: { read: (text) => text }, ErrorSearchRedact: { redact: (text) => ({ text, found: {} }) },
  document: {
    readyState: "complete",
    documentElement: element("html"), currentScript: element("script"), head: element("head"),
    getElementById: (id) => (id === "go-status" ? status : null),
    querySelector: () => null, querySelectorAll: () => [],
    createElement: (tag) => element(tag), createTextNode: (text) => ({ textContent: text }),
    addEventListener() {},
  },
};
sandbox.window = sandbox;
sandbox.self = sandbox;
sandbox.document.documentElement.setAttribute("data-root", "/errors/");
vm.runInNewContext(code, sandbox, { filename: scriptPath });
setTimeout(() => {  // every promise of the page has settled by now: nothing it waits for is real
  const text = status.textContent + status.children.map((child) => child.textContent).join("");
  process.stdout.write(JSON.stringify({ replaced: replaced.length ? replaced : null, status: text }) + "\n");
}, 50);
