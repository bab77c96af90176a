"""Hostile and broken input (issue 4): nothing executes, nothing escapes the
output folder, nothing good is lost.

Every file in tests/fixtures/hostile/ is one attack or one defect (see
generate.py there). All of them are built together once; each test below then
checks one fixture's exact outcome: the `path: field: message` line of a
rejected record, or the escaped, inert page of a rendered one. Huge inputs are
generated here in tmp_path rather than committed.
"""
from __future__ import annotations

import copy
import functools
import importlib.util
import json
import unicodedata
import os
import shutil
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from tests.conftest import build_quietly, folder_reader, search_cards
from errorsite import urls
from errorsite.model import FIELDS, Record
from errorsite.pages.render import environment, record_page
from errorsite.validate import normalized_slug, validate

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "hostile"
BASE_RECORD = json.loads((FIXTURES / "bases" / "redis.json").read_text("utf-8"))
BASE_URL = "http://127.0.0.1:1/errors/"
BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

_spec = importlib.util.spec_from_file_location("hostile_generate", FIXTURES / "generate.py")
generate = importlib.util.module_from_spec(_spec)  # the fixture generator: its payload tables
_spec.loader.exec_module(generate)

# ---- Expected outcomes ---------------------------------------------------------
# Rejected fixtures: file name → "field: message". The printed line is
# "<records dir>/<file>: field: message"; {dir} stands for the records dir.
NOT_KEBAB = "is not a slug (letters or digits of any script in words joined by single hyphens, at most 255 bytes)"
NOT_GITHUB = "is not an https://github.com/ URL"
REJECTED = {
    "json-empty-file.json": "file: invalid JSON at line 1 column 1: Expecting value",
    "json-invalid-utf8.json": "file: not valid UTF-8 (byte 141)",
    "json-utf16.json": "file: not valid UTF-8 (byte 0)",
    "json-single-quotes.json": "file: invalid JSON at line 1 column 2: Expecting property name enclosed in double quotes",
    "json-trailing-comma.json": "file: invalid JSON at line 48 column 3: Expecting property name enclosed in double quotes",
    "json-truncated.json": "file: invalid JSON at line 13 column 5: Unterminated string starting at",
    "json-top-level-array.json": "file: expected a JSON object, got a list",
    "json-top-level-string.json": 'file: expected a JSON object, got "record"',
    "json-missing-record.json": "record: is missing",
    "json-record-null.json": "record: must be an object, got null",
    "json-record-list.json": "record: must be an object, got a list",
    "size-int-5000-digits.json": f"file: invalid JSON: a number has more than {sys.get_int_max_str_digits()} digits",
    "missing-id.json": "id: required field is missing",
    "missing-repo.json": "repo: required field is missing",
    "missing-slug.json": "slug: required field is missing",
    "missing-error-message.json": "errorMessage: required field is missing",
    "missing-github-url.json": "githubUrl: required field is missing",
    "missing-error-type-null.json": "errorType: must not be null",
    "nest-tags-200-deep.json": "tags[0]: expected a string, got a list",
    "type-message-number.json": "errorMessage: expected a string, got 42",
    "type-tags-string.json": 'tags: expected a list of strings, got "c,redis"',
    "type-tag-item-number.json": "tags[1]: expected a string, got 7",
    "type-http-status-string.json": 'httpStatus: expected an integer, got "404"',
    "type-line-number-bool.json": "lineNumber: expected an integer, got true",
    "type-line-number-float.json": "lineNumber: expected an integer, got 1888.5",
    "type-solutions-object.json": "solutions: expected a list of strings, got an object",
    "type-source-code-list.json": "sourceCode: expected a string, got a list",
    "path-repo-dotdot.json": 'repo: "../../etc" is not a GitHub owner/name',
    "path-repo-absolute.json": 'repo: "/abs/x" is not a GitHub owner/name',
    "path-repo-backslash.json": 'repo: "a\\\\b/c" is not a GitHub owner/name',
    "path-repo-nul.json": 'repo: "a\\u0000b/c" is not a GitHub owner/name',
    "path-repo-device-name.json": 'repo: "con/aux" contains a reserved device name',
    "path-repo-device-name-ext.json": 'repo: "owner/nul.txt" contains a reserved device name',
    "path-repo-long-owner.json": 'repo: "' + "a" * 57 + '…" is not a GitHub owner/name',
    "path-repo-long-name.json": 'repo: "owner/' + "b" * 51 + '…" is not a GitHub owner/name',
    "path-repo-name-dotdot.json": 'repo: "owner/.." is not a GitHub owner/name',
    "path-repo-no-name.json": 'repo: "justowner" is not a GitHub owner/name',
    "path-repo-percent-encoded.json": 'repo: "%2e%2e/x" is not a GitHub owner/name',
    "path-id-traversal.json": "id: must be 1-64 letters, digits, '-' or '_'",
    "path-error-type-dotdot.json": 'errorType: ".." has no letters or digits',
    "url-javascript.json": f'githubUrl: "javascript:alert(1)" {NOT_GITHUB}',
    "url-http.json": f'githubUrl: "http://github.com/redis/redis/blob/main/src/server.c" {NOT_GITHUB}',
    "url-evil-suffix-domain.json": f'githubUrl: "https://github.com.evil.com/redis/redis" {NOT_GITHUB}',
    "url-evil-path.json": f'githubUrl: "https://evil.com/github.com/redis/redis" {NOT_GITHUB}',
    "url-userinfo.json": f'githubUrl: "https://github.com@evil.com/redis/redis" {NOT_GITHUB}',
    "url-data.json": f'githubUrl: "data:text/html,<script>window.__pwned=1</script>" {NOT_GITHUB}',
    "url-protocol-relative.json": f'githubUrl: "//github.com/redis/redis" {NOT_GITHUB}',
    "url-quote-breakout.json": f'githubUrl: "https://github.com/a/b\\"onmouseover=\\"window.__pwned=1" {NOT_GITHUB}',
    "dup-id-b.json": "id: duplicate id 'dup-id-a', already used by {dir}/dup-id-a.json",
    "dup-url-b.json": "slug: duplicate repo and slug redis/redis/dup-url-a, already used by {dir}/dup-url-a.json",
    "dup-url-case-b.json": "slug: duplicate repo and slug Redis/REDIS/dup-url-case-a, "
                           "already used by {dir}/dup-url-case-a.json",
}

