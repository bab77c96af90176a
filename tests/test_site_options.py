"""What a site's config changes in the pages: title, description, the dataset
link, page size, template overrides; and the OpenSearch description."""
from __future__ import annotations

import re
from xml.etree import ElementTree

import jinja2
import pytest

from errorsite import urls
from errorsite.pages.render import SITE_NAME, SiteOptions
from tests.conftest import site_files
from tests.test_pipeline import RECORDS, SITE, STATIC, make

OPENSEARCH_NS = {"o": "http://a9.com/-/spec/opensearch/1.1/"}


def pages(options: SiteOptions = SiteOptions(), records=RECORDS) -> dict[str, str]:
    return {path: content.decode("utf-8") for path, content in site_files(records, SITE, STATIC, options).items()
            if not path.endswith(".png")}  # the site's card image (pages/sitecard.py)


def html_pages(site: dict[str, str]) -> dict[str, str]:
    """Every page people read; not the lean redirect pages of permalinks and codes (tests/test_links.py)."""
    return {path: text for path, text in site.items()
            if (path.endswith("/") or path.endswith(".html") or path == "")
            and not path.startswith((urls.PERMALINKS_PATH, urls.GO_CODE_PATH))}


@pytest.fixture(scope="module")
def site() -> dict[str, str]:
    return pages()


# --- OpenSearch -----------------------------------------------------------------

def test_opensearch_description(site):
    root = ElementTree.fromstring(site[urls.OPENSEARCH_PATH])
    assert root.tag == "{http://a9.com/-/spec/opensearch/1.1/}OpenSearchDescription"
    assert root.findtext("o:ShortName", namespaces=OPENSEARCH_NS) == SITE_NAME
    assert root.findtext("o:InputEncoding", namespaces=OPENSEARCH_NS) == "UTF-8"
    by_type = {url.get("type"): url for url in root.findall("o:Url", OPENSEARCH_NS)}
    html = by_type["text/html"]
    assert (html.get("method"), html.get("template")) == \
        ("get", SITE.absolute(urls.SEARCH_PATH) + "?q={searchTerms}")
    own = by_type["application/opensearchdescription+xml"]
    assert (own.get("rel"), own.get("template")) == ("self", SITE.absolute(urls.OPENSEARCH_PATH))


def test_every_page_links_the_opensearch_description(site):
    link = (f'<link rel="search" type="application/opensearchdescription+xml" '
            f'href="{SITE.href(urls.OPENSEARCH_PATH)}" title="{SITE_NAME}">')
    html = html_pages(site)
    assert len(html) > 20
    for path, text in html.items():
        assert text.count(link) == 1, path


def test_opensearch_short_name_fits_16_characters_and_is_escaped():
    text = pages(SiteOptions(title="Errors & <Fixes> of the world"))[urls.OPENSEARCH_PATH]
    root = ElementTree.fromstring(text)  # well-formed despite & and <
    assert root.findtext("o:ShortName", namespaces=OPENSEARCH_NS) == "Errors & <Fixes>"
    assert root.findtext("o:Description", namespaces=OPENSEARCH_NS) == SiteOptions().description


# --- title, description, dataset link, page size ---------------------------------

def test_title_description_and_dataset_link_reach_every_page():
    options = SiteOptions(title="Acme Errors", description="Every error Acme raises.",
                          dataset_url="https://github.com/acme/errors")
    site = pages(options)
    for path, text in html_pages(site).items():
        assert "Acme Errors" in text and SITE_NAME not in text, path
        assert '· <a href="https://github.com/acme/errors">Dataset</a></p>' in text, path
    assert '<meta name="description" content="Every error Acme raises.">' in site[""]
    assert '<meta property="og:site_name" content="Acme Errors">' in site[""]


def test_no_dataset_link_by_default(site):
    assert "Dataset</a>" not in site[""]


def test_page_size_paginates_listings():
    records = [make(i, tags=["many"]) for i in range(5)]
    site = pages(SiteOptions(page_size=2), records)
    tag = urls.tag_path("many")
    assert {urls.page_path(tag, n) for n in (1, 2, 3)} <= set(site)
    assert urls.page_path(tag, 4) not in site
    assert len(re.findall(r'<li><a href="[^"]+"><bdi>', site[tag])) == 2


# --- template overrides ------------------------------------------------------------

FOOTER = """<footer class="site-footer">
  <p>{{ site_name }} · maintained by the Acme team · <a href="{{ site.href(search_path) }}">Search</a></p>
</footer>
"""


def test_an_overriding_footer_replaces_the_built_in_one_on_every_page(tmp_path):
    (tmp_path / "footer.html").write_text(FOOTER, encoding="utf-8")
    site = pages(SiteOptions(templates=tmp_path))
    for path, text in html_pages(site).items():
        assert "maintained by the Acme team" in text, path
        assert "error record" not in text.split('<footer class="site-footer">')[1], path


def test_templates_not_overridden_stay_built_in(tmp_path):
    (tmp_path / "footer.html").write_text(FOOTER, encoding="utf-8")
    assert pages(SiteOptions(templates=tmp_path))[urls.SEARCH_PATH].split("<footer")[0] == \
        pages()[urls.SEARCH_PATH].split("<footer")[0]


def test_an_override_can_extend_the_template_it_replaces(tmp_path):
    (tmp_path / "404.html").write_text(
        '{% extends "builtin/404.html" %}{% block main %}<h1>Lost?</h1>{{ super() }}{% endblock %}',
        encoding="utf-8")
    text = pages(SiteOptions(templates=tmp_path))["404.html"]
    assert "<h1>Lost?</h1>\n<h1>Page not found</h1>" in text


def test_a_broken_override_fails_the_build_naming_the_file(tmp_path):
    (tmp_path / "footer.html").write_text("<footer>{{ no_such_value }}</footer>", encoding="utf-8")
    with pytest.raises(jinja2.UndefinedError, match="no_such_value"):
        pages(SiteOptions(templates=tmp_path))
    (tmp_path / "footer.html").write_text("<footer>{% if %}</footer>", encoding="utf-8")
    with pytest.raises(jinja2.TemplateSyntaxError) as error:
        pages(SiteOptions(templates=tmp_path))
    assert error.value.filename == str(tmp_path / "footer.html")


# --- the way back to the dataset (dataset_repo) -----------------------------------------

def test_dataset_repo_adds_a_report_link_to_each_record_and_requests_to_search():
    from urllib.parse import parse_qs, urlsplit
    site = pages(SiteOptions(dataset_repo="acme/errors"))
    record = RECORDS[0]
    page = site[urls.record_path(record)]
    [href] = re.findall(r'<a href="([^"]+)" rel="noopener">Report a problem with this record</a>', page)
    url = urlsplit(href.replace("&amp;", "&"))
    assert (url.scheme, url.netloc, url.path) == ("https", "github.com", "/acme/errors/issues/new")
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    assert query["title"] == f"Record {record.id}: {record.message}"
    body = query["body"]
    assert f"Record: {record.id} ({SITE.absolute(urls.permalink_path(record))})" in body
    assert f"Dataset version: {record.dataset_version or 'unknown'}" in body
    assert f"Analysed commit: {record.analyzed_sha or 'unknown'}" in body
    assert 'data-request-repo="acme/errors"' in site[urls.SEARCH_PATH]
    plain = pages()
    assert "Report a problem" not in plain[urls.record_path(record)]
    assert "data-request-repo" not in plain[urls.SEARCH_PATH]
