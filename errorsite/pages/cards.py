"""Per-record card images (`cards = true`): a 1200×630 PNG per record that
says which error — its message (wrapped, shortened when long), repository,
type and severity — under the site's title, for `summary_large_image`
unfurls. Made with the record's page (records.record_files), so the
incremental build redraws only the cards of records that changed.

The bytes depend on the card's inputs (CardText) alone: the font is the one
Pillow ships (Aileron, scalable since Pillow 10.1) with its basic layout, the
PNG has no timestamp, and the locked Pillow draws the same pixels on every
machine. That font covers ASCII and a few marks, so the text is folded to it
first (accents dropped, dashes and quotes made plain). A record whose text
still has a character it cannot show (CJK, Arabic, an emoji…) gets no card
image: its link unfurls text-led, with the site's image, as without `cards`,
and the build warns (card_warnings) rather than draw "?" for each.

The card is drawn as grey levels and stored as a palette PNG: levels 0–240
run from the background to the ink, the few above are the site's accent
(sitecard.colour), solid shapes only. One byte a pixel, no quantizing.
"""
from __future__ import annotations

import hashlib
import io
import unicodedata
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from typing import NamedTuple

from .. import urls
from ..model import Page, Record, Summary
from .sitecard import BACKGROUND, INK, CardImage, colour

WIDTH, HEIGHT = 1200, 630   # what summary_large_image shows at 1.91:1
MARGIN = 72
LONGEST = 400               # characters of the message considered: more never fits
INK_LEVEL, MUTED_LEVEL, ACCENT_LEVEL = 240, 150, 255
MESSAGE_SIZES = ((64, 4), (52, 5), (44, 6))  # (font px, lines): the largest that holds the message wins
MESSAGE_TOP, MESSAGE_BOTTOM = 150, HEIGHT - 124
FOLD = str.maketrans({"ß": "ss", "Æ": "AE", "æ": "ae", "Ø": "O", "ø": "o", "Ł": "L", "ł": "l", "Đ": "D",
                      "đ": "d", "Œ": "OE", "œ": "oe", "ı": "i", "–": "-", "—": "-", "−": "-", "‐": "-",
                      "‚": ",", "„": '"', "′": "'", "″": '"'})


class CardText(NamedTuple):
    """Everything a card shows: its bytes depend on these alone."""
    title: str
    message: str
    repo: str
    error_type: str
    severity: str

    @staticmethod
    def of(r: Record | Summary, title: str) -> "CardText":
        return CardText(title, r.message, r.repo, r.error_type, r.severity)


def card_image(r: Record | Summary, title: str) -> CardImage:
    """The record's card as the unfurl tags name it; its version changes with its bytes."""
    text = CardText.of(r, title)
    digest = hashlib.sha256(f"{drawing_version()}\0{text!r}".encode()).hexdigest()[:10]
    alt = f"{plain(r.message, 300)} ({r.repo}, {r.error_type}, {r.severity})"
    return CardImage(urls.record_card_path(r), WIDTH, HEIGHT, alt, large=True, version=digest)


def card_page(r: Record | Summary, title: str) -> Page:
    return Page(urls.record_card_path(r), card_png(CardText.of(r, title)))


@lru_cache(maxsize=1)
def drawing_version() -> str:
    """This file and the Pillow that runs it: what else decides a card's pixels."""
    return hashlib.sha256(Path(__file__).read_bytes() + version("pillow").encode()).hexdigest()[:16]


