// The browser's search modules under Node, for the fast tests: reads one JSON
// request a line, {"expr": "(arg) => …", "arg": …}, and answers one JSON line,
// {"value": …, "ms": …} or {"error": …}. The modules are the globals a page
// that loaded them has (ErrorSearch, ErrorSearchMatch, …, lunr), so an
// expression runs here as it runs in Chromium through Playwright's evaluate;
// `ms` is the time the expression took, measured here.
"use strict";
const path = require("path");
const readline = require("readline");
// SEARCH_STATIC: another copy of static/ (a mutant, or an earlier version to time).
const STATIC = process.env.SEARCH_STATIC || path.join(__dirname, "..", "..", "static");

globalThis.window = globalThis;
globalThis.lunr = require(path.join(STATIC, "vendor", "lunr-2.3.9", "lunr.min.js"));
globalThis.ErrorSearchTokens = require(path.join(STATIC, "search-tokens.js"));
globalThis.ErrorSearchPaste = require(path.join(STATIC, "search-paste.js"));
globalThis.ErrorSearchContext = require(path.join(STATIC, "search-context.js"));
globalThis.ErrorSearchChain = require(path.join(STATIC, "search-chain.js"));
globalThis.ErrorSearchMatch = require(path.join(STATIC, "search-match.js"));
globalThis.ErrorSearchAgree = require(path.join(STATIC, "search-agree.js"));
globalThis.ErrorSearchEvidence = require(path.join(STATIC, "search-evidence.js"));
globalThis.ErrorSearchRank = require(path.join(STATIC, "search-rank.js"));
globalThis.ErrorSearchJudge = require(path.join(STATIC, "search-judge.js"));
globalThis.ErrorSearch = require(path.join(STATIC, "search-core.js"));
globalThis.ErrorSearchData = require(path.join(STATIC, "search-data.js"));
require(path.join(STATIC, "search-cutoff.js"));  // sets window.searchCutoff
globalThis.ErrorSearchRedact = require(path.join(STATIC, "search-redact.js"));

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  let answer;
  try {
    const request = JSON.parse(line);
    const fn = (0, eval)("(" + request.expr + ")");
    const started = process.hrtime.bigint();
    const value = fn(request.arg);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    answer = { value: value === undefined ? null : value, ms };
  } catch (error) {
    answer = { error: String((error && error.stack) || error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
