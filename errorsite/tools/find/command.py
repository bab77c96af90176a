"""`errorsite find` in a terminal: its arguments, and what it prints (the
verdict first, then the results, every line made inert for a CI log).
The search itself is the package's Finder."""
from __future__ import annotations

import json

from . import MAX_FILES, MAX_MEMORY, Deadline, Finder, FindError, Found, Result, open_site
from .sites import MAX_FILE_BYTES, TIMEOUT

SHOWN = 160             # characters of a message on its line; --json gives it whole

FIND_HELP = """examples:
  errorsite find --site site/ "thread 'main' panicked at 'index out of bounds'"
  pytest 2>&1 | tail -30 | errorsite find --site https://example.org/errors/ -
  errorsite find --site site/ --json -n 3 < error.log

exit status: 0 a match (the first result is this error: exact or likely),
1 no match (related records may still be listed), 2 an error, said in one
line on stderr: no site there, not an errorsite site, or the site went past
a limit. find trusts no site: it reads only the site's own files (no path out
of its folder or base path, no redirect off it), each at most {file_mb} MB, at
most {files:,} for one query; the site's JavaScript gets {memory_mb} MB; the
whole search ends within --timeout. No line it prints, --json included, can
start a CI runner's command.

The first line says which: "This is your error:", "Probably this error (the
wording differs):", or "No record for this error yet."; a match comes next,
then the rest under "Other results:"."""

# The first line of the text output, as the search page says it over the first result.
VERDICTS = {"exact": "This is your error:", "likely": "Probably this error (the wording differs):"}
NO_MATCH = "No record for this error yet."
OTHERS = "Other results:"
BOLD, PLAIN = "\033[1m", "\033[0m"


def explain_lines(record: dict) -> list[str]:
    data = record.get("record") or {}
    lines = []
    if data.get("documentation"):
        lines += ["", "   What it means:", *("     " + line for line in str(data["documentation"]).strip().splitlines())]
    if data.get("solutions"):
        lines += ["", "   Solutions:", *(f"     {n}. {' '.join(str(s).split())}" for n, s in enumerate(data["solutions"], 1))]
    return lines


def result_lines(result: Result, bold: bool = False) -> str:
    """A result's two lines, made inert for a CI log; its message in bold on a terminal."""
    from ..logsafe import defuse
    message = " ".join(result.message.split())
    message = message if len(message) <= SHOWN else message[:SHOWN - 1] + "…"
    first = defuse(f"{result.rank}. {message}")
    return (f"{BOLD}{first}{PLAIN}" if bold else first) + "\n" + defuse(f"   {result.repo} · {result.error_type} · {result.url}")


def text_output(found: Found, explained: dict | None = None, bold: bool = False) -> str:
    """What `find` prints: the verdict first; on a match the first result under
    it (in bold with `bold`) and `explained`'s lines, then the others under
    "Other results:"; with none, the related records."""
    from ..logsafe import defuse
    explain = [defuse("\n".join(explain_lines(explained)))] if explained is not None else []
    first, others = (found.results[0], found.results[1:]) if found.results else (None, [])
    if found.match not in VERDICTS or first is None:
        head = NO_MATCH + (" Related records, not this error:" if first else "")
        return "\n".join([head, *(result_lines(r) for r in found.results[:1]), *explain,
                          *(result_lines(r) for r in others)])
    lines = [VERDICTS[found.match], result_lines(first, bold), *explain]
    if others:
        lines += ["", OTHERS, *(result_lines(r) for r in others)]
    return "\n".join(lines)


def one_line(text: str, most: int = 1000) -> str:
    """An error as one line of at most `most` characters: a site's message may
    hold line breaks and terminal escapes."""
    line = "".join(char if char.isprintable() else " " for char in " ".join(text.split()))
    return line if len(line) <= most else line[:most - 1] + "…"


def command(argv: list[str]) -> int:
    import argparse
    import os
    import sys
    from ..logsafe import defuse, json_mark

    parser = argparse.ArgumentParser(prog="errorsite find", description="Find the record of an error from its text "
                                     "(a paste, a traceback, a log line), with the site's own search.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=FIND_HELP.format(file_mb=MAX_FILE_BYTES >> 20, files=MAX_FILES,
                                                             memory_mb=MAX_MEMORY >> 20))
    parser.add_argument("text", nargs="?", default="-", help="the error's text; - or nothing: read standard input")
    parser.add_argument("--site", default=os.environ.get("ERRORSITE_SITE") or "site", metavar="DIR|URL",
                        help="a built site's folder, or the http(s) URL it is served from "
                             "(default: $ERRORSITE_SITE, else site)")
    parser.add_argument("-n", type=int, default=5, metavar="N", help="results to show (default: 5)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--explain", action="store_true",
                        help="add the first result's meaning and solutions (its -/r/<id>.json)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, metavar="S",
                        help=f"seconds for the whole search, network and JavaScript (default: {TIMEOUT:g})")
    args = parser.parse_args(argv)
    if args.n < 1:
        parser.error("-n must be 1 or more")
    if not 0 < args.timeout < float("inf"):
        parser.error("--timeout must be a number of seconds more than 0")
    text = sys.stdin.read() if args.text == "-" else args.text
    if not text.strip():
        print("errorsite find: no error text (give it as an argument, or on standard input)", file=sys.stderr)
        return 2
    try:
        with Finder(open_site(args.site), Deadline(args.timeout)) as finder:
            found = finder.find(text, args.n)
            explained = finder.record(found.results[0]) if args.explain and found.results else None
    except FindError as error:
        print(defuse(one_line(f"errorsite find: {error}")), file=sys.stderr)
        return 2
    if finder.address_note:
        print(defuse(finder.address_note), file=sys.stderr)
    if args.json:
        out = {"match": found.match, "site": finder.base_url,
               "results": [{"rank": r.rank, "message": r.message, "repo": r.repo, "type": r.error_type,
                            "summary": r.summary, "url": r.url} for r in found.results]}
        if explained is not None:
            out["record"] = explained
        print(defuse(json.dumps(out, ensure_ascii=False, indent=2, sort_keys=True), json_mark))
    else:  # bold on a terminal, unless NO_COLOR (no-color.org) says otherwise
        print(text_output(found, explained, bold=sys.stdout.isatty() and not os.environ.get("NO_COLOR")))
    return 0 if found.match != "none" else 1
