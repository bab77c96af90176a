"""Unfurl cards as a real parser (extruct's Open Graph reader) sees them, on a
record page and on its permalink (chat apps do not follow meta refresh), plus
the oEmbed discovery link and the card image itself."""
from __future__ import annotations

import struct
from html.parser import HTMLParser

import extruct
import pytest

from errorsite import urls
from tests.conftest import ROOT, need_shared, SHARED_RECORDS, build_quietly

BASE = "https://example.org/errors/"
PATH = "huggingface/candle/kv-cache-enabled-true-is-not-supported/"
RECORD_ID = "5410d019e75c02d7"
TITLE = "kv_cache_enabled=true is not supported — huggingface/candle"
DESCRIPTION = ("kv_cache_enabled=true is not supported (huggingface/candle · validation · error): SelfAttention::new explicitly rejects configs with "
               "kv_cache_enabled set to true — the KV-cache attention path is not implemented in the candle "
               "metavoice port.")


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
        "og:image": BASE + "-/static/card.png",
        "og:image:width": "1200",
        "og:image:height": "630",
        "og:image:alt": "Error Index",
    }
    assert twitter(html) == {"twitter:card": "summary_large_image", "twitter:title": TITLE,
                             "twitter:description": DESCRIPTION, "twitter:image": BASE + "-/static/card.png"}


def test_oembed_is_discoverable(site):
    html = (site / PATH / "index.html").read_text(encoding="utf-8")
    href = f"{BASE}-/r/{RECORD_ID}/oembed.json"
    assert f'<link rel="alternate" type="application/json+oembed" href="{href}"' in html
    assert (site / urls.oembed_path(type("R", (), {"id": RECORD_ID})())).is_file()


def test_the_card_image_is_a_1200_by_630_png():
    data = (ROOT / "static" / "card.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (1200, 630)
