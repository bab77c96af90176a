"""The error codes' index, `-/code/`: every repository's codes, repositories
A–Z and each one's codes in natural order (E2 before E10), each code with
its message and a line of what it means, and a filter box. A repository's
codes also have a page of their own, `-/code/-/in/<owner>/<name>/`.

Pages hold at most CODES_PER_PAGE codes, so that each stays small (about
400 bytes a code: under 200 KB) however many codes the records have: the
index is split between repositories, and a repository with more codes than
a page holds is a link to its own pages there.
"""
from __future__ import annotations

import re
from typing import Iterable, Iterator, NamedTuple

import jinja2

from .. import urls
from ..markup import shorten
from ..model import Page, Summary
from .listing import packed, paginate
from .render import render

CODES_PER_PAGE = 250
CODE_TEXT = 100  # characters of a code's message and of its meaning on these pages
_DIGITS = re.compile(r"(\d+)")


def natural_key(code: str) -> tuple:
    """Sorts codes as people count: `E2` before `E10`, `parse_error.101` before `parse_error.1000`."""
    return tuple((0, int(part), part) if part.isdigit() else (1, part.casefold(), part)
                 for part in _DIGITS.split(code) if part)


class CodeRow(NamedTuple):
    code: str
    path: str       # the code's own page, across repositories
    message: str    # of the repository's first record with the code
    meaning: str
    count: int      # the repository's records with the code


class RepoCodes(NamedTuple):
    repo: str
    path: str       # the repository's own codes page
    rows: list[CodeRow]


def repo_codes(summaries: list[Summary]) -> list[RepoCodes]:
    """Each repository with codes, A–Z, its codes in natural order; codes that
    share a page (`E0308`, `e0308`) are one row, as they are one page."""
    repos: dict[str, dict[str, list[Summary]]] = {}
    for s in summaries:
        path = urls.code_path(s.error_code)
        if path:
            repos.setdefault(urls.repo_path(s.repo), {}).setdefault(path, []).append(s)
    groups = []
    for repo_path in sorted(repos):
        rows = []
        for path, members in repos[repo_path].items():
            first = min(members, key=urls.record_path)
            rows.append(CodeRow(first.error_code, path, shorten(first.message, CODE_TEXT),
                                shorten(first.card, CODE_TEXT), len(members)))
        rows.sort(key=lambda row: (natural_key(row.code), row.path))
        repo = min(s.repo for members in repos[repo_path].values() for s in members)
        groups.append(RepoCodes(repo, urls.code_repo_path(repo), rows))
    return groups


def index_runs(groups: list[RepoCodes], most: int = CODES_PER_PAGE) -> list[list[RepoCodes]]:
    """The index's pages: the groups in order, as few pages as keep each within
    `most` codes; a group of more than `most` is shown by its link alone, with
    no rows, and counts as one."""
    shown = [group if len(group.rows) <= most else group._replace(rows=[]) for group in groups]
    return packed(shown, lambda group: max(1, len(group.rows)), most)


def has_codes(summaries: Iterable[Summary]) -> bool:
    """Whether some record has an error code, which makes the codes' index and
    the pages' links to it (render.SiteOptions.codes)."""
    return any(urls.code_path(s.error_code) for s in summaries)


def index_paths(summaries: list[Summary], page_size: int = CODES_PER_PAGE, shown: bool = True) -> list[str]:
    """The paths codes_index_pages makes, without making them (links.listing_paths);
    `shown`: whether the pages link the index (SiteOptions.codes)."""
    if not shown:
        return []
    groups = repo_codes(summaries)
    paths = [path for path, _, _ in paginate(urls.CODES_PATH, index_runs(groups, page_size), 1)]
    for group in groups:
        paths += [path for path, _, _ in paginate(group.path, group.rows, page_size)]
    return paths


def codes_index_pages(env: jinja2.Environment, summaries: list[Summary],
                      page_size: int = CODES_PER_PAGE) -> Iterator[Page]:
    """The index and each repository's codes, when the pages link them (the
    environment's `has_codes`). A site assembled from shards links them
    whatever its records (pipeline.assemble), so with no code the index says so."""
    if not env.globals["has_codes"]:
        return
    site = env.globals["site"]
    groups = repo_codes(summaries)
    total = sum(len(group.rows) for group in groups)
    intro = (f"{total} error code{'s' if total != 1 else ''} in {len(groups)} "
             f"repositor{'ies' if len(groups) != 1 else 'y'}, by repository A–Z, each repository's codes in order."
             if groups else "No record here has an error code.")
    for path, (run,), pagination in paginate(urls.CODES_PATH, index_runs(groups, page_size), 1):
        span = f" This page: {run[0].repo} to {run[-1].repo}." if pagination.count > 1 and run else ""
        yield render(env, "codes.html", path, heading="Error codes", intro=intro + span, groups=run,
                     pagination=pagination, canonical=site.absolute(path))
    for group in groups:
        count = len(group.rows)
        intro = (f"{count} error code{'s' if count != 1 else ''} raised in {group.repo}, in order. "
                 "Each code's page lists its records in every repository.")
        for path, rows, pagination in paginate(group.path, group.rows, page_size):
            yield render(env, "codes.html", path, heading=f"Error codes of {group.repo}", intro=intro,
                         groups=[group._replace(rows=rows)], pagination=pagination,
                         canonical=site.absolute(path), repo_page=urls.repo_path(group.repo))
