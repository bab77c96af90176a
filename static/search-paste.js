/* Reading a paste: what is noise, which lines carry the message, and which
 * libraries the paste names (its context).
 *
 * No DOM here: runs in the browser and under Node. nameKey and nameAliases
 * mirror errorsite/search/names.py, with its word lists read from meta.json;
 * a test runs both on the same names.
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
  // An error-looking line: a word errors use, a class named as raised
  // (`ValueError`, `requests.exceptions.InvalidSchema: `, `Psych::BadAlias (`), a CI error mark,
  // or a stack frame (Python's, Java's and JavaScript's, Go's, Ruby's).
  var ERROR_LOOKING = new RegExp([
    /\b(?:errors?|exceptions?|panic(?:ked)?|fatal|traceback|fail(?:ed|ure)?|caused by|what\(\)|cannot|can't|unable|denied|refused|invalid|not found|no such)\b/.source,
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

  // ---- The innermost frame: where the error was raised ----------------------
  // The file (or, for a .NET frame without one, the type) of the frame that
  // raised: the last of a Python traceback, the first of any other stack.
  var PYTHON_FRAME = /^[^\S\n]*File "([^"\n]+)", line \d+/;
  var OTHER_FRAMES = [
    /^[^\S\n]*at [^\n]*?\(([^()\s]+?):\d+(?::\d+)?\)/,   // Java, JavaScript: at f (file:1:2), at a.B.c(B.java:9)
    /^[^\S\n]*at ([^\s()]+?):\d+:\d+[^\S\n]*$/,             // JavaScript: at file:1:2
    / in ([^\s:]+\.cs):line \d+/,                          // .NET with its file
    /^[^\S\n]+(\S+\.go):\d+/,                               // a goroutine's frame
    /^[^\S\n]*([^\s:]+\.rb):\d+:in /,                       // Ruby
    /^[^\S\n]*(?:at[^\S\n]+|>?[^\S\n]*[\w.]+\.(?:dll|exe)!)?[\w`]+(?:\.[\w`]+)*\.([\w`]+)\.[\w`<>]+\([^()\n]*\)/,  // .NET without a file: its type
  ];

  /* text → the innermost frame's file name without its folders and
   * extension, lower-cased (`waitgroup` of `sync/waitgroup.go:64`,
   * `connecthelper` of `at System.Net.Http.ConnectHelper.Connect()`), or "". */
  function innermostFile(text) {
    var lines = String(text).slice(0, 20000).split("\n").slice(0, MAX_RAISE_LINES), python = "";
    for (var i = 0; i < lines.length; i++) {
      var m = PYTHON_FRAME.exec(lines[i]);
      if (m) { python = m[1]; continue; }
      if (python) continue;
      for (var r = 0; r < OTHER_FRAMES.length; r++) {
        m = OTHER_FRAMES[r].exec(lines[i]);
        if (m) return baseName(m[1]);
      }
    }
    return python ? baseName(python) : "";
  }

  function baseName(path) {
    return path.replace(/^.*[\/\\]/, "").replace(/`\d+$/, "").replace(/\.\w{1,6}$/, "").toLowerCase();
  }

  // ---- Where the error was raised: the languages of the paste's frames ------
  // A stack frame or a panic's location names the source file the error
  // passed through: `File "x.py", line 3`, `at f (x.js:1:2)`, `at a.B(B.java:9)`,
  // `at A.B() in x.cs:line 9`, `x.rb:3:in` (with `from` past the first), `#0 x.php(12)`, `panicked at
  // src/x.rs:1:2`, a goroutine's `\tx.go:12`. A log line's `x.go:82` is not one.
  var RAISE_LINE = /^[^\S\n]*(?:File\s|at\s|from\s|#\d+\s)|\bpanicked at |^[^\S\n]+\S+\.go:\d+|^[^\S\n]*\S+\.rb:\d+:in /;
  var SOURCE_AT = /[\w-]\.([A-Za-z]{1,6})(?:", line \d|:\d|\(\d|:line \d)/g;
  // A .NET frame without a file names its method's parameters, typed, or
  // none: `at Npgsql.ConnectorPool.Rent()`. Java's says where, or `(Unknown Source)`.
  var DOTNET_FRAME = /^[^\S\n]*at [\w.`<>|$\[\],]+\((?!Unknown Source\)|Native Method\))(?:[\w.`<>\[\]]+ \w+(?:, [\w.`<>\[\]]+ \w+)*)?\)[^\S\n]*$/;
  var MAX_RAISE_LINES = 300;

  /* text → {language code: true}: the languages of the source files the
   * paste's frames and panics name. `extensions`: meta.json's, the build's
   * (facets.py), extension → language code. */
  function raisedIn(text, extensions) {
    var found = Object.create(null);
    if (!extensions) return found;
    var lines = String(text).slice(0, 20000).split("\n").slice(0, MAX_RAISE_LINES);
    for (var i = 0; i < lines.length; i++) {
      if (!RAISE_LINE.test(lines[i])) continue;
      SOURCE_AT.lastIndex = 0;
      var m;
      while ((m = SOURCE_AT.exec(lines[i]))) {
        var ext = m[1].toLowerCase();
        if (Object.prototype.hasOwnProperty.call(extensions, ext)) found[extensions[ext]] = true;
      }
      if (DOTNET_FRAME.test(lines[i]) && extensions.cs) found[extensions.cs] = true;
    }
    return found;
  }

  // ---- Whose error it is: the library of the error's class -----------------
  // `psycopg2.InterfaceError`, `Faraday::SSLError`, `Npgsql.NpgsqlException`:
  // a class named with its library is that library's error, whatever
  // another library's message it shares words with.
  var QUALIFIED_CLASS = /(?:^|[^\w$.:])((?:[A-Za-z_$][\w$]*(?:\.|::))+)[A-Z][\w$]*(?:Error|Exception)\b(?!\()/gm;

  /* text → {key: STRONG}: the libraries that qualify the error classes the
   * paste names, past domain roots (`com.google.gson` is gson's), never a
   * language's own (`java.lang`, `System`). `rules`: meta.json's `names`. */
  function errorOwners(text, rules) {
    var owners = Object.create(null), match;
    QUALIFIED_CLASS.lastIndex = 0;
    text = String(text).slice(0, 20000);
    while ((match = QUALIFIED_CLASS.exec(text))) {
      var parts = match[1].split(/\.|::/).filter(Boolean);
      while (parts.length > 1 && rules.domains.indexOf(parts[0].toLowerCase()) >= 0) parts.shift();
      if (rules.builtinRoots.indexOf(parts[0].toLowerCase()) >= 0) continue;
      nameAliases(parts[0], rules).forEach(function (key) { addName(owners, key, STRONG); });
    }
    return owners;
  }

  // ---- Names: the libraries a paste names, for names.json -----------------
  // The word lists (`rules`: meta.json's `names`) are the build's own,
  // errorsite/search/names.py's: generic module names, a project name's
  // language or tool affixes, reverse-domain roots and language roots.
  var STRONG = 2, WEAK = 1;

  function nameKey(name) {
    return String(name).toLowerCase().replace(/[-.\s]+/g, "_").replace(/^_+|_+$/g, "");
  }

  /* The key of a name, then the key without one language or tool affix. */
  function nameAliases(name, rules) {
    var key = nameKey(name), generic = rules.generic;
    if (!key || generic.indexOf(key) >= 0) return [];
    var keys = [key];
    rules.prefixes.forEach(function (p) { if (key.slice(0, p.length) === p && key.length > p.length + 1) keys.push(key.slice(p.length)); });
    rules.suffixes.forEach(function (s) { if (key.slice(-s.length) === s && key.length > s.length + 1) keys.push(key.slice(0, -s.length)); });
    return keys.filter(function (k, i) { return keys.indexOf(k) === i && generic.indexOf(k) < 0; });
  }

  // [regex, how its groups become names]: "name" (aliases strong, first part
  // weak), "stdlib" (weak: most tracebacks pass through Python's own
  // library), "repo" (github.com/owner/name, or a GitHub Action's
  // owner/name@ref), "package" (dotted: first part strong, the rest weak),
  // "namespace" (capitalised: its first part alone, strong), "path" (a `::` path: its first part), "command" (the program a shell
  // prompt runs). A folder separator is `/`, or one or two backslashes:
  // Windows paths, as printed or as escaped in a string.
  var NAME_RULES = [
    [/node_modules(?:\/|\\{1,2})((?:@[\w.-]+(?:\/|\\{1,2}))?[\w.-]+)/g, "name"],
    [/(?:site|dist)-packages(?:\/|\\{1,2})([\w.-]+)/g, "name"],
    [/[\/\\]python\d(?:\.\d+)*(?:\/|\\{1,2})(?!site-packages|dist-packages)(\w+)[\/\\.]/g, "stdlib"],
    [/\\python\d+\\{1,2}lib\\{1,2}(?!site-packages|dist-packages)(\w+)[\\.]/gi, "stdlib"],  // C:\Python39\Lib\json\…
    [/\.cargo(?:\/|\\{1,2})registry(?:\/|\\{1,2})src(?:\/|\\{1,2})[^\/\\\s]+(?:\/|\\{1,2})([A-Za-z_][\w-]*?)-\d+\.\d+\.\d+/g, "name"],
    [/\.cargo(?:\/|\\{1,2})git(?:\/|\\{1,2})checkouts(?:\/|\\{1,2})([A-Za-z_][\w-]*?)-[0-9a-f]{6,}/g, "name"],
    [/\bgithub\.com[\/:]([\w.-]+\/[\w.-]+)/g, "repo"],
    [/(?:^|\s)(?:uses:|Run)[ \t]+([\w-]+\/[\w.-]+)@[\w.-]+/gm, "repo"],  // a GitHub Action: `Run actions/cache@v4`
    [/\b(?:golang\.org\/x|gopkg\.in|go\.uber\.org|google\.golang\.org|k8s\.io)\/([A-Za-z][\w-]*)/g, "name"],
    [/(?:^|[^\w.$\/\\-])((?:[a-z_][\w]*\.)+)[A-Z][\w$]*/gm, "package"],
    // Capitalised namespaces: PHP's `Illuminate\Database\QueryException`, and
    // .NET's of three parts or more (`Npgsql.Internal.TypeHandlers`), which
    // a sentence's `Foo.Bar` is not.
    // Each is read whole, as an atomic group would (`(?=(…))\1`): no
    // backtracking into a long run of parts.
    [/(?:^|[^\w\\\/:.$-])(?=((?:[A-Z][A-Za-z0-9_]*\\{1,2})+[A-Z][A-Za-z0-9_]*))\1(?![\w.\\])/gm, "namespace"],
    [/(?:^|[^\w.$\/\\-])(?=((?:[A-Z][A-Za-z0-9_]*\.){2,}[A-Z][A-Za-z0-9_]*))\1/gm, "namespace"],
    // Installed packages by their folders: Composer's `vendor/laravel/framework/`
    // (its vendor and package, as on GitHub; not Go's `vendor/github.com/…`),
    // RubyGems' `gems/actionpack-5.0.1/`.
    [/(?:^|[\/\\\s])vendor(?:\/|\\{1,2})(?![\w-]+\.[a-z]{2,}(?:\/|\\))([a-z0-9][\w.-]*(?:\/|\\{1,2})[a-z0-9][\w.-]*)(?:\/|\\{1,2})/g, "repo"],
    [/(?:^|[\/\\\s\]])gems(?:\/|\\{1,2})([A-Za-z_][\w-]*?)-\d+(?:\.\d+)+[\w.-]*(?:\/|\\{1,2})/g, "name"],
    [/(?:^|[^\w:])([a-z_][a-z0-9_]*)::/gm, "path"],
    [/^[ \t]*(?:[$#>%][ \t]+)?(?:\.{1,2}[\/\\])?([a-z][a-z0-9_.-]*[a-z0-9])(?=:[ \t]|[ \t]+--?[a-z])/gm, "name"],
    // A tool's tag before its message: `[vite]: …`, `Error: [webpack-cli] …`.
    [/^[ \t]*(?:(?:[A-Za-z]*Error:|ERROR|error)[ \t]+)?\[(@?[a-z][\w.-]*(?:\/[\w.-]+)?)\]:?[ \t]/gm, "name"],
    // A shell prompt: `$ prog`, `❯ prog`, `user@host:~/app$ prog`, `(venv) $ prog`,
    // `➜  app git:(main) ✗ prog` (oh-my-zsh), `C:\app>prog`, `PS C:\app> prog`.
    [/^[ \t]*(?:\([\w.-]+\)[ \t]+)?(?:PS[ \t]+)?(?:[A-Za-z]:\\[^\n>]{0,200}>[ \t]*|\u279c[ \t]+\S{1,100}[ \t]+(?:git:\([^)\n]{0,100}\)[ \t]*)?(?:\u2717[ \t]*)?|(?:[\w.-]+@[\w.-]+(?::[^\s$#]{0,200})?)?[$\u276f\u03bb\u00bb\u203a][ \t]+)([^\n]{1,200})/gm, "command"],
  ];
  var MAX_COMMAND_WORDS = 6;

  /* The program a command line runs: past launchers (`sudo`, `npx`,
   * `python -m`: `rules.launchers`), none when it is a runner of scripts
   * (`npm run build`, `python train.py`: `rules.runners`). */
  function commandProgram(command, rules) {
    var words = command.split(/[ \t]+/).slice(0, MAX_COMMAND_WORDS);
    for (var i = 0; i < words.length;) {
      var rest = words.slice(i).join(" ").toLowerCase() + " ", launched = false;
      for (var l = 0; l < rules.launchers.length && !launched; l++) {
        if (rest.slice(0, rules.launchers[l].length + 1) === rules.launchers[l] + " ") {
          i += rules.launchers[l].split(" ").length;
          launched = true;
        }
      }
      if (launched) continue;
      var program = words[i].replace(/^.*[\/\\]/, "").replace(/\.(?:exe|cmd|bat|ps1|sh)$/i, "");
      if (!/^[A-Za-z][\w.-]*[A-Za-z0-9]$/.test(program) || rules.runners.indexOf(program.toLowerCase()) >= 0) return "";
      return program;
    }
    return "";
  }

  function addName(names, key, strength) {
    if (key.length > 1 && !(names[key] >= strength)) names[key] = strength;
  }

  function addAliases(names, name, strength, rules) {
    var keys = nameAliases(name.replace(/\.(?:py|js|mjs|cjs|rs|egg-info|dist-info)$/, "").replace(/^@/, ""), rules);
    keys.forEach(function (key) { addName(names, key, strength); });
    // `llama_model_load`, `redis-parser`, `@babel/core`: C functions and
    // packages carry their library's name first.
    var first = nameKey(name.replace(/^@/, "")).split(/[_\/]/)[0];
    if (keys.length && first && first !== keys[0] && rules.generic.indexOf(first) < 0) addName(names, first, WEAK);
  }

  /* text → {key: strength}: every name the paste's context gives, to look up
   * in names.json. Strong: a package, crate, module or repository named as
   * such; weak: a part of one (the first word of `llama_model_load`).
   * `rules`: meta.json's `names`. */
  function pasteNames(text, rules) {
    var names = Object.create(null);
    text = String(text).slice(0, 20000);
    NAME_RULES.forEach(function (rule) {
      rule[0].lastIndex = 0;
      var match;
      while ((match = rule[0].exec(text))) {
        var name = match[1].replace(/\\+/g, "/");
        if (rule[1] === "command") {
          name = commandProgram(name, rules);
          if (name) addAliases(names, name, STRONG, rules);
        } else if (rule[1] === "repo") {
          addName(names, name.toLowerCase().replace(/(?:\.git|@[\w.-]*)$/, ""), STRONG);
          addAliases(names, name.split("/")[1].replace(/(?:\.git|@[\w.-]*)$/, ""), STRONG, rules);
        } else if (rule[1] === "package" || rule[1] === "namespace") {
          var parts = name.split(/[.\/]/).filter(function (p) { return p.length > 1; });
          while (parts.length > 1 && rules.domains.indexOf(parts[0].toLowerCase()) >= 0) parts.shift();
          if (rule[1] === "namespace") parts = parts.slice(0, 1);  // `Json` in `Newtonsoft.Json` is no library's name
          if (!parts.length || rules.builtinRoots.indexOf(parts[0].toLowerCase()) >= 0) continue;
          parts.forEach(function (part, i) {
            nameAliases(part, rules).forEach(function (k) { addName(names, k, i ? WEAK : STRONG); });
          });
        } else if (rule[1] === "stdlib") {
          nameAliases(name, rules).forEach(function (k) { addName(names, k, WEAK); });
        } else if (rule[1] === "path") {
          if (rules.builtinRoots.indexOf(name) < 0) addAliases(names, name, STRONG, rules);
        } else {
          addAliases(names, name, STRONG, rules);
        }
      }
    });
    return names;
  }

  return {
    read: read,
    READ_LIMIT: READ_LIMIT,
    stripNoise: stripNoise,
    messageLines: messageLines,
    pasteNames: pasteNames,
    raisedIn: raisedIn,
    errorOwners: errorOwners,
    cutBeforeError: cutBeforeError,
    innermostFile: innermostFile,
    nameKey: nameKey,
    nameAliases: nameAliases,
  };
});
