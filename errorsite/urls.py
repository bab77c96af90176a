"""Every URL of the site is decided here, and only here.

Paths are site-relative ("huggingface/candle/some-slug/"); `href` turns one into
a link under the site's base path, `absolute` into a full URL for canonical
links, cards and the sitemap, and `output_file` into the file that holds it.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote as _quote_uncached, urlsplit

# A page links to the same few dozen paths as every other page (its repository,
# tags, feeds, assets): each is quoted once.
quote = lru_cache(maxsize=1 << 16)(_quote_uncached)
# The paths quote() leaves as they are (its safe "/" and the characters it
# never quotes): most paths, checked in a fifth of the time of a quote() that
# misses its cache, as the API, feeds and sitemap's 100,000s of paths do.
_QUOTED_AS_IS = re.compile(r"[A-Za-z0-9_.~/-]*").fullmatch


def _quoted(path: str) -> str:
    return path if _QUOTED_AS_IS(path) else quote(path)


PAGE_SIZE = 100
MARKER = ".errorsite.json"  # in every site a build writes: "this folder is ours to replace" (cache/)
MAX_SEGMENT_BYTES = 255  # a file name's limit on common file systems
_NOT_WORD = re.compile(r"[\W_]+")
# Windows refuses these as file or folder names, whatever the extension.
DEVICE_NAMES = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
                          *(f"lpt{i}" for i in range(10))})


class Site(NamedTuple):
    base_url: str  # absolute, ends with "/", e.g. https://example.org/errors/

    @property
    def base_path(self) -> str:
        return _path_of(self.base_url)

    def href(self, path: str) -> str:
        return _path_of(self.base_url) + _quoted(path)

    def absolute(self, path: str) -> str:
        return self.base_url + _quoted(path)

    def is_local(self) -> bool:
        """Served from this machine (a preview), not deployed."""
        return urlsplit(self.base_url).hostname in ("localhost", "127.0.0.1", "::1")


@lru_cache(maxsize=16)
def _path_of(base_url: str) -> str:
    """The base URL's path: a page has dozens of links, and urlsplit costs more than the rest of one."""
    return urlsplit(base_url).path


def normalize_base_url(url: str) -> str:
    """Raise ValueError unless `url` is an absolute http(s) URL; add the trailing slash."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or "?" in url or "#" in url:
        raise ValueError(f"--base-url must be an absolute http(s) URL, got {url!r}")
    return url if url.endswith("/") else url + "/"


@lru_cache(maxsize=4096)  # tags, types and severities repeat across every record and list
def url_segment(value: str) -> str:
    """A tag, type or severity as one safe, readable path segment ("" if none)."""
    segment = _NOT_WORD.sub("-", value.lower()).strip("-")[:64]
    # 64 characters can be 256 bytes, one more than a file name may have.
    segment = segment.encode()[:MAX_SEGMENT_BYTES].decode("utf-8", "ignore").strip("-")
    return segment + "-" if segment in DEVICE_NAMES else segment


def record_path(record) -> str:
    return f"{repo_path(record.repo)}{record.slug}/"


def repo_path(repo: str) -> str:
    return repo.lower() + "/"


# Everything the site itself owns lives under "-/", which no GitHub owner, repository
# name or slug can be (each must start with a letter or digit), so every
# `owner/name/slug/` stays free for the dataset (GitLab's convention).
OWN = "-/"
REPOS_PATH = OWN + "repos/"
TAGS_PATH = OWN + "tags/"
TYPES_PATH = OWN + "types/"
SEVERITIES_PATH = OWN + "severities/"
SEARCH_PATH = OWN + "search/"
# The search files a page fetches with `?v=<meta.json's version>`, a digest of them all:
# a changed build gives each a new URL, so a browser may keep them (_headers).
SEARCH_VERSIONED = ("t/", "v/", "c/", "d/")
GO_PATH = OWN + "go/"           # /-/go/#q=<text>: the record of an error, from its text (go.html)
GO_CODE_PATH = GO_PATH + "code/"  # /-/go/code/<code>/: the record of an error code, or its records (go-code.html)
STATIC_PATH = OWN + "static/"
HOME_PATH = ""


def asset_href(site: Site, name: str, versions: dict[str, str]) -> str:
    """A link to static file `name`, with its version when known (`?v=…`)."""
    href = site.href(STATIC_PATH + name)
    return f"{href}?v={versions[name]}" if name in versions else href


def tag_path(tag: str) -> str:
    return f"{TAGS_PATH}{url_segment(tag)}/"


def type_path(error_type: str) -> str:
    return f"{TYPES_PATH}{url_segment(error_type)}/"


def severity_path(severity: str) -> str:
    return f"{SEVERITIES_PATH}{url_segment(severity)}/"


OPENSEARCH_PATH = OWN + "opensearch.xml"       # the browser's "add search engine" file
SCHEMA_PATH = OWN + "schema/record.v2.json"    # the JSON Schema of a record file
SITEMAP_PATH = "sitemap.xml"                   # the sitemap, or the index of its parts when it outgrows one file


def sitemap_part_path(number: int) -> str:
    """One part of a sitemap too large for one file, from 1."""
    return f"{OWN}sitemaps/{number}.xml"


def page_path(listing: str, number: int) -> str:
    """Page `number` (from 1) of a paginated listing: `<listing>-/page/N/`, so a
    repository's pages never take a slug."""
    return listing if number == 1 else f"{listing}{OWN}page/{number}/"


