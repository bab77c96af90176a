"""The search data, split so that a query fetches only what it needs.

The browser (static/search-data.js) reads `meta.json` first, then for each word
of a query the term bucket that holds it, and builds a lunr index of just
those terms: lunr scores a record only through the query terms' entries of its
field vectors, so the scores are the ones a whole index gives. Files, under
`-/search/`:

- `meta.json`: the fields, the record count, where each bucket starts (the
  shortest prefix of its first term that sorts after the bucket before),
  the common terms (their `_index` and record count: a query that has other
  words needs nothing else of them), how many vocabulary files there are,
  and the rules the browser applies as the build does (`search_rules`): the
  common-word threshold and the word lists names are read with. Its size
  grows only with the number of buckets;
- `t/N.json`: `[entries, names, cards, texts]`. The entries are a run of the
  vocabulary in sorted order, each term with lunr's `_index`, the number of
  records that have it, the message words that stem to it, and per field its
  postings with lunr's weights (in the message field also each record's count
  of distinct message words and which of the term's words it has: what the
  ranking's message coverage needs). The names are those of the names of
  repositories (names.py) that sort within the bucket's run, each with the
  runs of records `[first, end)` of the repositories it names: a paste's
  names are looked up in the buckets its words are in. The cards are
  `[ref, …result card]` (chosen in carried.py) of each entry's CARD_RECORDS
  best records in its postings of the message, code and class fields
  (CARD_FIELDS), by its own weights there: the card a result shows most often comes with the postings
  that found the record; and of records among no word's best, those it is
  the rarest word of, in their message (rarest_terms) or in their pattern's
  text (pattern_terms), up to CARD_RECORDS of each. The texts, `[ref, text,
  …]`, are the pattern texts of the rest of its message records: the
  ranking matches them, so it waits for no card file. A bucket's size, cards
  and texts included, is about BUCKET_BYTES;
- `c/I.json`: the postings of a common term (in more than 5% and more than 100
  records), its message postings with their pattern text's place in the list
  of texts after them, then the cards of its CARD_RECORDS best records (not of
  all: that would make these files, the largest, far larger). The ranking
  leaves such words out of a query that has any other, so these files are
  read only for a query of common words alone;
- `v/N.json`: the vocabulary without postings, for typos: every term of at
  least 4 letters under its first two letters and under its last two, every
  term of at most 5 under one key. A word within one edit of a typo of 5 or
  more letters shares its first two or its last two letters with it; a
  shorter typo's neighbours are all short. The key picks the file by hash;
- `d/N.json`: result cards, DOCS_PER_FILE records a file (alike records
  are neighbours: search_order): for the results whose card no
  term file read carries (found by their repository or file, or past their
  words' best records).

Every file a query can fetch has a budget (`BUDGETS`); the build names the
files over it. Common terms' files are exempt: a query reads them only when
it has no other word.

Lengths, prefixes and sort order count UTF-16 code units, as JavaScript does.
"""
from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass

from lunr import __TARGET_JS_VERSION__ as LUNR_JS_VERSION

from .. import urls
from ..process.generator_result import Finished
from ..model import Page, Summary, inert_json
from .buckets import js_order, names_in_order, repo_refs, shortest_between, vocabulary_pages
from .index import FIELDS, result_doc, search_fields
from .facets import facet_rules
from .names import name_rules, repo_names
from .carried import EVERY_FIELD, best_records, card_refs, pattern_terms, rarest_terms
from .terms import Term, TermIndex, Weights

FORMAT = 4
BUCKET_BYTES = 12_000     # a term bucket's target size; a single larger term gets one of its own
DOCS_PER_FILE = 64
FILE_BUDGET = 256_000     # any search file larger than this is named in a warning…
META_BUDGET = 80_000      # …and meta.json over this (about 30 KB gzipped), fetched on focus
COMMON_SHARE = 0.05       # a word in more than 5% of the records…
COMMON_MIN_DOCS = 100     # …and in more than 100 of them is common: left out of queries