# Fixtures whose slug is not one: built under a slug made from it (or from the
# id, when nothing is left), with one dropped-value line naming both.
SLUG_REPLACED = {  # file name → (the line, after "slug: dropped: ", and the slug it is built under)
    "path-slug-dotdot.json": (f'"../x" {NOT_KEBAB}: replaced by "x"', "x"),
    "path-slug-slash.json": (f'"x/y" {NOT_KEBAB}: replaced by "x-y"', "x-y"),
    "path-slug-dot.json": (f'"." {NOT_KEBAB}: replaced by "path-slug-dot"', "path-slug-dot"),
    "path-slug-empty.json": (f'"" {NOT_KEBAB}: replaced by "path-slug-empty"', "path-slug-empty"),
    "path-slug-long.json": ('"' + "s" * 57 + f'…" {NOT_KEBAB}: replaced by "' + "s" * 57 + '…"', "s" * 255),
    "path-slug-backslash.json": (f'"a\\\\b" {NOT_KEBAB}: replaced by "a-b"', "a-b"),
}

# Rendered fixtures: file name → the message that must show, literally and as
# text, as the record page's <h1>, <title> and og:title (XSS payloads fill every
# text field), or None where a test further down checks the page.
RENDERED = {
    **{f"{stem}.json": payload for stem, payload in generate.XSS.items()},
    **{f"{stem}.json": None for stem in generate.MARKDOWN},  # checked by test_markdown_links
    **{f"{stem}.json": value for stem, (key, value) in generate.RENDERED_FIELD.items() if key == "errorMessage"},
    "path-tag-traversal.json": None, "path-tag-long-multibyte.json": None,
    "path-error-type-long-multibyte.json": None, "unicode-rlo-tag.json": None,
    "unicode-rlo-error-type.json": None, "unicode-rlo-file-path.json": None, "unicode-cjk-tag.json": None,
    "json-bom.json": "ERR syntax error",
    # Once reserved by the site; its own pages now live under -/, so these are ordinary.
    "path-repo-reserved-owner.json": None, "path-slug-uppercase.json": None, "path-slug-reserved.json": None,
    "dup-id-a.json": None, "dup-url-a.json": None, "dup-url-case-a.json": None,
}
# Where a rendered fixture's text may legitimately differ from its input: unbalanced
# bidi controls are dropped or closed, so they cannot reach past the record's text.
BALANCED = {"unicode-pdi-breakout-message.json": "\u202Edesrever si egap eht fo tser ehT\u202C",
            "unicode-rlo-message.json": "Cannot open attachment \u202Egpj.exe\u202C"}


def isolated(text: str) -> str:
    """Record text in <title> (where <bdi> cannot go) sits between FSI and PDI
    when it holds right-to-left letters or bidi controls."""
    rtl = any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)
    return f"\u2068{text}\u2069" if rtl or BIDI_CONTROLS & set(text) else text


# ---- A small DOM, enough to ask where text and attributes ended up ----------------
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass(eq=False)
class Node:
    tag: str
    attrs: dict
    parent: "Node | None" = None
    children: list = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def find_all(self, tag: str, **attrs) -> list["Node"]:
        return [n for n in self.walk() if n.tag == tag and all(attr_has(n, k, v) for k, v in attrs.items())]

    def find(self, tag: str, **attrs) -> "Node":
        found = self.find_all(tag, **attrs)
        assert found, f"no <{tag} {attrs}>"
        return found[0]

    def ancestors(self):
        node = self.parent
        while node:
            yield node
            node = node.parent


