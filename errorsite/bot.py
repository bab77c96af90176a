"""The issue bot (action.yml): on a new issue or comment, it searches the
error output pasted there with the site's own search (find/) and, on a
match, comments once with the record's link and first solution. When unsure
it says nothing; it never comments twice on one issue (a hidden marker in its
comment); with dry-run it prints the comment and posts nothing.

    python -m errorsite.bot --site URL [--event FILE] [--dry-run] [--confidence exact|likely]

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
from pathlib import Path
from typing import NamedTuple

from .find import Finder, FindError, Found, open_site
from .logsafe import defuse
from .share import md_text, md_url, one_line

MARKER = "<!-- errorsite-bot -->"
FENCED = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n(.*?)^ {0,3}\1[`~]*[ \t]*$", re.M | re.S)
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


def post_of(event: dict) -> Post | None:
    """The post of an `issues` (opened, edited, reopened) or `issue_comment` (created) event, else None."""
    issue = event.get("issue")
    repo = (event.get("repository") or {}).get("full_name")
    if not isinstance(issue, dict) or not repo or not isinstance(issue.get("number"), int):
        return None
    if "comment" in event:
        if event.get("action") != "created":
            return None
        comment = event["comment"] or {}
        return Post(repo, issue["number"], "", comment.get("body") or "",
                    (comment.get("user") or {}).get("type") == "Bot")
    if event.get("action") not in ("opened", "edited", "reopened"):
        return None
    return Post(repo, issue["number"], issue.get("title") or "", issue.get("body") or "",
                (issue.get("user") or {}).get("type") == "Bot")


def pastes(post: Post) -> list[str]:
    """What to search: the post's code blocks (where people paste output), or
    without any, its whole text; and an issue's title, which is often the error."""
    body = post.body.replace("\r\n", "\n")
    blocks = [m[2] for m in FENCED.finditer(body) if m[2].strip()][:MAX_PASTES]
    found = blocks or ([body] if body.strip() else [])
    if post.title.strip():
        found.append(post.title)
    return [text[:MAX_PASTE] for text in found]


def best_match(finder: Finder, texts: list[str], accepted: tuple[str, ...]) -> Found | None:
    """The first paste whose search the engine judges a match at an accepted level, exact ones first."""
    answers = [finder.find(text, 1) for text in texts]
    for level in accepted:
        for found in answers:
            if found.results and found.match == level:
                return found
    return None


def inert(text: str) -> str:
    """Record text for a GitHub comment: no @mention pings anyone, and no
    #123, owner/repo#123, GH-123 or issue or pull request URL links an issue
    and so cross-references it (a word joiner breaks each)."""
    text = re.sub(r"([@#])(?=[\w-])", "\\1\u2060", text)
    text = re.sub(r"\b(GH)(-\d)", "\\1\u2060\\2", text, flags=re.IGNORECASE)
    return re.sub(r"\b(github)(\.com/[\w.-]+/[\w.-]+/(?:issues|pull|discussions)/\d)", "\\1\u2060\\2", text,
                  flags=re.IGNORECASE)


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
           say=print) -> str:
    """What the bot did: "commented", "would comment" (dry run, github None), or why it stayed silent."""
    post = post_of(event)
    if post is None:
        return "silent: not a new issue or comment"
    if post.author_is_bot or MARKER in post.body:
        return "silent: a bot's post"
    texts = pastes(post)
    if not texts:
        return "silent: nothing pasted"
    with Finder(open_site(site)) as finder:
        found = best_match(finder, texts, ACCEPTED[confidence])
        if found is None:
            return "silent: no record matches surely enough"
        record = finder.record(found.results[0])
    if github is not None and github.has_commented(post.repo, post.issue):
        return "silent: already commented on this issue"
    body = comment_body(found, record, site)
    if github is None:
        say(defuse(body))
        return "would comment"
    github.comment(post.repo, post.issue, body)
    return "commented"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m errorsite.bot", description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", required=True, help="the site's URL (or a built site's folder)")
    parser.add_argument("--event", default=os.environ.get("GITHUB_EVENT_PATH"), help="the event's JSON file")
    parser.add_argument("--dry-run", action="store_true", help="print the comment, post nothing")
    parser.add_argument("--confidence", choices=sorted(ACCEPTED), default="exact",
                        help="the least match that gets a comment (default: exact)")
    args = parser.parse_args(argv)
    if not args.event:
        parser.error("no event: give --event FILE (GitHub Actions sets GITHUB_EVENT_PATH)")
    event = json.loads(Path(args.event).read_text("utf-8"))
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
