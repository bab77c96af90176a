"""A JSON API beside the pages, for bots, editors and other tools:

- `-/r/<id>.json`: the whole record as validated, in the record file's format
  (so schema/record.v2.json validates it), with its URLs beside; it is also the
  record's oEmbed response, whose fields sit beside these. Made with the
  record's page, in the record step: it needs the whole record;
- `-/api/repos.json`: every repository, its record count and its listing;
- `-/api/repos/<owner>/<repo>.json`: that repository's records;
- `-/code/<code>/index.json`: every record sharing an error code.

Every file goes through model.inert_json: sorted keys, `<`, `>` and `&` escaped.
"""
from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Iterator

from .. import urls
from ..model import FIELDS, Page, Record, Summary, inert_json

if TYPE_CHECKING:  # a type only: api and sitecard are page parts of one layer
    from .sitecard import CardImage


def record_data(site: urls.Site, r: Record) -> dict:
    """Every field of the record (None where it has none), as the record file says it."""
    data = {field.key: list(value) if isinstance(value := getattr(r, field.attr), tuple) else value
            for field in FIELDS}
    return {"record": data, "datasetVersion": r.dataset_version,
            "url": site.absolute(urls.record_path(r)), "permalink": site.absolute(urls.permalink_path(r)),
            "markdown": site.absolute(urls.record_markdown_path(r))}


def oembed(site: urls.Site, site_name: str, r: Record | Summary, image: CardImage) -> dict:
    """An oEmbed 1.0 "link" response: what Discourse, Notion and others show."""
    return {"version": "1.0", "type": "link", "title": r.message,
            "author_name": r.repo, "author_url": site.absolute(urls.repo_path(r.repo)),
            "provider_name": site_name, "provider_url": site.base_url,
            "thumbnail_url": image.url(site), "thumbnail_width": image.width, "thumbnail_height": image.height}


def record_json(site: urls.Site, r: Record, embed: dict) -> Page:
    """record_data with the oEmbed fields beside it: one file serves both
    (they agree on `url`, the record page)."""
    return Page(urls.record_json_path(r), inert_json({**embed, **record_data(site, r)}))


def listed(site: urls.Site, s: Summary) -> dict:
    """One record in a listing: enough to find it and link to it."""
    return {"id": s.id, "repo": s.repo, "slug": s.slug, "message": s.message, "pattern": s.pattern,
            "errorCode": s.error_code, "url": site.absolute(urls.record_path(s)),
            "permalink": site.absolute(urls.permalink_path(s)), "json": site.absolute(urls.record_json_path(s))}


def by_repo(summaries: list[Summary]) -> dict[str, list[Summary]]:
    """Repository path → its records; "Owner/Repo" and "owner/repo" share one."""
    groups: dict[str, list[Summary]] = defaultdict(list)
    for s in summaries:
        groups[urls.repo_path(s.repo)].append(s)
    return dict(sorted(groups.items()))


def api_pages(site: urls.Site, summaries: list[Summary]) -> Iterator[Page]:
    repos = []
    for members in by_repo(summaries).values():
        repo = members[0].repo
        yield Page(urls.api_repo_path(repo), inert_json({
            "repo": repo, "url": site.absolute(urls.repo_path(repo)),
            "records": [listed(site, s) for s in members]}))
        repos.append({"repo": repo, "records": len(members), "url": site.absolute(urls.repo_path(repo)),
                      "api": site.absolute(urls.api_repo_path(repo))})
    yield Page(urls.API_REPOS_PATH, inert_json({"repos": repos}))


def by_code(summaries: list[Summary]) -> dict[str, list[Summary]]:
    """Code page path → the records with that code, in every repository."""
    groups: dict[str, list[Summary]] = defaultdict(list)
    for s in summaries:
        path = urls.code_path(s.error_code)
        if path:
            groups[path].append(s)
    return dict(sorted(groups.items()))


def code_json(site: urls.Site, code: str, members: list[Summary]) -> Page:
    return Page(urls.code_json_path(code), inert_json({
        "code": code, "url": site.absolute(urls.code_path(code)),
        "records": [listed(site, s) for s in members]}))