def attr_has(node: Node, name: str, value: str) -> bool:
    name = name.rstrip("_")  # class_ → class
    if name == "class":
        return value in (node.attrs.get("class") or "").split()
    return node.attrs.get(name) == value


class TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Node("#document", {})
        self.text_nodes: list[tuple[str, Node]] = []  # (text, parent element)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.current)
        node.attr_list = attrs
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.current)
        node.attr_list = attrs
        self.current.children.append(node)

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)
        self.text_nodes.append((data, self.current))


def parse(html: str | bytes) -> TreeBuilder:
    builder = TreeBuilder()
    builder.feed(html.decode("utf-8") if isinstance(html, bytes) else html)
    builder.close()
    return builder


def shape(tree: TreeBuilder) -> tuple[set, set]:
    """The element names and (element, attribute) names of a page."""
    nodes = [n for n in tree.root.walk() if n is not tree.root]
    return {n.tag for n in nodes}, {(n.tag, name) for n in nodes for name, _ in n.attr_list}


# ---- The hostile site, built once ------------------------------------------------
@dataclass
class Built:
    records: Path
    out: Path
    result: object
    lines: list[str]

    def lines_for(self, name: str) -> list[str]:
        prefix = f"{self.records.as_posix()}/{name}: "
        return [line for line in self.lines if line.startswith(prefix)]

    def page(self, name: str) -> Path:
        return self.out / record_path_of(name) / "index.html"

    @functools.cached_property
    def trees(self) -> dict[Path, "TreeBuilder"]:
        """Every HTML page of the site, parsed once for the tests that read them all."""
        return {page: parse(page.read_bytes()) for page in html_pages(self.out)}


def fixture_names() -> list[str]:
    return sorted(p.name for p in FIXTURES.glob("*.json"))


def fixture_record(name: str) -> dict:
    return json.loads((FIXTURES / name).read_bytes().decode("utf-8-sig"))["record"]


def record_path_of(name: str) -> str:
    record = fixture_record(name)
    return f"{record['repo'].lower()}/{normalized_slug(record['slug'])}"


def copy_fixtures(dest: Path, names=None) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name in names if names is not None else fixture_names():
        shutil.copy(FIXTURES / name, dest / name)
    return dest


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Built:
    tmp = tmp_path_factory.mktemp("hostile")
    records = copy_fixtures(tmp / "records")
    result, lines = build_quietly(records, tmp / "out", BASE_URL)
    return Built(records, tmp / "out", result, lines)


def html_pages(out: Path) -> list[Path]:
    return sorted(out.rglob("*.html"))


def test_every_fixture_has_an_expected_outcome():
    names = set(fixture_names())
    assert names == set(REJECTED) | set(RENDERED) | set(SLUG_REPLACED), \
        "classify every fixture in REJECTED, RENDERED or SLUG_REPLACED"
    assert not set(REJECTED) & set(RENDERED) and not (set(REJECTED) | set(RENDERED)) & set(SLUG_REPLACED)


def test_the_build_reports_every_rejected_file_and_builds_the_rest(hostile):
    assert hostile.result.written
    assert hostile.result.records == len(RENDERED) + len(SLUG_REPLACED)
    assert len(hostile.lines) == len(REJECTED) + len(SLUG_REPLACED), "\n".join(hostile.lines)
    record_pages = {page.parent.relative_to(hostile.out).as_posix() for page in html_pages(hostile.out)
                    if b'<article class="record"' in page.read_bytes()}
    assert record_pages == {record_path_of(name) for name in RENDERED} | \
        {f"redis/redis/{slug}" for _, slug in SLUG_REPLACED.values()}


@pytest.mark.parametrize("name", sorted(SLUG_REPLACED))
def test_a_record_whose_slug_is_not_one_is_built_under_one_made_from_it(hostile, name):
    line, slug = SLUG_REPLACED[name]
    assert hostile.lines_for(name) == [f"{hostile.records.as_posix()}/{name}: slug: dropped: {line}"]
    assert (hostile.out / "redis" / "redis" / slug / "index.html").is_file()


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_rejected_fixture(hostile, name):
    expected = f"{hostile.records.as_posix()}/{name}: " + REJECTED[name].format(dir=hostile.records.as_posix())
    assert hostile.lines_for(name) == [expected]


@pytest.mark.parametrize("name", sorted(RENDERED))
def test_rendered_fixture(hostile, name):
    assert hostile.lines_for(name) == []
    page = hostile.page(name)
    assert page.is_file()
    tree = parse(page.read_bytes())
    text = RENDERED[name]
    if text is None:
        return
    shown = BALANCED.get(name, text)
    assert tree.root.find("h1", id="message").text() == shown
    assert tree.root.find("title").text() == f"{isolated(shown)} — redis/redis"
    assert tree.root.find("meta", property="og:title").attrs["content"] == f"{isolated(shown)} — redis/redis"
    docs = search_cards(folder_reader(hostile.out))
    assert [shown, "redis/redis"] in [doc[:2] for doc in docs]


