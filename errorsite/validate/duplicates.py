"""A later record with an id or a URL already taken is a duplicate, dropped."""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, TypeVar

from ..model import Problem, Record

Item = TypeVar("Item")


def flag_duplicates(items: Iterable[Item], record_of: Callable[[Item], object]) -> Iterator[tuple[Item, Problem | None]]:
    """Each item in order, with the problem when its record (a Record or a
    Summary; None for none) repeats an earlier one's id or URL. The one rule
    for duplicates: `check` applies it to records, the build to its outcomes."""
    seen = Seen()
    for item in items:
        record = record_of(item)
        yield item, seen.duplicate(record) if record is not None else None


def drop_duplicates(records: list[Record]) -> tuple[list[Record], list[Problem]]:
    kept, problems = [], []
    for record, problem in flag_duplicates(records, lambda record: record):
        if problem:
            problems.append(problem)
        else:
            kept.append(record)
    return kept, problems


class Seen:
    """Ids and URLs taken so far: a later file with either is a duplicate."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}
        self.urls: dict[tuple[str, str], str] = {}

    def duplicate(self, record) -> Problem | None:
        """The problem if `record` (a Record or a Summary) repeats an id or URL; else None, and it is taken."""
        url_key = (record.repo.lower(), record.slug)
        if record.id in self.ids:
            return Problem(record.source_file, "id",
                           f"duplicate id {record.id!r}, already used by {self.ids[record.id]}")
        if url_key in self.urls:
            return Problem(record.source_file, "slug", f"duplicate repo and slug {record.repo}/{record.slug}, "
                                                       f"already used by {self.urls[url_key]}")
        self.ids[record.id] = self.urls[url_key] = record.source_file
        return None
