"""The problems found in one record, capped per kind."""
from __future__ import annotations

from typing import Callable

from ..model import Problem
from .limits import MAX_PROBLEMS


class Issues:
    """What is wrong with one record, in the order found: the first
    MAX_PROBLEMS rejections and drops, and how many more of each there were."""

    def __init__(self) -> None:
        self.found: list[tuple[str, str, bool]] = []
        self.counts = {False: 0, True: 0}           # by kind (dropped or not)
        self.more: dict[bool, set[str]] = {False: set(), True: set()}  # the fields of those not kept

    @property
    def rejected(self) -> bool:
        return self.counts[False] > 0

    def reject(self, key: str, message: str | Callable[[], str]) -> None:
        self.add(key, message, False)

    def drop(self, key: str, message: str | Callable[[], str]) -> None:
        self.add(key, message, True)

    def add(self, key: str, message: str | Callable[[], str], dropped: bool) -> None:
        self.counts[dropped] += 1
        if self.counts[dropped] <= MAX_PROBLEMS:
            self.found.append((key, message if isinstance(message, str) else message(), dropped))
        else:
            self.more[dropped].add(key.partition("[")[0])

    def problems(self, path: str, dropped: bool) -> list[Problem]:
        """Those of one kind, the ones not kept summed up in one last line."""
        kept = [Problem(path, key, message, dropped) for key, message, kind in self.found if kind == dropped]
        more = self.counts[dropped] - len(kept)
        if more:
            fields = self.more[dropped]
            where = (next(iter(fields)), "field") if len(fields) == 1 else ("record", "record")
            kept.append(Problem(path, where[0], f"and {more} more problems in this {where[1]}, not listed", dropped))
        return kept