@pytest.mark.parametrize("stem", sorted(generate.XSS))
def test_xss_payload_is_text_in_every_field(hostile, stem):
    payload = generate.XSS[stem]
    html = hostile.page(f"{stem}.json").read_text("utf-8")
    tree = parse(html)
    assert str(escape(payload)) in html
    for tag, attrs in (("h1", {"id": "message"}), ("p", {"class_": "pattern"}), ("ul", {"class_": "tags"}),
                       ("dl", {"class_": "facts"}), ("p", {"class_": "file"}),
                       ("dl", {"class_": "details"})):
        assert payload in tree.root.find(tag, **attrs).text(), (tag, attrs)
    for section in ("source", "example-fix", "validation-code", "type-guard", "try-catch"):
        code = tree.root.find("section", **{"aria-labelledby": section}).find("pre").text()
        assert payload in code, section
    if not any(c in payload for c in "&*"):  # markdown reads entities and emphasis: that is its job
        for section in ("documentation", "trigger-scenarios", "common-situations", "solutions", "prevention-tips"):
            assert payload in tree.root.find("section", **{"aria-labelledby": section}).text(), section
    if any(c in payload for c in "<>\"'&"):
        for path in hostile.out.rglob("*"):
            if path.is_file() and "static" not in path.relative_to(hostile.out).parts and path.suffix not in (".png", ".md"):
                assert payload not in path.read_text("utf-8"), f"{path} holds the raw payload"
    assert_inert_markdown(hostile.out / f"-/r/{stem}.md", payload)


def assert_inert_markdown(path: Path, payload: str) -> None:
    """The record as Markdown holds the payload as text: a renderer that
    lets raw HTML through (markdown-it with html on) finds none in it, and
    every link it makes is one markdown-it's own link check lets through."""
    from markdown_it import MarkdownIt
    text = path.read_text("utf-8")
    renderer = MarkdownIt("commonmark", {"html": True})
    tokens = renderer.parse(text)
    every = [*tokens, *(child for token in tokens for child in (token.children or []))]
    assert not [t.content for t in every if t.type in ("html_block", "html_inline")], path
    assert all(renderer.validateLink(t.attrGet("href") or "") for t in every if t.type == "link_open")


MARKDOWN_LINKS = {  # stem → the hrefs and srcs its documentation section may have
    "md-safe-links": {("a", "https://redis.io/docs/"), ("a", "mailto:ops@example.org"),
                      ("a", "../other-error/"), ("img", "https://redis.io/logo.png")},
    "md-javascript-tab": {("a", "java%09script:window.__pwned=1")},  # a relative link, to nowhere
}
MARKDOWN_VISIBLE = {"md-vbscript-link": "vbscript:msgbox", "md-protocol-relative-link": "//evil.example/steal",
                    "md-data-link": "data:text/html;base64,"}


@pytest.mark.parametrize("stem", sorted(generate.MARKDOWN))
def test_markdown_links(hostile, stem):
    tree = parse(hostile.page(f"{stem}.json").read_bytes())
    for section in ("documentation", "solutions"):
        node = tree.root.find("section", **{"aria-labelledby": section})
        links = {(n.tag, n.attrs.get("href") or n.attrs.get("src")) for n in node.walk() if n.tag in ("a", "img")}
        links -= {("a", f"#{section}")}  # the heading's own anchor
        assert links == MARKDOWN_LINKS.get(stem, set())
        assert not node.find_all("script") and not node.find_all("div")
        if stem not in MARKDOWN_LINKS:  # the refused link stays as plain text
            assert MARKDOWN_VISIBLE.get(stem, "window.__pwned=1") in node.text()


# ---- Inert everywhere ---------------------------------------------------------------
SAFE_SCHEMES = {"http", "https", "mailto", ""}
ALLOWED_TAGS = {
    "html", "head", "meta", "title", "link", "script", "body", "header", "nav", "main", "footer", "form",
    "label", "input", "button", "span", "a", "p", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article",
    "dl", "dt", "dd", "div", "ul", "ol", "li", "code", "pre", "bdi", "time", "noscript", "em", "strong",
    "img", "blockquote", "hr", "br",
    "details", "summary", "textarea",  # the record page's text to copy (static/record-tools.js)
    "i",  # empty, at the start of a source block: the first line's number (markup.line_counter_start)
}