META_PATH = urls.SEARCH_PATH + "meta.json"


def common_above(count: int) -> float:
    return max(COMMON_MIN_DOCS, count * COMMON_SHARE)


def search_rules(count: int) -> dict:
    """What the browser's search must decide as the build does, shipped in
    meta.json rather than copied into JavaScript: the number of records a
    word must be in to be common (the build puts such a word's postings in a
    file of its own; the browser leaves it out of a query), and the word
    lists a paste's names are read with (names.py), and the names of the
    language codes result cards carry for the filters (facets.py)."""
    return {"commonAbove": common_above(count), "names": name_rules(), "facets": facet_rules()}


@dataclass
class SearchFiles:
    pages: list[Page]
    warnings: list[str]


def term_index(records: list[Summary]) -> TermIndex:
    index = TermIndex()
    for record in records:
        index.add(search_fields(record))
    return index


def postings(index: TermIndex, term: Term, weights: Weights, texts: list[str] | None) -> list:
    """[variants, message postings, postings of each other field], then with
    `texts` the distinct pattern texts of the term's records: flat lists,
    [ref, weight, words, variant…] in the message field, with `texts` also
    the text's place among them after each variant; [ref, weight] elsewhere."""
    variants = index.variants_of(term)
    fields = []
    distinct: dict[str, int] = {}
    for f, field_weights in enumerate(weights):
        flat: list = []
        for ref, weight in field_weights:
            flat += [ref, weight]
            if f == 0:
                found = variants[ref]
                flat += [index.message_words[ref], found[0] if len(found) == 1 else found]
                if texts is not None:
                    flat.append(distinct.setdefault(texts[ref], len(distinct)))
        fields.append(flat)
    return [term.variants, *fields] + ([list(distinct)] if texts is not None else [])


def pattern_text(record: Summary) -> str:
    """What the browser's pattern matcher compiles: the pattern, or the message."""
    return record.shown_pattern or record.message


def compact(value: object) -> str:
    return inert_json(value).decode()


def search_files(records: list[Summary]) -> SearchFiles:
    """search_stream's files and warnings, all at once."""
    stream = Finished(search_stream(records))
    return SearchFiles(list(stream), stream.value)


