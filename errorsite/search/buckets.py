"""Where a term or a name lives in the split search files: the term buckets'
bounds in JavaScript's string order, the names placed in the bucket their
key sorts into, and the vocabulary files a typo's neighbours are found by
(a term under each of its keys, hashed as search-data.js hashes them)."""
from __future__ import annotations

import math

from .. import urls
from ..model import Page, Summary, inert_json

VOCABULARY_BYTES = 4_000


def units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return [data[i] | data[i + 1] << 8 for i in range(0, len(data), 2)]


def js_order(term: str) -> bytes:
    return term.encode("utf-16-be", "surrogatepass")


def vocabulary_keys(term: str) -> list[tuple[int, ...]]:
    u = units(term)
    keys = [(ord("="),)] if len(u) <= 5 else []
    if len(u) >= 4:
        keys += [(ord("<"), u[0], u[1]), (ord(">"), u[-2], u[-1])]
    return keys


def fnv1a(key: tuple[int, ...]) -> int:
    value = 0x811C9DC5
    for unit in key:
        value = ((value ^ unit) * 0x01000193) & 0xFFFFFFFF
    return value


def shortest_between(before: str, term: str) -> str:
    """The shortest prefix of `term` that sorts after `before` (JavaScript's order)."""
    for end in range(1, len(term) + 1):
        if js_order(term[:end]) > js_order(before):
            return term[:end]
    return term


def repo_refs(records: list[Summary]) -> dict[str, list[int]]:
    """repository → its runs of records, flat: [first, end, first, end…]."""
    runs: dict[str, list[int]] = {}
    for ref, record in enumerate(records):
        flat = runs.setdefault(record.repo, [])
        if flat and flat[-1] == ref:
            flat[-1] = ref + 1
        else:
            flat += [ref, ref + 1]
    return runs


def names_in_order(names: dict[str, list[str]], refs: dict[str, list[int]]) -> list[tuple[str, list[int]]]:
    """(name, the runs of records of the repositories it names), in
    JavaScript's order of the names: a name goes in the bucket its key sorts into."""
    placed = []
    for key, repos in names.items():
        pairs = sorted((flat[i], flat[i + 1]) for repo in repos for flat in [refs[repo]] for i in range(0, len(flat), 2))
        merged: list[int] = []
        for first, end in pairs:
            if merged and merged[-1] == first:
                merged[-1] = end
            else:
                merged += [first, end]
        placed.append((key, merged))
    return sorted(placed, key=lambda pair: js_order(pair[0]))


def vocabulary_pages(vocabulary: list[str]) -> list[Page]:
    count = max(1, math.ceil(sum(len(term) + 3 for term in vocabulary) * 2 / VOCABULARY_BYTES))
    files: list[set[str]] = [set() for _ in range(count)]
    for term in vocabulary:
        for key in vocabulary_keys(term):
            files[fnv1a(key) % count].add(term)
    return [Page(f"{urls.SEARCH_PATH}v/{n}.json", inert_json(sorted(terms, key=js_order)))
            for n, terms in enumerate(files)]
