"""What the commands print of a build (build, assemble, serve): the record
step's progress while it runs (Progress), and its result as lines."""
from __future__ import annotations

import sys

from ..pipeline import BuildResult
from .logsafe import defuse


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


class Progress:
    """On a terminal, a bar with rate and time left for the record stage (tqdm);
    problem lines print above it. Nothing when not a terminal, or with -q."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.bar = None

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.close()

    def update(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            from tqdm import tqdm
            self.bar = tqdm(total=total, unit=" records", desc="records", file=sys.stderr, leave=False,
                            smoothing=0.05, mininterval=0.25)
        self.bar.update(done - self.bar.n)
        if done == total:
            self.bar.close()
            self.bar = None

    def report(self, line: str) -> None:
        if self.bar is not None:
            self.bar.write(defuse(line), file=sys.stderr)
        else:
            print(defuse(line), file=sys.stderr)
