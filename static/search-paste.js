/* Reading a paste: what is noise, and which lines carry the message. What
 * it says of where it came from is search-context.js's.
 *
 * No DOM here: runs in the browser and under Node.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ErrorSearchPaste = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // ---- Reading: a paste of any length, as the rest of the engine reads it ----
  // A terminal's colours and a CI runner's timestamps go, and a paste longer
  // than READ_LIMIT is read by its error blocks, wherever they are: a CI
  // log's error is at its end, or in its middle with cleanup after. A block
  // is an error-looking line with the lines that belong to it: the frames,
  // source lines and continuations around it (indented, or errors
  // themselves, and blank lines between them), and the line either side.
  // Blocks are taken from the last back, with the log's last lines, until
  // READ_LIMIT, and keep their order. The rest of the log
  // (an install's output, passing tests) is left out: its words are no
  // evidence, and a warning among them would be taken for the error. Every
  // line is read once, by rules that are linear in it, so a 1 MB paste costs
  // a few milliseconds.
  var READ_LIMIT = 20000;
  var LINE_LIMIT = 2000;      // characters of one line read (a minified bundle is one line)
  var BLOCK_LINES = 120;      // lines a block grows, each way, from its error-looking line
  var BESIDE = 1;             // lines kept either side of a block (a prompt, the step that ran)
  var LAST_LINES = 3;         // a log's last lines, kept whatever they say
  var ANSI = /\x1b(?:\[[0-9;?]*[ -\/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
  var RUNNER_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z[^\S\n]/gm;
  // syslog's and journalctl's `Apr 11 03:51:20 host program[123]: `, and
  // the colours rsyslog writes out as `#033[41m`.
  var JOURNAL_PREFIX = /^[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} [\w.-]+ [^\s:\[]+(?:\[\d+\])?:[^\S\n]/gm;
  var ESCAPED_ANSI = /#033\[[0-9;?]*[ -\/]*[@-~]/g;
  // An error-looking line: a word or phrase errors use (`couldn't`, `does not exist`, `missing`), a class named as raised
  // (`ValueError`, `requests.exceptions.InvalidSchema: `, `Psych::BadAlias (`), a CI error mark,
  // or a stack frame (Python's, Java's and JavaScript's, Go's, Ruby's).
  var ERROR_LOOKING = new RegExp([
    /\b(?:errors?|exceptions?|panic(?:ked)?|fatal|traceback|fail(?:ed|ure)?|caused by|what\(\)|cannot|can't|unable|denied|refused|invalid|not found|no such|could not|couldn't|does not exist|doesn't exist|missing|unexpected|unknown|not allowed|timed out)\b/.source,
    /\w(?:Error|Exception|Err)\b|##\[error\]|^::error/.source,
    /(?:^|\s)(?:[a-z_]\w*\.)+[A-Z]\w*:[^\S\n]|(?:^|\s)(?:[A-Z]\w*::)+[A-Z]\w*(?::[^\S\n]| \()/.source,
    /^[^\S\n]*(?:File "|at [\w$.<>\[\]\/]+[ (]|(?:from )?\S+\.rb:\d+:in )|^[^\S\n]+\S+\.go:\d+/.source,
  ].join("|"), "i");
  var BELONGS = /^[^\S\n]+\S|^\s*$|^(?:goroutine \d|Caused by|During handling|The above exception)/;
  var lastRead = { text: null, read: "" };

  /* text → the text the engine reads: colours and runner timestamps gone,
   * line breaks as "\n", and at most READ_LIMIT characters of error blocks. */
  function read(text) {
    text = String(text);
    if (text === lastRead.text) return lastRead.read;  // a split search asks again each round
    var clean = text.replace(ANSI, "").replace(ESCAPED_ANSI, "").replace(/\r\n?|[\u2028\u2029]/g, "\n")
      .replace(RUNNER_STAMP, "").replace(JOURNAL_PREFIX, "");
    lastRead = { text: text, read: clean.length <= READ_LIMIT ? clean : errorBlocks(clean) };
    return lastRead.read;
  }

  function errorBlocks(text) {
    var lines = text.split("\n"), keep = new Uint8Array(lines.length), size = 0;
    var line = function (i) { return lines[i].length > LINE_LIMIT ? lines[i].slice(0, LINE_LIMIT) : lines[i]; };
    var looks = function (i) { return ERROR_LOOKING.test(line(i)); };
    var belongs = function (i) { return BELONGS.test(line(i)) || looks(i); };
    // A line that would take the text past READ_LIMIT ends it: what read()
    // gives is read as it is again (a link's #q= holds it).
    var take = function (from, to) {
      for (var i = Math.max(0, from); i <= Math.min(lines.length - 1, to) && size < READ_LIMIT; i++) {
        if (keep[i]) continue;
        if (size + line(i).length + 1 > READ_LIMIT) { size = READ_LIMIT; return; }
        keep[i] = 1;
        size += line(i).length + 1;
      }
    };
    // The log's last lines first, then what belongs to them above: the
    // message over a stack or a tool's indented report at the end, however it reads.
    var end = lines.length - LAST_LINES;
    take(end, lines.length - 1);
    while (end > 0 && lines.length - end < BLOCK_LINES && belongs(end - 1)) end--;
    take(end - BESIDE, lines.length - 1);
    for (var i = lines.length - 1; i >= 0 && size < READ_LIMIT; i--) {
      if (keep[i] || !looks(i)) continue;
      var first = i, last = i;
      while (first > 0 && i - first < BLOCK_LINES && belongs(first - 1)) first--;
      while (last < lines.length - 1 && last - i < BLOCK_LINES && belongs(last + 1)) last++;
      take(last + 1, last + BESIDE + 1);  // what follows an error (a panic's message line) before what led to it
      take(first - BESIDE, last);
      i = first;
    }
    var kept = [];
    for (var j = 0; j < lines.length; j++) if (keep[j]) kept.push(line(j));
    return kept.join("\n");
  }

  // ---- Noise: the wrappers around a message in real terminal output --------
  // Each rule's match leaves the message text. "context" rules keep the
  // match's words as weak evidence (a class name, a library in a path);
  // "drop" rules discard them (timestamps, addresses, runtime boilerplate);
  // "frame" rules are context that is a stack frame. Every rule is anchored on
  // shapes real messages do not have, such as file:line:col, `what():` or a
  // leading `SomethingError:`. No rule may take time quadratic in a long
  // run of one character class: a rule anchored at a line's start spans no
  // line break, and the path rule starts only where a path can (not inside a
  // run of path characters).
  var NOISE_RULES = [
    ["drop", /^[^\S\n]*Traceback \(most recent call last\):[^\S\n]*$/gm],
    ["frame", /^[^\S\n]*File "[^"\n]*", line \d+(?:, in [^\n]*)?$/gm],
    ["frame", /^[^\S\n]*File [^\s"][^\n]*?:\d+, in [^\n]*$/gm],  // IPython: File ~/x/y.py:12, in f(a, b)
    ["drop", /^[^\S\n]*-*>\s*\d+\s/gm],                          // IPython: ---> 38 code
    ["drop", /^[^\S\n]*(?:stack backtrace:|note: run with `RUST_BACKTRACE=\S+`[^\n]*|exit status \d+|Aborted \(core dumped\))[^\S\n]*$/gm],
    ["frame", /^[^\S\n]*\d+:\s+0x[0-9a-f]+ - [^\n]*$/gim],
    ["frame", /^[^\S\n]*\d+:\s+<?&?[\w<>&]*(?:::[\w<>{}&]+)+[^\n]*$/gm],  // Rust: 3: candle_core::tensor::Tensor::add
    ["frame", /^goroutine \d+ \[[^\]\n]*\]:?$/gm],
    ["frame", /^[^\S\n]+\S+\.go:\d+(?: \+0x[0-9a-f]+)?$/gm],
    ["context", /\bthread '[^'\n]*' panicked at [^\s]+:\d+:\d+:?/g],
    ["context", /\bcalled `(?:Result|Option)::(?:unwrap|expect)\(\)` on an? `(?:Err|None)` value:?/g],
    ["context", /\bterminate called after throwing an instance of '[^'\n]*'/g],
    ["drop", /\bwhat\(\):/g],
    ["context", /\bException in thread "[^"\n]*"/g],
    ["context", /^[^\S\n]*Caused by:/gm],
    ["frame", /(?:^|\s)at\s+(?:[\w$.<>\[\]]+\s+)?\(?(?:[A-Za-z]:)?[^\s()]*:\d+:\d+\)?/gm],
    ["frame", /^[^\S\n]*at\s+[\w$.<>\/\[\]]+(?:\s+\[as [^\]\n]*\])?\s*\((?:[^()\n]*:\d+|Native Method|Unknown Source|native)\)/gm],
    // .NET frames without a file: `at Ns.Type.Method(DateTime value, Param p)`,
    // a line that is only `Ns.Type`1.Method(Entry entry):184` (as error trackers print them), and
    // Visual Studio's call stack, `Module.dll!Ns.Type.Method()`.
    ["frame", /^[^\S\n]*at[^\S\n]+[\w`$<>\[\],]+(?:\.[\w`$<>\[\],]+){2,}\([\w`$<>\[\],.&*? ]*\)(?:[^\S\n]+in[^\S\n][^\n]*)?[^\S\n]*$/gm],
    ["frame", /^[^\S\n]*[A-Z][\w`]*(?:\.[\w`<>]+){2,}\([\w`$<>\[\],.&*? ]*\)(?::\d+)?[^\S\n]*$/gm],
    ["frame", /^[^\S\n]*>?[^\S\n]*[\w.]+\.(?:dll|exe)![\w`$<>.]+\([^()\n]*\)[^\n]*$/gm],
    ["context", /(?<![\w.@~\/\\-])(?:[A-Za-z]:)?(?:[\w.@~-]*[\/\\])+[\w.@-]+\.\w{1,6}(?::\d+){1,2}:?/g],
    ["drop", /\[?\b\d{4}[-\/]\d{2}[-\/]\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\]?/g],
    ["drop", /\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g],
    ["drop", /\b0x[0-9a-f]{6,}\b/gi],
    ["drop", /^[^\S\n]*(?:\[\s*)?(?:WARN(?:ING)?|ERROR|INFO|DEBUG|TRACE|FATAL|CRITICAL)\b(?:\s*\])?:?/gm],
    ["drop", /^[^\S\n]*\((?:error|err)\)\s/gim],
    // CI logs: GitHub's and Azure's `##[error]`, workflow commands, BuildKit's `#12 0.532` step prefixes.
    ["drop", /##\[[a-z]+\]|^[^\S\n]*::[a-z]+(?: [^\n:]*)?::|^[^\S\n]*#\d+ \d+\.\d+(?=\s)/gm],
    ["context", /(?:^|[\s\[(])(?:Uncaught\s+)?(?:[A-Za-z_$][\w$]*(?:\.|::))*[A-Za-z_$]*(?:Error|Exception|Warning|Reply|Err|panic)(?:\[[^\]\s]*\])?:(?=\s|$)/gm],
  ];

  /* text → {core, context, frames}: the message text, the context text, and
   * how many stack frames were seen. */
  function stripNoise(text) {
    // One line break, so that `[^\S\n]` is "a space within the line": a rule
    // anchored at a line's start never runs across the lines below it.
    var core = String(text).replace(/\r\n?|[\u2028\u2029]/g, "\n");
    var context = [];
    var frames = 0;
    for (var i = 0; i < NOISE_RULES.length; i++) {
      var kind = NOISE_RULES[i][0];
      core = core.replace(NOISE_RULES[i][1], function (match) {
        if (kind !== "drop") context.push(match);
        if (kind === "frame") frames++;
        return " ";
      });
    }
    return { core: core, context: context.join(" "), frames: frames };
  }

  // ---- Message lines: where in a paste the message itself is ---------------
  // Each rule's last group is message text: after `SomethingError:`, a
  // redis-cli `(error)`, `what():`, `error:`, a log level, inside the string a
  // `raise`/`throw` line raises, or on the line after a Rust panic.
  var MESSAGE_RULES = [
    /(?:^|[\s\[(])(?:Uncaught\s+)?(?:[A-Za-z_$][\w$]*(?:\.|::))*[A-Za-z_$]*(?:Error|Exception|Warning|Reply|Err|panic)(?:\[[^\]\s]*\])?:\s+(\S.*)$/,
    /^\s*\((?:error|err)\)\s+(\S.*)$/i,
    /\bwhat\(\):\s+(\S.*)$/,
    /^\s*(?:[a-z]+ )?(?:error|fatal|panic)(?:\[\w+\])?:\s+(\S.*)$/i,
    /^\s*(?:Value|Assertion) error,\s+(\S.*)$/,
    /^\s*(?:Bug|BUG|Bug report|Question|Regression):\s+(\S.*)$/,  // an issue title's prefix
    /^\s*\u00d7\s+(\S.*)$/,
    /^\s*\[(?!(?:info|debug|trace|notice|verbose)\])@?[\w.-]+(?:\/[\w.-]+)?\]:?\s+([^\d\s|].*)$/i,  // not `[GIN] 2024/06/07 | 200 |`
    /\b(?:ERROR|FATAL|CRITICAL|SEVERE|ERRO)\b\s*\]?:?\s*(\S.*)$/,
    /\b(?:raise|throw(?:\s+new)?)\s+[\w$.]+\(\s*[frbu]?(['"`])(.+?)(?:\1|$)/,
    /\bpanicked at '([^'\n]+)'/,
  ];
  var PANIC_AT = /\bpanicked at \S+:\d+:\d+:\s*$/;
  // A logfmt line at an error level (Go's go-kit and logrus loggers): its
  // `msg` and its `err`, which the program's own text joins as `msg: err`
  // (`level=error … msg="Opening storage failed" err="open DB…"` is
  // Prometheus's `opening storage failed: {err}`).
  var LOGFMT_ERROR = /\blevel=(?:error|err|fatal|crit|critical|panic)\b[^\n]*?\bmsg=(?:"((?:[^"\\\n]|\\.)*)"|([^\s"]+))/i;
  var LOGFMT_CAUSE = /\berr(?:or)?=(?:"((?:[^"\\\n]|\\.)*)"|([^\s"]+))/;
  // serde_json's error as Rust's `{:?}` prints it, in every `unwrap()` panic
  // on one: `Error("expected value", line: 1, column: 1)` is its `expected
  // value at line 1 column 1`.
  var SERDE_JSON_DEBUG = /\bError\("((?:[^"\\\n]|\\.){1,500})", line: (\d+), column: (\d+)\)/;
  var MAX_MESSAGE_LINES = 8;
  // What a CI service or a build tool writes before each line of output: an
  // ISO timestamp (GitHub's and Azure's, with seven decimals), a time of day,
  // BuildKit's `#12 0.532` step and time, and the error marks of GitHub
  // Actions (`##[error]`, `::error file=…::`). A line marked as an error is a
  // message line even when nothing else in it says so.
  var LINE_PREFIX = /^[^\S\n]*(?:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?[^\S\n]+)?(?:\d{2}:\d{2}:\d{2}(?:\.\d+)?[^\S\n]+)?(?:#\d+[^\S\n]+\d+\.\d+[^\S\n]+)?(?:(##\[error\]|::error(?:[^\S\n][^\n:]*)?::)|##\[[a-z]+\])?/;

  function messageLines(text) {
    var lines = String(text).split(/\r?\n/), found = [];
    found.made = [];  // lines read out of a structured log: the text as the program would print it
    for (var i = 0; i < lines.length && found.length < MAX_MESSAGE_LINES; i++) {
      var line = lines[i].slice(0, 2000), prefix = LINE_PREFIX.exec(line);
      line = line.slice(prefix[0].length);
      if (PANIC_AT.test(line) && i + 1 < lines.length) { found.push(lines[i + 1].slice(0, 2000)); continue; }
      var made = printedAs(line);
      if (made !== null) {
        found.push(made);
        found.made.push(made);
        continue;
      }
      var r = 0;
      for (; r < MESSAGE_RULES.length; r++) {
        var match = MESSAGE_RULES[r].exec(line);
        if (match) { found.push(match[match.length - 1]); break; }
      }
      if (r === MESSAGE_RULES.length && prefix[1] && /\S/.test(line)) found.push(line);
    }
    return found;
  }

  /* A structured line's message as its program prints it (a logfmt error
   * line's `msg: err`, serde_json's `{:?}` as its Display), or null. */
  function printedAs(line) {
    var logfmt = LOGFMT_ERROR.exec(line);
    if (logfmt) {
      var cause = LOGFMT_CAUSE.exec(line.slice(logfmt.index + logfmt[0].length)), said = logfmt[1] || logfmt[2];
      return (cause ? said + ": " + (cause[1] || cause[2]) : said).replace(/\\(.)/g, "$1");
    }
    var serde = SERDE_JSON_DEBUG.exec(line);
    return serde ? serde[1].replace(/\\(.)/g, "$1") + " at line " + serde[2] + " column " + serde[3] : null;
  }

  // ---- A paste cut before its error ------------------------------------------
  // Python prints a chained exception's cause first: a paste that stops at
  // `The above exception was the direct cause of the following exception:`
  // holds the cause's message and frames, not the error that followed.
  var CUT_BEFORE_ERROR = /(?:was the direct cause of the following exception|another exception occurred):\s*$/;

  function cutBeforeError(text) {
    return CUT_BEFORE_ERROR.test(String(text).slice(-200));
  }

  return {
    read: read,
    READ_LIMIT: READ_LIMIT,
    stripNoise: stripNoise,
    messageLines: messageLines,
    cutBeforeError: cutBeforeError,
  };
});
