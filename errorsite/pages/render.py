"""Step 3, render: Record → Page. Templates hold the markup; this module
prepares the values they show, and nothing here touches the disk."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import jinja2
from markupsafe import Markup

from .. import urls
from ..markup import (NO_BLOCKS, Blocks, highlight_block, highlight_lines, lexer_for, line_counter_start, markdown,
                      shorten, snippet_lexer, summary)
from ..model import Page, Record, Summary, inert_json
from ..resources import TEMPLATES
from ..text import isolate
from .assets import SEARCH_ENGINE
from .cards import card_image, has_card
from .describe import first_fix, page_title, record_description, unfurl_description
from .share import share_values
from .sitecard import SIZE as CARD_SIZE, CardFile, site_card_image
from .template_errors import template_error, template_failure  # the commands take template_error from here

SITE_NAME = "Error Index"
SITE_DESCRIPTION = ("Searchable index of error messages from public GitHub repositories: "
                    "causes, fixes and the source that raises them.")
# style-src and connect-src fall back to default-src 'self'; script-src says it outright.
CSP = ("default-src 'self'; script-src 'self'; img-src 'self' https: data:; object-src 'none'; "
       "base-uri 'self'; form-action 'self'")

CODE_SECTIONS = (  # (record attribute, anchor id, heading)
    ("example_fix", "example-fix", "Example fix"),
    ("validation_code", "validation-code", "Validation code"),
    ("type_guard", "type-guard", "Type guard"),
    ("try_catch_pattern", "try-catch", "Try/catch pattern"),
)

# A record page's sections in the order of the reader's questions: is this my
# error (the header), what it means, how to fix it; then why it happens, the
# source, the handling snippets and the details. record.html lays them out in
# this order and its "On this page" list names those the record has.
SECTIONS = (  # (anchor id, heading)
    ("documentation", "What it means"),
    ("solutions", "Solutions"),
    ("example-fix", "Example fix"),
    ("trigger-scenarios", "What triggers it"),
    ("common-situations", "Common situations"),
    ("source", "Where it is raised"),
    ("validation-code", "Validation code"),
    ("type-guard", "Type guard"),
    ("try-catch", "Try/catch pattern"),
    ("prevention-tips", "Prevention tips"),
    ("share", "Share or report"),
    ("details", "Record details"),
)


class SiteOptions(NamedTuple):
    """What a site's config sets besides its URL (see errorsite/config.py)."""

    title: str = SITE_NAME
    description: str = SITE_DESCRIPTION
    dataset_url: str | None = None   # the dataset's home, linked from every footer
    page_size: int = urls.PAGE_SIZE  # entries per listing page
    templates: Path | None = None    # a folder whose templates replace the built-in ones
    card: CardFile | None = None     # the site's own card image, else one made from the title (sitecard.py)
    cards: bool = False              # a card image per record, for large unfurls (cards.py)
    dataset_repo: str | None = None  # owner/name: report and request links go to its issues (share.py)
    # Not a setting but a fact of the records: some record has an error code, so every page's header
    # and footer link the codes' index. Found out by the build (pipeline.build), and part of the
    # render fingerprint like the rest, so every page is made again when it turns.
    codes: bool = True


class Link(NamedTuple):
    label: str
    path: str
    count: int = 0


class CodeBlock(NamedTuple):
    id: str
    title: str
    html: str


class TemplateMissing(jinja2.TemplateError):
    """`template not found: record.html (looked in …)`. Unlike Jinja's
    TemplateNotFound it is no OSError, so nothing takes it for a failed write."""


class Templates(jinja2.ChoiceLoader):
    """Built-in templates, under files of the same name in `overrides`; the
    built-in ones stay reachable as "builtin/<name>", so an override can extend
    the template it replaces. A template in neither is a TemplateMissing."""

    def __init__(self, overrides: Path | None):
        builtin = jinja2.FileSystemLoader(TEMPLATES)
        loaders = [jinja2.FileSystemLoader(overrides)] if overrides else []
        super().__init__([*loaders, builtin, jinja2.PrefixLoader({"builtin": builtin})])
        self.folders = [*([overrides] if overrides else []), TEMPLATES]

    def load(self, environment, name, globals=None):
        try:
            return super().load(environment, name, globals)
        except jinja2.TemplateNotFound:
            looked = ", ".join(str(folder) for folder in self.folders)
            raise TemplateMissing(f"template not found: {name} (looked in {looked})") from None


