// What a cold query fetches from a built site's search files, under Node:
//   node bench/search-fetches.js SEARCH_DIR QUERIES.json [LIMIT]
// prints, per query, {query, results, files: [[path, round, raw, gzip]], requests, rounds, ms, work, later}:
// what the search waits for (the first screen's cards included), `work` the
// milliseconds of it that were the search's own (parsing the files and
// ranking; reading and gzipping them left out), and `later`,
// the files the cards of the results past the first screen then need (search.cards).
// A file's round is one more than the latest round among the files that had
// arrived when it was asked for: the chain of waits a browser goes through
// (meta.json, asked for on focus, is round 1). Each query runs on a new
// SplitSearch: nothing cached. Also a module: `measure(dir, query, limit)`.
"use strict";
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const STATIC = process.env.SEARCH_STATIC || path.join(__dirname, "..", "static");
const { SplitSearch } = require(path.join(STATIC, "search-data.js"));

async function measure(dir, query, limit) {
  const files = [];
  let arrived = 0;  // the latest round among the files that have arrived
  let io = 0n;      // time spent reading and gzipping files: not the search's
  const fetchJson = (url) => {
    const name = url.replace(/\?.*/, "");
    const round = arrived + 1;
    const read = process.hrtime.bigint();
    const bytes = fs.readFileSync(path.join(dir, name));
    files.push([name, round, bytes.length, zlib.gzipSync(bytes, { level: 6 }).length]);
    io += process.hrtime.bigint() - read;
    // Arrives after the current tick: files asked for together share a round.
    return new Promise((resolve) => setImmediate(() => {
      arrived = Math.max(arrived, round);
      resolve(JSON.parse(bytes.toString("utf8")));
    }));
  };
  const search = new SplitSearch("", fetchJson);
  const started = process.hrtime.bigint();
  const results = await search.search(query, limit || 20);
  const elapsed = process.hrtime.bigint() - started;
  const ms = Number(elapsed) / 1e6, work = Number(elapsed - io) / 1e6;
  const before = files.length;
  await search.cards(results);
  const later = files.splice(before);
  return { query, results: results.map((r) => r.ref), paths: results.map((r) => r.doc[2]), match: results.match, rule: results.rule,
           first: results.length ? (({ found, literal, pattern, shared, covered, words, everyWord, named, score, value, held, agree, agreeOwn }) =>
             ({ found, literal, pattern, shared, covered, words, everyWord, named, score, value, held, agree }))(results[0]) : null,
           files, requests: files.length,
           rounds: Math.max(0, ...files.map((f) => f[1])), ms, work, later: later.map((f) => [f[0], f[2], f[3]]) };
}

async function main() {
  const [dir, queriesFile, limit] = process.argv.slice(2);
  const queries = JSON.parse(fs.readFileSync(queriesFile, "utf8"));
  const out = [];
  for (const query of queries) out.push(await measure(dir, query, Number(limit || 20)));
  process.stdout.write(JSON.stringify(out));
}

if (require.main === module) main().catch((error) => { console.error(error.stack || error); process.exit(1); });
module.exports = { measure };
