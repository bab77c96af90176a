"""`errorsite find`: the site's own search, outside the browser.

It runs the very scripts a built site serves to browsers (the search page's
`data-engine`: lunr.js and search-engine.js), in V8 embedded in Python
(mini-racer), over the same split search files a browser fetches: from a
site folder or over HTTP(S). No second ranker: the browser's ErrorSearch.lookup
decides; this module only carries files to it, round by round, as the
browser's SplitSearch does (static/search-data.js). The site is trusted
with nothing: sites.py reads only its own files, each bounded, within one
Deadline, and V8 runs its scripts under that deadline and MAX_MEMORY.

    source = open_site("site/")           # or "https://example.org/errors/"
    found = Finder(source).find(text)     # Found(results, match)
"""
from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import NamedTuple
from urllib.parse import urljoin, urlsplit

from ... import urls
from .sites import Deadline, FindError, FolderSite, Site, WebSite, checked, open_site  # noqa: F401 (the package's API)

MAX_ROUNDS = 8          # as search-data.js: the data settles in two to four
# A query's files: several times what a long paste reads on a site of 100,000
# records (docs/commands.md); an engine that asks for more is refused.
MAX_FILES = 1_000
# V8's heap: many times what a query needs. Past it mini-racer stops the
# script; past V8's own limit the process would abort.
MAX_MEMORY = 256 << 20

# Drives the site's engine one round at a time: `find` answers, or names the
# files it still needs; Python fetches them and calls `add`, then `find` again.
DRIVER = r"""
var errorsiteFind = (function () {
  var files = Object.create(null), data = null;
  return {
    start: function (metaText) { data = new ErrorSearchData.SplitIndex(JSON.parse(metaText), files); return true; },
    add: function (path, text) { files[path] = JSON.parse(text); return true; },
    find: function (text, limit) {
      var step = ErrorSearch.lookup(data, null, text, limit);
      if (step.wanted) return { missing: step.wanted };
      var results = step.results;
      data.restart();  // every result's card, as SplitSearch.cards fetches those past the first screen
      results.forEach(function (r) { if (!r.doc) r.doc = data.doc(r.ref); });
      if (data.pending()) return { missing: data.wanted() };
      return { match: results.match || "none",
               results: results.map(function (r) { return { ref: r.ref, doc: r.doc }; }) };
    }
  };
})();
"""


class Result(NamedTuple):
    rank: int
    message: str
    repo: str
    error_type: str
    summary: str
    url: str      # the record page, absolute, as the site names it
    path: str     # in the site, as the search files name it


class Found(NamedTuple):
    results: list[Result]
    match: str    # "exact", "likely" or "none": the engine's judgement of the first result
    rounds: int   # how many rounds of files the search waited for


class PageLinks(HTMLParser):
    """What `find` needs from a page: the engine's scripts and the canonical URL."""

    def __init__(self):
        super().__init__()
        self.engine: list[str] = []
        self.canonical = ""
        self.alternates: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("data-engine"):
            self.engine = attrs["data-engine"].split()
        elif tag == "link" and attrs.get("rel") == "canonical":
            self.canonical = attrs.get("href") or ""
        elif tag == "link" and attrs.get("rel") == "alternate" and attrs.get("type"):
            self.alternates[attrs["type"]] = attrs.get("href") or ""


def page_links(site: Site, path: str, deadline: Deadline) -> PageLinks:
    links = PageLinks()
    links.feed(site.read(path, deadline).decode("utf-8", "replace"))
    return links


def site_path(href: str, base_url: str) -> str:
    """A link of the site's (absolute, or from its base path) as a site path, without `?v=`."""
    path = urlsplit(href).path
    base = urlsplit(base_url).path
    if not path.startswith(base):
        raise FindError(f"{href}: outside the site at {base_url}")
    return checked(path[len(base):])


def text_of(content: bytes, path: str) -> str:
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        raise FindError(f"{path}: not UTF-8 text") from None


def guard(deadline: Deadline) -> dict:
    """What is left of the deadline, as mini-racer's timeout, except in a
    thread running an asyncio loop (a notebook, Playwright's sync API), where
    mini-racer refuses one: there the engine's own budgets and its memory
    limit alone bound a search, as in the browser."""
    import asyncio
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return {"timeout_sec": deadline.left()}
    return {}


def address_note(site: Site, base_url: str) -> str | None:
    """A line for whoever reads the links `find` and the bot print, which start
    with the address the site's pages name, when the site was read from
    another (a mirror, a forgotten --base-url): they would not lead where the
    reader expects. A folder has no address to compare."""
    if not isinstance(site, WebSite) or same_address(site.base, base_url):
        return None
    return f"note: the site at {site.base} names its address as {base_url}: its links below point there"


def same_address(a: str, b: str) -> bool:
    def key(url: str) -> tuple:
        parts = urlsplit(url)
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
        return parts.scheme.lower(), (parts.hostname or "").lower(), port, parts.path.rstrip("/") + "/"
    return key(a) == key(b)