class _Environment(jinja2.Environment):
    def handle_exception(self, source=None):
        """Where Jinja sends every error of a render, its traceback rewritten
        to the templates' lines: a failure of the template's own code leaves
        as a TemplateFailed, which says where in one line."""
        try:
            super().handle_exception(source)
        except Exception as error:
            failed = template_failure(error)
            if failed is None:
                raise
            raise failed from error

    def make_globals(self, d):
        """A template's globals: the environment's own dict when the template
        has none of its own, as it is for every template here. Jinja would
        layer a ChainMap over it, which each render copies key by key and each
        `{% from … import %}` compares with its own, key by key."""
        return self.globals if not d else super().make_globals(d)


def environment(site: urls.Site, total_records: int = 0,
                options: SiteOptions = SiteOptions(), versions: dict[str, str] | None = None) -> jinja2.Environment:
    """`total_records` is shown on the home page only: a record page must not
    change when another record is added, or no rebuild could be incremental.
    `versions` (assets.versions) versions the links to static files."""
    versions = versions or {}
    env = _Environment(
        loader=Templates(options.templates),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
        auto_reload=False,  # an environment lives for one build: no stat of every template per page
    )
    env.filters["isolate"] = isolate
    # `{{ path | href }}` rather than `{{ site.href(path) }}`: a filter is a
    # plain call, where a method call goes through the template's context
    # (Context.call), which costs more than the call itself; a record's two
    # pages make dozens of them, and a listing one an item (macros.html).
    env.filters["href"] = site.href
    env.globals.update(
        site=site, site_name=options.title, site_description=options.description,
        dataset_url=options.dataset_url, dataset_repo=options.dataset_repo, page_size=options.page_size,
        csp=Markup(CSP), total_records=total_records,  # a constant with quotes in it: as it is, not as &#39;
        asset=lambda name: urls.STATIC_PATH + name,  # a path, for templates that override ours
        asset_url=lru_cache(maxsize=None)(lambda name: urls.asset_href(site, name, versions)),
        home_path=urls.HOME_PATH, search_path=urls.SEARCH_PATH, go_code_path=urls.GO_CODE_PATH,
        repos_path=urls.REPOS_PATH, tags_path=urls.TAGS_PATH, codes_path=urls.CODES_PATH, has_codes=options.codes,
        opensearch_path=urls.OPENSEARCH_PATH,
        card_image=urls.CARD_IMAGE_PATH, card_size=CARD_SIZE, feed=urls.feed_path,
        card=site_card_image(options.title, options.card), cards=options.cards,
        unfurl_image_of=unfurl_images(options),
        search_engine=[urls.asset_href(site, name, versions) for name in SEARCH_ENGINE],
    )
    return env


def unfurl_images(options: SiteOptions):
    """record or summary → the image its unfurl shows: its own card with
    `cards` on (when the card's font shows its text: cards.has_card), else the site's."""
    site_card = site_card_image(options.title, options.card)
    if not options.cards:
        return lambda r: site_card
    return lambda r: card_image(r, options.title) if has_card(r) else site_card  # text-led where the font lacks a script


def render(env: jinja2.Environment, template: str, path: str, **values) -> Page:
    html = env.get_template(template).render(**values)
    return Page(path, html.encode("utf-8"))


def record_page(env: jinja2.Environment, record: Record, summary: Summary | None = None,
                blocks: Blocks = NO_BLOCKS) -> Page:
    """`summary`: the record's, whose description the page shows rather than
    work it out again; `blocks`: its code as its check highlighted it
    (plain_text.Shown), which the page shows rather than lex it again."""
    path = urls.record_path(record)
    return render(env, "record.html", path, **record_values(env.globals["site"], record, path,
                                                            env.globals["dataset_repo"], summary, blocks),
                  unfurl_image=env.globals["unfurl_image_of"](record))


