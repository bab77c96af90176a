// Runs each query on the whole index and on the split files and prints, per
// query, both top lists and what the split search fetched:
//   node compare-search.js WHOLE_DIR SPLIT_DIR QUERIES.json [LIMIT]
// WHOLE_DIR holds index.json, docs.json, names.json; SPLIT_DIR a site's -/search/.
"use strict";
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const STATIC = path.join(__dirname, "..", "..", "static");
const ErrorSearch = require(path.join(STATIC, "search-core.js"));
const { SplitSearch } = require(path.join(STATIC, "search-data.js"));

const [wholeDir, splitDir, queriesFile, limitArg] = process.argv.slice(2);
const limit = Number(limitArg || 10);
const read = (dir, name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8"));
// The true whole index: the build's rules (what is common, the names) without
// the split's buckets, so nothing of the split files bounds what it weighs.
const rules = read(splitDir, "meta.json");
delete rules.buckets;
const whole = new ErrorSearch(read(wholeDir, "index.json"), read(wholeDir, "docs.json"), read(wholeDir, "names.json"),
                              rules);
const queries = JSON.parse(fs.readFileSync(queriesFile, "utf8"));

async function main() {
  const out = [];
  for (const query of queries) {
    const fetched = [];
    const fetchJson = async (url) => {
      const name = url.replace(/\?.*/, "");
      const bytes = fs.readFileSync(path.join(splitDir, name));
      fetched.push([name, bytes.length, zlib.gzipSync(bytes).length]);
      return JSON.parse(bytes.toString("utf8"));
    };
    const split = new SplitSearch("", fetchJson);   // cold: a new page for every query
    const expected = whole.search(query, limit).map((r) => r.ref);
    const started = process.hrtime.bigint();
    const got = (await split.search(query, limit)).map((r) => r.ref);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    out.push({ query, expected, got, fetched, ms });
  }
  process.stdout.write(JSON.stringify(out));
}
main().catch((error) => { console.error(error.stack || error); process.exit(1); });
