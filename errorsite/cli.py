"""The command line. Each command parses its options and calls the pipeline:

    python build.py [options]          build the site (the default command)
    python build.py serve [options]    build, serve on 127.0.0.1:8000, rebuild and reload on change
    python build.py check [options]    validate the records, build nothing

Exit status: 0 success; 1 nothing written (--strict with a bad record, a
template error) or, for `check`, a record the build would skip (and, strict,
a value it would drop); 2 a usage or settings error. Installed, the same
commands are `errorsite [command]` and `python -m errorsite [command]`.
"""
from __future__ import annotations

import argparse
import gc
import signal
import sys
from pathlib import Path
from typing import Callable

import jinja2

from . import __version__
from .config import KEYS, ConfigError, Settings, add_options, keys_help, resolve
from .load import NoRecordFiles, skipped_note
from .pages.render import TemplateMissing, template_error
from .pipeline import BuildResult, BuildSettings, assemble, build, build_shard
from .records import RenderFailed
from .shards import Shard, ShardError, parse_shard
from .tools.check import FORMATS, check, exit_status, report_lines, summary
from .tools.logsafe import defuse
from .tools.reporting import Progress, summary_line, timing_lines
from .write import OutputRefused, WriteFailed

COMMANDS_HELP = """commands:
  python build.py [options]          build the site
  python build.py serve [options]    build, serve, rebuild and reload on change (serve --help)
  python build.py check [options]    validate the records without building (check --help)
  python build.py --shard K/N --out SHARD [options]    the record pages of one slice, for assemble
  python build.py assemble SHARD... --out SITE [options] one site from all the shards (assemble --help)
  python build.py find [TEXT | -] --site DIR|URL       the record of an error, with the site's search (find --help)
"""
BUILD_KEYS = [key.name for key in KEYS if not key.name.startswith("serve.")]
SERVE_KEYS = [key.name for key in KEYS if key.name not in ("out", "cache_dir")]  # serve builds into a folder of its own


def main(argv: list[str] | None = None) -> int:
    collect_garbage_less_often()
    argv = list(sys.argv[1:] if argv is None else argv)
    command = COMMANDS.get(argv[0]) if argv else None
    return command(argv[1:]) if command else build_command(argv)


def collect_garbage_less_often() -> None:
    """A build keeps hundreds of thousands of long-lived objects (summaries,
    outcomes, the previous build's state), and CPython's collector, run every
    700 allocations, walks the older ones again and again. Its own data has
    no reference cycles worth collecting
    early, so a collection every 100,000 allocations is plenty. Not in the
    workers (records.py): their objects live for one record."""
    gc.set_threshold(100_000, 50, 100)


def say(text: str, file=None, flush: bool = False) -> None:
    """Print what may hold a record's text or a file's name: defused, so a
    CI runner reading the log never takes it for a command (logsafe)."""
    print(defuse(text), file=file or sys.stdout, flush=flush)


def program() -> str:
    """What the command calls itself: `build.py` run from a checkout,
    `errorsite` once installed (its console script, or `python -m errorsite`)."""
    return "build.py" if sys.argv and Path(sys.argv[0]).name == "build.py" else "errorsite"


def parser_for(command: str, description: str, names: list[str]) -> argparse.ArgumentParser:
    prog = f"{program()} {command}".rstrip()
    parser = argparse.ArgumentParser(prog=prog, description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=COMMANDS_HELP + "\n" + keys_help())
    add_options(parser, names)
    parser.add_argument("--version", action="version", version=f"errorsite {__version__}")
    return parser


