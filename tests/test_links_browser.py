"""The record page's copy tools in Chromium: Copy as Markdown puts the snippet
on the clipboard (read back with clipboard permissions), keyboard included,
"Copied" is announced; section, solution, line and range links copy the
permalink with the anchor;
without JavaScript the same text sits in visible fields; a permalink lands on
the record page."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.conftest import WatchedPage

pytestmark = pytest.mark.browser

PATH = "huggingface/candle/kv-cache-enabled-true-is-not-supported/"
RECORD_ID = "5410d019e75c02d7"


@pytest.fixture
def clipboard_page(browser, shared_site):
    context = browser.new_context()
    origin = shared_site.base_url.split("/errors/")[0]
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    watched = WatchedPage(context.new_page())
    yield watched
    context.close()


def expected_markdown(base_url: str) -> str:
    return (f"**[kv\\_cache\\_enabled=true is not supported]({base_url}-/r/{RECORD_ID}/)**\n"
            "huggingface/candle · validation · error\n\n"
            "First solution: Set kv_cache_enabled to false in the Config before constructing the model\n\n"
            f"Source: [candle-transformers/src/models/metavoice.rs#L449]({base_url}-/r/{RECORD_ID}/#L449)"
            " · [on GitHub](https://github.com/huggingface/candle/blob/"
            "d5fee525bfde3273eb7c9b75fd2bc4937be867ca/candle-transformers/src/models/metavoice.rs#L449)\n")


def clipboard(page) -> str:
    return page.page.evaluate("() => navigator.clipboard.readText()")


def wait_copied(page):
    page.page.wait_for_function("() => document.getElementById('copy-status').textContent === 'Copied'")


def reset(page):
    page.page.evaluate("() => { document.getElementById('copy-status').textContent = ''; "
                       "return navigator.clipboard.writeText(''); }")


def test_copy_as_markdown_puts_the_snippet_on_the_clipboard(shared_site, clipboard_page):
    page = clipboard_page
    page.page.goto(shared_site.base_url + PATH)
    button = page.page.get_by_role("button", name="Copy as Markdown")
    button.click()
    wait_copied(page)
    copied = clipboard(page)
    assert copied == expected_markdown(shared_site.base_url)
    assert copied == page.page.locator("#markdown-snippet").input_value()
    assert page.page.locator("#copy-status").get_attribute("aria-live") == "polite"

    reset(page)  # the keyboard: Tab to the button, Enter
    button.focus()
    page.page.keyboard.press("Enter")
    wait_copied(page)
    assert clipboard(page) == expected_markdown(shared_site.base_url)

    reset(page)
    page.page.get_by_role("button", name="Copy link", exact=True).click()
    wait_copied(page)
    assert clipboard(page) == f"{shared_site.base_url}-/r/{RECORD_ID}/"
    # Upstream, the page offers a search of the tracker, never a prefilled new issue there.
    search = urlsplit(page.page.get_by_role("link", name="Search upstream issues").get_attribute("href"))
    assert search.path == "/huggingface/candle/issues" and page.page.get_by_role("link", name="Open an issue").count() == 0
    assert page.errors == []


def test_copy_links_to_sections_solutions_and_lines(shared_site, clipboard_page):
    """Every copied link is the permanent one, which outlives a slug or
    repository rename (the fragment survives its redirect: test_fragments_browser)."""
    page = clipboard_page
    canonical = shared_site.base_url + PATH
    permalink = f"{shared_site.base_url}-/r/{RECORD_ID}/"
    page.page.goto(canonical)
    for name, anchor in (("Copy link to section: What it means", "#documentation"),
                         ("Copy link to section: Solutions", "#solutions"),
                         ("Copy link to solution 2", "#solution-2"),
                         ("Copy link to line 449", "#L449")):
        reset(page)
        page.page.get_by_role("button", name=name).click()
        wait_copied(page)
        assert clipboard(page) == permalink + anchor
    page.page.goto(canonical + "#L440")
    reset(page)
    page.page.get_by_role("button", name="Copy link to line 440").click()
    wait_copied(page)
    assert clipboard(page) == permalink + "#L440"
    # A range chosen by shift-click on a second line number.
    page.page.locator("#L445").click(position={"x": 10, "y": 5}, modifiers=["Shift"])  # on its number
    reset(page)
    page.page.get_by_role("button", name="Copy link to lines 440-445").click()
    wait_copied(page)
    assert clipboard(page) == permalink + "#L440-L445"
    # One link control a heading: its copy button (issue 42); "On this page" links the sections.
    headings = page.page.locator("article h2[id]").count()
    assert page.page.locator("article h2[id] > button.copy-anchor").count() == headings > 5
    assert page.page.locator("article h2 a").count() == 0
    assert page.errors == []


def test_without_javascript_the_text_is_in_visible_fields(browser, shared_site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(shared_site.base_url + PATH)
    assert page.get_by_role("button", name="Copy as Markdown").count() == 0  # hidden: no dead buttons
    page.locator("details.share-text summary").click()
    assert page.locator("#markdown-snippet").is_visible()
    assert page.locator("#markdown-snippet").input_value() == expected_markdown(shared_site.base_url)
    assert page.locator("#permalink-text").input_value() == f"{shared_site.base_url}-/r/{RECORD_ID}/"
    context.close()


def test_a_permalink_lands_on_the_record_page(shared_site, page):
    page.page.goto(f"{shared_site.base_url}-/r/{RECORD_ID}/")
    page.page.wait_for_url(shared_site.base_url + PATH)
    assert page.page.locator("h1").inner_text() == "kv_cache_enabled=true is not supported"
    assert page.errors == []
