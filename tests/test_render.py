"""pages/render.py + templates/record.html: a Record becomes a page showing all it has.

Pages are rendered by calling `record_page` directly and read back with
html.parser, so the assertions are on elements and text, not on whitespace.
"""
from __future__ import annotations

import dataclasses
import html
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import SHARED_RECORDS, need_shared
from errorsite import urls
from errorsite.markup import plain_text
from errorsite.model import Record
from errorsite.pages.describe import UNFURL_LIMIT, record_description
from errorsite.pages.render import environment, line_url, record_page, summarize, unique_links
from errorsite.validate import validate

GOOD = Path(__file__).parent / "fixtures" / "bad" / "good-dataclass-on-model.json"
SITE = urls.Site("https://example.org/errors/")
BASE = "/errors/"
REQUIRED = ("id", "repo", "slug", "errorMessage", "errorType", "severity", "githubUrl")


class Doc(HTMLParser):
    """Elements (tag, attrs, text inside) and the page's visible text."""

    VOID = {"meta", "link", "input", "br", "img", "hr"}

    def __init__(self, source: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[dict] = []
        self.open: list[dict] = []
        self.text_parts: list[str] = []
        self.feed(source)
        self.close()
        self.text = "".join(self.text_parts)

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": []}
        self.elements.append(element)
        if tag not in self.VOID:
            self.open.append(element)

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        if not any(e["tag"] in ("script", "style", "title") for e in self.open):
            self.text_parts.append(data)
        for element in self.open:
            element["text"].append(data)

    def find(self, tag=None, **attrs) -> list[dict]:
        return [e for e in self.elements if (tag is None or e["tag"] == tag)
                and all(e["attrs"].get(k.rstrip("_")) == v for k, v in attrs.items())]

    def one(self, tag=None, **attrs) -> dict:
        [element] = self.find(tag, **attrs)
        return element

    def inner(self, element) -> str:
        return "".join(element["text"])

    def meta(self, key: str) -> str:
        [element] = [e for e in self.find("meta") if key in (e["attrs"].get("name"), e["attrs"].get("property"))]
        return element["attrs"]["content"]

    def ids(self) -> list[str]:
        return [e["attrs"]["id"] for e in self.elements if "id" in e["attrs"]]

    def hrefs(self) -> list[str]:
        return [e["attrs"]["href"] for e in self.elements if "href" in e["attrs"]]

    def headings(self) -> list[str]:
        return [" ".join(self.inner(e).split()) for e in self.elements if e["tag"] in ("h1", "h2", "h3")]


def squash(text: str) -> str:
    return " ".join(text.split())


def load(path: Path) -> Record:
    record = validate(path.name, json.loads(path.read_text(encoding="utf-8")))
    assert isinstance(record, Record), record
    return record


def page_of(record: Record, total: int = 1) -> Doc:
    page = record_page(environment(SITE, total), record)
    assert page.path == urls.record_path(record)
    return Doc(page.content.decode("utf-8"))


def minimal(**extra) -> Record:
    body = {key: json.loads(GOOD.read_text())["record"][key] for key in REQUIRED}
    body.update(extra)
    record = validate("m.json", {"record": body})
    assert isinstance(record, Record), record
    return record


@pytest.fixture(scope="module")
def good() -> Record:
    return load(GOOD)


@pytest.fixture(scope="module")
def doc(good) -> Doc:
    return page_of(good)


# --- every field of a real record ------------------------------------------------

def assert_shows_every_field(r: Record, doc: Doc) -> None:
    text = squash(doc.text)
    hrefs = doc.hrefs()
    assert squash(doc.inner(doc.one("h1"))) == squash(r.message)
    for value in (r.repo, r.error_type, r.severity, r.error_class, r.error_code, r.file_path,
                  r.handling_strategy, r.background_tag, r.dataset_version, r.id, r.shown_pattern):
        if value is not None:
            assert squash(value) in text, value
    if r.http_status is not None:
        assert f"HTTP status{r.http_status}" in text.replace(" ", "")
    if r.schema_version is not None:
        assert f"Schema version{r.schema_version}" in text.replace(" ", "") or \
            f"Schemaversion{r.schema_version}" in text.replace(" ", "")
    for prose in (r.documentation, r.trigger_scenarios, r.common_situations, *r.solutions, *r.prevention_tips):
        if prose:
            assert squash(plain_text(prose)) in text, prose[:60]
    for code in (r.source_code, r.example_fix, r.validation_code, r.type_guard, r.try_catch_pattern):
        if code:
            assert squash(code) in text, code[:60]
    for tag in r.tags:
        assert doc.find("a", href=BASE + "-/tags/" + urls.url_segment(tag) + "/"), tag
    assert r.github_url in hrefs
    if r.line_number is not None:
        assert line_url(r) in hrefs
    if r.analyzed_sha:
        assert f"https://github.com/{r.repo}/commit/{r.analyzed_sha}" in hrefs
        assert r.analyzed_sha[:7] in text
    for date in (r.analyzed_at, r.content_changed_at):
        if date:
            assert doc.find("time", datetime=date) and date[:10] in text
    if r.source_code:
        count = len(r.source_code.removesuffix("\n").split("\n"))
        first = r.source_start or 1
        assert [i for i in doc.ids() if i.startswith("L")] == [f"L{n}" for n in range(first, first + count)]


@pytest.mark.slow  # ~4 s: every shared record rendered and parsed; the fast loop checks the fixture record below
def test_every_shared_record_shows_every_non_null_field():
    need_shared()
    paths = sorted(SHARED_RECORDS.glob("*.json"))
    assert paths
    for path in paths:
        record = load(path)
        assert_shows_every_field(record, page_of(record))


def test_fixture_record_shows_every_non_null_field(good, doc):
    assert_shows_every_field(good, doc)


# --- the pieces, on the pydantic record --------------------------------------------

def test_header(doc):
    h1 = doc.one("h1")
    assert h1["attrs"]["id"] == "message"
    assert doc.inner(h1) == "Cannot create a Pydantic dataclass from User as it is already a Pydantic model"
    assert squash(doc.inner(doc.one("p", class_="pattern"))) == \
        "Pattern: Cannot create a Pydantic dataclass from {cls} as it is already a Pydantic model"
    assert doc.inner(doc.one("a", class_="severity severity-error")) == "error"
    assert doc.one("a", class_="severity severity-error")["attrs"]["href"] == "/errors/-/severities/error/"
    assert [doc.inner(a) for a in doc.find("a", href="/errors/-/types/usage/")] == ["usage"]
    assert [doc.inner(a) for a in doc.find("a", href="/errors/pydantic/pydantic/")] == ["pydantic/pydantic"]
    assert not doc.find("p", class_="breadcrumb")  # the repository and type are on the facts line under the message


def test_facts(doc):
    facts = {squash(doc.inner(dt)): squash(doc.inner(dd)) for dt, dd in
             zip(doc.find("dt"), doc.find("dd"))}
    assert facts["Repository"] == "pydantic/pydantic"
    assert facts["Type"] == "usage"
    assert facts["Class"] == "pydantic.errors.PydanticUserError"
    assert facts["Severity"] == "error"
    assert facts["Error code"] == "dataclass-on-model"
    assert "HTTP status" not in facts
    assert facts["Analyzed commit"] == "2151025"
    assert facts["Analyzed"] == "2026-11-23"
    assert "Content changed" not in facts
    assert facts["Handling strategy"] == "code-fix"
    assert facts["Background"] == "decorator-misuse"
    assert facts["Dataset version"] == "2026-11-30T00:00:00.000Z"
    assert facts["Schema version"] == "2"
    assert facts["Record id"] == "350f1fa4a59600a1"


def test_tags_link_to_tag_pages(doc):
    [ul] = doc.find("ul", class_="tags")
    links = [(e["attrs"]["href"], doc.inner(e)) for e in doc.elements
             if e["tag"] == "a" and e["attrs"].get("href", "").startswith("/errors/-/tags/")
             and e["attrs"]["href"] != "/errors/-/tags/"]  # the nav link to all tags
    assert links == [("/errors/-/tags/python/", "python"), ("/errors/-/tags/pydantic/", "pydantic"),
                     ("/errors/-/tags/dataclass/", "dataclass"), ("/errors/-/tags/basemodel/", "basemodel")]


def test_section_headings_have_ids_listed_on_the_page(doc):
    # the order of the reader's questions: what it means, how to fix it, then why, where, the rest
    expected = [("documentation", "What it means"), ("solutions", "Solutions"), ("example-fix", "Example fix"),
                ("trigger-scenarios", "What triggers it"), ("common-situations", "Common situations"),
                ("source", "Where it is raised"),
                ("validation-code", "Validation code"), ("type-guard", "Type guard"),
                ("try-catch", "Try/catch pattern"), ("prevention-tips", "Prevention tips"),
                ("share", "Share or report"), ("details", "Record details")]
    h2s = doc.find("h2")
    assert [(h["attrs"]["id"], squash(doc.inner(h))) for h in h2s] == [(i, t) for i, t in expected]
    # "On this page" lists them all, in the same order, with the same words
    toc = [(a["attrs"]["href"], doc.inner(a)) for a in doc.find("a") if a["attrs"].get("class") is None
           and a["attrs"].get("href", "").lstrip("#") in dict(expected)]
    assert toc == [(f"#{i}", t) for i, t in expected]
    for anchor, title in expected:  # the `#` self-links are record-tools.js's (test_links_browser)
        assert doc.find("section", **{"aria-labelledby": anchor})


def test_source_lines(doc):
    lines = [e for e in doc.find("span") if e["attrs"].get("id", "").startswith("L")]
    assert [int(e["attrs"]["id"][1:]) for e in lines] == list(range(118, 154))
    assert all(set(e["attrs"]) <= {"id", "class"} for e in lines)  # one light element a line
    [raised] = doc.find("span", class_="raised")
    assert raised["attrs"]["id"] == "L133"
    assert "Cannot create a Pydantic dataclass from " in doc.inner(raised)
    # The stylesheet numbers the lines: the block's first (empty) elements start its counter at 118.
    assert [e["attrs"]["class"] for e in doc.find("i")] == ["s21", "s11", "s07"]
    [to_line] = [a for a in doc.find("a", href="#L133") if doc.inner(a) == "line 133"]
    assert doc.inner(doc.one("p", class_="file")).startswith("pydantic/dataclasses.py, line 133")


def test_blank_source_lines_keep_their_number(doc):
    [blank] = doc.find("span", id="L119")
    assert doc.inner(blank) == "\n"


def test_github_links(doc):
    url = "https://github.com/pydantic/pydantic/blob/2151025aa51263f3016502b00010b78e4481eaa1/pydantic/dataclasses.py"
    assert not doc.find("a", class_="button")  # the page's main action stays on the site
    [source] = doc.find("a", class_="on-github")  # in the source section, beside the file's name
    assert source["attrs"]["href"] == url + "#L118-L153"
    [line] = doc.find("a", href=url + "#L133")
    assert doc.inner(line) == "Line 133 at 2151025"
    [commit] = doc.find("a", href="https://github.com/pydantic/pydantic/commit/2151025aa51263f3016502b00010b78e4481eaa1")
    assert doc.inner(commit) == "2151025"
    for a in doc.find("a"):
        if a["attrs"]["href"].startswith("https://"):
            assert "noopener" in a["attrs"]["rel"]


def test_head(doc):
    title = "Cannot create a Pydantic dataclass from User as it is already a… — pydantic/pydantic"  # at most 90
    description = ("pydantic.dataclasses.dataclass checks whether the decorated class is already a BaseModel "
                   "subclass and refuses to turn it into a dataclass, since the two mechanisms conflict.")
    canonical = ("https://example.org/errors/pydantic/pydantic/"
                 "cannot-create-a-pydantic-dataclass-from-as-it-is-already-a-pydantic-model/")
    assert doc.inner(doc.one("title")) == title
    assert doc.meta("description") == description
    assert doc.one("link", rel="canonical")["attrs"]["href"] == canonical
    assert doc.meta("og:url") == canonical
    assert doc.meta("og:title") == title
    assert doc.meta("og:description") == description
    assert doc.meta("og:type") == "article"
    assert doc.meta("twitter:card") == "summary"
    assert doc.meta("og:image") == "https://example.org/errors/-/card.png"
    assert doc.meta("og:site_name") == "Error Index"
    assert not [e for e in doc.find("meta") if e["attrs"].get("name") in ("twitter:title", "twitter:description")]
    assert doc.one("html")["attrs"]["data-root"] == "/errors/"
    assert doc.one("link", rel="stylesheet")["attrs"]["href"] == "/errors/-/static/style.css"  # no versions given


def test_ids_are_unique(doc):
    ids = doc.ids()
    assert len(ids) == len(set(ids))


def test_a_record_page_does_not_depend_on_the_number_of_records():
    """Adding a record must not change every other record's page."""
    record = minimal()
    assert page_of(record, total=1).text == page_of(record, total=34).text
    assert "Error Index · Home · Search" in squash(page_of(record, total=1).text)


# --- what is absent ------------------------------------------------------------------

def test_null_fields_leave_no_trace():
    doc = page_of(minimal())
    assert [squash(h) for h in doc.headings()] == [
        "Cannot create a Pydantic dataclass from User as it is already a Pydantic model", "Share or report",
        "Record details"]
    facts = [squash(doc.inner(dt)) for dt in doc.find("dt")]
    assert facts == ["Repository", "Type", "Severity", "Record id", "As data"]
    assert not doc.find("p", class_="pattern")
    assert not doc.find("ul", class_="tags")
    assert not doc.find("time")
    assert not [i for i in doc.ids() if i.startswith("L")]
    assert not [h for h in doc.hrefs() if h.startswith("#L") or h.endswith("#L133") or "/commit/" in h]
    assert "None" not in doc.text.split()
    # the description falls back to a sentence built from required fields
    assert doc.meta("description") == "pydantic/pydantic · usage · error"
    for section in doc.find("section"):
        assert squash(doc.inner(section)) not in ("", "#")


def test_candle_like_record_has_no_type_guard_section(good):
    """typeGuard, errorClass and errorCode null, as in the candle kv-cache record."""
    doc = page_of(dataclasses.replace(good, type_guard=None, error_class=None, error_code=None))
    assert "type-guard" not in doc.ids()
    assert "Type guard" not in doc.text
    facts = [squash(doc.inner(dt)) for dt in doc.find("dt")]
    assert "Class" not in facts and "Error code" not in facts
    assert "example-fix" in doc.ids() and "try-catch" in doc.ids()


def test_shared_candle_record_has_no_type_guard_section():
    need_shared()
    record = load(SHARED_RECORDS / "huggingface__candle__kv-cache-enabled-true-is-not-supported.json")
    assert record.type_guard is None
    doc = page_of(record)
    assert "type-guard" not in doc.ids() and "Type guard" not in doc.text
    assert doc.one("span", class_="raised")["attrs"]["id"] == "L449"
    assert not doc.find("p", class_="pattern")  # its pattern is the message itself


def test_pattern_equal_to_message_is_not_repeated(good):
    doc = page_of(dataclasses.replace(good, pattern=good.message))
    assert not doc.find("p", class_="pattern")


def test_line_number_beyond_the_snippet_gets_no_dangling_link(good):
    """sourceCodeEnd may claim more lines than the snippet holds."""
    record = dataclasses.replace(good, source_code="a\nb\nc", source_start=118, line_number=150)
    doc = page_of(record)
    assert doc.ids().count("L120") == 1 and "L150" not in doc.ids()
    assert "#L150" not in doc.hrefs()
    assert not doc.find("span", class_="raised")
    assert line_url(record).endswith("#L150")  # GitHub still has the line


def test_source_without_start_is_numbered_from_one(good):
    doc = page_of(dataclasses.replace(good, source_code="x\ny\n", source_start=None, source_end=None,
                                      line_number=2))
    assert [i for i in doc.ids() if i.startswith("L")] == ["L1", "L2"]
    assert doc.one("span", class_="raised")["attrs"]["id"] == "L2"
    assert not doc.find("i")  # the counter's own start, 1


def test_http_status_and_content_changed_are_shown_when_set(good):
    doc = page_of(dataclasses.replace(good, http_status=404, content_changed_at="2026-12-01T10:00:00Z"))
    facts = {squash(doc.inner(dt)): squash(doc.inner(dd)) for dt, dd in zip(doc.find("dt"), doc.find("dd"))}
    assert facts["HTTP status"] == "404"
    assert facts["Content changed"] == "2026-12-01"


def test_tag_sha_is_shown_whole(good):
    doc = page_of(dataclasses.replace(good, analyzed_sha="v2.11.0"))
    [commit] = doc.find("a", href="https://github.com/pydantic/pydantic/commit/v2.11.0")
    assert doc.inner(commit) == "v2.11.0"


# --- escaping ----------------------------------------------------------------------------

def test_untrusted_text_is_escaped_everywhere(good):
    evil = '<script>alert("x")</script> & \'q\''
    record = dataclasses.replace(good, message=evil, pattern=evil + " {x}", error_class=evil, tags=(evil,),
                                 documentation=evil, solutions=(evil,), handling_strategy=evil)
    source = record_page(environment(SITE, 1), record).content.decode()
    assert "<script>alert" not in source
    doc = Doc(source)
    assert doc.inner(doc.one("h1")) == evil
    assert doc.inner(doc.one("title")) == f"{evil} — pydantic/pydantic"
    assert doc.meta("og:title") == f"{evil} — pydantic/pydantic"
    assert html.escape("<script>") in source


# --- helpers ---------------------------------------------------------------------------------

def test_unique_links_show_each_text_and_share_its_url():
    links = unique_links(["Rust", "rust", "C++", "c", "kv-cache", "Rust"], urls.tag_path)
    assert [(link.label, link.path) for link in links] == [
        ("Rust", "-/tags/rust/"), ("rust", "-/tags/rust/"), ("C++", "-/tags/c/"), ("c", "-/tags/c/"),
        ("kv-cache", "-/tags/kv-cache/")]


def test_line_url_replaces_the_fragment(good):
    assert line_url(good) == ("https://github.com/pydantic/pydantic/blob/2151025aa51263f3016502b00010b78e4481eaa1/"
                              "pydantic/dataclasses.py#L133")
    assert line_url(dataclasses.replace(good, line_number=None)) is None
    assert line_url(dataclasses.replace(good, github_url="https://github.com/a/b/blob/x/f.py")) == \
        "https://github.com/a/b/blob/x/f.py#L133"


def test_record_description_says_what_the_title_does_not(good):
    """The first sentence of the documentation (else of the trigger scenarios)
    and the first solution, at most UNFURL_LIMIT characters; never the message."""
    assert record_description(good) == (
        "pydantic.dataclasses.dataclass checks whether the decorated class is already a BaseModel subclass and "
        "refuses to turn it into a dataclass, since the two mechanisms conflict.")  # too long to add the fix
    assert record_description(dataclasses.replace(good, documentation=None)) == (
        "Applying @pydantic.dataclasses.dataclass (or the function form) to a class that inherits "
        "from BaseModel. Fix: Remove the decorator and keep the class as a BaseModel.")
    assert record_description(dataclasses.replace(good, documentation=None, trigger_scenarios=None)) == \
        "Fix: Remove the decorator and keep the class as a BaseModel."
    assert record_description(dataclasses.replace(good, documentation=None, trigger_scenarios=None,
                                                  solutions=())) == "pydantic/pydantic · usage · error"
    assert record_description(summarize(good)) == record_description(good)  # permalink and redirect pages


@pytest.mark.parametrize("documentation, solution, description", [
    ("Raised for bad options or unknown, e.g. SET with NX and XX. More text.", "Fix the call",
     "Raised for bad options or unknown, e.g. SET with NX and XX. Fix: Fix the call."),
    ("Raised when AUTH or HELLO ... fails. More.", "**Check** the `password`.",
     "Raised when AUTH or HELLO ... fails. Fix: Check the password."),
    ("word " * 60, "x", ("word " * 39).strip() + "…"),  # one sentence, too long for a fix
    ("A short sentence. " + "And more. " * 20, "word " * 60,
     "A short sentence. Fix: " + ("word " * 35).strip() + "…"),
])
def test_descriptions_are_cut_at_a_sentence_or_a_word(good, documentation, solution, description):
    record = dataclasses.replace(good, documentation=documentation, solutions=(solution,))
    assert record_description(record) == description and len(description) <= UNFURL_LIMIT
