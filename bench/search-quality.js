// Each query, cold, on a built site's split search files, under Node (the
// site's own static/ engine): its results' paths, the engine's judgement of
// the first (match), and what it fetched.
//   node bench/search-quality.js SEARCH_DIR QUERIES.json [LIMIT]
// prints [{results: [path], match, requests, rounds, gzip}] in the queries' order.
"use strict";
const fs = require("fs");
const { measure } = require("./search-fetches.js");

async function main() {
  const [dir, queriesFile, limit] = process.argv.slice(2);
  const out = [];
  for (const query of JSON.parse(fs.readFileSync(queriesFile, "utf8"))) {
    const m = await measure(dir, query, Number(limit || 10));
    out.push({ results: m.paths, match: m.match || "none", first: m.first, requests: m.requests, rounds: m.rounds,
               gzip: m.files.reduce((sum, f) => sum + f[3], 0), ms: m.work });
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((error) => { console.error(error.stack || error); process.exit(1); });
