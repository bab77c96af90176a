"""The whole build, top to bottom: load → validate → render → index → write."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator, NamedTuple

from . import urls
from .browse import browse_pages, opensearch, robots, sitemap
from .load import load_records, load_static
from .markup import pygments_css
from .model import Page, Problem, Record
from .render import SiteOptions, environment, record_pages
from .schema import schema_page
from .search import search_pages
from .validate import validate_all
from .write import write_site

STATIC = Path(__file__).resolve().parent.parent / "static"


class BuildResult(NamedTuple):
    records: int
    problems: list[Problem]
    files: int          # 0 when nothing was written
    written: bool


def build(records_dir: Path, out_dir: Path, base_url: str, strict: bool = False,
          report: Callable[[str], None] = print, jobs: int = 1,
          options: SiteOptions = SiteOptions()) -> BuildResult:
    records, problems = validate_all(load_records(records_dir))
    for problem in problems:
        report(str(problem))
    if strict and problems:
        return BuildResult(len(records), problems, 0, False)
    site = urls.Site(urls.normalize_base_url(base_url))
    files = write_site(out_dir, site_pages(site, records, load_static(STATIC), jobs, options))
    return BuildResult(len(records), problems, files, True)


def site_pages(site: urls.Site, records: list[Record], static: dict[str, bytes],
               jobs: int = 1, options: SiteOptions = SiteOptions()) -> Iterator[Page]:
    """Every file of the site, generated lazily so pages never pile up in memory."""
    records = sorted(records, key=urls.record_path)
    env = environment(site, len(records), options)
    html_paths = []
    for page in record_pages(site, len(records), records, jobs, options):
        html_paths.append(page.path)
        yield page
    for page in browse_pages(env, records):
        html_paths.append(page.path)
        yield page
    yield from search_pages(records)
    yield from static_pages(static)
    yield sitemap(site, html_paths)
    yield robots(site)
    yield opensearch(env)
    yield schema_page(site)
    yield Page(".nojekyll", b"")  # GitHub Pages: serve folders and files as they are


def static_pages(static: dict[str, bytes]) -> Iterator[Page]:
    for name, content in static.items():
        if name == "style.css":  # one stylesheet: ours, then the Pygments themes
            content = content + b"\n" + pygments_css().encode()
        yield Page(urls.STATIC_PATH + name, content)


def summary_line(result: BuildResult) -> str:
    skipped = len({p.path for p in result.problems})
    if not result.written:
        return f"nothing written: {skipped} bad record file{'s' if skipped != 1 else ''} (--strict)"
    tail = f", skipped {skipped} — see above" if skipped else ""
    return f"built {result.records} record{'s' if result.records != 1 else ''}{tail}"