def inertness_problems(page: Path, html: str | TreeBuilder) -> list[str]:
    problems = []
    tree = html if isinstance(html, TreeBuilder) else parse(html)
    for node in tree.root.walk():
        if node is tree.root:
            continue
        if node.tag not in ALLOWED_TAGS:
            problems.append(f"<{node.tag}> element")
        if node.tag == "script" and node.attrs.get("type") == "application/ld+json":
            if node.attrs.get("src") is not None or not ld_json_is_inert(node.text()):
                problems.append("<script type=application/ld+json> that is not inert JSON")
        elif node.tag == "script" and (not node.attrs.get("src") or node.text().strip()):
            problems.append("inline <script>")
        for name, value in node.attr_list:
            if name.startswith("on") or name in ("style", "srcdoc", "formaction"):
                problems.append(f"{name}= attribute on <{node.tag}>")
            if name in ("href", "src", "action") and value is not None:
                cleaned = "".join(c for c in value if c.isprintable() and not c.isspace())
                if urlsplit(cleaned).scheme.lower() not in SAFE_SCHEMES or cleaned.startswith(("//", "/\\")):
                    problems.append(f"{name}={value!r} on <{node.tag}>")
    return [f"{page}: {p}" for p in problems]


def ld_json_is_inert(text: str) -> bool:
    """Structured data is data, never run (CSP does not apply to it): valid
    JSON, with no character that could end the element or reorder the page."""
    try:
        json.loads(text)
    except ValueError:
        return False
    return not set("<>&") & set(text) and not BIDI_CONTROLS & set(text)


def test_every_page_of_the_hostile_site_is_inert(hostile):
    problems = []
    for page, tree in hostile.trees.items():
        problems += inertness_problems(page, tree)
    assert problems == []


def csp_directives(content: str) -> dict[str, list[str]]:
    directives = {}
    for part in content.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


def test_every_page_has_a_strict_csp_before_anything_it_loads(hostile):
    assert len(hostile.trees) > 50
    for page, tree in hostile.trees.items():
        head = tree.root.find("head")
        metas = head.find_all("meta", **{"http-equiv": "Content-Security-Policy"})
        assert len(metas) == 1, page
        csp = csp_directives(metas[0].attrs["content"])
        assert csp["script-src"] == ["'self'"], page
        assert csp["object-src"] == ["'none'"], page
        assert csp["base-uri"] == ["'self'"], page
        assert not any("unsafe" in value for values in csp.values() for value in values), page
        loads = [n for n in head.children if isinstance(n, Node) and n.tag in ("script", "link", "style", "base")]
        assert head.children.index(metas[0]) < min(head.children.index(n) for n in loads), page
        for script in tree.root.find_all("script"):
            if script.attrs.get("type") == "application/ld+json":  # data (see ld_json_is_inert)
                continue
            assert script.attrs.get("src", "").startswith("/errors/-/static/") and not script.text(), page


