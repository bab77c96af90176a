"""/-/go/#q=<text> (issue 41): a link any tool can build from an error's text.
On an exact match it replaces itself with the record page; otherwise, a
likely match too (issue 61), with the search page holding the text. The text travels in the fragment, which no host
receives: the server's access log never sees it, and the browser's history
keeps no address holding it. Old ?q= links to the search page keep working,
and the search page keeps its query in #q= too."""
from __future__ import annotations

import re
from urllib.parse import quote, unquote, urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GROUPNORM = ("Traceback (most recent call last):\n  File \"/home/alice/app/main.py\", line 12, in <module>\n"
             "Error: input rank for GroupNorm should be at least 3")
GROUPNORM_PATH = "/errors/huggingface/candle/input-rank-for-groupnorm-should-be-at-least-3/"
UNKNOWN = "ModuleNotFoundError: No module named 'yaml' (secret-token-123 in /home/alice)"


def served_paths_since(server, count: int) -> list[str]:
    return server.paths[count:]


def test_an_exact_match_lands_on_its_record_page_and_no_host_sees_the_paste(shared_site, page):
    assert page.page.goto(shared_site.base_url + "-/repos/").ok
    before = page.page.evaluate("history.length")
    seen = len(shared_site.paths)
    assert page.page.goto(shared_site.base_url + "-/go/#q=" + quote(GROUPNORM)).ok
    page.page.wait_for_url(re.compile(re.escape(GROUPNORM_PATH) + "$"))
    page.page.wait_for_selector("h1")
    # The record's own address, with no paste in it, and no page in the history before it holding one.
    assert urlsplit(page.page.url).fragment == "" and urlsplit(page.page.url).query == ""
    assert page.page.evaluate("history.length") == before + 1  # the /-/go/ entry was replaced
    page.page.go_back()
    assert urlsplit(page.page.url).path == "/errors/-/repos/"
    requested = served_paths_since(shared_site, seen)
    assert any(path.startswith("/errors/-/go/") for path in requested)
    assert not [path for path in requested if "GroupNorm" in path or "alice" in path], requested
    assert page.errors == []


def test_an_error_without_a_record_lands_on_the_search_page_with_its_text(shared_site, page):
    assert page.page.goto(shared_site.base_url + "-/repos/").ok
    before = page.page.evaluate("history.length")
    seen = len(shared_site.paths)
    assert page.page.goto(shared_site.base_url + "-/go/#q=" + quote(UNKNOWN)).ok
    page.page.wait_for_url(re.compile(r".*/errors/-/search/#q=.*"))
    page.page.wait_for_selector("#search-results > li")
    assert page.page.input_value("#search-input") == UNKNOWN.replace("/home/alice", "/home/<user>")  # as the address holds it
    assert page.page.get_attribute("#search-results", "data-match") == "none"
    assert page.page.locator("#search-status").inner_text().startswith("No record for this error yet.")
    assert page.page.evaluate("history.length") == before + 1
    requested = served_paths_since(shared_site, seen)
    assert not [path for path in requested if "yaml" in path or "secret" in path or "alice" in path], requested
    assert page.errors == []


# Likely matches: an older wording of a record's message, within a few edits,
# in a traceback through the record's repository.
LIKELY = [
    ("Traceback (most recent call last):\n"
     "  File \"/usr/lib/python3/site-packages/redis/connection.py\", line 12, in connect\n"
     "redis.exceptions.ConnectionError: ERR max number of client reached"),
    ("Traceback (most recent call last):\n  File \"/home/me/app/models.py\", line 3, in <module>\n"
     "pydantic.errors.PydanticUserError: Private attributes must not use dunder names, "
     "use a single underscore prefix instead of '__x'."),
]


@pytest.mark.parametrize("paste, match", [(LIKELY[0], "likely"), (LIKELY[1], "likely"), (UNKNOWN, "none")],
                         ids=["likely-redis", "likely-pydantic", "none"])
