"""The issue bot (action.yml): on a new issue or comment, it searches the
error output pasted there with the site's own search (find/) and, on a
match, comments once with the record's link and first solution. When unsure
it says nothing; it never comments twice on one issue (a hidden marker in its
comment); with dry-run it prints the comment and posts nothing.

    python -m errorsite.tools.bot --site URL [--event FILE] [--dry-run] [--confidence exact|likely]

It reads the event GitHub Actions saved (GITHUB_EVENT_PATH), and talks to
GITHUB_API_URL with GITHUB_TOKEN, through urllib alone. The paste never
leaves the runner: the search runs here, on the site's files.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import urllib.error
import urllib.request
from itertools import islice
from pathlib import Path
from typing import Iterator, NamedTuple

from ..pages.share import md_text, md_url, one_line
from .find import Finder, FindError, Found, open_site
from .logsafe import defuse

MARKER = "<!-- errorsite-bot -->"
FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")  # a line that opens or closes a code block, and what follows the fence
MAX_PASTES = 5            # code blocks searched per post: the first ones hold the error
MAX_PASTE = 65_536        # characters of one paste: GitHub's limit on a post; the engine reads a long one by its error lines
COMMENTS_PAGE = 100
ACCEPTED = {"exact": ("exact",), "likely": ("exact", "likely")}


class Post(NamedTuple):
    """The issue or comment an event is about."""
    repo: str           # owner/name
    issue: int          # the issue's (or pull request's) number
    title: str
    body: str
    author_is_bot: bool


class BadEvent(ValueError):
    """The event file is not an issues or issue_comment event the bot can read: what is wrong, by field."""


def read_event(path: str) -> dict:
    """The JSON object of the event file, or BadEvent saying why not."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise BadEvent(f"cannot read it: {error.strerror or error}") from None
    if not data.strip():
        raise BadEvent("empty, where a JSON event was expected")
    try:
        event = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise BadEvent(f"not UTF-8 (byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise BadEvent(f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except RecursionError:
        raise BadEvent("not an event: JSON nested too deeply") from None
    if not isinstance(event, dict):
        raise BadEvent(f"expected a JSON object, got {kind(event)}")
    return event


KINDS = {str: "a string", int: "an integer", float: "a number", bool: "a boolean", dict: "an object",
         list: "an array", type(None): "null"}


def kind(value) -> str:
    return KINDS.get(type(value), type(value).__name__)


def field(parent: dict, path: str, expected: type, nullable: bool = False):
    """parent's value at the last name of path (which names it in messages), checked to be of
    the expected type (exactly: a boolean is no integer); None when absent or null and nullable."""
    name = path.rsplit(".", 1)[-1]
    if name not in parent and not nullable:
        raise BadEvent(f"{path}: missing")
    value = parent.get(name)
    if value is None and nullable:
        return None
    if type(value) is not expected:
        raise BadEvent(f"{path}: expected {KINDS[expected]}{' or null' if nullable else ''}, got {kind(value)}")
    return value


def post_of(event: dict) -> Post | None:
    """The post of an `issues` (opened, edited, reopened) or `issue_comment` (created) event;
    None for another action; BadEvent when a field the bot reads is missing or of another type."""
    issue = field(event, "issue", dict)
    number = field(issue, "issue.number", int)
    repo = field(field(event, "repository", dict), "repository.full_name", str)
    action = field(event, "action", str)
    if "comment" in event:
        if action != "created":
            return None
        where, post, title = "comment", field(event, "comment", dict), ""
    else:
        if action not in ("opened", "edited", "reopened"):
            return None
        where, post, title = "issue", issue, field(issue, "issue.title", str, nullable=True) or ""
    body = field(post, f"{where}.body", str, nullable=True) or ""
    user = field(post, f"{where}.user", dict)
    return Post(repo, number, title, body, field(user, f"{where}.user.type", str) == "Bot")


def pastes(post: Post) -> list[str]:
    """What to search: the post's code blocks (where people paste output), or
    without any, its whole text; and an issue's title, which is often the error."""
    body = post.body.replace("\r\n", "\n")
    blocks = list(islice((block for block in code_blocks(body) if block.strip()), MAX_PASTES))
    found = blocks or ([body] if body.strip() else [])
    if post.title.strip():
        found.append(post.title)
    return [text[:MAX_PASTE] for text in found]


def code_blocks(text: str) -> Iterator[str]:
    """The fenced code blocks of Markdown text, as GitHub shows them: a line of
    three or more backticks or tildes (up to three spaces in) opens one, a line
    of the same character at least as long and nothing else closes it, and one
    left open runs to the end. One pass over the lines, so a post of any shape
    costs its length."""
    opened, lines = None, []
    for line in text.split("\n"):
        fence = FENCE.match(line)
        if opened is None:
            if fence and not (fence[1][0] == "`" and "`" in fence[2]):  # ```a``` is inline code
                opened, lines = fence[1], []
        elif fence and fence[1][0] == opened[0] and len(fence[1]) >= len(opened) and not fence[2].strip(" \t"):
            yield "".join(lines)
            opened = None
        else:
            lines.append(line + "\n")
    if opened is not None:
        yield "".join(lines)


def best_match(finder: Finder, texts: list[str], accepted: tuple[str, ...]) -> Found | None:
    """The first paste whose search the engine judges a match at an accepted level, exact ones first."""
    answers = [finder.find(text, 1) for text in texts]
    for level in accepted:
        for found in answers:
            if found.results and found.match == level:
                return found
    return None


URL = re.compile(r"((?<!\w)(?:https?://|www\.)\S+)", re.IGNORECASE)
ISSUE_URL = re.compile(r"\b(github)(\.com/[\w.-]+/[\w.-]+/(?:issues|pull|discussions)/\d)", re.IGNORECASE)


def inert(text: str) -> str:
    """Record text for a GitHub comment: no @mention pings anyone, and no
    #123, owner/repo#123, GH-123 or issue or pull request URL links an issue
    and so cross-references it (a word joiner breaks each). Within any other
    URL, @ and # are left alone: there they mention no one and reference no
    issue, and a file's link keeps its #L3 anchor."""
    parts = URL.split(text)  # plain text at even places, URLs at odd ones
    for at in range(0, len(parts), 2):
        words = re.sub(r"([@#])(?=[\w-])", "\\1\u2060", parts[at])
        parts[at] = re.sub(r"\b(GH)(-\d)", "\\1\u2060\\2", words, flags=re.IGNORECASE)
    return ISSUE_URL.sub("\\1\u2060\\2", "".join(parts))


# What the comment says of the verdict it acted on, as the search page says it.
SAYS = {"exact": "This looks like exactly this error:",
        "likely": "This is probably this error; the wording differs:"}


def comment_body(found: Found, record: dict | None, site: str) -> str:
    first = found.results[0]
    lines = [f"{SAYS[found.match]} **[{inert(md_text(first.message))}]({md_url(first.url)})** "
             f"({md_text(first.repo)} · {md_text(first.error_type)})."]
    solutions = ((record or {}).get("record") or {}).get("solutions") or []
    if solutions:
        lines += ["", f"First solution: {inert(md_text(one_line(str(solutions[0]))))}"]
    lines += ["", f"<sub>Found by [errorsite]({md_url(site)})'s search on the error output above; "
                  "the record page has the other solutions and the source that raises it.</sub>", MARKER]
    return "\n".join(lines) + "\n"


class GitHub:
    """The few REST calls the bot makes."""

    def __init__(self, api: str, token: str):
        self.api, self.token = api.rstrip("/"), token

    def call(self, method: str, path: str, data: dict | None = None):
        request = urllib.request.Request(
            self.api + path, method=method, data=json.dumps(data).encode() if data is not None else None,
            headers={"Authorization": f"Bearer {self.token}", "Accept": "application/vnd.github+json",
                     "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "errorsite-bot",
                     **({"Content-Type": "application/json"} if data is not None else {})})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"null")

    def has_commented(self, repo: str, issue: int) -> bool:
        page = 1
        while True:
            comments = self.call("GET", f"/repos/{repo}/issues/{issue}/comments?per_page={COMMENTS_PAGE}&page={page}")
            if any(MARKER in (c.get("body") or "") for c in comments):
                return True
            if len(comments) < COMMENTS_PAGE:
                return False
            page += 1

    def comment(self, repo: str, issue: int, body: str) -> None:
        self.call("POST", f"/repos/{repo}/issues/{issue}/comments", {"body": body})


