"""`errorsite find`: the site's own search, outside the browser.

It runs the very scripts a built site serves to browsers (the search page's
`data-engine`: lunr.js and search-engine.js), in V8 embedded in Python
(mini-racer), over the same split search files a browser fetches: from a
site folder or over HTTP(S). No second ranker: the browser's ErrorSearch.find
decides; this module only carries files to it, round by round, as the
browser's SplitSearch does (static/search-data.js).

    source = open_site("site/")           # or "https://example.org/errors/"
    found = Finder(source).find(text)     # Found(results, match)
"""
from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urljoin, urlsplit

from .. import __version__, urls

MAX_ROUNDS = 8          # as search-data.js: the data settles in two to four
FETCHES_AT_ONCE = 8     # a round's files over HTTP, in parallel, as a browser asks for them
TIMEOUT = 30            # seconds for one file over the network
SEARCH_MS = 20_000      # the engine's own budgets end a search long before this; a guard against a hang

# Drives the site's engine one round at a time: `find` answers, or names the
# files it still needs; Python fetches them and calls `add`, then `find` again.
DRIVER = r"""
var errorsiteFind = (function () {
  var files = Object.create(null), data = null;
  return {
    start: function (metaText) { data = new ErrorSearchData.SplitIndex(JSON.parse(metaText), files); return true; },
    add: function (path, text) { files[path] = JSON.parse(text); return true; },
    find: function (text, limit) {
      data.missing = Object.create(null);
      var results = ErrorSearch.find(data, null, text, limit);
      if (results) {  // every result's card, as SplitSearch.cards fetches those past the first screen
        data.missing = Object.create(null);
        results.forEach(function (r) { if (!r.doc) r.doc = data.doc(r.ref); });
      }
      if (!results || data.pending()) return { missing: Object.keys(data.missing) };
      return { match: results.match || "none",
               results: results.map(function (r) { return { ref: r.ref, doc: r.doc }; }) };
    }
  };
})();
"""


class FindError(Exception):
    """The site cannot be searched: unreadable, not an errorsite site, no engine."""


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


class Site:
    """A built site to read files from: `read(path)` → bytes of a site path."""
    where: str = ""

    def read(self, path: str) -> bytes:
        raise NotImplementedError

    def read_many(self, paths: list[str]) -> dict[str, bytes]:
        return {path: self.read(path) for path in paths}


class FolderSite(Site):
    def __init__(self, root: Path):
        self.root = root
        self.where = str(root)

    def read(self, path: str) -> bytes:
        try:
            return (self.root / urls.output_name(path)).read_bytes()
        except (OSError, ValueError) as error:
            raise FindError(f"{self.root}: cannot read {path} ({getattr(error, 'strerror', None) or error})") from None


class WebSite(Site):
    def __init__(self, base_url: str):
        self.base = base_url if base_url.endswith("/") else base_url + "/"
        self.where = self.base

    def read(self, path: str) -> bytes:
        url = urljoin(self.base, path)
        request = urllib.request.Request(url, headers={"User-Agent": f"errorsite-find/{__version__}"})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return response.read()
        except urllib.error.HTTPError as error:
            raise FindError(f"{url}: HTTP {error.code} {error.reason}") from None
        except (urllib.error.URLError, OSError) as error:
            raise FindError(f"{url}: {getattr(error, 'reason', None) or error}") from None

    def read_many(self, paths: list[str]) -> dict[str, bytes]:
        with ThreadPoolExecutor(max_workers=min(FETCHES_AT_ONCE, max(1, len(paths)))) as pool:
            return dict(zip(paths, pool.map(self.read, paths)))


def open_site(where: str) -> Site:
    """A site folder, or the URL of a hosted site (http:// or https://)."""
    if re.match(r"https?://", where, re.I):
        return WebSite(where)
    root = Path(where)
    if not root.is_dir():
        raise FindError(f"{where}: no such folder (give --site a built site's folder or its URL)")
    return FolderSite(root)


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


