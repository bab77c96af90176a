"""Queries of each kind a visitor makes, drawn from a corpus's own records.

- a pasted traceback line: a Python traceback ending in the record's message,
  its frames in the record's package under site-packages;
- a Rust panic line: `thread 'main' panicked at …` with the message under it;
- typed words with a typo: the first three words of a message, the longest
  of them with two letters swapped;
- three words: the first three words of a message;
- one word: the message's longest word.

Deterministic: the same records give the same queries.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

KINDS = ("traceback", "rust panic", "typo", "three words", "one word")
WORD = re.compile(r"[A-Za-z][A-Za-z]{2,}")


def traceback(record: dict) -> str:
    cls = (record.get("errorClass") or "RuntimeError").rsplit(".", 1)[-1].rsplit("::", 1)[-1]
    return ("Traceback (most recent call last):\n"
            '  File "/srv/app/main.py", line 12, in <module>\n    run()\n'
            f'  File "/usr/lib/python3/site-packages/{record["filePath"]}", line {record["lineNumber"]}, in check\n'
            f"    raise {cls}(message)\n{cls}: {record['errorMessage']}")


def panic(record: dict) -> str:
    return (f"thread 'main' panicked at src/main.rs:{record['lineNumber']}:5:\n{record['errorMessage']}\n"
            "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace")


def swapped(word: str) -> str:
    i = len(word) // 2
    return word[:i - 1] + word[i] + word[i - 1] + word[i + 1:]


def kind_queries(records: list[dict], per_kind: int, seed: int = 11) -> dict[str, list[str]]:
    """`per_kind` queries of each kind, from `records` (bare record dicts)."""
    rng = random.Random(seed)
    order = rng.sample(records, len(records))
    found: dict[str, list[str]] = {kind: [] for kind in KINDS}

    def add(kind: str, query: str | None) -> None:
        if query and len(found[kind]) < per_kind and query not in found[kind]:
            found[kind].append(query)

    for record in order:
        words = WORD.findall(record["errorMessage"])
        language = record["tags"][0] if record.get("tags") else ""
        if language == "python":
            add("traceback", traceback(record))
        if language == "rust":
            add("rust panic", panic(record))
        if len(words) >= 3:
            three = [w.lower() for w in words[:3]]
            add("three words", " ".join(three))
            longest = max(range(3), key=lambda i: len(three[i]))
            if len(three[longest]) >= 5:
                add("typo", " ".join(swapped(w) if i == longest else w for i, w in enumerate(three)))
        if words:
            add("one word", max(words, key=len).lower())
        if all(len(v) >= per_kind for v in found.values()):
            break
    return found


def corpus_kind_queries(folder: Path, per_kind: int, seed: int = 11) -> dict[str, list[str]]:
    """The queries of a corpus folder of `*.json` record files."""
    files = sorted(folder.glob("*.json"))
    sample = random.Random(seed).sample(files, min(len(files), 4000))
    records = [json.loads(path.read_text(encoding="utf-8"))["record"] for path in sample]
    return kind_queries(records, per_kind, seed)
