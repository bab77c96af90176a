/* A paste's context: what it says of where it came from. The libraries it
 * names (looked up in names.json), the languages its frames were raised in,
 * its innermost frame, and the library of the error class it raises.
 * Reading the paste (noise, message lines) is search-paste.js's.
 *
 * No DOM here: runs in the browser and under Node. nameKey and nameAliases
 * mirror errorsite/search/names.py, with its word lists read from meta.json;
 * a test runs both on the same names.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ErrorSearchContext = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

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
      var parts = libraryParts(match[1].split(/\.|::/).filter(Boolean), rules);
      if (parts.length) nameAliases(parts[0], rules).forEach(function (key) { addName(owners, key, STRONG); });
    }
    return owners;
  }

  /* A dotted or `::` name's parts past its domain roots (`com.google.gson`:
   * gson); none for a language's own (`java.lang`, `System`). */
  function libraryParts(parts, rules) {
    while (parts.length > 1 && rules.domains.indexOf(parts[0].toLowerCase()) >= 0) parts.shift();
    return parts.length && rules.builtinRoots.indexOf(parts[0].toLowerCase()) < 0 ? parts : [];
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
          var parts = libraryParts(name.split(/[.\/]/).filter(function (p) { return p.length > 1; }), rules);
          if (rule[1] === "namespace") parts = parts.slice(0, 1);  // `Json` in `Newtonsoft.Json` is no library's name
          if (!parts.length) continue;
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
    pasteNames: pasteNames,
    raisedIn: raisedIn,
    errorOwners: errorOwners,
    innermostFile: innermostFile,
    nameKey: nameKey,
    nameAliases: nameAliases,
  };
});