def test_only_an_exact_match_opens_the_record(shared_site, page, paste, match):
    """A likely match is shown on the search page, with its verdict, never
    opened: a tool's link must not send a reader to a record that is only
    probably theirs."""
    assert page.page.goto(shared_site.base_url + "-/go/#q=" + quote(paste)).ok
    page.page.wait_for_url(lambda url: "/-/go/" not in url)  # wherever it goes
    assert urlsplit(page.page.url).path == "/errors/-/search/", f"a {match} match opened {page.page.url}"
    page.page.wait_for_selector("#search-results > li")
    assert page.page.get_attribute("#search-results", "data-match") == match  # the paste is judged as it claims
    if match == "likely":
        assert page.page.locator("#search-verdict").inner_text() == "Probably this error — the wording differs"
    assert page.errors == []


def test_the_search_page_keeps_its_query_in_the_fragment_and_reads_old_links(shared_site, page):
    assert page.page.goto(shared_site.base_url + "-/search/?q=kv_cache_enabled%3Dtrue").ok
    page.page.wait_for_selector("#search-results > li")
    url = urlsplit(page.page.url)
    assert url.query == "" and url.fragment == "q=" + quote("kv_cache_enabled=true", safe="")
    assert page.page.goto(shared_site.base_url + "-/repos/").ok
    assert page.page.goto(shared_site.base_url + "-/search/#q=" + quote("input rank for GroupNorm")).ok
    page.page.wait_for_selector("#search-results > li")
    assert page.page.input_value("#search-input") == "input rank for GroupNorm"
    first = page.page.locator("#search-results > li a.result-title").first.get_attribute("href")
    assert urlsplit(first).path == GROUPNORM_PATH
    assert page.errors == []


def test_an_empty_link_opens_the_search_page(shared_site, page):
    assert page.page.goto(shared_site.base_url + "-/go/").ok
    page.page.wait_for_url(re.compile(r".*/errors/-/search/$"))
    assert page.errors == []


PRIVATE = ("Traceback (most recent call last):\n  File \"/home/alice/app/main.py\", line 12, in <module>\n"
           "    client.connect(\"https://bob:hunter2@db.example.com\", token=\"ghp_abcdefghijklmnopqrstuvwxyz0123456789\")\n"
           "ConnectionError: cannot reach 10.0.0.12 for alice@example.com")


def test_what_leaves_the_browser_is_redacted_with_a_preview(shared_site, page):
    """The search page's address and title, and the links to it, hold the paste
    without home folder names, tokens, passwords, e-mail and IP addresses; the
    title only its message line; a preview says what was left out; the box keeps it all."""
    assert page.page.goto(shared_site.base_url + "-/search/").ok
    page.page.fill("#search-input", PRIVATE)
    page.page.wait_for_function("() => document.title.startsWith('“')")
    fragment = unquote(urlsplit(page.page.url).fragment)
    assert fragment.startswith("q=Traceback") and "/home/<user>/app" in fragment and "<token>" in fragment
    for secret in ("alice", "hunter2", "ghp_", "10.0.0.12"):
        assert secret not in fragment and secret not in page.page.title()
    assert page.page.title().startswith("“ConnectionError: cannot reach <ip> for <email>”")
    assert page.page.input_value("#search-input") == PRIVATE
    preview = page.page.locator("#search-redacted")
    assert preview.is_visible()
    assert preview.locator("summary").inner_text() == (
        "This page's address and title leave out 1 token, 1 password in a URL, 1 e-mail address, "
        "1 home folder name, 1 IP address: what a copied link holds")
    preview.locator("summary").click()
    assert "/home/<user>/app/main.py" in preview.locator("pre").inner_text()
    # an ordinary paste hides nothing, and says nothing of it
    page.page.fill("#search-input", "input rank for GroupNorm should be at least 3")
    page.page.wait_for_function("() => document.title.startsWith('“input rank')")
    assert not preview.is_visible()
    # /-/go/ hands an unmatched paste to the search page redacted, too
    assert page.page.goto(shared_site.base_url + "-/go/#q=" + quote(PRIVATE)).ok
    page.page.wait_for_url(re.compile(r".*/errors/-/search/#q=.*"))
    assert "alice" not in unquote(page.page.url) and "<user>" in unquote(page.page.url)
    assert page.errors == []


