"""Step 4, the pages made from every record's summary: listings, code pages,
the JSON API, feeds, redirects, search, sitemap and the static files. The
search data is made by the step the pipeline passes in (search.streamed_search),
here in its place in the order.

They are a pure function of the summaries, the render fingerprint and the URL
history, so when none changed the previous build's files are linked instead
(cache.plan.global_reuse).
"""
from __future__ import annotations

import functools
import itertools
import json
import time
from contextlib import contextmanager
from typing import Callable, Generator, Iterable, Iterator, NamedTuple

from . import urls
from .api import api_pages
from .assets import cache_headers, static_files, versions
from .beside import Beside, alongside
from .browse import browse_pages, last_modified, opensearch, robots, sitemap
from .cache.keys import bytes_history_digest, history_digest, summaries_key
from .cache.plan import NO_GLOBAL_PAGES, GlobalPages, global_reuse
from .feeds import feed_pages
from .finished import Finished
from .links import code_alias_pages, code_pages, go_code_pages, listing_paths
from .listing import ListItems
from .model import Page, Reuse, StoredSummary, Summary, whole
from .readable import llms_txt
from .redirects import history_key, merge, redirect_pages, served_lists
from .render import SiteOptions, environment
from .schema import schema_page
from .sitecard import site_card
from .url_history import Known, UrlHistory, read_history
from .url_history import manifest as manifest_of

# Below this many summaries the search data is made in this process: starting another costs more.
BESIDE_THRESHOLD = 200
# The search data's step (search.streamed_search): the summaries → its pages, returning its warnings.
SearchStep = Callable[[list[Summary]], Generator[Page, None, list[str]]]


class History(NamedTuple):
    """The URL history a build starts from (redirects.py), as far as it is one a
    build could have written (url_history.py); its digest; why entries were dropped."""
    read: Callable[[], UrlHistory]  # the history itself, parsed when a page first needs it
    found: bool
    digest: str
    dropped: list[str]

    @property
    def previous(self) -> UrlHistory:
        return self.read()

    @staticmethod
    def of(data: object, source: str = urls.URLS_PATH, unread: str | None = None) -> "History":
        """The history in `data`, a file's JSON (None if there is none), read
        from `source`; `unread` says why a file that is there could not be read."""
        read = read_history(data)
        kept = manifest_of(read.history.known, read.history.lists) if read.found else None
        dropped = [f"{source}: {reason}" for reason in ([unread] if unread else read.dropped)]
        if read.more:
            dropped.append(f"{source}: {read.more:,} more entries dropped")
        return History(lambda: read.history, read.found, history_digest(kept), dropped)

    @staticmethod
    def as_written(raw: bytes) -> "History":
        """The history in `raw`, the bytes a build of this same code wrote
        (redirects.redirect_pages): it reads back unchanged, so nothing is
        dropped and its digest is that of its bytes. A rebuild whose global
        pages stand never needs more, so it is parsed (a second a million
        entries) only when a page does."""
        parsed = functools.cache(lambda: read_history(json.loads(raw)).history)
        return History(parsed, True, bytes_history_digest(raw), [])

class SitewideDone(NamedTuple):
    """What the global step made: what the next build needs to reuse its pages, and its warnings."""
    pages: GlobalPages
    warnings: list[str]
    timings: dict[str, float]


