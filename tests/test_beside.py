"""background.Beside: a generator run in a process of its own, its items handed over one at a time."""
from __future__ import annotations

import os
import threading
import time

import pytest

from errorsite.process.generator_result import Finished
from errorsite.process.background import Beside, Outbox, alongside

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


def thresholds():
    import gc
    yield gc.get_threshold()


def test_the_process_beside_collects_garbage_as_seldom_as_the_one_that_started_it():
    import gc
    before = gc.get_threshold()
    gc.set_threshold(12_345, 6, 7)  # the build's: its data, and the search data, are long-lived objects
    try:
        items = Beside(thresholds)
    finally:
        gc.set_threshold(*before)
    assert list(items) == [(12_345, 6, 7)]


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
    items = Beside(dies_after_one)  # its first item may die with it, unsent
    with pytest.raises(RuntimeError, match=r"ended \(3\) before its last item"):
        list(items)


def made_at(count: int):
    for number in range(count):
        yield bytes([number]) * 100_000  # more than the pipe holds
    return time.monotonic()


def test_the_items_are_made_while_the_asking_process_is_busy():
    items = Beside(made_at, 50)
    time.sleep(2)  # the build writing its listings
    asked = time.monotonic()
    made = Finished(items)
    assert list(made) == [bytes([number]) * 100_000 for number in range(50)]
    assert made.value < asked


class HeldUp:
    """A pipe whose other end reads only once `reading` is set."""

    def __init__(self, error: Exception | None = None):
        self.sent, self.reading, self.error = [], threading.Event(), error

    def send(self, message):
        if self.error:
            raise self.error
        self.reading.wait()
        self.sent.append(message)


def test_an_outbox_holds_at_most_its_limit_of_bytes_waiting():
    pipe = HeldUp()
    outbox = Outbox(pipe, limit=1000)
    outbox.put("a", 600)
    second = threading.Thread(target=outbox.put, args=("b", 600))
    second.start()
    second.join(0.3)
    assert second.is_alive()  # 1200 bytes would wait: it waits for room
    pipe.reading.set()
    second.join(5)
    outbox.put("c", 5000)  # alone, a message larger than the limit still goes
    outbox.close()
    assert pipe.sent == ["a", "b", "c"]


def test_an_outbox_whose_pipe_broke_stops_the_work():
    outbox = Outbox(HeldUp(BrokenPipeError("the build is gone")), limit=1000)
    outbox.put("a", 10)
    outbox.thread.join(5)
    with pytest.raises(BrokenPipeError):
        outbox.put("b", 10)


def test_closing_before_asking_stops_the_process():
    items = Beside(numbers, 10**6)  # far more than the pipe holds: it waits to send
    time.sleep(0.5)
    items.close()
    assert not items.process.is_alive()


def test_ready_gives_what_was_sent_without_waiting_and_yield_from_still_gets_the_end():
    items = Beside(counted, 3)
    deadline = time.monotonic() + 30
    taken = []
    while len(taken) < 3 and time.monotonic() < deadline:  # never blocks: polls until all three came
        taken.extend(items.ready())
    assert taken == [0, 1, 2]
    made = Finished(items)
    assert list(made) == [] and made.value == "3 items"
    assert list(items.ready()) == []  # once ended, nothing more


def test_alongside_puts_the_ready_pages_between_and_returns_what_the_pages_return():
    def pages():
        yield "a"
        yield "b"
        return "listed"
    ready = iter([["x", "y"], [], ["z"]])
    made = Finished(alongside(pages(), lambda: next(ready)))
    assert list(made) == ["a", "x", "y", "b"] and made.value == "listed"


def lingering_search(summaries):
    """The search data's step, then a wait: its process is still there when the
    step is stopped, however fast 200 summaries are indexed (a spawned process
    that had already ended made the test below fail, at random, under load)."""
    import time

    from errorsite.search import streamed_search
    result = yield from streamed_search(summaries)
    time.sleep(60)
    return result


