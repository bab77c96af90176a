"""sitewide.Beside: a generator run in a process of its own, its items handed over one at a time."""
from __future__ import annotations

import os
import time

import pytest

from errorsite.sitewide import Beside

pytestmark = pytest.mark.slow  # each test starts a Python process


def numbers(count: int):
    yield os.getpid()
    yield from range(count)


def counted(count: int):
    yield from range(count)
    return f"{count} items"


def fails_after_one():
    yield "first"
    raise ValueError("no second item")


def dies_after_one():
    yield "first"
    os._exit(3)


def test_the_items_come_in_order_from_another_process():
    items = Beside(numbers, 5)
    assert next(items) != os.getpid()
    assert list(items) == [0, 1, 2, 3, 4]
    assert items.process.exitcode == 0


def test_yield_from_gives_what_the_generator_returned():
    def everything(items):
        return (yield from items), None

    made = everything(Beside(counted, 3))
    assert [next(made), next(made), next(made)] == [0, 1, 2]
    with pytest.raises(StopIteration) as end:
        next(made)
    assert end.value.value == ("3 items", None)


def test_an_error_in_the_other_process_is_raised_where_the_items_are_asked_for():
    items = Beside(fails_after_one)
    assert next(items) == "first"
    with pytest.raises(ValueError, match="no second item"):
        next(items)


def test_a_process_that_dies_is_an_error_not_a_short_list():
    items = Beside(dies_after_one)
    assert next(items) == "first"
    with pytest.raises(RuntimeError, match=r"ended \(3\) before its last item"):
        next(items)


def test_closing_before_asking_stops_the_process():
    items = Beside(numbers, 10**6)  # far more than the pipe holds: it waits to send
    time.sleep(0.5)
    items.close()
    assert not items.process.is_alive()
