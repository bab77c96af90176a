"""The issue bot (action.yml, errorsite/tools/bot.py; issue 41), on recorded event
payloads (tests/fixtures/bot/) against a local fake of GitHub's REST API, with
no network: a match gets one comment with the record's link and first
solution, saying which verdict it acted on (exact or likely); an unsure
search, a likely match under the default confidence, a bot's post or another
action gets silence; an issue it answered never gets a second comment, even
when that answer arrives while it searches; dry-run posts nothing. Without a
site (the fast loop): what it reads of a post (code blocks, in one pass over
any shape), record text made inert, and a malformed event told in one line."""
from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from urllib.parse import parse_qs, urlsplit

import pytest

import yaml

from errorsite.tools.bot import MARKER, GitHub, answer, code_blocks, comment_body, inert, main, pastes, post_of
from errorsite.tools.find import Found, Result
from tests.conftest import ROOT, SHARED_RECORDS, build_quietly, need_shared

slow = pytest.mark.slow  # builds a site and starts V8 in subprocesses
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
        self.arriving: dict[int, dict] = {}  # a comment another run posts just after this one's first read
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
        answered = self.server.comments.get(self.issue(), [])[(page - 1) * size:page * size]
        if self.issue() in self.server.arriving:
            self.server.comments.setdefault(self.issue(), []).append(self.server.arriving.pop(self.issue()))
        self.reply(200, answered)

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


@slow
def test_a_known_error_gets_one_comment_with_its_record_and_first_solution(site, github):
    said = answer(event("issues-opened-known-error.json"), site, GitHub(github.url, "t0ken"))
    assert said == "commented"
    [(path, data)] = posted(github)
    assert path == "/repos/acme/tool/issues/42/comments"
    body = data["body"]
    assert body.startswith(f"This looks like exactly this error: **[accepts at most 1 arg(s), received 2]({COBRA})** "
                           "(spf13/cobra · usage).")
    assert "\n\nFirst solution: Quote values containing spaces" in body and body.rstrip().endswith(MARKER)
    # its marker looked for before the search and again right before posting
    [get, get_again, post] = github.requests
    assert get[1] == get_again[1] == "/repos/acme/tool/issues/42/comments?per_page=100&page=1"
    assert {request[2]["Authorization"] for request in github.requests} == {"Bearer t0ken"}
    # the same event again (an edit, a re-run of the workflow): no second comment
    assert answer(event("issues-opened-known-error.json"), site, GitHub(github.url, "t0ken")) == \
        "silent: already commented on this issue"
    assert len(posted(github)) == 1


@slow
def test_a_comment_with_a_known_error_is_answered_too(site, github):
    assert answer(event("issue-comment-created-known-error.json"), site, GitHub(github.url, "t")) == "commented"
    [(path, data)] = posted(github)
    assert path == "/repos/acme/tool/issues/44/comments"
    assert "input rank for GroupNorm should be at least 3" in data["body"]


@slow
@pytest.mark.parametrize("name, why", [
    ("issues-opened-unrelated.json", "silent: no record matches surely enough"),
    ("issue-comment-created-by-bot.json", "silent: a bot's post"),
    ("issues-labeled.json", "silent: not a new issue or comment"),
])
def test_silence(site, github, name, why):
    assert answer(event(name), site, GitHub(github.url, "t")) == why
    assert posted(github) == []


@slow
def test_a_likely_match_is_answered_only_when_likely_is_accepted_and_says_so(site, github):
    """An older wording of redis' message (`client` for `clients`) in a
    traceback through redis-py: the search calls it likely, not exact."""
    assert answer(event("issues-opened-likely-error.json"), site, GitHub(github.url, "t")) == \
        "silent: no record matches surely enough"
    assert posted(github) == []
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


@slow
def test_an_answer_posted_while_it_searches_is_not_answered_again(site, github):
    """Another run of the bot (or a person quoting its comment) posts the
    marker after this run's first read of the comments: it reads them again
    right before posting, and stays silent."""
    github.arriving[42] = {"id": 7, "body": f"This looks like exactly this error: …\n{MARKER}\n"}
    assert answer(event("issues-opened-known-error.json"), site, GitHub(github.url, "t")) == \
        "silent: already commented on this issue"
    assert posted(github) == [] and [method for method, *_ in github.requests] == ["GET", "GET"]