def sitewide_pages(site: urls.Site, summaries: list[Summary | StoredSummary], record_paths: list[str],
                   static: dict[str, bytes], options: SiteOptions, fingerprint: str, history: History,
                   previous: GlobalPages | None, search: SearchStep, jobs: int = 1,
                   unavailable: set[str] = frozenset(), as_before: bool = False
                   ) -> Generator[Page | Reuse, None, SitewideDone]:
    """Every global page, or the previous build's when their key did not change.
    `record_paths`: the record pages' paths, in the order they were written;
    `search`: the search data's step; `unavailable`: ids of records whose
    files cannot be built for now; `as_before`: the summaries are the ones
    the previous build made its global pages from (RecordsDone.as_before),
    so their part of the key is theirs, and stored ones are never read."""
    whole_sorted = functools.cache(lambda: sorted(map(whole, summaries), key=urls.record_path))
    in_own_process = beside(jobs, len(summaries))
    # With no previous pages to reuse, the search data is under way while the key is worked out (1.4 s at 100k).
    early = Beside(search, whole_sorted()) if previous is None and in_own_process else None
    try:
        by_summaries = previous.summaries if as_before and previous is not None and previous.summaries else \
            summaries_key(fingerprint, whole_sorted(), "\0".join(sorted(unavailable)))
        if previous is not None and previous.summaries and previous.summaries != by_summaries:
            # Pages made from other summaries cannot stand (their key holds the summaries'): as with none,
            # the search data under way now, not after the precise key (2.0 s sooner at 100k).
            previous = None
            early = Beside(search, whole_sorted()) if in_own_process else None
        return (yield from keyed_pages(site, whole_sorted, by_summaries, record_paths, static, options, history,
                                       previous, search, early, in_own_process, unavailable))
    finally:
        if early is not None:
            early.close()  # ended by then, unless the build failed


def keyed_pages(site: urls.Site, whole_sorted: Callable[[], list[Summary]], by_summaries: str,
                record_paths: list[str], static: dict[str, bytes], options: SiteOptions, history: History,
                previous: GlobalPages | None, search: SearchStep, early: "Beside | None", in_own_process: bool,
                unavailable: set[str]) -> Generator[Page | Reuse, None, SitewideDone]:
    """sitewide_pages, once the summaries are sorted and keyed (`by_summaries`);
    `previous`: pages that may stand; `early`: the search step, if already under way;
    `in_own_process`: whether the search step runs beside this one (beside())."""
    lists = []
    # The history merged with the records: the key's and the redirect pages' (0.6 s at 100k).
    merged = functools.cache(lambda: merge(history.previous.known, whole_sorted()))

    @functools.cache
    def precise_key() -> str:
        lists.append(listing_paths(whole_sorted(), options.page_size, options.codes))
        return summaries_key(by_summaries + history_key(merged(), history.previous.lists, lists[0]), [])

    # With no previous pages, the key is only the next build's: worked out while the search
    # data is finished (made_pages), after the redirect pages' merge, which it shares.
    reuse, key = (False, "") if previous is None else global_reuse(previous, by_summaries, history.digest,
                                                                    precise_key)
    if reuse:
        timings: dict[str, float] = {}
        with timed(timings, "global pages reused"):
            yield from (Reuse(path) for path in previous.paths)
        return SitewideDone(previous._replace(summaries=by_summaries), [], timings)
    summaries = whole_sorted()
    paths = []
    searched = early or (Beside(search, summaries) if in_own_process else search(summaries))
    pages = Finished(made_pages(site, summaries, record_paths, static, options, history.previous, searched,
                                unavailable, merged, precise_key))
    for page in pages:
        paths.append(page.path)
        yield page
    made = pages.value
    key = key or precise_key()  # as worked out meanwhile
    if lists and served_lists(summaries, made.html_paths) != lists[0]:
        return SitewideDone(NO_GLOBAL_PAGES, made.warnings, made.timings)  # listing_paths is out of step: reuse nothing
    # Sorted: the search data's pages come between the others as they are ready (made_pages).
    return SitewideDone(GlobalPages(key, sorted(paths), by_summaries, made.served), made.warnings, made.timings)


class Made(NamedTuple):
    """What made_pages makes besides its pages."""
    html_paths: list[str]       # every HTML page: the record pages, then the listings and code pages
    served: str                 # the digest of the URL history served (cache.keys.history_digest)
    warnings: list[str]
    timings: dict[str, float]   # seconds by stage, writing its pages included


