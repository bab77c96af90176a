"""Work on untrusted input under a time budget: `run(seconds, function, *args)`
is `function(*args)`, or raises OverBudget once it has taken `seconds` of CPU.

The budget counts the process's CPU time, not the clock's: on a busy machine
the same record gets the same work done, so the same records give the same
bytes whatever the load (a wall-clock budget dropped the highlighting of 5 to
12 random records of 5,000 under load, run after run).

In a process's main thread a timer signal stops the work where it stands: the
SIGPROF handler raises, and CPython checks for signals between bytecodes and
while its regex engine backtracks, so a lexer stuck in a regex is interrupted
cleanly and the process carries on. Pool workers render in their main thread.
Only the main thread receives signals, so anywhere else (a build run from
`serve`'s thread, a thread pool) the work goes to a helper process, which runs
it the same way in its own main thread and answers; a helper that does not
answer in time is killed, and the next call starts another. Helpers are plain
subprocesses, so a daemonic process (a pool's, a cluster's worker) may start
them too.
"""
from __future__ import annotations

import atexit
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading

GRACE = 10.0  # seconds a helper may take beyond the budget (starting, importing, waiting for a core) before it is killed
MINIMUM = 0.001  # the timer counts in microseconds, and one of 0 would not stop the work at all


class OverBudget(Exception):
    """The work took longer than its budget and was stopped."""


def run(seconds: float, function, *args):
    if seconds <= 0:
        raise OverBudget
    seconds = max(seconds, MINIMUM)
    if _can_alarm():
        return _with_alarm(seconds, function, args)
    return _in_helper(seconds, function, args)


# The timer of the process's CPU time (user and system), and the signal it sends.
TIMER, SIGNAL = (signal.ITIMER_PROF, signal.SIGPROF) if hasattr(signal, "ITIMER_PROF") else (None, None)


def _can_alarm() -> bool:
    """Only in the main thread, and only when no one else's timer is running."""
    return (TIMER is not None and threading.current_thread() is threading.main_thread()
            and signal.getitimer(TIMER) == (0.0, 0.0))


def _with_alarm(seconds: float, function, args):
    armed = True

    def expired(signum, frame):
        if armed:  # a signal handled after the work ended is no longer the work's
            raise OverBudget

    previous = signal.signal(SIGNAL, expired)
    try:
        signal.setitimer(TIMER, seconds)
        return function(*args)
    finally:
        armed = False
        signal.setitimer(TIMER, 0)
        signal.signal(SIGNAL, previous)


# ---- Helper processes, for threads that cannot receive signals -----------------------
_idle: list["_Helper"] = []
_lock = threading.Lock()


def _in_helper(seconds: float, function, args):
    with _lock:
        helper = _idle.pop() if _idle else None
    helper = helper or _Helper()
    try:
        kind, value = helper.call(seconds, function, args)
    except BaseException:
        helper.stop()  # it did not answer in time, or died: never used again
        raise
    with _lock:
        _idle.append(helper)
    if kind == "over":
        raise OverBudget
    if kind == "error":
        raise value
    return value


class _Helper:
    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(os.path.abspath(p) for p in sys.path if p)}
        # Imported by its name, not run as __main__: the work it runs must
        # meet this module's OverBudget, not a second class of that name.
        serve = f"import importlib; importlib.import_module({__name__!r})._serve()"
        self.process = subprocess.Popen([sys.executable, "-c", serve], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env)

    def call(self, seconds: float, function, args) -> tuple[str, object]:
        _send(self.process.stdin, (seconds, function, args))
        ready, _, _ = select.select([self.process.stdout], [], [], seconds + GRACE)
        if not ready:
            raise OverBudget
        answer = _receive(self.process.stdout)
        if answer is None:  # the helper died
            raise OverBudget
        return answer

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.process.stdin.close()
        self.process.stdout.close()


@atexit.register
def _stop_helpers() -> None:
    with _lock:
        while _idle:
            _idle.pop().stop()


def _send(stream, value) -> None:
    data = pickle.dumps(value)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _receive(stream):
    """The next value, or None at the end of the stream."""
    head = stream.read(8)
    if len(head) < 8:
        return None
    return pickle.loads(stream.read(struct.unpack("<Q", head)[0]))


def _serve() -> None:
    """A helper's loop: (seconds, function, args) in on stdin, (kind, value) out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent decides
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything the work prints goes to stderr, never into the answers
    requests = sys.stdin.buffer
    while (request := _receive(requests)) is not None:
        seconds, function, args = request
        try:
            answer = ("ok", run(seconds, function, *args))
        except OverBudget:
            answer = ("over", None)
        except Exception as error:  # the caller's to handle, as if it had run there
            answer = ("error", RuntimeError(f"{type(error).__name__}: {error}"))
        _send(answers, answer)
