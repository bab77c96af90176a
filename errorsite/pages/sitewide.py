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

from .. import urls
from ..cache.keys import bytes_history_digest, history_digest, summaries_key
from ..cache.plan import NO_GLOBAL_PAGES, GlobalPages, plan_global
from ..model import Page, Reuse, StoredSummary, Summary, whole
from ..process.background import Beside, alongside
from ..process.generator_result import Finished
from .api import api_pages
from .assets import cache_headers, static_files, versions
from .browse import browse_pages, last_modified, opensearch, robots, sitemap
from .feeds import feed_pages
from .links import code_alias_pages, code_pages, go_code_pages, listing_paths
from .listing import ListItems
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


class GlobalInputs(NamedTuple):
    """What every global page is made from: the site, and the record step's summaries."""
    site: urls.Site
    options: SiteOptions
    fingerprint: str                  # the render fingerprint (cache.keys.render_fingerprint)
    static: dict[str, bytes]
    history: History
    summaries: list[Summary | StoredSummary]
    record_paths: list[str]           # the record pages' paths, in the order they were written
    unavailable: frozenset[str] | set[str] = frozenset()  # ids of records whose files cannot be built for now


class GlobalKey(NamedTuple):
    """The global pages' key, with the URL history merged in, and the listings' paths it holds."""
    summaries: str                    # the summaries' part (cache.plan.GlobalPlan)
    key: str
    lists: list[str]


def sitewide_pages(given: GlobalInputs, previous: GlobalPages | None, search: SearchStep, jobs: int = 1,
                   as_before: bool = False) -> Generator[Page | Reuse, None, SitewideDone]:
    """Every global page, or the previous build's when their key did not change
    (cache.plan.plan_global). `search`: the search data's step; `as_before`:
    the summaries are the ones the previous build made its global pages from
    (RecordsDone.as_before), and stored ones are never read."""
    ordered = functools.cache(lambda: sorted(map(whole, given.summaries), key=urls.record_path))
    merged = functools.cache(lambda: merge(given.history.previous.known, ordered()))
    own_process = beside(jobs, len(given.summaries))
    # Nothing to reuse: the search data is under way while the key is worked out.
    searched = Beside(search, ordered()) if previous is None and own_process else None
    try:
        keyed = functools.cache(lambda summaries: global_key(given, ordered(), merged(), summaries))
        plan = plan_global(previous, as_before, lambda: summaries_key(
            given.fingerprint, ordered(), "\0".join(sorted(given.unavailable))),
            given.history.digest, lambda summaries: keyed(summaries).key)
        if plan.reuse is not None:
            return (yield from reused(plan.reuse))
        searched = searched or (Beside(search, ordered()) if own_process else search(ordered()))
        return (yield from keyed_pages(given, ordered(), searched, merged, functools.partial(keyed, plan.summaries)))
    finally:
        if searched is not None:
            searched.close()  # ended by then, unless the build failed


def global_key(given: GlobalInputs, summaries: list[Summary], merged: dict[str, Known], by_summaries: str) -> GlobalKey:
    """The key of the global pages made from the sorted `summaries` and the
    URL history `merged` with them (redirects.merge)."""
    lists = listing_paths(summaries, given.options.page_size, given.options.codes)
    return GlobalKey(by_summaries, summaries_key(by_summaries + history_key(merged, given.history.previous.lists, lists),
                                                 []), lists)


def reused(pages: GlobalPages) -> Generator[Reuse, None, SitewideDone]:
    timings: dict[str, float] = {}
    with timed(timings, "global pages reused"):
        yield from (Reuse(path) for path in pages.paths)
    return SitewideDone(pages, [], timings)


def keyed_pages(given: GlobalInputs, summaries: list[Summary], searched: "Beside | Generator[Page, None, list[str]]",
                merged: Callable[[], dict[str, Known]], keyed: Callable[[], GlobalKey]
                ) -> Generator[Page, None, SitewideDone]:
    """The global pages made anew (made_pages), and their key: worked out
    while the search data is finished, after the redirect pages' merge, which it shares."""
    paths = []
    pages = Finished(made_pages(given, summaries, searched, merged, keyed))
    for page in pages:
        paths.append(page.path)
        yield page
    made, key = pages.value, keyed()
    if served_lists(summaries, made.html_paths) != key.lists:
        return SitewideDone(NO_GLOBAL_PAGES, made.warnings, made.timings)  # listing_paths is out of step: reuse nothing
    # Sorted: the search data's pages come between the others as they are ready (made_pages).
    return SitewideDone(GlobalPages(key.key, sorted(paths), key.summaries, made.served), made.warnings, made.timings)


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


def made_pages(given: GlobalInputs, summaries: list[Summary], searched: "Beside | Generator[Page, None, list[str]]",
               merged: Callable[[], dict[str, Known]], meanwhile: Callable[[], object] = lambda: None
               ) -> Generator[Page, None, Made]:
    """The global pages, in the one order their inputs allow:

        listings and code pages → API and feeds → redirects → static files,
        sitemap and the site's own small files → search

    The listings come first because the redirects and the sitemap need every
    HTML page (`html_paths`, an argument of each); the search data
    (`searched`, its step under way) is made meanwhile, in another process
    when there is more than one (Beside), and its pages are written between
    the others as they come: it never waits on this process with work left
    to do. `merged()`: the URL history merged with the summaries (redirects.merge);
    `meanwhile()`: work of the caller's own, done before what is left of the
    search data is waited for (the global pages' key)."""
    ready = searched.ready if isinstance(searched, Beside) else tuple
    timings: dict[str, float] = {}  # the search data's pages written meanwhile count in each stage's
    try:
        site, options, record_paths = given.site, given.options, given.record_paths
        static = static_files(given.static)
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
            served = yield from alongside(redirect_pages(env, summaries, html_paths, given.history.previous,
                                                         given.unavailable, merged()), ready)
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