class Finder:
    """The site's search engine, loaded once, for any number of queries.

    Each of loading, `find` and `record` has TIMEOUT seconds, or all of them
    share `deadline` when one is given (the command's --timeout)."""

    def __init__(self, site: Site, deadline: Deadline | None = None):
        try:
            from py_mini_racer import MiniRacer
        except ImportError:
            raise FindError("errorsite find runs the site's JavaScript in V8 (the mini-racer package): "
                            "in a checkout, .venv/bin/python -m pip install -r requirements.lock; "
                            "installed with pip, pip install 'errorsite[find]'") from None
        self.site, self.deadline = site, deadline
        clock = deadline or Deadline()
        search = page_links(site, urls.SEARCH_PATH, clock)
        canonical = urlsplit(search.canonical)
        if not (search.engine and canonical.scheme in ("http", "https") and canonical.path.endswith(urls.SEARCH_PATH)):
            raise FindError(f"{site.where}: {urls.SEARCH_PATH} is not an errorsite search page")
        self.base_url = search.canonical[:-len(urls.SEARCH_PATH)]  # where the site is served, as its pages say
        scripts = [text_of(site.read(path, clock), path)
                   for path in (site_path(urljoin(self.base_url, script), self.base_url) for script in search.engine)]
        meta = text_of(site.read(urls.SEARCH_PATH + "meta.json", clock), "meta.json")
        self.context = MiniRacer()
        self.context.set_hard_memory_limit(MAX_MEMORY)
        try:
            self.context.eval("var window = globalThis, self = globalThis;")  # the browser's names for the global
            for script in scripts:
                self.context.eval(script, **guard(clock))
            self.context.eval(DRIVER, **guard(clock))
            self.call(clock, "errorsiteFind.start", meta)
        except Exception as error:
            self.close()  # V8's thread would keep the process from ending
            if isinstance(error, FindError):
                raise
            raise FindError(f"{site.where}: the site's search engine does not load ({failure(error, clock)})") from None
        self.fetched: set[str] = set()
        self.address_note = address_note(site, self.base_url)

    def close(self) -> None:
        # A call its timeout stopped ends in V8 a moment later and then tells
        # mini-racer's event loop: a last call waits for that, so that the
        # loop is not closed first (a traceback on stderr at exit).
        try:
            self.context.eval("0", **guard(Deadline(1)))
        except Exception:
            pass
        self.context.close()

    def __enter__(self) -> "Finder":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def call(self, deadline: Deadline, name: str, *args):
        try:
            return self.context.call(name, *args, **guard(deadline))
        except Exception as error:  # the site's JavaScript failed, or a limit stopped it: the site's fault
            raise FindError(f"the site's search engine failed: {failure(error, deadline)}") from None

    def find(self, text: str, limit: int = 5) -> Found:
        deadline = self.deadline or Deadline()
        asked = 0
        for rounds in range(MAX_ROUNDS + 1):
            answer = self.call(deadline, "errorsiteFind.find", text, limit)
            try:
                if "results" in answer and answer["match"] in ("exact", "likely", "none"):
                    return Found([self.result(n, r["doc"]) for n, r in enumerate(answer["results"][:limit], 1)],
                                 answer["match"], rounds)
                missing = [urls.SEARCH_PATH + path for path in answer["missing"] if path not in self.fetched]
            except (KeyError, TypeError, IndexError, AttributeError):
                raise FindError("the site's search engine gave an answer that is not one (refused)") from None
            if not missing:
                raise FindError("the search asked again for files it already has")
            asked += len(missing)
            if asked > MAX_FILES:
                raise FindError(f"the site's search engine asked for more than {MAX_FILES:,} files "
                                "for one query (refused)")
            for path, content in self.site.read_many(missing, deadline).items():
                self.call(deadline, "errorsiteFind.add", path[len(urls.SEARCH_PATH):], text_of(content, path))
                self.fetched.add(path[len(urls.SEARCH_PATH):])
        raise FindError(f"the search data did not settle after {MAX_ROUNDS} rounds")

    def result(self, rank: int, doc: list) -> Result:
        message, repo, path, error_type, summary = (list(doc) + [""] * 5)[:5]
        path = checked(str(path))
        return Result(rank, str(message), str(repo), str(error_type), str(summary or ""), self.base_url + path, path)

    def record(self, result: Result) -> dict:
        """The whole record behind a result (`-/r/<id>.json`, which its page names)."""
        deadline = self.deadline or Deadline()
        href = page_links(self.site, result.path, deadline).alternates.get("application/json+oembed")
        if not href:
            raise FindError(f"{result.url}: the page names no record data (a site built before -/r/<id>.json)")
        path = site_path(href, self.base_url)
        try:
            record = json.loads(self.site.read(path, deadline))
        except ValueError:
            record = None
        if not isinstance(record, dict):
            raise FindError(f"{path}: not a record's data")
        return record


def failure(error: Exception, deadline: Deadline) -> str:
    """What stopped the site's JavaScript, in a few words."""
    from py_mini_racer import JSOOMException, JSTimeoutException
    if isinstance(error, (JSTimeoutException, TimeoutError)) or deadline.passed():
        return deadline.message()
    if isinstance(error, JSOOMException):
        return f"it used more than its {MAX_MEMORY >> 20} MB of memory"
    return (str(error).strip().splitlines() or [type(error).__name__])[0]
