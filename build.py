#!/usr/bin/env python3
"""Build the error-index site: `python build.py [--records DIR] [--out DIR] [--base-url URL]`."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from errorsite.pipeline import build, summary_line, timing_lines
from errorsite.urls import normalize_base_url
from errorsite.write import OutputRefused, WriteFailed

DEFAULT_BASE_URL = "http://localhost:8000/"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__)
    parser.add_argument("--records", type=Path, default=Path("records"),
                        help="folder of record JSON files, searched recursively (default: records)")
    parser.add_argument("--out", type=Path, default=Path("site"),
                        help="output folder, replaced whole when the build succeeds, and only if it is "
                             "absent, empty or made by an earlier build (default: site)")
    parser.add_argument("--force", action="store_true",
                        help="replace --out even if it was not made by build.py (never the root, home or "
                             "current folder, the project's folders, or a parent of one)")
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL,
                        help="absolute URL the site is served from, e.g. https://example.org/errors/ "
                             f"(default: {DEFAULT_BASE_URL})")
    parser.add_argument("--strict", action="store_true",
                        help="fail, writing nothing, if any record is bad")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes rendering record pages (default: one per CPU)")
    parser.add_argument("--no-cache", action="store_true",
                        help="render every record page again, even those unchanged since the last build")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the time of each stage at the end")
    args = parser.parse_args(argv)
    try:
        args.base_url = normalize_base_url(args.base_url)
    except ValueError as error:
        parser.error(str(error))
    if not args.records.is_dir():
        parser.error(f"--records: {args.records} is not a folder")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        result = build(args.records, args.out, args.base_url, strict=args.strict,
                       report=lambda line: print(line, file=sys.stderr), jobs=args.jobs, force=args.force,
                       cache=not args.no_cache)
    except OutputRefused as refusal:
        print(f"build.py: {refusal}", file=sys.stderr)
        return 2
    except WriteFailed as failure:
        print(f"build.py: {failure}", file=sys.stderr)
        return 1
    if not args.quiet or not result.written:
        print(summary_line(result), file=sys.stderr if not result.written else sys.stdout)
    if args.verbose:
        print("\n".join(timing_lines(result)), file=sys.stderr)
    return 0 if result.written else 1


if __name__ == "__main__":
    sys.exit(main())
