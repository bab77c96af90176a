"""The browser's search modules loaded under Node (tests/js/evaluate.js), for
tests in the fast loop: `node_core.evaluate(expr, arg)` runs a JavaScript
function on a JSON argument, as Playwright's `page.evaluate` does in Chromium,
and `node_core.timed(...)` also returns the milliseconds it took in Node.

One Node process serves a whole test session. A call that does not answer
within `timeout` seconds kills it and fails the test: a search that hangs fails
instead of hanging the suite. Where Node is missing the tests skip, except in
CI (CI=true), where they fail.
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
# A hang guard: a call answers in milliseconds to a few seconds; none in a
# minute means the search hangs, and the test fails by name.
HANG_GUARD = 60
EVALUATE = ROOT / "tests" / "js" / "evaluate.js"


class NodeCore:
    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.answers: queue.Queue = queue.Queue()

    def start(self) -> None:
        self.process = subprocess.Popen([NODE, str(EVALUATE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, encoding="utf-8")
        self.answers = queue.Queue()
        self.errors: list[str] = []
        threading.Thread(target=self._read, args=(self.process.stdout, self.answers.put), daemon=True).start()
        threading.Thread(target=self._read, args=(self.process.stderr, self.errors.append), daemon=True).start()

    @staticmethod
    def _read(stream, put) -> None:
        for line in stream:
            put(line)
        put(None)

    def timed(self, expr: str, arg=None, timeout: float = HANG_GUARD) -> tuple[object, float]:
        """The function's value and the milliseconds it took in Node."""
        if self.process is None or self.process.poll() is not None:
            self.start()
        self.process.stdin.write(json.dumps({"expr": expr, "arg": arg}) + "\n")
        self.process.stdin.flush()
        try:
            line = self.answers.get(timeout=timeout)
        except queue.Empty:
            self.close()
            pytest.fail(f"Node did not answer within {timeout} s: {expr[:200]}")
        if line is None:
            self.close()
            stderr = "".join(line for line in self.errors if line)[-2000:]
            pytest.fail(f"Node exited while running {expr[:200]}:\n{stderr}")
        answer = json.loads(line)
        if "error" in answer:
            raise AssertionError("JavaScript error: " + answer["error"])
        return answer["value"], answer["ms"]

    def evaluate(self, expr: str, arg=None, timeout: float = HANG_GUARD):
        return self.timed(expr, arg, timeout)[0]

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def need_node() -> None:
    if NODE is None:
        message = "node is not installed: the browser's search modules are tested under Node"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def node_core():
    need_node()
    core = NodeCore()
    yield core
    core.close()
