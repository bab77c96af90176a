"""Unfurl cards as a real parser (extruct's Open Graph reader) sees them, on a
record page and on its permalink (chat apps do not follow meta refresh): a
text-led card whose description says what the title does not; the oEmbed
discovery link; and the card image, a small square made from the site's title."""
from __future__ import annotations

import struct
from html.parser import HTMLParser

import extruct
import pytest

from errorsite.pages import sitecard
from errorsite.pages.render import SiteOptions
from tests.conftest import need_shared, SHARED_RECORDS, build_quietly

BASE = "https://example.org/errors/"
PATH = "huggingface/candle/kv-cache-enabled-true-is-not-supported/"
RECORD_ID = "5410d019e75c02d7"
TITLE = "kv_cache_enabled=true is not supported — huggingface/candle"
DESCRIPTION = ("SelfAttention::new explicitly rejects configs with kv_cache_enabled set to true — the KV-cache "
               "attention path is not implemented in the candle metavoice port. Fix: Set kv_cache_enabled to false in…")
CARD = BASE + "-/card.png"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    need_shared()
    out = tmp_path_factory.mktemp("unfurl") / "site"
    result, problems = build_quietly(SHARED_RECORDS, out, BASE)
    assert result.written and problems == []
    return out


def card(html: str, url: str) -> dict[str, str]:
    """og:* and twitter:* properties, as extruct reads them."""
    [og] = extruct.extract(html, base_url=url, syntaxes=["opengraph"], uniform=False)["opengraph"]
    return dict(og["properties"])


def twitter(html: str) -> dict[str, str]:
    class Meta(HTMLParser):
        found: dict[str, str] = {}

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if tag == "meta" and (attrs.get("name") or "").startswith("twitter:"):
                self.found[attrs["name"]] = attrs["content"]
    parser = Meta()
    parser.found = {}
    parser.feed(html)
    return parser.found


@pytest.mark.parametrize("path", [PATH, f"-/r/{RECORD_ID}/"])
def test_the_card_a_parser_reads(site, path):
    html = (site / path / "index.html").read_text(encoding="utf-8")
    properties = card(html, BASE + path)
    assert properties == {
        "og:url": BASE + PATH,                       # canonical, from the permalink too
        "og:site_name": "Error Index",
        "og:type": "article",
        "og:title": TITLE,
        "og:description": DESCRIPTION,
        "og:image": CARD,
        "og:image:width": "256",
        "og:image:height": "256",
        "og:image:alt": "Error Index",
    }
    # X, like the others, reads the title, description and image from og:*: only its card's kind is its own
    assert twitter(html) == {"twitter:card": "summary"}


def test_no_description_repeats_its_title_or_runs_long(site):
    """On every record page of the shared records: the message is in the title, not
    the description; the description is whole sentences, or cut with an ellipsis."""
    pages = [p for p in site.glob("*/*/*/index.html") if not p.parts[-4] == "-"]
    assert len(pages) >= 30
    for page in pages:
        properties = card(page.read_text(encoding="utf-8"), BASE)
        description, title = properties["og:description"], properties["og:title"]
        message = title.rsplit(" — ", 1)[0].strip("\u2068\u2069")
        assert not description.startswith(message[:40]), page
        assert len(description) <= 200 and description[-1] in ".!?…)\"'`", (page, description)
        assert not description.endswith(("e.g.", "i.e.")), (page, description)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_card_image_is_a_small_square_made_from_the_title(site, tmp_path):
    """A site built with another title gets an image of its own: "Error Index" is
    never shipped to a site that is not called so, and the same title gives the same bytes."""
    default = (site / "-" / "card.png").read_bytes()
    assert png_size(default) == (256, 256)
    assert not (site / "-" / "static" / "card.png").exists()
    records = tmp_path / "records"
    records.mkdir()
    name = "huggingface__candle__kv-cache-enabled-true-is-not-supported.json"
    (records / name).write_bytes((SHARED_RECORDS / name).read_bytes())
    acme = []
    for out in (tmp_path / "a", tmp_path / "b"):
        result, _ = build_quietly(records, out, BASE, options=SiteOptions(title="Acme Errors"))
        assert result.written
        acme.append((out / "-" / "card.png").read_bytes())
    assert acme[0] == acme[1] != default and png_size(acme[0]) == (256, 256)
    assert acme[0] == sitecard.png(sitecard.pixels("Acme Errors")) and sitecard.initials("Acme Errors") == "AE"
    html = (tmp_path / "a" / PATH / "index.html").read_text(encoding="utf-8")
    properties = card(html, BASE + PATH)
    assert properties["og:site_name"] == properties["og:image:alt"] == "Acme Errors"
    assert properties["og:image"] == CARD and "Error Index" not in html
