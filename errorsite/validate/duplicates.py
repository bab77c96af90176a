"""A later record with an id or a URL already taken is a duplicate, dropped."""
from __future__ import annotations

from ..model import Problem, Record


def drop_duplicates(records: list[Record]) -> tuple[list[Record], list[Problem]]:
    seen = Seen()
    kept, problems = [], []
    for record in records:
        problem = seen.duplicate(record)
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
