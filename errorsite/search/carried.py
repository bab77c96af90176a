"""Which records' result cards travel with a term's postings in its
bucket file (chunks.py), so that a query's first screen needs no card file:
each term's best records by its own weights, and the records no word's best
list holds, placed with their rarest word (rarest_terms, pattern_terms)."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from .index import FIELDS
from .terms import Term, TermIndex, Weights

CARD_FIELDS = ("message", "code", "cls")  # a record found by these fields' words has its card beside them
CARD_BOOSTS = tuple(boost if name in CARD_FIELDS else 0 for name, boost in FIELDS)
EVERY_FIELD = tuple(1 for _ in FIELDS)
# A term's best records by its own score have their cards beside its postings.
# The first screen, eight results, is most often among them; a word in
# thousands of messages would otherwise bring thousands of cards.
CARD_RECORDS = 96


def rarest_terms(index: TermIndex, threshold: float) -> dict[str, list[int]]:
    """term → records whose card travels with it though they are not among
    its best: a record whose message words are all in more than CARD_RECORDS
    records (common words aside) has its card with its rarest word that has
    room (CARD_RECORDS such records a word), so that no record is left to its
    card file when its own message is pasted; a paste asks for every word of
    its message lines."""
    return _cards_by_rarest_word(index, threshold, lambda entry: entry.refs[0])


def pattern_terms(index: TermIndex, threshold: float) -> dict[str, list[int]]:
    """term → records whose card travels with it as the rarest word of their
    pattern's literal text (a word in both their message and their pattern)
    with room (CARD_RECORDS such cards a word): a paste or a few words of one
    message rank first the records of the same pattern, and those share its
    words, not their rarest (a value such as a name), which the query does
    not have. search_files drops them where they would put a file over its
    budget."""
    return _cards_by_rarest_word(index, threshold,
                                 lambda entry: set(entry.refs[0]).intersection(entry.refs[1]))


def _cards_by_rarest_word(index: TermIndex, threshold: float,
                          records_of: Callable[[Term], Iterable[int]]) -> dict[str, list[int]]:
    """rarest_terms and pattern_terms, which differ in the records a word
    counts for (`records_of` its entry): each record among no such word's
    best goes to its rarest one with room, CARD_RECORDS records a word."""
    words: dict[int, list[tuple[int, str]]] = {}
    carried: set[int] = set()
    for term, entry in index.terms.items():
        documents = entry.distinct_documents()
        if documents > threshold:
            continue  # a common word: left out of queries that have others
        for ref in records_of(entry):
            if documents <= CARD_RECORDS:
                carried.add(ref)  # among that word's best: all its records are
            else:
                words.setdefault(ref, []).append((documents, term))
    found: dict[str, list[int]] = {}
    for ref in sorted(words.keys() - carried):
        for _, term in sorted(words[ref]):
            if len(found.setdefault(term, [])) < CARD_RECORDS:
                found[term].append(ref)
                break
    return found


def best_records(weights: Weights, boosts: tuple[float, ...]) -> list[int]:
    """The CARD_RECORDS records with the highest sum of the term's weights
    times each field's boost (a field boosted 0 does not count)."""
    score: dict[int, float] = {}
    for field_weights, boost in zip(weights, boosts):
        if boost:
            for ref, weight in field_weights:
                score[ref] = score.get(ref, 0) + boost * weight
    return sorted(score, key=lambda ref: (-score[ref], ref))[:CARD_RECORDS]


def card_refs(weights: Weights, own: list[int] = ()) -> tuple[list[int], list[int]]:
    """The records whose cards travel with the term's postings, and those
    whose pattern texts alone do: of the records it is in the message, the
    code or the class of (the fields that rank a record among the first
    results), the CARD_RECORDS best by the term's boosted weights in those
    fields, and those it is the rarest word of (`own`, rarest_terms); the
    rest of its message records (the ranking matches their patterns) have
    their texts."""
    chosen = set(best_records(weights, CARD_BOOSTS)) | set(own)
    return sorted(chosen), sorted({ref for ref, _ in weights[0]} - chosen)