def record_values(site: urls.Site, r: Record, path: str, dataset_repo: str | None = None,
                  summary: Summary | None = None, blocks: Blocks = NO_BLOCKS) -> dict:
    lexer = lexer_for(r.file_path)
    source_lines = []
    if r.source_code:
        source_lines = highlight_lines(r.source_code, lexer, r.source_start or 1, r.line_number, r.source_end,
                                       plain="source_code" in r.plain_code, made=blocks)
    code_blocks = [CodeBlock(anchor, title, highlight_block(code, snippet_lexer(code, r.file_path), attr in r.plain_code,
                                                            blocks))
                   for attr, anchor, title in CODE_SECTIONS if (code := getattr(r, attr))]
    prose = {
        "documentation": markdown(r.documentation or ""),
        "trigger_scenarios": markdown(r.trigger_scenarios or ""),
        "common_situations": markdown(r.common_situations or ""),
        "solutions": [inline_markdown(text) for text in r.solutions],
        "prevention_tips": [inline_markdown(text) for text in r.prevention_tips],
    }
    shown = {"documentation": r.documentation, "solutions": r.solutions, "trigger-scenarios": r.trigger_scenarios,
             "common-situations": r.common_situations, "source": source_lines,
             "prevention-tips": r.prevention_tips, **{block.id: True for block in code_blocks}}
    line = line_url(r)
    page_line = r.line_number if any(shown.number == r.line_number for shown in source_lines) else None
    short_sha = r.analyzed_sha[:7] if r.analyzed_sha and len(r.analyzed_sha) == 40 else r.analyzed_sha
    return dict(
        r=r,
        canonical=site.absolute(path),
        title=page_title(r),
        description=record_description(summary or r),
        structured_data=structured_data(site, r, path),
        repo_path=urls.repo_path(r.repo),
        type_path=urls.type_path(r.error_type),
        severity_path=urls.severity_path(r.severity),
        severity_class=urls.url_segment(r.severity),
        tags=unique_links(r.tags, urls.tag_path),
        line_url=line,
        short_sha=short_sha,
        commit_url=f"https://github.com/{r.repo}/commit/{r.analyzed_sha}" if r.analyzed_sha else None,
        source_lines=source_lines,
        page_line=page_line,  # the raising line, when source_lines has it
        line_counter_start=line_counter_start(source_lines[0].number) if source_lines else "",
        code_blocks=code_blocks,
        prose=prose,
        sections=[(anchor, title) for anchor, title in SECTIONS if shown.get(anchor, anchor in ("share", "details"))],
        **share_values(site, r, line, page_line, dataset_repo),
    )


def inline_markdown(text: str):
    """A list item's markdown without the wrapping paragraph."""
    html = markdown(text)
    if html.startswith("<p>") and html.endswith("</p>\n") and html.count("<p>") == 1:
        return html[3:-5]
    return html


def structured_data(site: urls.Site, r: Record, path: str) -> str:
    """The page as a schema.org TechArticle, for search engines: JSON-LD in a
    <script type="application/ld+json">, made inert by model.inert_json (no `<`,
    `>` or `&` in it, so record text cannot end the element)."""
    headline = shorten(r.message, 110)
    data = {
        "@context": "https://schema.org", "@type": "TechArticle",
        "headline": headline, **({"name": r.message} if headline != r.message else {}),  # the whole message
        "url": site.absolute(path),  # the description and language are the page's own (meta, lang)
        "about": {"@type": "SoftwareSourceCode", "codeRepository": f"https://github.com/{r.repo}",
                  "name": r.repo},
        "keywords": list(dict.fromkeys([r.error_type, *r.tags])),
        "image": site.absolute(urls.CARD_IMAGE_PATH),
    }
    if r.analyzed_at:
        data["datePublished"] = r.analyzed_at
    if r.content_changed_at or r.analyzed_at:
        data["dateModified"] = r.content_changed_at or r.analyzed_at
    return inert_json(data).decode().translate(_ESCAPED_CONTROLS)


# Bidi controls in record text are data here, never shown: written as \u escapes,
# so none reaches the page's text, where it could reorder what surrounds it.
_ESCAPED_CONTROLS = {c: f"\\u{c:04x}" for c in [*range(0x202a, 0x202f), *range(0x2066, 0x206a)]}


def line_url(r: Record) -> str | None:
    """githubUrl, pointed at the raising line instead of the whole snippet."""
    if r.line_number is None:
        return None
    return r.github_url.split("#", 1)[0] + f"#L{r.line_number}"


def unique_links(labels, path_of) -> list[Link]:
    """One link per distinct text, each shown as the record has it; texts
    that share a URL ("Rust" and "rust") link to the same page."""
    return [Link(label, path_of(label)) for label in dict.fromkeys(labels)]


def summarize(r: Record) -> Summary:
    """The record as the global steps see it (see model.Summary)."""
    return Summary(
        source_file=r.source_file, id=r.id, repo=r.repo, slug=r.slug, message=r.message, pattern=r.pattern,
        error_code=r.error_code, error_type=r.error_type, error_class=r.error_class, severity=r.severity,
        file_path=r.file_path, tags=r.tags, analyzed_at=r.analyzed_at,
        content_changed_at=r.content_changed_at, card=summary(r.documentation or r.trigger_scenarios),
        unfurl=unfurl_description(r), fix=first_fix(r))
