"""The issue bot (action.yml, errorsite/bot.py; issue 41), on recorded event
payloads (tests/fixtures/bot/) against a local fake of GitHub's REST API, with
no network: a match gets one comment with the record's link and first
solution, saying which verdict it acted on (exact or likely); an unsure
search, a likely match under the default confidence, a bot's post or another
action gets silence; an issue it answered never gets a second comment;
dry-run posts nothing."""
from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from urllib.parse import parse_qs, urlsplit

import pytest

from errorsite.bot import MARKER, GitHub, answer, comment_body, inert, pastes, post_of
from errorsite.find import Found, Result
from tests.conftest import ROOT, SHARED_RECORDS, build_quietly, need_shared

pytestmark = [pytest.mark.slow]  # builds a site and starts V8 in subprocesses
EVENTS = ROOT / "tests" / "fixtures" / "bot"
BASE = "http://127.0.0.1:1/errors/"
COBRA = f"{BASE}spf13/cobra/accepts-at-most-arg-s-received/"
CLIENTS = f"{BASE}redis/redis/err-max-number-of-clients-reached/"


def event(name: str) -> dict:
    return json.loads((EVENTS / name).read_text("utf-8"))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> str:
    need_shared()
    out = tmp_path_factory.mktemp("bot") / "site"
    result, _ = build_quietly(SHARED_RECORDS, out, BASE)
    assert result.written
    return str(out)


class FakeGitHub(http.server.ThreadingHTTPServer):
    """GET and POST /repos/<o>/<r>/issues/<n>/comments, as GitHub answers them; every request kept."""

    def __init__(self, comments: dict[int, list[dict]] | None = None):
        super().__init__(("127.0.0.1", 0), FakeHandler)
        self.comments = comments or {}
        self.requests: list[tuple[str, str, dict, dict | None]] = []
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class FakeHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def issue(self) -> int:
        parts = urlsplit(self.path).path.split("/")
        assert parts[:3] == ["", "repos", "acme"] and parts[4] == "issues" and parts[6] == "comments", self.path
        return int(parts[5])

    def reply(self, status: int, data) -> None:
        body = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.server.requests.append(("GET", self.path, dict(self.headers), None))
        query = parse_qs(urlsplit(self.path).query)
        size, page = int(query["per_page"][0]), int(query["page"][0])
        self.reply(200, self.server.comments.get(self.issue(), [])[(page - 1) * size:page * size])

    def do_POST(self) -> None:
        data = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(("POST", self.path, dict(self.headers), data))
        self.server.comments.setdefault(self.issue(), []).append({"id": 1, "body": data["body"]})
        self.reply(201, {"id": 1, "body": data["body"]})


@pytest.fixture
def github():
    server = FakeGitHub()
    yield server
    server.shutdown()
    server.server_close()


def posted(server: FakeGitHub) -> list[tuple[str, dict]]:
    return [(path, data) for method, path, _, data in server.requests if method == "POST"]


def test_a_known_error_gets_one_comment_with_its_record_and_first_solution(site, github):
    said = answer(event("issues-opened-known-error.json"), site, GitHub(github.url, "t0ken"))
    assert said == "commented"
    [(path, data)] = posted(github)
    assert path == "/repos/acme/tool/issues/42/comments"
    body = data["body"]
    assert body.startswith(f"This looks like exactly this error: **[accepts at most 1 arg(s), received 2]({COBRA})** "
                           "(spf13/cobra · usage).")
    assert "\n\nFirst solution: Quote values containing spaces" in body and body.rstrip().endswith(MARKER)
    [get, post] = github.requests
    assert get[2]["Authorization"] == "Bearer t0ken" and post[2]["Authorization"] == "Bearer t0ken"
    # the same event again (an edit, a re-run of the workflow): no second comment
    assert answer(event("issues-opened-known-error.json"), site, GitHub(github.url, "t0ken")) == \
        "silent: already commented on this issue"
    assert len(posted(github)) == 1


def test_a_comment_with_a_known_error_is_answered_too(site, github):
    assert answer(event("issue-comment-created-known-error.json"), site, GitHub(github.url, "t")) == "commented"
    [(path, data)] = posted(github)
    assert path == "/repos/acme/tool/issues/44/comments"
    assert "input rank for GroupNorm should be at least 3" in data["body"]


@pytest.mark.parametrize("name, why", [
    ("issues-opened-unrelated.json", "silent: no record matches surely enough"),
    ("issue-comment-created-by-bot.json", "silent: a bot's post"),
    ("issues-labeled.json", "silent: not a new issue or comment"),
])
def test_silence(site, github, name, why):
    assert answer(event(name), site, GitHub(github.url, "t")) == why
    assert github.requests == []


def test_a_likely_match_is_answered_only_when_likely_is_accepted_and_says_so(site, github):
    """An older wording of redis' message (`client` for `clients`) in a
    traceback through redis-py: the search calls it likely, not exact."""
    assert answer(event("issues-opened-likely-error.json"), site, GitHub(github.url, "t")) == \
        "silent: no record matches surely enough"
    assert github.requests == []
    assert answer(event("issues-opened-likely-error.json"), site, GitHub(github.url, "t"), "likely") == "commented"
    [(path, data)] = posted(github)
    assert path == "/repos/acme/tool/issues/43/comments"
    assert data["body"].startswith("This is probably this error; the wording differs: "
                                   f"**[ERR max number of clients reached]({CLIENTS})** (redis/redis · resource).")


