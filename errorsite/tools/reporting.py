"""A build's result as the lines the commands print (build, assemble, serve)."""
from __future__ import annotations

from ..pipeline import BuildResult


def summary_line(result: BuildResult) -> str:
    if not result.written:
        files = len({p.path for p in result.problems})
        return f"nothing written: {plural(files, 'bad record file')} (--strict)"
    tail = outcome_tail(result)
    return f"built {plural(result.records, 'record')}{tail}{' — see above' if tail else ''}"


def outcome_tail(result: BuildResult) -> str:
    """What became of the records with problems: ", kept 1 from the previous build, skipped 2, dropped 1 value"."""
    kept = {p.path for p in result.problems if p.kept}
    skipped = len({p.path for p in result.problems if not p.dropped} - kept)
    dropped = sum(p.dropped for p in result.problems)
    return "".join([f", kept {len(kept)} from the previous build" if kept else "",
                    f", skipped {skipped}" if skipped else "",
                    f", dropped {plural(dropped, 'value')}" if dropped else ""])


def overlay_heading(result: BuildResult) -> str | None:
    """The serve overlay's sentence over a written build's problems, saying
    what the terminal's summary says of them: "1 problem in the records:
    built 3 records, kept 1 from the previous build." None without problems."""
    if not result.problems or not result.written:
        return None
    return (f"{plural(len(result.problems), 'problem')} in the records: built {plural(result.records, 'record')}"
            f"{outcome_tail(result)}.")


def timing_lines(result: BuildResult) -> list[str]:
    """-v: one line per stage, as `stage <name>: <seconds> s`."""
    lines = [f"stage {name}: {seconds:.2f} s" for name, seconds in result.timings.items()]
    return lines + [f"record pages reused from the previous build: {result.reused:,} of {result.records:,}"]


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"
