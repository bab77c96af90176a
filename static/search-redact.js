/* What a paste may not carry out of the browser: before its text goes into
 * an address (the search page's #q=, a link to it, a prefilled issue) or a
 * page title, the names of home folders, tokens (GitHub, AWS, bearer and
 * basic credentials, key=value secrets, a URL's password), e-mail addresses
 * and IP addresses are replaced by a placeholder naming what was there.
 *   ErrorSearchRedact.redact(text) → {text, found: {kind: count}}
 *   ErrorSearchRedact.messageLine(text) → the line of a paste that is its message
 * Pure, no DOM: Node runs it in the fast tests. */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ErrorSearchRedact = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // [kind, pattern, replacement]: in this order, so a token inside a URL or a
  // header is named as a token, and an e-mail is not taken for a URL password.
  // Every repeat is bounded (a scheme, an address's parts, as their standards
  // bound them): a rule tried at every word of a long `a.a.a…` run then reads
  // a bounded stretch of it, not the rest of the run.
  var RULES = [
    ["token", /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{35})\b/g, "<token>"],
    ["token", /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, "<token>"],
    ["token", /\b(Bearer|Basic|token)(\s+)[A-Za-z0-9._~+\/=-]{8,}/g, "$1$2<token>"],
    ["token", /\b((?:aws_secret_access_key|aws_session_token|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret|password|passwd|pwd|token)["']?\s*[=:]\s*["']?)(?!<(?:token|password|email|ip|user)>)[^\s"'&,;]{4,}/gi, "$1<token>"],
    ["password", /\b([a-z][a-z0-9+.-]{0,31}:\/\/[^\s:\/@]{1,256}):[^\s@\/]{1,256}@/gi, "$1:<password>@"],
    ["email", /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g, "<email>"],
    ["user", /(\/(?:home|Users)\/)(?!<user>)[^\/\\\s"'<>:()\[\]{},;]+/g, "$1<user>"],
    ["user", /\b([A-Za-z]:[\\\/]+(?:Users|Documents and Settings)[\\\/]+)(?!<user>)[^\\\/\s"'<>:()\[\]{},;]+/gi, "$1<user>"],
    ["ip", /\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b(?!\.\d)/g, "<ip>"],
    ["ip", /(?<![\w:.])(?=[0-9a-f:]*\d)(?=[0-9a-f:]*::|(?:[0-9a-f]{1,4}:){7}[0-9a-f])(?:[0-9a-f]{1,4}|:)(?::[0-9a-f]{0,4}){1,7}(?![\w:])/gi, "<ip>"],
  ];
  var NAMES = { token: ["token", "tokens"], password: ["password in a URL", "passwords in URLs"],
                email: ["e-mail address", "e-mail addresses"], user: ["home folder name", "home folder names"],
                ip: ["IP address", "IP addresses"] };

  function redact(text) {
    var found = {};
    var out = String(text);
    RULES.forEach(function (rule) {
      out = out.replace(rule[1], function () {
        found[rule[0]] = (found[rule[0]] || 0) + 1;
        var groups = Array.prototype.slice.call(arguments, 1, -2);
        return rule[2].replace(/\$(\d)/g, function (_, n) { return groups[n - 1] || ""; });
      });
    });
    return { text: out, found: found };
  }

  /* "2 home folder names, 1 token": what redact() hid, for the preview. */
  function describe(found) {
    return Object.keys(NAMES).filter(function (kind) { return found[kind]; }).map(function (kind) {
      return found[kind] + " " + NAMES[kind][found[kind] > 1 ? 1 : 0];
    }).join(", ");
  }

  // A line that only says where (a stack frame, a traceback's header or
  // source line, a shell prompt, a log's caret) is not the message.
  var FRAME = /^\s*(at\s|File\s"|Traceback\b|\^|~+\s*$|\$\s|>\s|#\d+\s|\d+:\s+0x|stack backtrace:|note:|-{3,}|={3,})/;
  var MESSAGE = /(error|exception|panicked|fatal|failed|failure|denied|cannot|can't|invalid|refused|not found|unable)/i;

  var NAMED = /^([\w.$]*(Error|Exception|Panic)\b[\w.$]*:|thread '.*' panicked|panic:|error(\[\w+\])?:|fatal:)/i;

  /* The line of a paste that names the error: the first that has the shape of
   * one ("ValueError: …", "error[E0308]: …", "thread 'main' panicked"), else
   * the first that reads like one, else the first that is no frame. In a
   * Python traceback the indented lines are source, not messages. */
  function messageLine(text) {
    var raw = String(text).split(/\r?\n/);
    var traceback = raw.some(function (line) { return /^Traceback \(/.test(line); });
    var lines = raw.filter(function (line) { return !(traceback && /^\s/.test(line)); })
      .map(function (line) { return line.trim(); }).filter(Boolean);
    var plain = lines.filter(function (line) { return !FRAME.test(line); });
    return plain.filter(function (line) { return NAMED.test(line); })[0] ||
      plain.filter(function (line) { return MESSAGE.test(line); })[0] || plain[0] || lines[0] || "";
  }

  return { redact: redact, describe: describe, messageLine: messageLine };
});