def found_as(match: str) -> Found:
    first = Result(1, "accepts at most 1 arg(s), received 2", "spf13/cobra", "usage", "", COBRA, "")
    return Found([first], match, 1)


@pytest.mark.parametrize("match, says", [
    ("exact", "This looks like exactly this error: "),
    ("likely", "This is probably this error; the wording differs: "),
])
def test_the_comment_names_the_verdict_it_acted_on(match, says):
    record = {"record": {"solutions": ["Quote values containing spaces"]}}
    body = comment_body(found_as(match), record, "https://example.org/errors/")
    assert body.startswith(f"{says}**[accepts at most 1 arg(s), received 2]({COBRA})** (spf13/cobra · usage).\n")
    assert "\n\nFirst solution: Quote values containing spaces\n" in body and body.endswith(MARKER + "\n")


def test_a_marker_past_the_first_page_of_comments_counts(site, github):
    github.comments[42] = [{"id": n, "body": "+1"} for n in range(100)] + [{"id": 100, "body": f"…{MARKER}"}]
    assert answer(event("issues-opened-known-error.json"), site, GitHub(github.url, "t")) == \
        "silent: already commented on this issue"
    assert [path for _, path, _, _ in github.requests] == [
        "/repos/acme/tool/issues/42/comments?per_page=100&page=1", "/repos/acme/tool/issues/42/comments?per_page=100&page=2"]


def test_dry_run_prints_the_comment_and_calls_nothing(site, github, tmp_path):
    env = {**os.environ, "GITHUB_EVENT_PATH": str(EVENTS / "issues-opened-known-error.json"),
           "GITHUB_API_URL": github.url, "GITHUB_TOKEN": "t"}
    done = subprocess.run([sys.executable, "-m", "errorsite.bot", "--site", site, "--dry-run"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("This looks like exactly this error: **[accepts at most 1 arg(s), received 2]")
    assert done.stdout.rstrip().endswith("errorsite bot: would comment") and github.requests == []
    # and for real, through the same command: one comment
    done = subprocess.run([sys.executable, "-m", "errorsite.bot", "--site", site], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "errorsite bot: commented\n", done.stderr
    assert len(posted(github)) == 1


def test_a_long_ci_log_with_its_error_at_the_end_gets_a_comment(site, github):
    """A pasted job log of 30 KB whose last lines are the error: the bot reads
    the whole paste (the engine reads a long one by its error lines), where
    it once searched only its first 20,000 characters and stayed silent."""
    from bench.longlog import in_log
    data = event("issues-opened-known-error.json")
    log = in_log("$ mytool add my file.txt\nError: accepts at most 1 arg(s), received 2", "end", 30_000)
    data["issue"]["body"] = f"The CI job fails:\n\n```\n{log}\n```\n"
    data["issue"]["title"] = "CI is red"
    assert len(log) > 25_000
    assert answer(data, site, GitHub(github.url, "t")) == "commented"
    [(_, posted_data)] = posted(github)
    assert posted_data["body"].startswith("This looks like exactly this error: **[accepts at most 1 arg(s), received 2]")


def test_what_it_reads_of_a_post():
    post = post_of(event("issues-opened-known-error.json"))
    assert post.repo == "acme/tool" and post.issue == 42 and not post.author_is_bot
    assert pastes(post) == ["$ mytool add my file.txt\nError: accepts at most 1 arg(s), received 2\nUsage:\n"
                            "  mytool add [path] [flags]\n\nFlags:\n  -h, --help   help for add\n",
                            "CLI fails when I pass a file name with spaces"]
    plain = post._replace(body="Error: boom\nat x", title="")
    assert pastes(plain) == ["Error: boom\nat x"]


def test_record_text_pings_no_one_and_links_no_issue():
    assert inert("ask @octocat about #12 and acme/tool#3") == \
        "ask @\u2060octocat about #\u206012 and acme/tool#\u20603"
    assert inert("see GH-6, gh-7 and https://github.com/acme/tool/issues/3 or /pull/4") == \
        "see GH\u2060-6, gh\u2060-7 and https://github\u2060.com/acme/tool/issues/3 or /pull/4"
    assert inert("https://github.com/acme/tool/blob/main/x.py and GHz-5") == \
        "https://github.com/acme/tool/blob/main/x.py and GHz-5"  # a file's link and a word stay as they are


def test_the_action_runs_the_bot_with_its_inputs_from_the_environment():
    text = (ROOT / "action.yml").read_text("utf-8")
    assert "using: composite" in text and 'pip install -q "${GITHUB_ACTION_PATH}[find]"' in text
    assert 'python -m errorsite.bot "${args[@]}"' in text
    # inputs reach the script only through env: never ${{ }} inside `run`, where they would be shell code
    run_blocks = text.split("run: |")[1]
    assert "${{" not in run_blocks