def beside(jobs: int, summaries: int) -> bool:
    """Whether the search data is made in a process of its own (Beside): it is
    the largest global step and needs nothing the others make."""
    return jobs > 1 and summaries >= BESIDE_THRESHOLD


def made_pages(site: urls.Site, summaries: list[Summary], record_paths: list[str], static: dict[str, bytes],
               options: SiteOptions, history: UrlHistory, searched: "Beside | Generator[Page, None, list[str]]",
               unavailable: set[str] = frozenset(), merged: Callable[[], dict[str, Known]] | None = None,
               meanwhile: Callable[[], object] = lambda: None) -> Generator[Page, None, Made]:
    """The global pages, in the one order their inputs allow:

        listings and code pages → API and feeds → redirects → static files,
        sitemap and the site's own small files → search

    The listings come first because the redirects and the sitemap need every
    HTML page (`html_paths`, an argument of each); the search data
    (`searched`, its step under way) is made meanwhile, in another process
    when there is more than one (Beside), and its pages are written between
    the others as they come: it never waits on this process with work left
    to do. `merged()`: the URL history merged with the summaries, if already made;
    `meanwhile()`: work of the caller's own, done before what is left of the
    search data is waited for (the global pages' key, 0.7 s at 100k)."""
    ready = searched.ready if isinstance(searched, Beside) else tuple
    timings: dict[str, float] = {}  # the search data's pages written meanwhile count in each stage's
    try:
        static = static_files(static)
        env = environment(site, len(summaries), options, versions(static))
        with timed(timings, "listings"):
            items = ListItems(env, summaries)  # a record's list item is made once for both
            listed = yield from alongside(with_paths(itertools.chain(
                browse_pages(env, summaries, items), code_pages(env, summaries, items),
                go_code_pages(env, summaries))), ready)
            del items  # two rows a record: not held through the steps after
        html_paths = [*record_paths, *listed]
        with timed(timings, "links"):  # the JSON API and the feeds
            yield from alongside(itertools.chain(api_pages(site, summaries),
                                                 feed_pages(site, options.title, summaries)), ready)
        with timed(timings, "redirects"):  # every URL an earlier build served still lands somewhere
            served = yield from alongside(redirect_pages(env, summaries, html_paths, history, unavailable,
                                                         merged() if merged else None), ready)
            yield from alongside(code_alias_pages(env, summaries), ready)  # -/code/E0382/, after -/code/e0382/
        with timed(timings, "static"):  # before waiting on the search data: it needs none of it
            yield from alongside(site_files(site, env, options, static, html_paths, summaries), ready)
        with timed(timings, "search"):  # what is left of it
            meanwhile()
            warnings = yield from searched
    finally:
        searched.close()  # a build that failed before the search stage stops the process beside
    return Made(html_paths, served, list(warnings), timings)


def with_paths(pages: Iterable[Page]) -> Generator[Page, None, list[str]]:
    """The pages, passed on; returns their paths."""
    paths = []
    for page in pages:
        paths.append(page.path)
        yield page
    return paths


def site_files(site: urls.Site, env, options: SiteOptions, static: dict[str, bytes], html_paths: list[str],
               summaries: list[Summary]) -> Iterator[Page]:
    """The static files, the sitemap of every HTML page, and the site's own small files."""
    yield from (Page(urls.STATIC_PATH + name, content) for name, content in static.items())
    yield cache_headers(site)
    yield site_card(options.title, options.card)
    yield from sitemap(site, html_paths, last_modified(summaries))
    yield robots(site)
    yield llms_txt(site, options.title, options.description, summaries)
    yield opensearch(env)
    yield schema_page(site)
    yield Page(".nojekyll", b"")  # GitHub Pages: serve folders and files as they are


@contextmanager
def timed(timings: dict[str, float], name: str):
    """Adds the wall time of a block (writing its pages included) to `timings[name]`."""
    start = time.perf_counter()
    try:
        yield
    finally:
        timings[name] = timings.get(name, 0.0) + time.perf_counter() - start