def test_data_files_are_inert_json(hostile):
    for path in (hostile.out / "-" / "search").glob("*.json"):
        raw = path.read_bytes()
        assert not {b"<", b">", b"&"} & {bytes([b]) for b in raw}, f"{path}: raw HTML metacharacters"
        json.loads(raw)
    root = ElementTree.fromstring((hostile.out / "sitemap.xml").read_bytes())
    locs = [loc.text for loc in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert locs and all(loc.startswith(BASE_URL) for loc in locs)
    for loc in locs:
        path = unquote(urlsplit(loc).path).removeprefix("/errors/")
        assert (hostile.out / path / "index.html").is_file() or (hostile.out / path).is_file(), loc


def test_every_output_path_stays_short_and_plain(hostile):
    for path in hostile.out.rglob("*"):
        for part in path.relative_to(hostile.out).parts:
            assert len(part.encode()) <= 255 and part not in (".", "..") and "\\" not in part, path
    tags = parse((hostile.out / "redis/redis/path-tag-long-multibyte/index.html").read_bytes())
    hrefs = [a.attrs["href"] for a in tags.root.find("ul", class_="tags").find_all("a")]
    assert len(hrefs) == 1 and (hostile.out / unquote(hrefs[0]).removeprefix("/errors/") / "index.html").is_file()


def test_tag_values_become_plain_path_segments(hostile):
    tree = parse(hostile.page("path-tag-traversal.json").read_bytes())
    hrefs = sorted(a.attrs["href"] for a in tree.root.find("ul", class_="tags").find_all("a"))
    assert hrefs == ["/errors/-/tags/a-b/", "/errors/-/tags/abs-x/", "/errors/-/tags/con-/", "/errors/-/tags/etc-passwd/"]


# ---- Unicode and bidi -----------------------------------------------------------------
def bidi_balanced(text: str) -> bool:
    """True when every embedding, override and isolate the text opens it also
    closes, and it closes none it did not open."""
    stack = []
    for c in text:
        if c in "\u202a\u202b\u202d\u202e":
            stack.append("embedding")
        elif c in "\u2066\u2067\u2068":
            stack.append("isolate")
        elif c == "\u202c":
            if not stack or stack[-1] != "embedding":
                return False
            stack.pop()
        elif c == "\u2069":
            if "isolate" not in stack:
                return False
            while stack.pop() != "isolate":
                pass
    return not stack


def controls_isolated(text: str) -> bool:
    """True when the text is balanced and each of its bidi controls lies
    between an FSI and its PDI, as `isolated()` leaves record text."""
    depth = 0
    for c in text:
        if c == "\u2068":
            depth += 1
        elif c == "\u2069":
            depth -= 1
        elif c in BIDI_CONTROLS and depth == 0:
            return False
    return bidi_balanced(text)


def test_bidi_controls_in_record_text_cannot_reach_the_page_around_it(hostile):
    """Record text holding bidi controls is balanced, and sits in a <bdi> or
    between FSI and PDI (in <title>, where no element can go, and in labels),
    so it cannot reorder the page around it."""
    problems = []
    for page, tree in hostile.trees.items():
        for text, parent in tree.text_nodes:
            if not BIDI_CONTROLS & set(text):
                continue
            bdi = next((n for n in [parent, *parent.ancestors()] if n.tag == "bdi"), None)
            if bdi is None and not controls_isolated(text):
                problems.append(f"{page}: {text!r} in <{parent.tag}> is neither in a <bdi> nor isolated")
            if bdi is not None and not bidi_balanced(bdi.text()):
                problems.append(f"{page}: {text!r} in <bdi> is not balanced")
    assert problems == []


@pytest.mark.parametrize("stem", ["unicode-rlo-tag", "unicode-rlo-error-type", "unicode-cjk-tag"])
def test_listing_labels_are_isolated(hostile, stem):
    record = validate("x.json", {"record": fixture_record(f"{stem}.json")})
    label = record.tags[0] if "tag" in stem else record.error_type
    kind = urls.TAGS_PATH if "tag" in stem else urls.TYPES_PATH
    listing = urls.output_file(hostile.out, kind + urls.url_segment(label) + "/")
    tree = parse(listing.read_bytes())
    assert (isolated(label) != label) == ("rlo" in stem)
    assert isolated(label) in tree.root.find("h1").text()
    assert isolated(label) in tree.root.find("title").text()
    directory = parse(urls.output_file(hostile.out, kind).read_bytes())
    if kind == urls.TAGS_PATH:  # A–Z under initials, the count in the link (Lighthouse: "go" alone says nothing)
        labels = [li.find("a").text().rsplit(" ", 1)[0]
                  for ul in directory.root.find_all("ul", class_="az") for li in ul.find_all("li")]
    else:
        labels = [li.find("a").text().rsplit(" ", 1)[0]
                  for li in directory.root.find("ul", class_="counted").find_all("li")]
    assert isolated(label) in labels


# ---- Huge and odd inputs, generated here ------------------------------------------------
def good_record(dest: Path) -> None:
    data = copy.deepcopy(BASE_RECORD)
    (dest / "good.json").write_text(json.dumps(data), "utf-8")


def hostile_record(stem: str, **fields) -> dict:
    data = copy.deepcopy(BASE_RECORD)
    data["record"].update(id=stem, slug=stem, **fields)
    return data


def make_huge_source(path: Path) -> None:
    path.write_text(json.dumps(hostile_record("huge-source", sourceCode="x" * (20 * 1024 * 1024))), "utf-8")


def make_many_tags(path: Path) -> None:
    path.write_text(json.dumps(hostile_record("many-tags", tags=[f"t{i}" for i in range(100_000)])), "utf-8")


def make_deep_nesting(path: Path, depth: int = 10_000) -> None:
    text = json.dumps(hostile_record("deep", tags=["PLACEHOLDER"]))
    path.write_text(text.replace('"PLACEHOLDER"', "[" * depth + "]" * depth), "utf-8")


def make_deep_object(path: Path) -> None:
    path.write_text('{"record": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001, "utf-8")


def make_long_source(path: Path) -> None:
    path.write_text(json.dumps(hostile_record("long-source", sourceCode="x" * 1_048_576)), "utf-8")


def make_long_message(path: Path) -> None:
    path.write_text(json.dumps(hostile_record("long-message", errorMessage="m" * 3000)), "utf-8")


def make_symlink_out(path: Path) -> None:
    outside = path.parent.parent / "outside.json"
    outside.write_text(json.dumps(hostile_record("outside")), "utf-8")
    os.symlink(outside, path)


def make_surrogate(path: Path, key: str = "errorMessage") -> None:
    """JSON may spell half of a UTF-16 pair, "\\ud800": valid syntax, but no character."""
    text = json.dumps(hostile_record(path.stem, **{key: "ERR SURROGATE syntax error"}))
    path.write_text(text.replace("SURROGATE", "\\ud800"), "utf-8")


def make_surrogate_item(path: Path) -> None:
    text = json.dumps(hostile_record(path.stem, solutions=["fine", "SURROGATE"]))
    path.write_text(text.replace("SURROGATE", "\\udfff"), "utf-8")


GENERATED = {  # file name → (maker, "field: message")
    "huge-source.json": (make_huge_source, "file: file is 20.0 MB, over the 5 MB limit"),
    "many-tags.json": (make_many_tags, "tags: dropped: has 100000 items, at most 50 allowed: the first 50 are kept"),
    "deep-10k.json": (make_deep_nesting, "file: invalid JSON: nested too deeply"),
    "deep-object-100k.json": (make_deep_object, "file: invalid JSON: nested too deeply"),
    "long-source.json": (make_long_source, "sourceCode: dropped: is 1048576 characters long, at most 8000 allowed"),
    "long-message.json": (make_long_message, "errorMessage: is 3000 characters long, at most 2000 allowed"),
    "symlink-outside.json": (make_symlink_out, "file: points outside the records folder"),
    "surrogate-message.json": (make_surrogate, 'errorMessage: "ERR \\ud800 syntax error" is not valid Unicode '
                                               "(an unpaired surrogate)"),
    "surrogate-solution.json": (make_surrogate_item, 'solutions[1]: dropped: "\\udfff" is not valid Unicode '
                                                     "(an unpaired surrogate)"),
}


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_hostile_input(tmp_path, name):
    make, expected = GENERATED[name]
    records = tmp_path / "records"
    records.mkdir()
    good_record(records)
    make(records / name)
    result, lines = build_quietly(records, tmp_path / "out", BASE_URL)
    assert lines == [f"{records.as_posix()}/{name}: {expected}"]
    dropped = ": dropped: " in lines[0]  # only the value was lost: the record has its page
    assert result.written and result.records == 1 + dropped
    assert (tmp_path / "out" / "redis/redis/err-syntax-error/index.html").is_file()
    if dropped:
        assert (tmp_path / "out" / "redis/redis" / Path(name).stem / "index.html").is_file()


ODD_NAMES = {  # file name → (its content, the name as the error line shows it, "field: message")
    "evil\nfake.json: all good.json": ('{"record": ', "evil\\nfake.json: all good.json",
                                        "file: invalid JSON at line 1 column 12: Expecting value"),
    "ansi-\x1b[2J.json": ("{", "ansi-\\x1b[2J.json",
                          "file: invalid JSON at line 1 column 2: Expecting property name enclosed in double quotes"),
    "rlo-\u202enosj.json": ("[]", "rlo-\\u202enosj.json", "file: expected a JSON object, got a list"),
    "bidi-in-value.json": (json.dumps(hostile_record("bidi-in-value", repo="\u202eredis/x\n")), "bidi-in-value.json",
                           'repo: "\\u202eredis/x\\n" is not a GitHub owner/name'),
}


@pytest.mark.parametrize("name", sorted(ODD_NAMES))
def test_an_error_line_is_one_plain_line(tmp_path, name):
    """Newlines, terminal escapes and bidi controls in a file's name or values
    are shown escaped: they cannot forge a line or rewrite the terminal."""
    content, shown, expected = ODD_NAMES[name]
    records = tmp_path / "records"
    records.mkdir()
    good_record(records)
    (records / name).write_text(content, "utf-8")
    result, lines = build_quietly(records, tmp_path / "out", BASE_URL)
    assert lines == [f"{records.as_posix()}/{shown}: {expected}"]
    assert result.written and result.records == 1


def test_a_file_name_that_is_not_utf8_is_reported(tmp_path):
    records = tmp_path / "records"
    records.mkdir()
    good_record(records)
    (records / os.fsdecode(b"bad-\xff.json")).write_text("{", "utf-8")
    result, lines = build_quietly(records, tmp_path / "out", BASE_URL)
    assert [line.encode("utf-8") for line in lines] == [  # printable, so it can be printed
        f"{records.as_posix()}/bad-\\udcff.json: file: invalid JSON at line 1 column 2: "
        "Expecting property name enclosed in double quotes".encode()]
    assert result.written and result.records == 1


# ---- Nothing lands outside --out ------------------------------------------------------
def snapshot(root: Path, *skip: Path) -> dict[str, bytes | None]:
    """Every file (with its bytes) and folder (None) under root, but skip."""
    files = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if Path(dirpath, d) not in skip]
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            files[path.relative_to(root).as_posix()] = path.read_bytes() if path.is_file() else None
    return files


def test_nothing_is_written_outside_out(tmp_path):
    records = copy_fixtures(tmp_path / "deep" / "records")
    for name, (make, _) in GENERATED.items():
        if name != "huge-source.json":
            make(records / name)
    out = tmp_path / "deep" / "er" / "out"
    out.parent.mkdir()  # the build may create --out's parent; it is --out's alone after that
    before = snapshot(tmp_path, out)
    result, _ = build_quietly(records, out, BASE_URL)
    assert result.written
    build_quietly(records, out, BASE_URL)  # a second build replaces the first
    # the build's state, outcomes and digests are in its cache folder (XDG_CACHE_HOME, the session's), never here
    assert snapshot(tmp_path, out) == before
    assert (out / "index.html").is_file()


def test_output_paths_refuse_to_leave_out(tmp_path):
    for path in ("../x", "../../etc/passwd", "/abs/x", "a/../../x", "a/..", "a\\b/", "a\0b/", "..\\x"):
        with pytest.raises(ValueError):
            urls.output_file(tmp_path, path)
    assert urls.output_file(tmp_path, "a/b/") == tmp_path / "a" / "b" / "index.html"


def test_a_page_with_an_unsafe_path_fails_the_write_and_keeps_the_old_site(tmp_path):
    from errorsite.model import Page
    from errorsite.write import write_site
    out = tmp_path / "out"
    write_site(out, [Page("index.html", b"old")])
    with pytest.raises(ValueError):
        write_site(out, [Page("a/", b"new"), Page("../escaped", b"evil")])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [".errorsite.json", "index.html"]
    assert (out / "index.html").read_bytes() == b"old"


# ---- Property: random text in any field renders as text ----------------------------------
PLAIN_FIELDS = ("errorMessage", "messagePattern", "errorCode", "errorType", "errorClass", "severity",
                "filePath", "handlingStrategy", "backgroundTag", "tags")
CODE_FIELDS = ("sourceCode", "exampleFix", "validationCode", "typeGuard", "tryCatchPattern")
MARKDOWN_FIELDS = ("documentation", "triggerScenarios", "commonSituations", "solutions", "preventionTips")
MARKDOWN_TAGS = {"p", "em", "strong", "a", "img", "code", "pre", "ul", "ol", "li", "blockquote", "hr", "br",
                 "h1", "h2", "h3", "h4", "h5", "h6"}
MARKDOWN_ATTRS = {("a", "href"), ("a", "rel"), ("a", "title"), ("img", "src"), ("img", "alt"),
                  ("img", "title"), ("ol", "start"), ("code", "class")}
FRAGMENTS = ["<", ">", "&", '"', "'", "`", "=", "/", "\\", "{{", "}}", "{%", "<script>", "</script>",
             "<img src=x onerror=window.__pwned=1>", "javascript:", "](", "[x](javascript:1)", "</code></pre>",
             "\n", "\r", "\t", " ", "*", "_", "#", "&amp;", "&#60;", "\u202e", "\u2069", "\u200d", "🔥", "日本",
             "שלום", "\x00", "\ufeff"]
random_text = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(min_size=1, max_size=8)),
                       min_size=1, max_size=12).map("".join)
