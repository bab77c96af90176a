"""Links that last: a permanent link per record, `-/r/<id>/`, that sends the
reader on to the record page wherever it lives now, made with the record's
page. And the error-code pages, made from every summary in the
global stage."""
from __future__ import annotations

from typing import Iterator

import jinja2

from .. import urls
from ..model import Page, Summary
from . import tag_index
from .api import by_code, code_json
from .codes import codes_index_pages, index_paths as codes_index_paths
from .describe import page_title, record_description
from .listing import ListItems, counted, entry, groupings, paginate
from .render import render



def permalink_page(env: jinja2.Environment, s: Summary) -> Page:
    """A static page per record id: the site's redirect script (it keeps the
    reader's fragment, `#L84`, which a meta refresh drops), a meta refresh for
    readers without JavaScript, canonical link and a visible link to the record
    page; `noindex`, so only the record page is indexed. It
    carries the record's card too: chat unfurlers do not follow meta refresh.
    Made with the record page (records.py), from the record alone."""
    return redirect_page(env, urls.permalink_path(s), s)


def redirect_page(env: jinja2.Environment, path: str, s: Summary, moved: bool = False) -> Page:
    """A page at `path` that sends the reader on to record `s`."""
    target = urls.record_path(s)
    return render(env, "permalink.html", path, target=target, message=s.message, repo=s.repo, moved=moved,
                  canonical=env.globals["site"].absolute(target), description=record_description(s),
                  title=page_title(s), unfurl_image=env.globals["unfurl_image_of"](s))


def code_pages(env: jinja2.Environment, summaries: list[Summary], items: ListItems | None = None) -> Iterator[Page]:
    """The error-code resolver: `-/code/<code>/` lists every record with that
    code, across repositories, with its JSON twin; `-/code/` lists the codes
    by repository, and each repository's codes have a page (codes.py)."""
    site = env.globals["site"]
    groups = by_code(summaries)
    items = items or ListItems(env, summaries)
    for path, members in groups.items():
        code = members[0].error_code
        repos = len({urls.repo_path(s.repo) for s in members})
        intro = (f"{len(members)} error record{'s' if len(members) != 1 else ''} with this code, "
                 f"in {repos} repositor{'ies' if repos != 1 else 'y'}.")
        listed = items.in_order(members)
        yield render(env, "code.html", path, code=code, intro=intro, entries=[entry(s) for s in listed],
                     items=items(listed),
                     json_path=urls.code_json_path(code), canonical=site.absolute(path))
        yield code_json(site, code, members)
    yield from codes_index_pages(env, summaries)


def go_code_pages(env: jinja2.Environment, summaries: list[Summary]) -> Iterator[Page]:
    """`-/go/code/<code>/`, a link a tool builds from an error code: it sends
    the reader to the record when one record has the code, else to the code's
    page, which lists them (`noindex`, like every redirect). A code written
    otherwise (`E0308` for `e0308`) reaches it through 404.html's script."""
    site = env.globals["site"]
    for path, members in by_code(summaries).items():
        code = members[0].error_code
        target = urls.record_path(members[0]) if len(members) == 1 else path
        yield render(env, "go-code.html", urls.go_code_path(code), target=target, code=code, count=len(members),
                     message=members[0].message, canonical=site.absolute(target))


def code_alias_pages(env: jinja2.Environment, summaries: list[Summary]) -> Iterator[Page]:
    """`-/code/E0382/`: a redirect to a code's page from each spelling its
    records print it with that differs from the page's in case alone
    (urls.code_alias_path), for hosts that tell the two paths apart. Made
    after the code pages: where the file system takes both spellings for one
    folder, the writer keeps the page and skips the alias (write/staging.py).
    Not listed in the sitemap nor the URL history: the page's own URL is the one to keep."""
    site = env.globals["site"]
    for path, members in by_code(summaries).items():
        aliases = {urls.code_alias_path(s.error_code): s.error_code for s in members}
        aliases.pop(None, None)
        for alias, code in sorted(aliases.items()):
            yield render(env, "go-code.html", alias, target=path, code=code, count=len(members),
                         message=members[0].message, canonical=site.absolute(path))


def listing_paths(summaries: list[Summary], page_size: int, codes_index: bool = True) -> set[str]:
    """The paths of the listing pages browse_pages and code_pages make (home,
    search and /-/go/ included), without making them: what the redirect pages need
    to know before the listings exist (see redirects.history_key). `codes_index`:
    whether the codes' index is made (SiteOptions.codes)."""
    paths = {urls.HOME_PATH, urls.SEARCH_PATH, urls.GO_PATH}
    for groups, _, directory, _ in groupings(summaries):
        for path, (_, members) in groups.items():
            paths.update(page for page, _, _ in paginate(path, members, page_size))
        if directory == urls.TAGS_PATH:  # browse.tag_index_pages
            paths.update(page for page, _, _ in paginate(directory, tag_index.index_runs(counted(groups)), 1))
        else:
            paths.update(page for page, _, _ in paginate(directory, list(groups), page_size))
    codes = by_code(summaries)
    paths.update(codes)
    paths.update(urls.go_code_path(members[0].error_code) for members in codes.values())
    paths.update(codes_index_paths(summaries, shown=codes_index))
    return paths
