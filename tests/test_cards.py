"""Card images (issue 25): a record's own 1200×630 card with `cards = true`,
read back as an unfurler reads its tags; the same bytes for the same inputs,
so a rebuild keeps the file; and the site's card from a file the settings
name, or a one-line error at the start when it is not one."""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys

import pytest
from PIL import Image

from errorsite import urls
from errorsite.pages import cards, sitecard
from errorsite.config import ConfigError, parse_config
from errorsite.pages.render import SiteOptions
from tests.conftest import ROOT, SHARED_RECORDS, build_quietly, need_shared
from tests.test_unfurl import BASE, PATH, RECORD_ID, TITLE, card, twitter

NAME = "huggingface__candle__kv-cache-enabled-true-is-not-supported.json"
MESSAGE = "kv_cache_enabled=true is not supported"
CARD_PATH = f"-/r/{RECORD_ID}/card.png"
TEXT = cards.CardText("Acme Errors", "TypeError: Cannot read properties of undefined (reading 'map')",
                      "acme/widgets", "TypeError", "error")


def image(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data))


# --- the card itself --------------------------------------------------------------------

def test_a_card_is_1200_by_630_and_the_same_bytes_every_time():
    first, second = cards.card_png(TEXT), cards.card_png(cards.CardText(*TEXT))
    assert first == second
    assert image(first).size == (1200, 630)
    assert 5_000 < len(first) < 100_000
    assert cards.card_png(TEXT._replace(severity="warning")) != first
    assert cards.card_png(TEXT._replace(title="Other Errors")) != first


def test_a_long_or_foreign_message_still_makes_a_card():
    """Bounded work for any message: one word of 2,000 characters, every script,
    controls and bidi marks; the font's missing glyphs become "?", accents fold."""
    for message in ["x" * 2000, " ".join(["supercalifragilistic"] * 100), "内存不足 😀\u202eevil\u202c\ttab\nline"]:
        assert image(cards.card_png(TEXT._replace(message=message))).size == (1200, 630)
    assert cards.plain("Résumé “naïve” — straße\u202e 内\n", 100) == "Resume “naive” - strasse ?"
    lines, size = cards.message_lines(" ".join(["word"] * 500))
    assert size == cards.MESSAGE_SIZES[-1][0] and len(lines) == cards.MESSAGE_SIZES[-1][1]
    assert lines[-1].endswith("…")


def test_the_card_depends_on_its_inputs_alone():
    need_shared()
    from errorsite.validate import check
    data = json.loads((SHARED_RECORDS / NAME).read_bytes())
    record = check(NAME, data).record
    data["record"]["documentation"] = "Something else entirely."
    other = check(NAME, data).record
    assert record != other
    assert cards.card_page(record, "Acme").content == cards.card_page(other, "Acme").content
    assert cards.card_image(record, "Acme") == cards.card_image(other, "Acme")
    data["record"]["severity"] = "warning"
    assert cards.card_image(check(NAME, data).record, "Acme").version != cards.card_image(record, "Acme").version


# --- a site with cards on ---------------------------------------------------------------

@pytest.fixture()
def one_record(tmp_path):
    need_shared()
    records = tmp_path / "records"
    records.mkdir()
    shutil.copy(SHARED_RECORDS / NAME, records / NAME)
    return records