ENV = environment(urls.Site(BASE_URL), 1)


def render_with(key: str, value: str) -> tuple[Record, TreeBuilder]:
    data = copy.deepcopy(BASE_RECORD)
    data["record"][key] = [value] if key in ("tags", "solutions", "preventionTips") else value
    record = validate("fixture.json", data)
    assert isinstance(record, Record), record
    return record, parse(record_page(ENV, record).content)


render_with("errorMessage", "warm up")  # the first lexer lookup loads Pygments plugins, which (jedi)
                                        # raise the recursion limit: not while Hypothesis watches
_HARMLESS: dict[str, tuple] = {}


def harmless_shape(key: str) -> tuple[set, set]:
    if key not in _HARMLESS:
        _HARMLESS[key] = shape(render_with(key, "harmless value")[1])
    return _HARMLESS[key]


def visible_text(tree: TreeBuilder) -> str:
    return tree.root.find("body").text()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(PLAIN_FIELDS + CODE_FIELDS + MARKDOWN_FIELDS), text=random_text)
@example(key="sourceCode", text="first\rsecond\r\nthird")  # a lone CR is a line break to Pygments
@example(key="errorMessage", text="\u2069\u202e broken out")
@example(key="documentation", text="[x](javascript:window.__pwned=1) <img src=x onerror=alert(1)>")
@example(key="filePath", text="</code></pre><script>window.__pwned=1</script>.py")
def test_random_text_in_any_field_never_becomes_markup(key, text):
    value = "x" + text if key in PLAIN_FIELDS else text  # type, severity and tags need a letter
    if key == "tags":
        value = value[:64]
    record, tree = render_with(key, value)
    tags, attrs = shape(tree)
    safe_tags, safe_attrs = harmless_shape(key)
    if key in MARKDOWN_FIELDS:
        assert tags <= safe_tags | MARKDOWN_TAGS and attrs <= safe_attrs | MARKDOWN_ATTRS
    else:
        assert (tags, attrs) == (safe_tags, safe_attrs)
    assert not inertness_problems(Path("record"), record_page(ENV, record).content.decode())
    stored = {f.key: getattr(record, f.attr) for f in FIELDS}[key]
    stored = stored[0] if isinstance(stored, tuple) else stored
    assert stored == value or BIDI_CONTROLS & set(value), "only bidi controls may be adjusted"
    if key in PLAIN_FIELDS:
        assert stored in visible_text(tree)
    elif key in CODE_FIELDS:
        code = stored.replace("\r\n", "\n").replace("\r", "\n").removeprefix("\ufeff")
        assert code.rstrip("\n") in visible_text(tree)
