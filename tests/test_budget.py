"""budget.run: work on untrusted input stops when its time is up, in the main
thread (a timer signal) and in any other (a helper process), and leaves the
process as it found it."""
from __future__ import annotations

import re
import signal
import threading
import time

import pytest

from errorsite.process import budget


def backtracks(n: int) -> bool:
    """Exponential in n: (a+)+ tries every split of the a's before failing."""
    return re.match(r"(a+)+$", "a" * n + "b") is not None


def deaf(seconds: float) -> str:
    """Work the timer signal cannot reach (blocked, as a C extension might)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {budget.SIGNAL})
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return "done"


def fails() -> None:
    raise ValueError("bad input")


def in_thread(function, *args):
    """function(*args) in another thread: its result, or the exception it raised."""
    outcome = {}

    def target():
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # handed back to the test
            outcome["value"] = error

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(60)
    assert not thread.is_alive()
    return outcome["value"]


def timed(function, *args):
    start = time.perf_counter()
    try:
        value = function(*args)
    except budget.OverBudget as error:
        value = error
    return value, time.perf_counter() - start


def test_in_the_main_thread_work_within_the_budget_returns_its_value():
    assert budget.run(1.0, backtracks, 10) is False


def test_in_the_main_thread_a_backtracking_regex_is_stopped():
    """Left alone, the regex would backtrack for longer than the universe has
    run: it is stopped. The clock is a hang guard only, as the budget counts
    CPU time and a busy machine stretches the wall time."""
    value, seconds = timed(budget.run, 0.3, backtracks, 60)
    assert isinstance(value, budget.OverBudget)
    assert seconds < 30


def test_the_budget_is_cpu_time_not_the_clocks():
    """Waiting costs nothing of it: on a busy machine (the process waiting for
    a core) the same work gets done, so a build's bytes do not depend on the load."""
    assert budget.run(0.1, waits, 0.4) == "waited"


def waits(seconds: float) -> str:
    time.sleep(seconds)
    return "waited"


def test_the_main_thread_is_left_as_it_was():
    before = signal.getsignal(budget.SIGNAL)
    timed(budget.run, 0.2, backtracks, 60)
    budget.run(1.0, backtracks, 5)
    assert signal.getsignal(budget.SIGNAL) is before
    assert signal.getitimer(budget.TIMER) == (0.0, 0.0)


def test_an_error_in_the_work_is_raised_as_it_is():
    with pytest.raises(ValueError, match="bad input"):
        budget.run(1.0, fails)


def test_someone_elses_timer_is_left_running():
    fired = []
    previous = signal.signal(budget.SIGNAL, lambda *_: fired.append(1))
    try:
        signal.setitimer(budget.TIMER, 30)
        value, seconds = timed(budget.run, 0.3, backtracks, 60)  # in a helper, then
        assert isinstance(value, budget.OverBudget) and seconds < 5
        assert 0 < signal.getitimer(budget.TIMER)[0] <= 30.1  # a CPU timer counts in clock ticks
        assert not fired
    finally:
        signal.setitimer(budget.TIMER, 0)
        signal.signal(budget.SIGNAL, previous)


def test_in_another_thread_work_goes_to_a_helper_and_returns_its_value():
    assert in_thread(budget.run, 5.0, backtracks, 10) is False


def test_in_another_thread_a_backtracking_regex_is_stopped_on_time_and_the_helper_kept():
    in_thread(budget.run, 5.0, backtracks, 1)  # a helper started and idle
    helper = budget._idle[-1]
    value, seconds = in_thread(timed, budget.run, 0.3, backtracks, 60)
    assert isinstance(value, budget.OverBudget)
    assert seconds < 2.0
    assert helper in budget._idle and helper.process.poll() is None  # it stopped the work itself


def test_a_helper_that_does_not_answer_is_killed_and_replaced(monkeypatch):
    monkeypatch.setattr(budget, "GRACE", 0.5)
    in_thread(budget.run, 5.0, backtracks, 1)
    helpers = list(budget._idle)
    value, seconds = in_thread(timed, budget.run, 0.2, deaf, 30)
    assert isinstance(value, budget.OverBudget)
    assert seconds < 3.0
    killed = [h for h in helpers if h not in budget._idle]
    assert killed and all(h.process.poll() is not None for h in killed)
    assert in_thread(budget.run, 5.0, backtracks, 10) is False  # the next call starts another


def test_an_error_in_a_helper_is_raised_in_the_caller():
    error = in_thread(budget.run, 5.0, fails)
    assert isinstance(error, RuntimeError) and "ValueError: bad input" in str(error)