def settings(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Settings:
    """The run's settings, or a usage error (exit 2) naming the key and the file."""
    try:
        result = resolve(args)
    except ConfigError as error:
        parser.error(defuse(str(error)))
    return result


PREVIOUS_HELP = ("the -/urls.json of the site as deployed, when --out does not hold the last build: every "
                 "URL it lists keeps working (a redirect, or a 'removed' page)")


def build_command(argv: list[str]) -> int:
    parser = parser_for("", "Build the error-index site from a folder of record files.", BUILD_KEYS)
    parser.add_argument("--force", action="store_true",
                        help="replace --out even if it was not made by build.py (never the root, home or "
                             "current folder, the project's folders, or a parent of one)")
    parser.add_argument("--no-cache", action="store_true",
                        help="render every record page again, even those unchanged since the last build")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the time of each stage at the end")
    parser.add_argument("--shard", metavar="K/N", type=shard_option,
                        help="render only slice K of N of the records into --out, with what "
                             "`build.py assemble` needs to make the site from all N")
    parser.add_argument("--previous-manifest", metavar="FILE", type=Path, help=PREVIOUS_HELP)
    args = parser.parse_args(argv)
    s = settings(parser, args)
    if no_base_url(s):
        return 2
    with Progress(enabled=not args.quiet) as progress:
        flags = BuildSettings(s.strict, s.jobs, args.force, not args.no_cache, s.site_options,
                              args.previous_manifest, s.cache_dir, progress.report, progress.update)
        if args.shard:
            return run_build(args, lambda: build_shard(s.records, s.out, s.base_url, args.shard, flags))
        return run_build(args, lambda: build(s.records, s.out, s.base_url, flags))


def assemble_command(argv: list[str]) -> int:
    parser = parser_for("assemble", "Make the site from the shard folders of `build.py --shard K/N` "
                        "(all N of them, built with the same code and settings).",
                        [name for name in BUILD_KEYS if name != "records"])
    for action in parser._actions:
        if action.dest == "jobs":
            action.help = "processes making the global pages: the search data is made beside the listings " \
                          "(default: one per CPU it may use)"
    parser.add_argument("shards", nargs="+", type=Path, metavar="SHARD", help="a shard folder")
    parser.add_argument("--force", action="store_true", help="as for the build")
    parser.add_argument("--previous-manifest", metavar="FILE", type=Path, help=PREVIOUS_HELP)
    parser.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the time of each stage at the end")
    args = parser.parse_args(argv)
    s = settings(parser, args)
    if no_base_url(s):
        return 2
    with Progress(enabled=not args.quiet) as progress:
        flags = BuildSettings(s.strict, s.jobs, args.force, options=s.site_options,
                              previous_manifest=args.previous_manifest, cache_dir=s.cache_dir,
                              report=progress.report, progress=progress.update)
        return run_build(args, lambda: assemble(args.shards, s.out, s.base_url, flags))


def shard_option(text: str) -> Shard:
    try:
        return parse_shard(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def no_base_url(s: Settings) -> bool:
    """A site's absolute links (canonical, link cards, the sitemap, copied
    links, find's and the bot's) all start with the base URL, so a build never
    guesses one, as Zola does not: a forgotten one would publish links to this
    machine. Said in one line, exit status 2; `serve` has its own."""
    if "base_url" not in s.defaulted:
        return False
    say(f"{program()}: no base URL: pass --base-url with the address the site will be served from "
        f"(e.g. https://example.org/errors/) or set base_url in site.toml; to look at it on this machine, "
        f"`{program()} serve`, or --base-url {s.base_url}", file=sys.stderr)
    return True


def run_build(args: argparse.Namespace, run: Callable[[], BuildResult]) -> int:
    """Run a build or an assemble; its outcome as lines and an exit status."""
    try:
        result = run()
    except TemplateMissing as error:
        say(f"{error}\nnothing written", file=sys.stderr)
        return 1
    except jinja2.TemplateError as error:
        say(f"template error: {template_error(error)}\nnothing written", file=sys.stderr)
        return 1
    except RenderFailed as failure:
        say(f"{failure}\nnothing written", file=sys.stderr)
        return 1
    except OutputRefused as refusal:
        say(f"{program()}: {refusal}", file=sys.stderr)
        return 2
    except NoRecordFiles as error:
        say(f"{program()}: {error}; nothing written", file=sys.stderr)
        return 2
    except (WriteFailed, ShardError) as failure:
        say(f"{program()}: {failure}", file=sys.stderr)
        return 1
    if not args.quiet:
        for note in result.notes:
            say(note, file=sys.stderr)
    if not args.quiet or not result.written:
        say(summary_line(result), file=sys.stderr if not result.written else sys.stdout)
    if args.verbose:
        say("\n".join(timing_lines(result)), file=sys.stderr)
    return 0 if result.written else 1


def serve_command(argv: list[str]) -> int:
    from .tools.serve import serve  # imports watchfiles, which only serving needs

    parser = parser_for("serve", "Build the site, serve it, and rebuild and reload open pages "
                        "when a record, template or static file changes.", SERVE_KEYS)
    args = parser.parse_args(argv)
    s = settings(parser, args)
    if s.host not in ("127.0.0.1", "localhost", "::1"):
        say(f"warning: serving on {s.host}: other machines may be able to read the site", file=sys.stderr)

    def reread() -> Settings:
        return resolve(args)

    # Ctrl-C stops serve whatever it inherited: a shell's background job gets
    # SIGINT ignored, and a parent's thread may hand it SIGINT blocked.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        serve(s, reread, report=lambda line: say(line, file=sys.stderr, flush=True),
              ready=lambda url, _: say(url, flush=True))
    except OSError as error:  # the port is taken, or the address is not ours
        say(f"serve: cannot listen on {s.host}:{s.port}: {error.strerror or error}", file=sys.stderr)
        return 1
    return 0


CHECK_HELP = """levels, as the build classifies them:
  error    the record would not be built (a required field missing or of the wrong type, a bad id, …)
  warning  a value would be dropped and the record built without it (text: `field: dropped: …`)
Every problem of every record is reported in one run.

exit status:
  0  no errors (warnings allowed, unless --strict)
  1  an error, or a warning with --strict or --warnings error
  2  a usage or settings error

settings file keys it reads (site.toml in the current folder, or --config FILE):
  records, strict, jobs
"""


def check_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=f"{program()} check", description="Validate the records without building: "
                                     "every problem of every record, one line each.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=CHECK_HELP)
    add_options(parser, ["records", "jobs"])
    for action in parser._actions:
        if action.dest == "jobs":
            action.help = "processes checking records once checking them in one proves slow: a record's code " \
                          "may take its whole highlighting budget (default: one per CPU it may use)"
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text: `file: field: message`; json: one JSON object per problem "
                             "(file, field, message, level); github: GitHub Actions annotations "
                             "(default: text)")
    strictness = parser.add_mutually_exclusive_group()
    strictness.add_argument("--strict", action=argparse.BooleanOptionalAction, default=None,
                            help="warnings fail the check too (exit 1), as they fail `build --strict`; "
                                 "--no-strict undoes strict = true in the settings")
    strictness.add_argument("--warnings", choices=("warning", "error"),
                            help="what a dropped value counts as: `error` is --strict (default: warning, "
                                 "or error when the settings say strict = true)")
    args = parser.parse_args(argv)
    s = settings(parser, args)
    try:
        result = check(s.records, s.out.absolute(), jobs=s.jobs)
    except NoRecordFiles as error:
        say(f"{program()} check: {error}", file=sys.stderr)
        return 2
    for line in report_lines(result.problems, args.format):
        print(line)  # defused by its format (check.report_lines)
    if note := skipped_note(result.skipped):
        say(note, file=sys.stderr)
    say(summary(result), file=sys.stderr)
    return exit_status(result.problems, s.strict if args.warnings is None else args.warnings == "error")


def find_command(argv: list[str]) -> int:
    from .tools.find.command import command  # V8 (mini-racer) loads only for `find`
    return command(argv)


COMMANDS = {"serve": serve_command, "check": check_command, "assemble": assemble_command, "find": find_command}