def search_stream(records: list[Summary]) -> Generator[Page, None, list[str]]:
    """The search files, each as soon as it is whole (the search data is
    several times the size of the rest of what this step holds), then
    `meta.json`; returns the warnings for files over their budget."""
    index = term_index(records)
    texts = [pattern_text(record) for record in records]
    threshold = common_above(index.count)
    own_cards = rarest_terms(index, threshold)
    pattern_cards = pattern_terms(index, threshold)
    made = Made()
    bounds: list[str] = []
    names = deque(names_in_order(repo_names(records), repo_refs(records)))
    last = ""
    size = 0  # bytes of the open bucket's file so far, its closing bracket aside
    vocabulary: list[str] = []
    common: dict[str, list[int]] = {}
    docs = [result_doc(record) for record in records]
    card_texts = [f"{ref},{compact(doc)[1:]}" for ref, doc in enumerate(docs)]  # [ref, …card] less its "["
    card_bytes = [len(text.encode()) + 2 for text in card_texts]
    text_texts = [compact(text) for text in texts]
    bucket: list[str] | None = None  # the open bucket's terms, as text
    cards: set[int] = set()  # the records whose cards it carries
    shown_texts: set[int] = set()  # …and those whose pattern texts alone it carries

    def bucket_page(before: str | None) -> Page:
        """The open bucket's file, with the names that sort before `before` (all that are left for None)."""
        placed = {}
        while names and (before is None or js_order(names[0][0]) < js_order(before)):
            key, runs = names.popleft()
            placed[key] = runs
        shown = ",".join("[" + card_texts[ref] for ref in sorted(cards))
        said = ",".join(f"{ref},{text_texts[ref]}" for ref in sorted(shown_texts - cards))
        content = "[[" + ",".join(bucket) + "]," + compact(placed) + ",[" + shown + "],[" + said + "]]"
        return Page(f"{urls.SEARCH_PATH}t/{len(bounds) - 1}.json", content.encode())

    for term in sorted(index.terms, key=js_order):
        entry = index.terms[term]
        documents = entry.distinct_documents()
        head = [term, entry.index, documents]
        refs: list[int] = []
        others: list[int] = []
        weights = index.weights(entry)
        if documents > threshold:
            # a query of that word alone ranks by its weight in every field: its first screen is among these
            best = sorted(best_records(weights, EVERY_FIELD))
            yield made(Page(f"{urls.SEARCH_PATH}c/{entry.index}.json",
                            inert_json(postings(index, entry, weights, texts) + [[[ref, *docs[ref]] for ref in best]])))
            common[term] = [entry.index, documents]
            text = compact(head)
        else:
            text = compact(head + postings(index, entry, weights, None))
            refs, others = card_refs(weights, [*own_cards.get(term, ()), *pattern_cards.get(term, ())])
            vocabulary.append(term)

        def added(fresh: bool) -> int:
            """The bytes the term's cards and texts add to the open bucket (all of them to a new one)."""
            have, said = (set(), set()) if fresh else (cards, shown_texts)
            return (sum(card_bytes[ref] for ref in refs if ref not in have) +
                    sum(len(str(ref)) + len(text_texts[ref].encode()) + 2 for ref in others
                        if ref not in have and ref not in said))
        if term in pattern_cards and len(text.encode()) + added(True) > FILE_BUDGET:
            refs, others = card_refs(weights, own_cards.get(term, ()))  # a file of its own, over budget with them
        # the term's bytes, the bracket or comma before them, and the cards and texts it adds
        cost = len(text.encode()) + 1 + (added(False) if bucket is not None else 0)
        if bucket is None or (bucket and size + cost + 1 > BUCKET_BYTES):
            bound = shortest_between(last, term) if bounds else term
            if bucket is not None:
                yield made(bucket_page(bound))
            bucket, cards, shown_texts = [], set(), set()
            bounds.append(bound)
            size = 0
            cost = len(text.encode()) + 1 + added(True)
        bucket.append(text)
        cards.update(refs)
        shown_texts.update(others)
        size += cost
        last = term
    if bucket is not None:
        yield made(bucket_page(None))
    vocabulary_files = vocabulary_pages(vocabulary)
    for page in vocabulary_files:
        yield made(page)
    for n in range(0, len(docs), DOCS_PER_FILE):
        yield made(Page(f"{urls.SEARCH_PATH}d/{n // DOCS_PER_FILE}.json", inert_json(docs[n:n + DOCS_PER_FILE])))
    meta = {"version": made.version(), "format": FORMAT, "lunr": LUNR_JS_VERSION,
            "fields": [name for name, _ in FIELDS], "records": index.count, "buckets": bounds, "common": common,
            "vocabularyFiles": len(vocabulary_files), "docsPerFile": DOCS_PER_FILE, **search_rules(index.count)}
    yield made(Page(META_PATH, inert_json(meta)))
    return made.warnings


class Made:
    """The search files as they are made: the digest of all of them, in
    order (meta.json's version), and those over their budget."""

    def __init__(self) -> None:
        self.digest = hashlib.sha256()
        self.warnings: list[str] = []

    def __call__(self, page: Page) -> Page:
        if page.path != META_PATH:
            self.digest.update(page.path.encode() + b"\0" + page.content)
        most = budget(page.path)
        if most is not None and len(page.content) > most:
            self.warnings.append(f"{page.path}: {len(page.content):,} bytes, over the search files' budget of {most:,}")
        return page

    def version(self) -> str:
        return self.digest.hexdigest()[:16]


def budget(path: str) -> int | None:
    """The most bytes a search file may have; None for the common terms' files."""
    if "/c/" in path:
        return None
    return META_BUDGET if path == META_PATH else FILE_BUDGET