@pytest.mark.parametrize("path", [PATH, f"-/r/{RECORD_ID}/"])
def test_with_cards_on_record_pages_and_permalinks_unfurl_large(one_record, tmp_path, path):
    out = tmp_path / "site"
    result, problems = build_quietly(one_record, out, BASE, options=SiteOptions(cards=True))
    assert result.written and problems == []
    html = (out / path / "index.html").read_text(encoding="utf-8")
    properties = card(html, BASE + path)
    url = properties["og:image"]
    assert url.startswith(BASE + CARD_PATH + "?v=")
    assert (properties["og:image:width"], properties["og:image:height"]) == ("1200", "630")
    assert properties["og:image:alt"] == f"{MESSAGE} (huggingface/candle, validation, error)"
    assert properties["og:title"] == TITLE
    tags = twitter(html)
    assert tags["twitter:card"] == "summary_large_image"
    assert tags == {"twitter:card": "summary_large_image", "twitter:image:alt": properties["og:image:alt"]}  # X reads og:image
    assert image((out / CARD_PATH).read_bytes()).size == (1200, 630)
    # pages that are no record's keep the site's card
    home = card((out / "index.html").read_text(encoding="utf-8"), BASE)
    assert home["og:image"] == BASE + "-/card.png" and twitter((out / "index.html").read_text())["twitter:card"] == "summary"


def test_cards_are_off_by_default(one_record, tmp_path):
    out = tmp_path / "site"
    build_quietly(one_record, out, BASE)
    assert not (out / CARD_PATH).exists()
    assert twitter((out / PATH / "index.html").read_text(encoding="utf-8"))["twitter:card"] == "summary"


def test_a_rebuild_keeps_each_card_whose_inputs_did_not_change(one_record, tmp_path):
    """A no-op rebuild, then an edit the card does not show: the card file keeps
    its inode (the writer compared bytes); an edit it shows makes a new card and URL."""
    out = tmp_path / "site"
    options = SiteOptions(cards=True)
    build_quietly(one_record, out, BASE, options=options)
    before, drawn = os.stat(out / CARD_PATH), (out / CARD_PATH).read_bytes()
    url = card((out / PATH / "index.html").read_text(encoding="utf-8"), BASE)["og:image"]

    result, _ = build_quietly(one_record, out, BASE, options=options)
    assert result.written and os.stat(out / CARD_PATH).st_ino == before.st_ino

    data = json.loads((one_record / NAME).read_bytes())
    data["record"]["documentation"] = "Rewritten: " + data["record"]["documentation"]
    (one_record / NAME).write_text(json.dumps(data))
    build_quietly(one_record, out, BASE, options=options)
    assert "Rewritten" in (out / PATH / "index.html").read_text(encoding="utf-8")
    assert os.stat(out / CARD_PATH).st_ino == before.st_ino

    data["record"]["errorMessage"] = "kv_cache_enabled=true is not supported here"
    (one_record / NAME).write_text(json.dumps(data))
    build_quietly(one_record, out, BASE, options=options)
    assert (out / CARD_PATH).read_bytes() != drawn
    assert card((out / PATH / "index.html").read_text(encoding="utf-8"), BASE)["og:image"] != url


# --- the site's card from a file ------------------------------------------------------

def png_of(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def test_the_settings_card_replaces_the_made_one(one_record, tmp_path):
    own = png_of(300, 200)
    (tmp_path / "card.png").write_bytes(own)
    checked = parse_config(b'card = "card.png"\n', "site.toml", tmp_path)["card"]
    out = tmp_path / "site"
    build_quietly(one_record, out, BASE, options=SiteOptions(card=checked))
    assert (out / urls.CARD_IMAGE_PATH).read_bytes() == own
    properties = card((out / PATH / "index.html").read_text(encoding="utf-8"), BASE + PATH)
    assert properties["og:image"] == BASE + "-/card.png"
    assert (properties["og:image:width"], properties["og:image:height"]) == ("300", "200")
    # another file at the same path is another site: nothing is reused from the first
    (tmp_path / "card.png").write_bytes(png_of(256, 256))
    again = parse_config(b'card = "card.png"\n', "site.toml", tmp_path)["card"]
    build_quietly(one_record, out, BASE, options=SiteOptions(card=again))
    assert (out / urls.CARD_IMAGE_PATH).read_bytes() == png_of(256, 256)
    assert card((out / PATH / "index.html").read_text(encoding="utf-8"), BASE)["og:image:width"] == "256"


def flipped(data: bytes) -> bytes:
    """One bit of the image data changed: its chunk's checksum no longer matches."""
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 1]) + data[middle + 1:]


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    (b"GIF89a\x01\x00\x01\x00", "not a PNG image"),
    (flipped(png_of(64, 64)), "a damaged PNG (broken PNG file (bad header checksum in b'IDAT'))"),
    (png_of(64, 64)[:60], "a damaged PNG (Truncated File Read)"),
    (png_of(4097, 1), "4097×1 pixels; a card image may have at most 4096 a side"),
    (b"\x89PNG\r\n\x1a\n" + bytes(sitecard.MAX_FILE_BYTES), "over 5,242,880 bytes, the most a card image may have"),
])
def test_a_bad_card_file_is_one_line(tmp_path, content, message):
    if content is not None:
        (tmp_path / "card.png").write_bytes(content)
    with pytest.raises(ConfigError) as raised:
        parse_config(b'card = "card.png"\n', "site.toml", tmp_path)
    assert str(raised.value) == f"site.toml: card: {tmp_path / 'card.png'}: {message}"