@pytest.fixture(scope="module")
def site_with_dataset_repo(tmp_path_factory):
    from errorsite.pages.render import SiteOptions
    from tests.conftest import SHARED_RECORDS, Server, build_quietly, need_shared
    need_shared()
    root = tmp_path_factory.mktemp("dataset-repo")
    server = Server(root)
    result, _ = build_quietly(SHARED_RECORDS, root / "errors", server.base_url,
                              options=SiteOptions(dataset_repo="acme/errors"))
    assert result.written
    yield server
    server.close()


def test_a_search_with_no_match_offers_to_request_the_error_redacted(site_with_dataset_repo, page):
    from urllib.parse import parse_qs
    assert page.page.goto(site_with_dataset_repo.base_url + "-/search/").ok
    page.page.fill("#search-input", PRIVATE)
    page.page.wait_for_function("() => document.title.startsWith('“')")
    link = page.page.locator("#search-status a.request-record")
    assert link.inner_text() == "Request this error"
    url = urlsplit(link.get_attribute("href"))
    assert (url.netloc, url.path) == ("github.com", "/acme/errors/issues/new")
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    assert query["title"] == "Request: ConnectionError: cannot reach <ip> for <email>"
    assert "/home/<user>/app/main.py" in query["body"] and "alice" not in query["body"]
    assert "hunter2" not in query["body"] and "ghp_" not in query["body"]
    # a match offers none
    page.page.fill("#search-input", "input rank for GroupNorm should be at least 3")
    page.page.wait_for_function("() => document.title.startsWith('“input rank')")
    assert page.page.locator("#search-status a.request-record").count() == 0
    assert page.errors == []


@pytest.fixture(scope="module")
def host_with_404(shared_site):
    """The shared site as a static host serves it: a missing path gets the site's 404.html
    (GitHub Pages, Netlify and Cloudflare Pages do; Python's http.server does not)."""
    import functools
    import http.server
    import threading
    from pathlib import Path
    root = Path(shared_site.root)

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send_error(self, code, message=None, explain=None):
            if code != 404:
                return super().send_error(code, message, explain)
            body = (root / "errors" / "404.html").read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/errors/"
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize("code, lands", [
    ("json.exception.parse_error.101", "/errors/-/code/json-exception-parse-error-101/"),  # two records: the code's page
    ("JSON.EXCEPTION.OUT_OF_RANGE.409", "/errors/nlohmann/json/bson-key-cannot-contain-code-point-u-0000-at-byte/"),  # one: its record
    ("WRONGPASS", "/errors/redis/redis/wrongpass-invalid-username-password-pair-or-user-is-disabled/"),
])
def test_a_link_built_from_an_error_code_as_written_lands(host_with_404, page, code, lands):
    assert page.page.goto(host_with_404 + "-/go/code/" + quote(code) + "/")
    page.page.wait_for_url(re.compile(re.escape(lands) + ".*"))
    page.page.wait_for_selector("h1")
    assert [e for e in page.errors if "status of 404" not in e] == []  # the host's 404 for the code as written


def test_an_unknown_code_stays_not_found(host_with_404, page):
    page.page.goto(host_with_404 + "-/go/code/NO_SUCH_CODE/")
    page.page.wait_for_url(re.compile(r".*/-/go/code/no-such-code/$"))
    page.page.wait_for_selector("h1")
    assert page.page.locator("h1").inner_text() == "Page not found"