def answer(event: dict, site: str, github: GitHub | None, confidence: str = "exact",
           say=print, warn=lambda line: print(line, file=sys.stderr)) -> str:
    """What the bot did: "commented", "would comment" (dry run, github None), or why it stayed silent."""
    post = post_of(event)
    if post is None:
        return "silent: not a new issue or comment"
    if post.author_is_bot or MARKER in post.body:
        return "silent: a bot's post"
    texts = pastes(post)
    if not texts:
        return "silent: nothing pasted"
    if github is not None and github.has_commented(post.repo, post.issue):
        return "silent: already commented on this issue"
    with Finder(open_site(site)) as finder:
        if finder.address_note:
            warn(defuse(finder.address_note))
        found = best_match(finder, texts, ACCEPTED[confidence])
        if found is None:
            return "silent: no record matches surely enough"
        record = finder.record(found.results[0])
    body = comment_body(found, record, site)
    if github is None:
        say(defuse(body))
        return "would comment"
    # Read again right before posting: another run may have answered while this one searched.
    if github.has_commented(post.repo, post.issue):
        return "silent: already commented on this issue"
    github.comment(post.repo, post.issue, body)
    return "commented"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m errorsite.tools.bot", description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", required=True, help="the site's URL (or a built site's folder)")
    parser.add_argument("--event", default=os.environ.get("GITHUB_EVENT_PATH"), help="the event's JSON file")
    parser.add_argument("--dry-run", action="store_true", help="print the comment, post nothing")
    parser.add_argument("--confidence", choices=sorted(ACCEPTED), default="exact",
                        help="the least match that gets a comment (default: exact)")
    args = parser.parse_args(argv)
    if not args.event:
        parser.error("no event: give --event FILE (GitHub Actions sets GITHUB_EVENT_PATH)")
    try:
        event = read_event(args.event)
        post_of(event)  # a malformed event is told here, before any search or request
    except BadEvent as error:
        print(defuse(f"errorsite bot: {args.event}: {error}"), file=sys.stderr)
        return 2
    token = os.environ.get("GITHUB_TOKEN", "")
    if not args.dry_run and not token:
        print("errorsite bot: GITHUB_TOKEN is not set (or use --dry-run)", file=sys.stderr)
        return 2
    github = None if args.dry_run else GitHub(os.environ.get("GITHUB_API_URL", "https://api.github.com"), token)
    try:
        outcome = answer(event, args.site, github, args.confidence)
    except (FindError, urllib.error.URLError, OSError) as error:
        print(defuse(f"errorsite bot: {error}"), file=sys.stderr)
        return 2
    print(f"errorsite bot: {outcome}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