def output_file(out_dir: Path, path: str) -> Path:
    """The file for a site path; refuses anything that would land outside `out_dir`."""
    return out_dir / output_name(path)


def output_name(path: str) -> str:
    """The file for a site path, relative to the site's folder (`a/b/` → `a/b/index.html`);
    refuses anything that could land outside it. A string, not a Path: the writer
    calls it for every file of a site."""
    name = path + "index.html" if path == "" or path.endswith("/") else path
    # No part is empty, "." or "..", and none holds a backslash or NUL; tested on
    # the whole name (each part sits between two slashes in `/name/`), not per part.
    wrapped = f"/{name}/"
    if "//" in wrapped or "/./" in wrapped or "/../" in wrapped or "\\" in name or "\0" in name:
        raise ValueError(f"unsafe output path {path!r}")
    return name


# --- links that last, and the site's data for other tools ------------------------------
# A record's id never changes, so its permalink and oEmbed file outlive slug and
# repository renames; ids are [A-Za-z0-9_-]{1,64} (validate.ID_RE), safe as a segment.
PERMALINKS_PATH = OWN + "r/"
CODES_PATH = OWN + "code/"
API_PATH = OWN + "api/"
API_REPOS_PATH = API_PATH + "repos.json"
FEEDS_PATH = OWN + "feeds/"
FEED_KINDS = ("new", "changed")  # by analyzedAt, by contentChangedAt
CARD_IMAGE_PATH = OWN + "card.png"  # made from the site's title (pages/sitecard.py): not under -/static/, cached for a year


def permalink_path(record) -> str:
    return f"{PERMALINKS_PATH}{record.id}/"


def record_json_path(record) -> str:
    """The whole record as data (api.record_json), beside its permalink: `-/r/<id>.json`."""
    return f"{PERMALINKS_PATH}{record.id}.json"


def record_markdown_path(record) -> str:
    """The record as Markdown, for coding agents and terminals (pages/readable.py): `-/r/<id>.md`."""
    return f"{PERMALINKS_PATH}{record.id}.md"


LLMS_PATH = "llms.txt"  # what the site holds and how to read it, for language models (llmstxt.org)


def record_card_path(record) -> str:
    """The record's card image (pages/cards.py), beside its permalink: it outlives renames too."""
    return f"{permalink_path(record)}card.png"


def code_path(error_code: str | None) -> str | None:
    """The resolver page of an error code ("E0308" → `-/code/e0308/`); None for
    no code, or one without a letter or digit."""
    segment = url_segment(error_code or "")
    return f"{CODES_PATH}{segment}/" if segment else None


def code_alias_path(error_code: str | None) -> str | None:
    """`-/code/E0382/`: code_path as the code is printed, where that differs
    from it in the case of its letters alone (`-/code/e0382/`); else None.
    People type codes as printed, and many hosts tell the two paths apart."""
    segment = url_segment(error_code or "")
    printed = _NOT_WORD.sub("-", error_code or "").strip("-")
    return f"{CODES_PATH}{printed}/" if segment and printed != segment and printed.lower() == segment else None


def go_code_path(error_code: str | None) -> str | None:
    """`-/go/code/e0308/`: a link a tool builds from an error code (code_path's segment)."""
    segment = url_segment(error_code or "")
    return f"{GO_CODE_PATH}{segment}/" if segment else None


def code_repo_path(repo: str) -> str:
    """A repository's error codes (pages/codes.py): `-/code/-/in/<owner>/<name>/`. No
    code's page is `-/code/-/`: a code's segment never starts with "-"."""
    return f"{CODES_PATH}{OWN}in/{repo_path(repo)}"


def code_json_path(error_code: str) -> str | None:
    path = code_path(error_code)
    return path and f"{path}index.json"


def api_repo_path(repo: str) -> str:
    return f"{API_PATH}repos/{repo.lower()}.json"


def feed_path(kind: str, repo: str | None = None) -> str:
    """`-/feeds/new.xml`, or a repository's `-/feeds/<owner>/<name>/new.xml`."""
    return f"{FEEDS_PATH}{repo_path(repo) if repo else ''}{kind}.xml"
URLS_PATH = OWN + "urls.json"      # every URL this and earlier builds served (see pages/redirects.py)
REDIRECTS_PATH = "_redirects"      # the same moves as 301s, for Netlify and Cloudflare Pages
HEADERS_PATH = "_headers"          # long caching of the versioned static and search files, for the same hosts
