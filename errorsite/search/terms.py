"""lunr's index, built one record at a time and kept as compact postings.

lunr.py's Builder holds every field's term frequencies as dicts of Token
objects for every record at once, which would be the build's peak of memory.
This builder keeps, per term, the refs and term frequencies of each field in
arrays, and computes each posting's weight exactly as lunr.py does (BM25 with
lunr's k1 and b, its idf and its rounding), so the browser scores with the same
numbers. tests/test_search_chunks.py compares both on real and generated records.
"""
from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field

from .index import FIELDS, stem

K1 = 1.2   # lunr's Builder defaults
B = 0.75


Weights = list[list[tuple[int, float]]]  # per field, [(ref, weight)]: TermIndex.weights, made once a term
NONE = ()  # a field without the term: most terms are in a few of the eight, and an empty array is 64 bytes


@dataclass
class Term:
    index: int                                  # lunr's `_index`: first seen, first numbered
    refs: list[array | tuple] = field(default_factory=lambda: [NONE] * len(FIELDS))
    frequencies: list[array | tuple] = field(default_factory=lambda: [NONE] * len(FIELDS))
    variants: list[str] = field(default_factory=list)   # the message words that stem to this term
    variant_refs: array = field(default_factory=lambda: array("i"))
    variant_ids: array = field(default_factory=lambda: array("i"))

    @property
    def documents(self) -> int:
        """lunr's count for idf: a record counts once per field it has the term in."""
        return sum(len(refs) for refs in self.refs)

    def distinct_documents(self) -> int:
        if sum(1 for refs in self.refs if refs) == 1:
            return self.documents
        return len(set().union(*self.refs))


class TermIndex:
    """Add records in ref order (0, 1, 2…); then `weights` gives lunr's numbers."""

    def __init__(self) -> None:
        self.terms: dict[str, Term] = {}
        self.lengths = [array("i") for _ in FIELDS]
        self.message_words = array("i")        # distinct message words per ref
        self._stems: dict[str, str] = {}
        self._norms: list[array] | None = None  # weights' per-record part, made once all are added

    @property
    def count(self) -> int:
        return len(self.message_words)

    def stem(self, token: str) -> str:
        term = self._stems.get(token)
        if term is None:
            term = self._stems[token] = stem(token)
        return term

    def add(self, fields: dict[str, list[str]]) -> int:
        ref = self.count
        self._norms = None
        stems = self._stems
        for f, (name, _) in enumerate(FIELDS):
            tokens = [str(token).lower() for token in fields[name]]   # as lunr.py's tokenizer does
            frequencies: dict[str, int] = {}
            for token in tokens:
                term = stems.get(token) or self.stem(token)  # the lookup inline: a call for every word of every record
                frequencies[term] = frequencies.get(term, 0) + 1
            self.lengths[f].append(len(tokens))
            for term, frequency in frequencies.items():
                entry = self.terms.get(term)
                if entry is None:
                    entry = self.terms[term] = Term(len(self.terms))
                if entry.refs[f] is NONE:
                    entry.refs[f], entry.frequencies[f] = array("i"), array("i")
                entry.refs[f].append(ref)
                entry.frequencies[f].append(frequency)
            if name == "message":
                words = dict.fromkeys(tokens)
                self.message_words.append(len(words))
                for word in words:
                    entry = self.terms[self.stem(word)]
                    if word not in entry.variants:
                        entry.variants.append(word)
                    entry.variant_refs.append(ref)
                    entry.variant_ids.append(entry.variants.index(word))
        return ref

    def weights(self, term: Term) -> list[list[tuple[int, float]]]:
        """Per field, [(ref, weight)]: the entries of lunr's field vectors for this term."""
        count = self.count
        if self._norms is None:
            # lunr.py's average: the sum of a field's lengths over the number of records.
            averages = [sum(lengths) / count for lengths in self.lengths]
            # Each record's length part of lunr's BM25 denominator, per field, as lunr.py
            # computes it (the same operations in the same order, so the same floats):
            # once a record rather than once a posting.
            # A field no record has (average 0) has no postings to weigh.
            self._norms = [array("d", [K1 * (1 - B + B * (n / average)) for n in lengths] if average else [])
                           for lengths, average in zip(self.lengths, averages)]
        documents = term.documents
        idf = math.log(1 + abs((count - documents + 0.5) / (documents + 0.5)))
        result = []
        for f, (_, boost) in enumerate(FIELDS):
            norms = self._norms[f]
            # lunr.py's score, times the field's boost (and the document's, 1), as it rounds it
            result.append([(ref, round(idf * ((K1 + 1) * tf) / (norms[ref] + tf) * boost, 3))
                           for ref, tf in zip(term.refs[f], term.frequencies[f])])
        return result

    def variants_of(self, term: Term) -> dict[int, list[int]]:
        """ref → which of the term's variants its message has."""
        found: dict[int, list[int]] = {}
        for ref, variant in zip(term.variant_refs, term.variant_ids):
            found.setdefault(ref, []).append(variant)
        return found
