"""The bot never posts twice on one issue, in the fast loop: `answer` over a
stub Finder (no V8, no built site) against tests/test_bot.py's fake GitHub.
Its comment ends with the hidden marker; a second run on the issue finds it
and stays silent, whether the marker is on the first page of comments or
past it, or arrives while this run searches (read again right before
posting). tests/test_bot.py checks the same with a real site, slowly."""
from __future__ import annotations

import pytest

from errorsite.tools import bot
from errorsite.tools.bot import MARKER, GitHub, answer
from errorsite.tools.find import Found, Result
from tests.test_bot import event, github, posted  # noqa: F401 (github is a fixture)

RESULT = Result(1, "accepts at most 1 arg(s), received 2", "spf13/cobra", "usage", "",
                "https://example.org/errors/spf13/cobra/accepts-at-most-arg-s-received/",
                "spf13/cobra/accepts-at-most-arg-s-received/")
SILENT = "silent: already commented on this issue"


class StubFinder:
    """Every paste is an exact match of RESULT."""
    address_note = ""

    def __init__(self, site):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def find(self, text: str, n: int) -> Found:
        return Found([RESULT], "exact", 1)

    def record(self, result: Result) -> dict:
        return {"record": {"solutions": ["Quote values containing spaces"]}}


@pytest.fixture(autouse=True)
def stub_finder(monkeypatch):
    monkeypatch.setattr(bot, "open_site", lambda site: site)
    monkeypatch.setattr(bot, "Finder", StubFinder)


def run(server) -> str:
    return answer(event("issues-opened-known-error.json"), "https://example.org/errors/", GitHub(server.url, "t"))


def test_a_second_run_on_the_issue_posts_nothing(github):
    assert run(github) == "commented"
    assert run(github) == SILENT
    [(path, data)] = posted(github)
    assert path.endswith("/issues/42/comments") and data["body"].endswith(MARKER + "\n")


def test_a_marker_past_the_first_page_of_comments_counts(github):
    github.comments[42] = [{"id": n, "body": "+1"} for n in range(bot.COMMENTS_PAGE)] + [{"id": 100, "body": MARKER}]
    assert run(github) == SILENT and posted(github) == []


def test_a_marker_that_arrives_while_it_searches_counts(github):
    github.arriving[42] = {"id": 7, "body": f"This looks like exactly this error: …\n{MARKER}\n"}
    assert run(github) == SILENT and posted(github) == []
    assert [method for method, *_ in github.requests] == ["GET", "GET"]


def test_other_comments_are_no_marker(github):
    github.comments[42] = [{"id": 1, "body": "errorsite-bot, are you there?"}, {"id": 2, "body": None}]
    assert run(github) == "commented" and len(posted(github)) == 1


@pytest.mark.parametrize("confidence, said", [("exact", "silent: no record matches surely enough"),
                                              ("likely", "commented")])
def test_a_likely_match_is_answered_only_when_likely_is_accepted(github, monkeypatch, confidence, said):
    """By default the bot answers an exact match alone (tests/test_bot.py checks the comment's words)."""
    monkeypatch.setattr(StubFinder, "find", lambda self, text, n: Found([RESULT], "likely", 1))
    assert answer(event("issues-opened-known-error.json"), "https://example.org/errors/", GitHub(github.url, "t"),
                  confidence) == said