def test_a_bad_card_stops_the_build_at_the_start_with_exit_2(tmp_path):
    (tmp_path / "records").mkdir()
    (tmp_path / "card.png").write_text("not an image")
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "--card", "card.png", "--cards",
                           "--out", str(tmp_path / "site")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == "build.py: error: --card: card.png: not a PNG image"
    assert not (tmp_path / "site").exists()


# --- scripts the card's font lacks: a text-led unfurl and a warning (issue 42) ------------

def test_a_card_needs_every_character_it_shows_in_the_font():
    from errorsite.model import Summary
    base = Summary("records/x.json", "x", "acme/widgets", "x", "Résumé “naïve” — straße failed", None, None,
                   "parse", None, "error", None, (), None, None, "")
    assert cards.has_card(base) and cards.uncovered(base) == []
    cjk = base._replace(message="内存不足: out of memory 内存")
    assert not cards.has_card(cjk) and cards.uncovered(cjk) == ["内", "存", "不", "足"]
    mixed = [base._replace(message="خطأ 😀", source_file="records/y.json"), cjk, base]
    assert cards.card_warnings(mixed) == [
        "records/y.json: card: text only: its font has no Arabic, emoji or symbol (خطأ😀); "
        "its link unfurls with the title, the description and the site's image",
        "records/x.json: card: text only: its font has no CJK (内存不足); "
        "its link unfurls with the title, the description and the site's image"]
    assert not cards.has_card(base._replace(repo="acme/виджеты"))  # the repository is on the card too


def test_a_record_in_a_script_the_font_lacks_unfurls_text_led_with_a_warning(one_record, tmp_path):
    data = json.loads((one_record / NAME).read_bytes())
    data["record"].update(id="cjk0000000000001", slug="cjk", errorMessage="内存不足: kv cache 已满")
    (one_record / "cjk.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "site"
    result, lines = build_quietly(one_record, out, BASE, options=SiteOptions(cards=True))
    assert result.written and result.problems == []
    assert lines == [f"warning: {(one_record / 'cjk.json').as_posix()}: card: text only: its font has no CJK "
                     "(内存不足已满); its link unfurls with the title, the description and the site's image"]
    assert not (out / "-/r/cjk0000000000001/card.png").exists() and (out / CARD_PATH).exists()
    html = (out / "huggingface/candle/cjk/index.html").read_text(encoding="utf-8")
    assert card(html, BASE + "huggingface/candle/cjk/")["og:image"] == BASE + "-/card.png"
    assert twitter(html)["twitter:card"] == "summary"
    again, _ = build_quietly(one_record, out, BASE, options=SiteOptions(cards=True))  # a no-op keeps the site
    assert again.written and not (out / "-/r/cjk0000000000001/card.png").exists()
    (one_record / NAME).unlink()  # a build with work to do says it again
    third, lines = build_quietly(one_record, out, BASE, options=SiteOptions(cards=True))
    assert third.written and len(lines) == 1 and "card: text only" in lines[0]
