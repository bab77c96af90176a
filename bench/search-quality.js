// Each query, cold, on a built site's split search files, under Node (the
// site's own static/ engine): its results' paths, the engine's judgement of
// the first (match), and what it fetched; with WHOLE_DIR (index.json,
// docs.json and names.json of lunr.py's whole index) also what the true whole
// index answers (no split files: every term of the query weighed), which the
// split search must equal.
//   node bench/search-quality.js SEARCH_DIR QUERIES.json [LIMIT] [WHOLE_DIR]
// prints [{results: [path], match, first, requests, rounds, gzip, ms, whole?: {results, match}}].
"use strict";
const fs = require("fs");
const path = require("path");
const { measure } = require("./search-fetches.js");

function wholeIndex(searchDir, wholeDir) {
  const STATIC = process.env.SEARCH_STATIC || path.join(__dirname, "..", "static");
  const ErrorSearch = require(path.join(STATIC, "search-core.js"));
  const read = (dir, name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8"));
  const rules = read(searchDir, "meta.json");  // what is common, the names: the build's rules…
  delete rules.buckets;                         // …without the split files' buckets
  return new ErrorSearch(read(wholeDir, "index.json"), read(wholeDir, "docs.json"), read(wholeDir, "names.json"), rules);
}

async function main() {
  const [dir, queriesFile, limitArg, wholeDir] = process.argv.slice(2);
  const limit = Number(limitArg || 10);
  const whole = wholeDir ? wholeIndex(dir, wholeDir) : null;
  const out = [];
  for (const query of JSON.parse(fs.readFileSync(queriesFile, "utf8"))) {
    const m = await measure(dir, query, limit);
    const outcome = { results: m.paths, match: m.match || "none", rule: m.rule, first: m.first, requests: m.requests,
                      rounds: m.rounds, gzip: m.files.reduce((sum, f) => sum + f[3], 0), ms: m.work };
    if (whole) {
      const found = whole.search(query, limit);
      outcome.whole = { results: found.map((r) => r.doc[2]), match: found.match || "none" };
    }
    out.push(outcome);
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((error) => { console.error(error.stack || error); process.exit(1); });
