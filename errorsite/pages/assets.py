"""The static files as the site serves them, and their versions.

Every link to a static file carries `?v=<hash of its bytes>`, so a host may let
browsers cache `-/static/` for a year (see `_headers`): a changed file gets a new
URL. Pure: the files come in as bytes from load.load_static."""
from __future__ import annotations

import hashlib

from .. import urls
from ..markup import line_counter_css, pygments_css
from ..model import Page


# The search code, in the order it runs: static/search-ui.js loads it when
# someone is about to search, and the search page at once (base.html). Our
# scripts go as one file, one request instead of one a part on a phone's first search;
# lunr.js stays the file npm ships.
ENGINE_PARTS = ("search-tokens.js", "search-paste.js", "search-context.js", "search-chain.js", "search-match.js",
                "search-agree.js", "search-evidence.js", "search-rank.js", "search-judge.js", "search-whole.js",
                "search-core.js", "search-score.js", "search-vocabulary.js", "search-data.js", "search-cutoff.js",
                "search-filters.js", "search-redact.js")
SEARCH_ENGINE = ("vendor/lunr-2.3.9/lunr.min.js", "search-engine.js")


def static_files(static: dict[str, bytes]) -> dict[str, bytes]:
    """name → the bytes served: the files as they are, but one stylesheet made
    of ours, the source lines' first numbers and the Pygments themes, and the
    search engine's parts joined into one script."""
    made = (line_counter_css() + pygments_css()).encode()
    files = {name: content + b"\n" + made if name == "style.css" else content
             for name, content in static.items() if name not in ENGINE_PARTS}
    parts = [static[name] for name in ENGINE_PARTS if name in static]
    if parts:
        files[SEARCH_ENGINE[-1]] = b";\n".join(parts)  # `;`: each part is one statement
    return dict(sorted(files.items()))


def versions(files: dict[str, bytes]) -> dict[str, str]:
    """name → the first 10 hex digits of the sha256 of its bytes."""
    return {name: hashlib.sha256(content).hexdigest()[:10] for name, content in files.items()}


def cache_headers(site: urls.Site) -> Page:
    """`_headers` for Netlify and Cloudflare Pages: the static files and the
    search files, whose links are versioned, may be cached for a year, so a
    search reuses what an earlier one fetched without asking again. meta.json,
    which names the version, is asked for again on every visit."""
    folders = [urls.STATIC_PATH, *(urls.SEARCH_PATH + folder for folder in urls.SEARCH_VERSIONED)]
    return Page(urls.HEADERS_PATH, "".join(f"{site.href(folder)}*\n  Cache-Control: public, max-age=31536000, immutable\n"
                                           for folder in folders).encode())