def page_links(site: Site, path: str) -> PageLinks:
    links = PageLinks()
    links.feed(site.read(path).decode("utf-8", "replace"))
    return links


def site_path(href: str, base_url: str) -> str:
    """A link of the site's (absolute, or from its base path) as a site path, without `?v=`."""
    path = urlsplit(href).path
    base = urlsplit(base_url).path
    if not path.startswith(base):
        raise FindError(f"{href}: outside the site at {base_url}")
    return path[len(base):]


def guard() -> dict:
    """mini-racer's timeout, except in a thread running an asyncio loop (a
    notebook, Playwright's sync API), where mini-racer refuses one: there the
    engine's own budgets alone bound a search, as in the browser."""
    import asyncio
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return {"timeout": SEARCH_MS}
    return {}


class Finder:
    """The site's search engine, loaded once, for any number of queries."""

    def __init__(self, site: Site):
        try:
            from py_mini_racer import MiniRacer
        except ImportError:
            raise FindError("errorsite find runs the site's JavaScript in V8 (the mini-racer package): "
                            "in a checkout, .venv/bin/python -m pip install -r requirements.lock; "
                            "installed with pip, pip install 'errorsite[find]'") from None
        self.site = site
        search = page_links(site, urls.SEARCH_PATH)
        if not search.engine or not search.canonical.endswith(urls.SEARCH_PATH):
            raise FindError(f"{site.where}: {urls.SEARCH_PATH} is not an errorsite search page")
        self.base_url = search.canonical[:-len(urls.SEARCH_PATH)]  # where the site is served, as its pages say
        scripts = [site.read(site_path(urljoin(self.base_url, script), self.base_url)).decode("utf-8")
                   for script in search.engine]
        meta = site.read(urls.SEARCH_PATH + "meta.json").decode("utf-8")
        self.context = MiniRacer()
        try:
            self.context.eval("var window = globalThis, self = globalThis;")  # the browser's names for the global
            for script in scripts:
                self.context.eval(script)
            self.context.eval(DRIVER)
            self.context.call("errorsiteFind.start", meta)
        except Exception as error:
            self.close()  # V8's thread would keep the process from ending
            raise FindError(f"{site.where}: the site's search engine does not load ({error})") from None
        self.fetched: set[str] = set()

    def close(self) -> None:
        self.context.close()

    def __enter__(self) -> "Finder":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def find(self, text: str, limit: int = 5) -> Found:
        for rounds in range(MAX_ROUNDS + 1):
            try:
                answer = self.context.call("errorsiteFind.find", text, limit, **guard())
            except Exception as error:  # a JavaScript error or the guard's timeout: the search's, not the caller's
                raise FindError(f"the search failed: {error}") from None
            missing = [path for path in answer.get("missing", ()) if path not in self.fetched]
            if "results" in answer:
                return Found([self.result(n, r["doc"]) for n, r in enumerate(answer["results"], 1)],
                             answer["match"], rounds)
            if not missing:
                raise FindError("the search asked again for files it already has")
            for path, content in self.site.read_many([urls.SEARCH_PATH + p for p in missing]).items():
                self.context.call("errorsiteFind.add", path[len(urls.SEARCH_PATH):], content.decode("utf-8"))
            self.fetched.update(missing)
        raise FindError(f"the search data did not settle after {MAX_ROUNDS} rounds")

    def result(self, rank: int, doc: list) -> Result:
        message, repo, path, error_type, summary = (list(doc) + [""] * 5)[:5]
        return Result(rank, str(message), str(repo), str(error_type), str(summary or ""),
                      urljoin(self.base_url, path), path)

    def record(self, result: Result) -> dict:
        """The whole record behind a result (`-/r/<id>.json`, which its page names)."""
        href = page_links(self.site, result.path).alternates.get("application/json+oembed")
        if not href:
            raise FindError(f"{result.url}: the page names no record data (a site built before -/r/<id>.json)")
        return json.loads(self.site.read(site_path(href, self.base_url)))
