"""A generator's items, and then what it returned: the steps that stream
their pages return their result once the pages are written."""
from __future__ import annotations

from typing import Generator, Iterable


class Finished:
    """The items of a generator, and then (`value`) what it returned (None
    for any other iterable)."""

    def __init__(self, generator: Generator | Iterable):
        self.generator, self.value = generator, None

    def __iter__(self) -> Generator:
        """The items; returns what the generator returned, so that a Finished may be wrapped again."""
        self.value = yield from self.generator
        return self.value
