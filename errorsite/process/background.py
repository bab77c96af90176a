"""A generator run in a process of its own (Beside), its items handed over
one at a time as the asking process asks for them or has a moment
(`ready`, `alongside`). The global step makes the search data this way,
beside the listings (sitewide.made_pages)."""
from __future__ import annotations

import collections
import gc
import multiprocessing
import multiprocessing.connection
import threading
from typing import Callable, Generator, Iterable, Iterator

from ..model import Page
from .generator_result import Finished


class Beside:
    """The items of `function(*args)`, made in a process of its own started now,
    and handed over one at a time as they are asked for: the asking process
    never holds them all (a future's result would arrive whole, and be
    unpickled beside its own bytes: the search data twice, at the build's
    peak of memory). What a generator returns, `yield from` a Beside gives."""

    def __init__(self, function: Callable[..., Iterator], *args):
        context = multiprocessing.get_context("spawn")
        self.receiving, sending = context.Pipe(duplex=False)
        # A daemon: a build that fails before asking leaves no process waiting to send.
        # The collector's thresholds of this process go with it (cli.collect_garbage_less_often):
        # the search data is hundreds of thousands of long-lived objects too.
        self.process = context.Process(target=send_items, args=(sending, gc.get_threshold(), function, *args),
                                       daemon=True)
        self.process.start()
        sending.close()  # the child's end: receiving sees EOF if the child dies
        self.ended, self.returned = False, None

    def __iter__(self) -> "Beside":
        return self

    def __next__(self):
        if self.ended:
            raise StopIteration(self.returned)
        try:
            kind, value = self.receiving.recv()
        except EOFError:
            self.close()
            raise RuntimeError(f"the process beside ended ({self.process.exitcode}) before its last item") from None
        if kind == "item":
            return value
        self.process.join()  # it ends once it has sent this
        self.close()
        if kind == "error":
            raise value
        self.ended, self.returned = True, value
        raise StopIteration(value)  # what the generator returned: `yield from` gives it

    def ready(self) -> Iterator:
        """The items sent so far, without waiting for more."""
        while not self.ended and self.receiving.poll():
            try:
                yield next(self)
            except StopIteration:
                return

    def close(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join()
        self.receiving.close()


def send_items(sending: multiprocessing.connection.Connection, thresholds: tuple[int, ...],
               function: Callable[..., Iterator], *args) -> None:
    """Beside's other end: each item, then the end with what a generator
    returned, or the error. They are sent by a thread (Outbox): the work goes
    on while the asking process is busy with its own, until SENT_AHEAD bytes
    wait for it. `thresholds`: the garbage collector's, as the asking process has them."""
    gc.set_threshold(*thresholds)
    outbox = Outbox(sending, SENT_AHEAD)
    try:
        items = Finished(function(*args))
        for item in items:
            outbox.put(("item", item), item_bytes(item))
    except Exception as error:
        outbox.put(("error", error), 0)
    else:
        outbox.put(("end", items.value), 0)
    outbox.close()
    sending.close()


# The search data waits here while the asking process is busy (made_pages
# takes what is ready after each page of its own). Taken only after the
# listings, a larger buffer added its whole size to the build's peak memory,
# and a smaller one held the search process up through the links and
# redirects (bench/peaks.py measures both).
SENT_AHEAD = 24 << 20


def item_bytes(item: object) -> int:
    return len(item.content) + 100 if isinstance(item, Page) else 100


class Outbox:
    """Messages sent in order by a thread of their own, up to `limit` bytes of
    them waiting: a full pipe holds up that thread, not the one making them."""

    def __init__(self, sending: multiprocessing.connection.Connection, limit: int):
        self.sending, self.limit = sending, limit
        self.waiting: collections.deque[tuple[object, int]] = collections.deque()
        self.bytes, self.closed, self.failed = 0, False, None
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self.send_all, daemon=True)
        self.thread.start()

    def put(self, message: object, size: int) -> None:
        with self.changed:
            while self.waiting and self.bytes + size > self.limit and self.failed is None:
                self.changed.wait()
            if self.failed is not None:
                raise self.failed  # the asking process is gone: no one to make the rest for
            self.waiting.append((message, size))
            self.bytes += size
            self.changed.notify_all()

    def send_all(self) -> None:
        while True:
            with self.changed:
                while not self.waiting and not self.closed:
                    self.changed.wait()
                if not self.waiting:
                    return
                message, size = self.waiting[0]
            try:
                self.sending.send(message)
            except Exception as error:  # a broken pipe, or a message that does not pickle
                with self.changed:
                    self.failed = error
                    self.waiting.clear()
                    self.changed.notify_all()
                return
            with self.changed:
                self.waiting.popleft()
                self.bytes -= size
                self.changed.notify_all()

    def close(self) -> None:
        """Once every message is sent."""
        with self.changed:
            self.closed = True
            self.changed.notify_all()
        self.thread.join()


def alongside(pages: Iterable[Page], ready: Callable[[], Iterable[Page]]) -> Generator[Page, None, object]:
    """`pages`, each followed by what `ready()` has at hand (the search data's
    pages sent so far); returns what `pages` returns."""
    pages = iter(pages)
    while True:
        try:
            page = next(pages)
        except StopIteration as end:
            return end.value
        yield page
        yield from ready()
