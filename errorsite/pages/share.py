"""What a record page offers for issue trackers and chat: the Markdown snippet
to paste, GitHub's issue search and new-issue links, and whether the source
changed after the record was analysed. Pure functions of the record."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import NamedTuple
from urllib.parse import quote, urlencode

from .. import urls
from ..model import Record
from ..text import isolate

MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")
TITLE_LIMIT = 200      # GitHub's issue titles stay readable
BODY_LIMIT = 4000      # and a prefilled URL stays under what browsers and GitHub accept


class Staleness(NamedTuple):
    pinned_url: str    # the lines as analysed (githubUrl, at the analysed commit)
    head_url: str | None  # the file at the default branch today


def parse_date(value: str | None) -> datetime | None:
    """A validated ISO 8601 date, in UTC; None if absent or unreadable."""
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)


def one_line(text: str) -> str:
    """On one line; bidi controls balanced and isolated, so a pasted snippet
    cannot reorder the comment around it."""
    return isolate(" ".join(text.split()))


def md_text(text: str) -> str:
    """Text for inline Markdown: on one line, with what would make markup escaped."""
    return MARKDOWN_SPECIAL.sub(r"\\\1", one_line(text))


def md_url(url: str) -> str:
    """A link target that cannot end the Markdown link early."""
    return url.replace("(", "%28").replace(")", "%29").replace(" ", "%20").replace("<", "%3C").replace(">", "%3E")


def head_url(r: Record) -> str | None:
    if not r.file_path:
        return None
    line = f"#L{r.line_number}" if r.line_number is not None else ""
    return f"https://github.com/{quote(r.repo)}/blob/HEAD/{quote(r.file_path.lstrip('/'))}{line}"


def staleness(r: Record, pinned_url: str) -> Staleness | None:
    """Set when contentChangedAt is later than analyzedAt."""
    analyzed, changed = parse_date(r.analyzed_at), parse_date(r.content_changed_at)
    if analyzed is None or changed is None or changed <= analyzed:
        return None
    return Staleness(pinned_url, head_url(r))


def snippet(r: Record, permalink: str, line_url: str | None, page_line: int | None = None) -> str:
    """The Markdown "Copy as Markdown" gives, for an issue or PR comment. Every
    link to the site goes through the permalink, which outlives renames; the
    raising line too (`…/-/r/<id>/#L449`) when the page shows it (`page_line`),
    with GitHub's copy of it beside."""
    lines = [f"**[{md_text(r.message)}]({md_url(permalink)})**",
             f"{md_text(r.repo)} · {md_text(r.error_type)} · {md_text(r.severity)}"]
    if r.solutions:
        lines += ["", f"First solution: {one_line(r.solutions[0])}"]
    where = f"{r.file_path}#L{r.line_number}" if r.file_path and r.line_number is not None else r.file_path
    github = md_url(line_url or r.github_url)
    if page_line is not None:
        lines += ["", f"Source: [{md_text(where or f'line {page_line}')}]({md_url(f'{permalink}#L{page_line}')})"
                      f" · [on GitHub]({github})"]
    else:
        lines += ["", f"Source: [{md_text(where or 'on GitHub')}]({github})"]
    return "\n".join(lines) + "\n"


def issue_search_url(r: Record) -> str:
    return f"https://github.com/{quote(r.repo)}/issues?{urlencode({'q': one_line(r.message)})}"


def report_url(dataset_repo: str, r: Record, permalink: str) -> str:
    """A new issue in the dataset's repository about this record, with what
    its maintainers need to find it: id, dataset version, analysed commit."""
    body = "\n".join([f"Record: {r.id} ({permalink})", f"Repository: {r.repo}",
                      f"Dataset version: {one_line(r.dataset_version or 'unknown')}",
                      f"Analysed commit: {one_line(r.analyzed_sha or 'unknown')}",
                      f"Source: {r.github_url}", "", "What is wrong with this record:", ""])
    query = {"title": f"Record {r.id}: {one_line(r.message)}"[:TITLE_LIMIT], "body": body[:BODY_LIMIT]}
    return f"https://github.com/{quote(dataset_repo)}/issues/new?{urlencode(query)}"


def share_values(site: urls.Site, r: Record, line_url: str | None, page_line: int | None = None,
                 dataset_repo: str | None = None) -> dict:
    """What record.html shows besides the record: links, snippet, notice.
    `page_line`: the raising line, when the page shows it (its id is `L<n>`);
    `dataset_repo`: where a problem with the record is reported, if anywhere."""
    permalink = site.absolute(urls.permalink_path(r))
    text = snippet(r, permalink, line_url, page_line)
    return dict(permalink=permalink, snippet=text, issue_search_url=issue_search_url(r),
                stale=staleness(r, line_url or r.github_url),
                report_url=report_url(dataset_repo, r, permalink) if dataset_repo else None,
                code_path=urls.code_path(r.error_code), json_path=urls.record_json_path(r),
                markdown_path=urls.record_markdown_path(r))
