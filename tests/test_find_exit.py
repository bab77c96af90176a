"""`errorsite find`'s exit status in the fast loop: the command
(errorsite/tools/find/command.py) over a stub Finder, no V8 and no built site, one
test a documented status (docs/commands.md: 0 a match, exact or likely; 1
no match; 2 an error, in one line on stderr). tests/test_find.py checks the
same on a real site, slowly."""
from __future__ import annotations

import io

import pytest

from errorsite.tools.find import FindError, Found, Result
from errorsite.tools.find import command as find_command

RESULT = Result(1, "ERR max number of clients reached", "redis/redis", "runtime", "",
                "https://example.org/errors/redis/redis/err-max/", "redis/redis/err-max/")


class StubFinder:
    """The Finder's face to the command: found what it is told, or fails as told."""
    found: Found | None = None
    fails: str | None = None
    address_note = ""
    base_url = "https://example.org/errors/"

    def __init__(self, site, deadline=None):
        if self.fails:
            raise FindError(self.fails)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def find(self, text: str, n: int) -> Found:
        return self.found

    def record(self, result: Result) -> dict:
        return {"record": {"solutions": ["Raise maxclients"]}}


def run(monkeypatch, capsys, found: Found | None = None, fails: str | None = None,
        argv: tuple[str, ...] = ("ERR max number of clients reached",)) -> tuple[int, str, str]:
    monkeypatch.setattr(StubFinder, "found", found)
    monkeypatch.setattr(StubFinder, "fails", fails)
    monkeypatch.setattr(find_command, "Finder", StubFinder)
    monkeypatch.setattr(find_command, "open_site", lambda where: where)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = find_command.command(["--site", "site", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("match, first_line", [("exact", "This is your error:"),
                                               ("likely", "Probably this error (the wording differs):")])
def test_a_match_exits_0(monkeypatch, capsys, match, first_line):
    status, out, err = run(monkeypatch, capsys, Found([RESULT], match, 1))
    assert (status, out.splitlines()[0], err) == (0, first_line, "")


@pytest.mark.parametrize("results", [[RESULT], []], ids=["related-records", "nothing"])
def test_no_match_exits_1(monkeypatch, capsys, results):
    status, out, _ = run(monkeypatch, capsys, Found(results, "none", 1))
    assert status == 1 and out.startswith("No record for this error yet.")


def test_no_match_exits_1_in_json_too(monkeypatch, capsys):
    status, out, _ = run(monkeypatch, capsys, Found([RESULT], "none", 1), argv=("--json", "ERR x"))
    assert status == 1 and '"match": "none"' in out


def test_a_site_that_cannot_be_searched_exits_2_with_one_line(monkeypatch, capsys):
    status, out, err = run(monkeypatch, capsys, fails="site: no such folder\n(and a second line)")
    assert (status, out) == (2, "")
    assert err == "errorsite find: site: no such folder (and a second line)\n"


def test_no_error_text_exits_2(monkeypatch, capsys):
    status, out, err = run(monkeypatch, capsys, Found([RESULT], "exact", 1), argv=("-",))
    assert (status, out) == (2, "") and "no error text" in err


def test_a_usage_error_exits_2(monkeypatch, capsys):
    with pytest.raises(SystemExit) as exited:
        run(monkeypatch, capsys, Found([RESULT], "exact", 1), argv=("-n", "0", "ERR x"))
    assert exited.value.code == 2