def test_the_documented_workflow_runs_one_answer_per_issue_at_a_time():
    """Runs for one issue queue behind each other (the second then sees the
    first's marker); cancelling one in progress could cut it between its read
    and its post."""
    text = (ROOT / "docs" / "bot.md").read_text("utf-8")
    workflow = yaml.safe_load(text.split("```yaml\n", 1)[1].split("```", 1)[0])
    assert workflow["concurrency"] == {"group": "errorsite-bot-${{ github.event.issue.number }}",
                                       "cancel-in-progress": False}


@slow
def test_a_marker_past_the_first_page_of_comments_counts(site, github):
    github.comments[42] = [{"id": n, "body": "+1"} for n in range(100)] + [{"id": 100, "body": f"…{MARKER}"}]
    assert answer(event("issues-opened-known-error.json"), site, GitHub(github.url, "t")) == \
        "silent: already commented on this issue"
    assert [path for _, path, _, _ in github.requests] == [
        "/repos/acme/tool/issues/42/comments?per_page=100&page=1", "/repos/acme/tool/issues/42/comments?per_page=100&page=2"]


@slow
def test_dry_run_prints_the_comment_and_calls_nothing(site, github, tmp_path):
    env = {**os.environ, "GITHUB_EVENT_PATH": str(EVENTS / "issues-opened-known-error.json"),
           "GITHUB_API_URL": github.url, "GITHUB_TOKEN": "t"}
    done = subprocess.run([sys.executable, "-m", "errorsite.tools.bot", "--site", site, "--dry-run"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("This looks like exactly this error: **[accepts at most 1 arg(s), received 2]")
    assert done.stdout.rstrip().endswith("errorsite bot: would comment") and github.requests == []
    # and for real, through the same command: one comment
    done = subprocess.run([sys.executable, "-m", "errorsite.tools.bot", "--site", site], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "errorsite bot: commented\n", done.stderr
    assert len(posted(github)) == 1


@slow
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
    assert 'python -m errorsite.tools.bot "${args[@]}"' in text
    # inputs reach the script only through env: never ${{ }} inside `run`, where they would be shell code
    run_blocks = text.split("run: |")[1]
    assert "${{" not in run_blocks


def test_an_anchor_in_a_url_keeps_working_and_plain_references_stay_inert():
    link = "https://github.com/o/r/blob/abc/f.py#L3"
    assert inert(f"see {link} and #4") == f"see {link} and #\u20604"
    assert inert(f"({link}), www.example.org/docs#install and http://example.org/@me") == \
        f"({link}), www.example.org/docs#install and http://example.org/@me"
    # plain #n, GH-n and @name beside a URL, and an issue URL with an anchor, stay inert
    assert inert(f"{link} #5 GH-6 @octocat https://github.com/o/r/issues/7#issuecomment-8") == \
        f"{link} #\u20605 GH\u2060-6 @\u2060octocat https://github\u2060.com/o/r/issues/7#issuecomment-8"
    assert inert("foowww.example.org#10") == "foowww.example.org#\u206010"  # a URL starts a word
    # and in the comment, through its Markdown escaping
    record = {"record": {"solutions": [f"Pass a list, as {link} does (see #9)"]}}
    body = comment_body(found_as("exact"), record, "https://example.org/errors/")
    assert f"First solution: Pass a list, as {link} does (see #\u20609)\n" in body


def test_code_blocks_as_github_shows_them():
    text = ("Intro\n```python\nTraceback (most recent call last):\nValueError: x\n```\n"
            "~~~\nwith ``` inside\n~~~~\n"
            "   ````\n```\nnested fence\n````   \n"
            "```a``` is inline code, not a fence\n"
            "``\nnot a fence either\n``\n"
            "```\n    ```\nfour spaces in is no fence\n```\n"
            "```\n\n```\n"
            "```\nleft open\nto the end")
    blocks = ["Traceback (most recent call last):\nValueError: x\n", "with ``` inside\n", "```\nnested fence\n",
              "    ```\nfour spaces in is no fence\n", "\n", "left open\nto the end\n"]
    assert list(code_blocks(text)) == blocks
    post = post_of(event("issues-opened-known-error.json"))._replace(body=text, title="")
    assert pastes(post) == blocks[:4] + blocks[5:]  # a blank block is no paste
    many = "".join(f"```\nError {n}\n```\n" for n in range(9))
    assert pastes(post._replace(body=many)) == [f"Error {n}\n" for n in range(5)]


@slow
@pytest.mark.parametrize("shape", ["```a\n", "~~~\n```x\n"])
def test_a_megabyte_post_of_fences_is_read_in_one_pass(shape):
    """Lines that open a fence nothing closes: a backtracking pattern scans to
    the end from each, so its time grows with the square of the post's length.
    The subprocess's timeout is only a guard against a hang, far above one pass."""
    code = ("from errorsite.tools.bot import Post, pastes\n"
            f"body = {shape!r} * (1_000_000 // {len(shape)})\n"
            "found = pastes(Post('o/r', 1, '', body, False))\n"
            "print(len(found), sum(map(len, found)))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    count, size = map(int, done.stdout.split())
    assert 1 <= count <= 5 and 0 < size <= 5 * 65_536


def malformed(change) -> bytes:
    data = event("issue-comment-created-known-error.json")
    change(data)
    return json.dumps(data).encode()


@pytest.mark.parametrize("content, says", [
    (b"{nope", "not JSON: Expecting property name enclosed in double quotes at line 1, column 2"),
    ('{"issue": "caf\xe9"}'.encode("latin-1"), "not UTF-8 (byte 14)"),
    (b"", "empty, where a JSON event was expected"),
    (b"[]", "expected a JSON object, got an array"),
    (b"[" * 100_000, "not an event: JSON nested too deeply"),
    (b"{}", "issue: missing"),
    (malformed(lambda e: e.update(issue=[1])), "issue: expected an object, got an array"),
    (malformed(lambda e: e["issue"].update(number="44")), "issue.number: expected an integer, got a string"),
    (malformed(lambda e: e["issue"].update(number=True)), "issue.number: expected an integer, got a boolean"),
    (malformed(lambda e: e.pop("repository")), "repository: missing"),
    (malformed(lambda e: e["repository"].update(full_name=None)), "repository.full_name: expected a string, got null"),
    (malformed(lambda e: e.pop("action")), "action: missing"),
    (malformed(lambda e: e.update(comment=["x"])), "comment: expected an object, got an array"),
    (malformed(lambda e: e["comment"].update(body=7)), "comment.body: expected a string or null, got an integer"),
    (malformed(lambda e: e["comment"].pop("user")), "comment.user: missing"),
    (malformed(lambda e: e["comment"]["user"].update(type=None)), "comment.user.type: expected a string, got null"),
    (malformed(lambda e: (e.pop("comment"), e.update(action="opened"), e["issue"].update(body=["x"]))),
     "issue.body: expected a string or null, got an array"),
    (malformed(lambda e: (e.pop("comment"), e.update(action="opened"), e["issue"].update(title=3))),
     "issue.title: expected a string or null, got an integer"),
])
def test_a_malformed_event_is_told_in_one_line_with_exit_2(tmp_path, capsys, content, says):
    path = tmp_path / "event.json"
    path.write_bytes(content)
    assert main(["--site", str(tmp_path / "no-site"), "--event", str(path), "--dry-run"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"errorsite bot: {path}: {says}\n"


def test_an_event_file_that_is_not_there_is_told_in_one_line(tmp_path, capsys):
    assert main(["--site", str(tmp_path), "--event", str(tmp_path / "gone.json"), "--dry-run"]) == 2
    assert capsys.readouterr().err == f"errorsite bot: {tmp_path / 'gone.json'}: cannot read it: No such file or directory\n"


def test_an_issue_without_a_description_is_no_malformed_event():
    """GitHub sends a body of null for an issue opened with a title alone."""
    data = event("issues-opened-known-error.json")
    data["issue"]["body"] = None
    assert pastes(post_of(data)) == ["CLI fails when I pass a file name with spaces"]


def test_the_bot_says_when_the_site_names_another_address_than_it_was_read_from(monkeypatch):
    """Its comment's links start with the address the site's pages name."""
    from errorsite.tools import bot

    class Named:
        address_note = "note: the site at https://a.example/ names its address as http://localhost:8000/: …"

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(bot, "open_site", lambda site: site)
    monkeypatch.setattr(bot, "Finder", lambda site: Named())
    monkeypatch.setattr(bot, "best_match", lambda finder, texts, accepted: None)
    warned = []
    assert answer(event("issues-opened-known-error.json"), "https://a.example/", None, warn=warned.append) == \
        "silent: no record matches surely enough"
    assert warned == [Named.address_note]
