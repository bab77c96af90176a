"""A paste inside a long CI log: the suite's pastes as users paste a whole job's output.

`in_log(paste, "end", 26_000)` is a 26 KB log that ends in the paste;
`in_log(paste, "middle", 200_000)` holds it halfway, with cleanup after;
`decorated` is a log as a runner shows it, each line with a timestamp and
the error in colour. The filler is the ordinary output of an install and a
test run, the same for the same arguments.
"""
from __future__ import annotations

import random

PACKAGES = ["requests", "urllib3", "certifi", "idna", "charset-normalizer", "numpy", "pandas", "pytz",
            "python-dateutil", "six", "packaging", "pluggy", "iniconfig", "tomli", "attrs", "click",
            "jinja2", "markupsafe", "pyyaml", "typing-extensions", "setuptools", "wheel", "filelock"]
TESTS = ["test_api", "test_models", "test_views", "test_utils", "test_cli", "test_config", "test_io"]

FILLER = [
    lambda r: f"Collecting {r.choice(PACKAGES)}>={r.randint(1, 3)}.{r.randint(0, 20)}",
    lambda r: f"  Downloading {r.choice(PACKAGES)}-{r.randint(1, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)}"
              f"-py3-none-any.whl ({r.randint(20, 900)} kB)",
    lambda r: f"     {'━' * 40} {r.randint(20, 900)}.{r.randint(0, 9)}/{r.randint(20, 900)}.0 kB "
              f"{r.randint(1, 90)}.{r.randint(0, 9)} MB/s eta 0:00:00",
    lambda r: f"Requirement already satisfied: {r.choice(PACKAGES)} in ./venv/lib/python3.11/site-packages "
              f"(from -r requirements.txt (line {r.randint(1, 40)})) ({r.randint(1, 3)}.{r.randint(0, 20)}.0)",
    lambda r: f"tests/{r.choice(TESTS)}.py::test_case_{r.randint(1, 400)} PASSED"
              f"{' ' * r.randint(8, 30)}[{r.randint(1, 99):>3}%]",
    lambda r: f"npm WARN deprecated {r.choice(['inflight@1.0.6', 'glob@7.2.3', 'rimraf@3.0.2'])}: "
              "This module is not supported, and leaks memory. Do not use it.",
    lambda r: f"added {r.randint(100, 1500)} packages, and audited {r.randint(1500, 2000)} packages in {r.randint(2, 60)}s",
    lambda r: f"#{r.randint(3, 20)} [{r.randint(1, 4)}/{r.randint(4, 9)}] COPY . /app",
    lambda r: f"[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules "
              f"--depth=1 origin +{r.getrandbits(160):040x}:refs/remotes/origin/main",
    lambda r: "Post job cleanup.",
    lambda r: f"Cache saved with key: {r.choice(['pip', 'npm', 'cargo'])}-Linux-{r.getrandbits(64):016x}",
]


def filler(size: int, seed: str) -> list[str]:
    """About `size` characters of ordinary log lines."""
    rng = random.Random(seed)
    lines, total = [], 0
    while total < size:
        line = rng.choice(FILLER)(rng)
        lines.append(line)
        total += len(line) + 1
    return lines


def in_log(paste: str, where: str, size: int) -> str:
    """The paste at the end of a log of about `size` characters, or in its middle."""
    lines = filler(max(0, size - len(paste)), f"{where}-{size}-{len(paste)}")
    at = len(lines) if where == "end" else len(lines) // 2
    return "\n".join([*lines[:at], paste, *lines[at:]])


def decorated(paste: str, size: int = 26_000) -> str:
    """A runner's view of the 26 KB log: each line stamped, the paste in red."""
    lines = filler(max(0, size - len(paste)), f"decorated-{size}-{len(paste)}")
    stamp = lambda n: f"2026-01-05T10:{n // 600 % 60:02d}:{n // 10 % 60:02d}.{n % 10}123456Z "
    body = [stamp(n) + line for n, line in enumerate(lines)]
    body += [stamp(len(lines) + n) + f"\x1b[31m{line}\x1b[0m" for n, line in enumerate(paste.split("\n"))]
    return "\n".join(body)


VARIANTS = {
    "end-26k": lambda paste: in_log(paste, "end", 26_000),
    "middle-200k": lambda paste: in_log(paste, "middle", 200_000),
    "ansi-stamped": decorated,
}