def card_png(text: CardText) -> bytes:
    from PIL import Image, ImageDraw  # imported only by a build with cards on

    image = Image.new("L", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    right = WIDTH - MARGIN
    # the site: an accent square and its title
    draw.rectangle((MARGIN, 62, MARGIN + 30, 92), fill=ACCENT_LEVEL)
    draw.text((MARGIN + 48, 58), fit(plain(text.title, 120), font(36), right - MARGIN - 48), font=font(36),
              fill=MUTED_LEVEL)
    # the message, as large as it fits
    lines, size = message_lines(plain(text.message, LONGEST))
    step = size * 5 // 4
    for n, line in enumerate(lines):
        draw.text((MARGIN, MESSAGE_TOP + n * step), line, font=font(size), fill=INK_LEVEL)
    # the repository, then type and severity at the right
    kind = fit(f"{plain(text.error_type, 80)} · {plain(text.severity, 40)}", font(32), (right - MARGIN) // 2)
    kind_width = font(32).getlength(kind)
    draw.text((right - kind_width, HEIGHT - 102), kind, font=font(32), fill=MUTED_LEVEL)
    draw.text((MARGIN, HEIGHT - 104), fit(plain(text.repo, 120), font(36), right - MARGIN - kind_width - 40),
              font=font(36), fill=INK_LEVEL)
    draw.rectangle((0, HEIGHT - 14, WIDTH, HEIGHT), fill=ACCENT_LEVEL)

    card = Image.frombytes("P", image.size, image.tobytes())
    card.putpalette(palette(colour(text.title)))
    out = io.BytesIO()
    card.save(out, "PNG")  # no text or time chunks: the bytes are the pixels'
    return out.getvalue()


def palette(accent: tuple[int, int, int]) -> list[int]:
    """Levels 0–INK_LEVEL from the background to the ink; above, the accent."""
    ramp = [round(b + (i - b) * level / INK_LEVEL) for level in range(INK_LEVEL + 1)
            for b, i in zip(BACKGROUND, INK)]
    return ramp + list(accent) * (255 - INK_LEVEL)


@lru_cache(maxsize=None)
def font(size: int):
    from PIL import ImageFont
    return ImageFont.load_default(size=size)  # Aileron, shipped inside Pillow, basic layout


def message_lines(message: str) -> tuple[list[str], int]:
    """The message wrapped at the largest size whose lines fit; at the
    smallest, the last line ends with an ellipsis when there is more."""
    width = WIDTH - 2 * MARGIN
    for size, most in MESSAGE_SIZES:
        lines = wrap(message, font(size), width)
        if len(lines) <= most:
            return lines, size
    lines = lines[:most]
    lines[-1] = fit(lines[-1], font(size), width, always=True)
    return lines, size


def wrap(text: str, face, width: int) -> list[str]:
    """Greedy word wrap; a word wider than a line is cut where it must be."""
    lines, line = [], ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if face.getlength(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        while face.getlength(word) > width:
            cut = longest(word, face, width)
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    return [*lines, line] if line else lines


def fit(text: str, face, width: float, always: bool = False) -> str:
    """`text`, or (when wider than `width`, or `always`) as much of it as fits
    with "…", cut at a word when one ends near the edge."""
    if not always and face.getlength(text) <= width:
        return text
    n = longest(text, face, width, "…")
    cut = text[:n]
    if n < len(text) and cut.rfind(" ") > n * 2 // 3:
        cut = cut[:cut.rfind(" ")]
    return cut.rstrip() + "…"


def longest(text: str, face, width: float, suffix: str = "") -> int:
    """The most characters of `text` (at least one) that fit in `width` followed by `suffix`."""
    low, high = 1, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength(text[:middle] + suffix) <= width:
            low = middle
        else:
            high = middle - 1
    return low


def folded(text: str) -> list[str]:
    """`text`'s characters as the card would draw them: accents and marks off, spaces plain."""
    shown = []
    for c in unicodedata.normalize("NFKD", text.translate(FOLD)):
        category = unicodedata.category(c)
        if category == "Mn" or category == "Cf":   # accents once folded off, bidi and zero-width marks
            continue
        shown.append(" " if category[0] in "CZ" else c)  # line breaks, tabs, odd spaces
    return shown


def plain(text: str, limit: int) -> str:
    """`text` folded to what the font shows, on one line, at most `limit` characters."""
    shown = [c if has_glyph(c) else "?" for c in folded(text[:limit * 2])]
    return " ".join("".join(shown).split())[:limit]


def uncovered(r: Record | Summary) -> list[str]:
    """The characters of what a record's card shows that the font lacks, each once, in order."""
    text = " ".join((r.message[:LONGEST * 2], r.repo[:240], r.error_type[:160], r.severity[:80]))
    return [c for c in dict.fromkeys(text) if not all(has_glyph(f) for f in folded(c))]


def has_card(r: Record | Summary) -> bool:
    """Whether the record gets a card image: the font shows all its card's text."""
    return not uncovered(r)


# The scripts a warning names, by the first word of a character's Unicode name.
SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "ARABIC", "HEBREW", "CYRILLIC", "GREEK", "DEVANAGARI",
           "BENGALI", "TAMIL", "THAI", "ARMENIAN", "GEORGIAN", "ETHIOPIC")


def script_of(c: str) -> str:
    name = unicodedata.name(c, "")
    first = name.split(" ", 1)[0]
    if first in SCRIPTS:
        return first.capitalize() if first != "CJK" else "CJK"
    return "emoji or symbol" if unicodedata.category(c) == "So" else "other characters"


def card_warnings(summaries) -> list[str]:
    """One line a record whose card would need characters the font lacks:
    it has no card image (has_card), and its link unfurls text-led."""
    lines = []
    for s in summaries:
        missing = uncovered(s)
        if missing:
            scripts = ", ".join(dict.fromkeys(script_of(c) for c in missing))
            lines.append(f"{s.source_file}: card: text only: its font has no {scripts} "
                         f"({''.join(missing[:8])}{'…' if len(missing) > 8 else ''}); "
                         "its link unfurls with the title, the description and the site's image")
    return lines


@lru_cache(maxsize=4096)
def has_glyph(c: str) -> bool:
    face = font(20)
    if c == " ":
        return True
    mask = face.getmask(c)
    return (mask.size, bytes(mask)) != _missing()


@lru_cache(maxsize=1)
def _missing() -> tuple:
    mask = font(20).getmask("\uffff")  # a noncharacter: the font's box for what it lacks
    return mask.size, bytes(mask)
