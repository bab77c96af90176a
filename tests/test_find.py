"""`errorsite find` (issue 41): the site's own search engine outside the
browser, in V8 inside Python (mini-racer), on a site folder or over HTTP.

Parity: on a site of every shared record set, every shared real paste
(queries-real.json and the three real-pastes sets) gives the same results and
the same match judgement from the folder, over HTTP, and in Chromium's search
page; a few of them also through the page's own box. The command's exit
codes: 0 a match, 1 none, 2 an error."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from urllib.parse import quote

import pytest

from errorsite.tools.find import FindError, Finder, FolderSite, WebSite, open_site
from tests.conftest import BASE_PATH, ROOT, SHARED_RECORDS, Server, build_quietly, need_shared

pytestmark = [pytest.mark.slow]
LIMIT = 5


@pytest.fixture(scope="module")
def suite_site(tmp_path_factory):
    """Every shared set's records in one site, built and served under /errors/; its real pastes."""
    need_shared()
    from bench.quality import load_suite
    suite = load_suite(mined=ROOT / "tests" / "fixtures" / "no-mined-sets")
    records = tmp_path_factory.mktemp("records")
    for n, document in enumerate(suite.documents.values()):
        (records / f"{n:04d}.json").write_text(json.dumps(document), "utf-8")
    root = tmp_path_factory.mktemp("served")
    server = Server(root)
    out = root / BASE_PATH.strip("/")
    result, _ = build_quietly(records, out, server.base_url)
    assert result.written
    pastes = [q.text for q in suite.queries if q.set != "hard"]  # and queries.json's typed ones
    real = json.loads((SHARED_RECORDS.parent / "queries-real.json").read_text("utf-8"))
    assert len(pastes) >= len(real) + 200  # queries-real.json and the 208 of real-pastes/
    yield server, out, pastes
    server.close()


def found(finder: Finder, text: str) -> tuple[list[str], str]:
    result = finder.find(text, LIMIT)
    return [r.path for r in result.results], result.match


@pytest.fixture(scope="module")
def from_folder(suite_site):
    server, out, pastes = suite_site
    with Finder(FolderSite(out)) as finder:
        return [found(finder, text) for text in pastes]


def test_the_same_answers_from_a_folder_and_over_http(suite_site, from_folder):
    server, out, pastes = suite_site
    with Finder(WebSite(server.base_url)) as finder:
        assert [found(finder, text) for text in pastes] == from_folder
    assert sum(match != "none" for _, match in from_folder) > 0.9 * len(pastes)


@pytest.mark.browser
def test_the_same_answers_as_the_search_page_in_chromium(suite_site, from_folder, page):
    server, out, pastes = suite_site
    assert page.page.goto(server.base_url + "-/search/").ok
    page.page.wait_for_function("window.ErrorSearchUI")
    in_browser = page.page.evaluate("""async ([pastes, limit]) => {
        const search = await window.ErrorSearchUI.engineReady();
        const out = [];
        for (const text of pastes) {
          const results = await search.search(text, limit);
          await search.cards(results);
          out.push([results.map((r) => r.doc[2]), results.match || "none"]);
        }
        return out;
    }""", [pastes, LIMIT])
    assert [tuple(answer) for answer in in_browser] == from_folder
    # …and what the page shows, through its own address, for a few
    for text, (paths, match) in list(zip(pastes, from_folder))[::40]:
        page.page.goto("about:blank")  # a new load, not a change of fragment
        assert page.page.goto(server.base_url + "-/search/#q=" + quote(text)).ok
        page.page.wait_for_function("() => document.title.startsWith('“') && !!document.querySelector('#search-results > li')")
        assert page.page.get_attribute("#search-results", "data-match") == match
        first = page.page.get_attribute("#search-results > li a", "href")
        assert first.split("?")[0] == BASE_PATH + paths[0]
    assert page.errors == []


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "build.py"), "find", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_the_command_says_match_none_or_error_by_its_exit_status(suite_site):
    server, out, pastes = suite_site
    paste = "Error: accepts at most 1 arg(s), received 3\nUsage:\n  myapp [flags]"
    done = run("--site", str(out), paste)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("This is your error:\n1. accepts at most 1 arg(s), received 2\n   spf13/cobra · usage · "
                                  f"{server.base_url}spf13/cobra/accepts-at-most-arg-s-received/\n")
    assert "\x1b[" not in done.stdout  # bold only on a terminal
    assert run("--site", str(out), "Error: accept at most 1 arg(s), received 3\nUsage:\n  myapp [flags]").stdout \
        .startswith("Probably this error (the wording differs):\n1. accepts at most 1 arg(s), received 2\n")
    done = run("--site", server.base_url, "--json", "-n", "2", "-", stdin=paste)
    data = json.loads(done.stdout)
    assert done.returncode == 0 and data["match"] in ("exact", "likely") and len(data["results"]) == 2
    assert data["results"][0]["url"] == f"{server.base_url}spf13/cobra/accepts-at-most-arg-s-received/"
    done = run("--site", str(out), "the weather is lovely today, isn't it")
    assert done.returncode == 1 and done.stdout.startswith("No record for this error yet.")
    done = run("--site", str(out / "nowhere"), paste)
    assert done.returncode == 2 and "no such folder" in done.stderr and not done.stdout
    done = run("--site", server.base_url + "nothing-here/", paste)
    assert done.returncode == 2 and "HTTP 404" in done.stderr
    done = run("--site", str(out), "")
    assert done.returncode == 2 and "no error text" in done.stderr


