"""Per-record work that is usually quick, spread over processes once it
proves slow.

Starting worker processes costs about a second, more than a few dozen
records take in one process, so a small build or check works in its own
process. But a record may take up to its time budget (markup.HIGHLIGHT_SECONDS:
code a lexer stalls on), and ten such records would then take ten budgets
one after the other. `serial_then_spread` works through the items in this
process for as long as that stays cheap, and once it has taken longer than
starting processes would (SERIAL_SECONDS), hands the items left to `jobs`
processes, so their budgets are paid side by side. The results come back in
the items' order whichever process made them, so the output is the same.
"""
from __future__ import annotations

import multiprocessing
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from typing import Callable, Iterator, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

SERIAL_SECONDS = 1.0  # about what starting worker processes costs


def serial_then_spread(items: list[Item], serially: Callable[[Item], Result],
                       spread: Callable[[list[Item]], Iterator[Result]], jobs: int,
                       seconds: float | None = None) -> Iterator[Result]:
    """serially(item) for each item, in order, in this process, until
    `seconds` (SERIAL_SECONDS) have passed with items left and `jobs` > 1; then what
    spread(items left) yields, in their order. A consumer that stops early
    closes the spread iterator, so it can end its processes."""
    seconds = SERIAL_SECONDS if seconds is None else seconds
    started = time.monotonic()
    for index, item in enumerate(items):
        if index and jobs > 1 and time.monotonic() - started > seconds:  # one item never starts processes
            rest = spread(items[index:])
            try:
                yield from rest
            finally:
                close = getattr(rest, "close", None)
                if close is not None:
                    close()
            return
        yield serially(item)


def in_processes(function: Callable, items: list[Item], jobs: int,
                 initializer: Callable | None = None, initargs: tuple = (), by_chunk: bool = False) -> Iterator[Result]:
    """function(item) for each item, in order, made by up to `jobs` spawned
    processes. The items go in chunks (chunk_size): one item a task when
    there are few, so that records which each take a whole budget are
    worked on side by side; larger chunks when there are many, so that
    passing them between processes never costs more than the work. On an
    error, or when the consumer stops, the tasks not started are cancelled
    and the processes end once their task is done (never killed, so none
    dies holding a lock of the queues between them). `function` must be
    importable by name (a module's top-level function); initializer(*initargs)
    runs once in each process, before its first item. `by_chunk`: `function`
    takes a chunk (a list of items) and returns their results, in order."""
    size = chunk_size(len(items), jobs)
    executor = ProcessPoolExecutor(max(1, min(jobs, len(items))), mp_context=multiprocessing.get_context("spawn"),
                                   initializer=initializer, initargs=initargs)
    try:
        chunks = (items[start:start + size] for start in range(0, len(items), size))
        task = (function,) if by_chunk else (_each, function)
        running = deque(executor.submit(*task, chunk) for chunk in islice(chunks, jobs * AHEAD))
        while running:  # at most AHEAD chunks a process wait, so none pile up before a slow consumer
            done = running.popleft().result()
            running.extend(executor.submit(*task, chunk) for chunk in islice(chunks, 1))
            yield from done
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


AHEAD = 4              # chunks a process, submitted before their results are read
CHUNKS_A_PROCESS = 16  # at least, so that one slow chunk leaves the others plenty to do
LARGEST_CHUNK = 32


def chunk_size(count: int, jobs: int) -> int:
    return max(1, min(LARGEST_CHUNK, count // (jobs * CHUNKS_A_PROCESS)))


def _each(function: Callable[[Item], Result], chunk: list[Item]) -> list[Result]:
    return [function(item) for item in chunk]