def test_a_global_step_stopped_early_ends_the_search_process_it_started_before_its_key():
    """With no previous pages the search data starts before the key is worked
    out (sitewide_pages): a build that fails or stops meanwhile leaves no process."""
    import multiprocessing

    from errorsite import urls
    from errorsite.model import Summary
    from errorsite.pages.render import SiteOptions
    from errorsite.pages.sitewide import BESIDE_THRESHOLD, GlobalInputs, History, sitewide_pages

    summaries = [Summary(source_file=f"r{n}.json", id=f"i{n}", repo="a/b", slug=f"r{n}", message=f"failure {n}",
                         pattern=None, error_code=None, error_type="usage", error_class=None, severity="error",
                         file_path=None, tags=(), analyzed_at=None, content_changed_at=None, card="It fails.")
                 for n in range(BESIDE_THRESHOLD)]

    def step(history):
        given = GlobalInputs(urls.Site("https://example.org/"), SiteOptions(), "", {}, history, summaries, [])
        return sitewide_pages(given, None, lingering_search, jobs=2)

    pages = step(History.of(None))
    next(pages)
    assert multiprocessing.active_children()  # the search process, under way
    pages.close()
    assert not multiprocessing.active_children()

    def unreadable():
        raise OSError("the URL history went away")
    with pytest.raises(OSError):
        list(step(History(unreadable, True, "", [])))  # fails once a page needs the history
    assert not multiprocessing.active_children()


def test_with_other_summaries_than_the_previous_pages_the_search_data_starts_before_any_key(monkeypatch):
    """Pages made from other summaries cannot stand, whatever the URL history
    says (their key holds the summaries'), so the search data starts at once,
    as with no previous pages, and the precise key waits for the pages; with
    the same summaries the key decides first, and a search process started
    for pages that then stand would be wasted."""
    from errorsite import urls
    from errorsite.pages import sitewide
    from errorsite.cache.previous import GlobalPages
    from errorsite.cache.keys import summaries_key
    from errorsite.model import Summary
    from errorsite.pages.render import SiteOptions
    from errorsite.search import streamed_search

    summaries = [Summary(source_file=f"r{n}.json", id=f"i{n}", repo="a/b", slug=f"r{n}", message=f"failure {n}",
                         pattern=None, error_code=None, error_type="usage", error_class=None, severity="error",
                         file_path=None, tags=(), analyzed_at=None, content_changed_at=None, card="It fails.")
                 for n in range(sitewide.BESIDE_THRESHOLD)]
    events = []
    real_beside, real_paths = sitewide.Beside, sitewide.listing_paths

    class Recorded(real_beside):
        def __init__(self, *args):
            events.append("search")
            super().__init__(*args)
    monkeypatch.setattr(sitewide, "Beside", Recorded)
    monkeypatch.setattr(sitewide, "listing_paths", lambda *args: events.append("key") or real_paths(*args))

    def first_event(previous_summaries: str) -> str:
        events.clear()
        previous = GlobalPages("an older key", [], previous_summaries, "another history")
        given = sitewide.GlobalInputs(urls.Site("https://example.org/"), SiteOptions(), "", {},
                                      sitewide.History.of(None), summaries, [])
        pages = sitewide.sitewide_pages(given, previous, streamed_search, jobs=2)
        try:
            next(pages)
        finally:
            pages.close()
        return events[0]

    assert first_event("summaries of an earlier build") == "search"
    ours = summaries_key("", sorted(summaries, key=urls.record_path), "")
    assert first_event(ours) == "key"
    assert events[1] == "search"  # the key said the pages do not stand: made again


def test_an_error_in_the_other_process_is_raised_by_ready_too():
    items = Beside(fails_after_one)
    deadline, taken = time.monotonic() + 30, []
    with pytest.raises(ValueError, match="no second item"):
        while time.monotonic() < deadline:  # polls, as made_pages does between its own pages
            taken.extend(items.ready())
    assert taken == ["first"]