def test_a_site_read_from_another_address_says_where_its_links_point(suite_site):
    server, out, _ = suite_site
    paste = "Error: accepts at most 1 arg(s), received 3"
    assert run("--site", server.base_url, paste).stderr == ""
    elsewhere = server.base_url.replace("127.0.0.1", "localhost")
    done = run("--site", elsewhere, paste)
    assert done.returncode == 0 and done.stdout.startswith("This is your error:")
    assert done.stderr == f"note: the site at {elsewhere} names its address as {server.base_url}: " \
                          "its links below point there\n"


def test_the_site_comes_from_errorsite_site_without_site(suite_site):
    server, out, _ = suite_site
    paste = "Error: accepts at most 1 arg(s), received 3"
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "find", "--json", paste], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "ERRORSITE_SITE": server.base_url})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["site"] == server.base_url


def test_a_long_log_on_stdin_is_judged_by_its_error_lines(suite_site):
    """`pytest 2>&1 | find -`: the error at the end of a 26 KB log and in the
    middle of a 200 KB one, with colours and runner timestamps, is found and
    judged as it is alone (the engine read the first 20,000 characters)."""
    from bench.longlog import decorated, in_log
    server, out, _ = suite_site
    paste = "Error: accepts at most 1 arg(s), received 3\nUsage:\n  myapp [flags]"
    alone = json.loads(run("--site", str(out), "--json", "-", stdin=paste).stdout)
    for log in (in_log(paste, "end", 26_000), in_log(paste, "middle", 200_000), decorated(paste)):
        done = run("--site", str(out), "--json", "-", stdin=log)
        data = json.loads(done.stdout)
        assert (data["match"], data["results"][0]["url"]) == (alone["match"], alone["results"][0]["url"]), done.stderr


def test_explain_adds_the_meaning_and_solutions_from_the_record_data(suite_site):
    server, out, _ = suite_site
    done = run("--site", server.base_url, "--explain", "-n", "1",
               "candle_core::Error: cannot use slice_set when self and src share their storage")
    assert done.returncode == 0, done.stderr
    assert "   What it means:\n     Tensor::slice_set writes src into a region of self in place." in done.stdout
    assert "   Solutions:\n     1. Materialise the source first" in done.stdout
    data = json.loads(run("--site", str(out), "--explain", "--json", "cannot use slice_set when self and src "
                          "share their storage").stdout)
    assert data["record"]["record"]["repo"] == "huggingface/candle" and data["record"]["record"]["solutions"]


def test_a_folder_that_is_no_site_is_an_error(tmp_path):
    (tmp_path / "-" / "search").mkdir(parents=True)
    (tmp_path / "-" / "search" / "index.html").write_text("<p>hello</p>", "utf-8")
    with pytest.raises(FindError, match="is not an errorsite search page"):
        Finder(open_site(str(tmp_path)))
    with pytest.raises(FindError, match="cannot read"):
        Finder(open_site(str(tmp_path / "-")))
