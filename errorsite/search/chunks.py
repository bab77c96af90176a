"""The search data, split so that a query fetches only what it needs.

The browser (static/search-data.js) reads `meta.json` first, then for each word
of a query the term bucket that holds it, and builds a lunr index of just
those terms: lunr scores a record only through the query terms' entries of its
field vectors, so the scores are the ones a whole index gives. Files, under
`-/search/`:

- `meta.json`: the fields, the record count, the first term of every bucket,
  how many vocabulary files there are, and the rules the browser applies as
  the build does (`search_rules`): the common-word threshold and the word
  lists names are read with;
- `t/N.json`: a run of the vocabulary in sorted order, a few KB, each term with
  lunr's `_index`, the number of records that have it, the message words that
  stem to it, and per field its postings with lunr's weights (in the message
  field also each record's count of distinct message words, and which of the
  term's words it has: what the ranking's message coverage needs);
- `c/I.json`: the postings of a common term (in more than 5% and more than 100
  records). The ranking leaves such words out of a query that has any other,
  so these files, the largest, are read only for a query of common words alone;
- `v/N.json`: the vocabulary without postings, for typos: every term of at
  least 4 letters under its first two letters and under its last two, every
  term of at most 5 under one key. A word within one edit of a typo of 5 or
  more letters shares its first two or its last two letters with it; a
  shorter typo's neighbours are all short. The key picks the file by hash;
- `d/N.json`: result cards and patterns, 16 records a file;
- `repos.json`: [first ref, repository] for each run of records of one repository.

Lengths, prefixes and sort order count UTF-16 code units, as JavaScript does.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from lunr import __TARGET_JS_VERSION__ as LUNR_JS_VERSION

from .. import urls
from ..model import Page, Summary, inert_json
from .index import FIELDS, result_doc, search_fields
from .names import name_rules
from .terms import Term, TermIndex

FORMAT = 1
BUCKET_BYTES = 12_000     # a term bucket's target size; a single larger term gets one of its own
VOCABULARY_BYTES = 16_000
DOCS_PER_FILE = 16
FILE_BUDGET = 256_000     # any search file larger than this is named in a warning
COMMON_SHARE = 0.05       # a word in more than 5% of the records…
COMMON_MIN_DOCS = 100     # …and in more than 100 of them is common: left out of queries

META_PATH = urls.SEARCH_PATH + "meta.json"
REPOS_PATH = urls.SEARCH_PATH + "repos.json"


def common_above(count: int) -> float:
    return max(COMMON_MIN_DOCS, count * COMMON_SHARE)


def search_rules(count: int) -> dict:
    """What the browser's search must decide as the build does, shipped in
    meta.json rather than copied into JavaScript: the number of records a
    word must be in to be common (the build puts such a word's postings in a
    file of its own; the browser leaves it out of a query), and the word
    lists a paste's names are read with (names.py)."""
    return {"commonAbove": common_above(count), "names": name_rules()}


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


@dataclass
class SearchFiles:
    pages: list[Page]
    warnings: list[str]


def term_index(records: list[Summary]) -> TermIndex:
    index = TermIndex()
    for record in records:
        index.add(search_fields(record))
    return index


def postings(index: TermIndex, term: Term) -> list:
    """[variants, message postings, postings of each other field]: flat lists,
    [ref, weight, words, variant…] in the message field, [ref, weight] elsewhere."""
    variants = index.variants_of(term)
    fields = []
    for f, weights in enumerate(index.weights(term)):
        flat: list = []
        for ref, weight in weights:
            flat += [ref, weight]
            if f == 0:
                found = variants[ref]
                flat += [index.message_words[ref], found[0] if len(found) == 1 else found]
        fields.append(flat)
    return [term.variants, *fields]


def compact(value: object) -> str:
    return inert_json(value).decode()


def search_files(records: list[Summary]) -> SearchFiles:
    index = term_index(records)
    threshold = common_above(index.count)
    pages: list[Page] = []
    buckets: list[list[str]] = []
    bounds: list[str] = []
    size = 0  # bytes of the open bucket's file so far, its closing bracket aside
    vocabulary: list[str] = []
    for term in sorted(index.terms, key=js_order):
        entry = index.terms[term]
        documents = entry.distinct_documents()
        head = [term, entry.index, documents]
        if documents > threshold:
            pages.append(Page(f"{urls.SEARCH_PATH}c/{entry.index}.json", inert_json(postings(index, entry))))
            text = compact(head)
        else:
            text = compact(head + postings(index, entry))
            vocabulary.append(term)
        cost = len(text.encode()) + 1  # the term's bytes, and the bracket or comma before them
        if not buckets or (buckets[-1] and size + cost + 1 > BUCKET_BYTES):
            buckets.append([])
            bounds.append(term)
            size = 0
        buckets[-1].append(text)
        size += cost
    for n, bucket in enumerate(buckets):
        pages.append(Page(f"{urls.SEARCH_PATH}t/{n}.json", ("[" + ",".join(bucket) + "]").encode()))
    vocabulary_files = vocabulary_pages(vocabulary)
    pages += vocabulary_files
    docs = [result_doc(record) for record in records]
    for n in range(0, len(docs), DOCS_PER_FILE):
        pages.append(Page(f"{urls.SEARCH_PATH}d/{n // DOCS_PER_FILE}.json", inert_json(docs[n:n + DOCS_PER_FILE])))
    pages.append(Page(REPOS_PATH, inert_json(repo_runs(records))))
    digest = hashlib.sha256()
    for page in pages:
        digest.update(page.path.encode() + b"\0" + page.content)
    meta = {"version": digest.hexdigest()[:16], "format": FORMAT, "lunr": LUNR_JS_VERSION, "fields": [name for name, _ in FIELDS],
            "records": index.count, "buckets": bounds, "vocabularyFiles": len(vocabulary_files),
            "docsPerFile": DOCS_PER_FILE, **search_rules(index.count)}
    pages.append(Page(META_PATH, inert_json(meta)))
    warnings = [f"{page.path}: {len(page.content):,} bytes, over the search files' budget of {FILE_BUDGET:,}"
                for page in pages if len(page.content) > FILE_BUDGET and "/c/" not in page.path]
    return SearchFiles(pages, warnings)


def vocabulary_pages(vocabulary: list[str]) -> list[Page]:
    count = max(1, math.ceil(sum(len(term) + 3 for term in vocabulary) * 2 / VOCABULARY_BYTES))
    files: list[set[str]] = [set() for _ in range(count)]
    for term in vocabulary:
        for key in vocabulary_keys(term):
            files[fnv1a(key) % count].add(term)
    return [Page(f"{urls.SEARCH_PATH}v/{n}.json", inert_json(sorted(terms, key=js_order)))
            for n, terms in enumerate(files)]


def repo_runs(records: list[Summary]) -> list[list]:
    runs: list[list] = []
    for ref, record in enumerate(records):
        if not runs or runs[-1][1] != record.repo:
            runs.append([ref, record.repo])
    return runs

