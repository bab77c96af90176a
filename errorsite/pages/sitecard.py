"""The site's unfurl image, made from its title at build time: a square PNG
with the title's initials (a 5×7 pixel font, scaled) on a colour of its own,
so a site built with `--title "Acme Errors"` shows "AE", never another site's
banner. Pure Python (zlib for the PNG), so the bytes depend on the title
alone: the same title gives the same file on every machine.

A title whose first letters have no glyph here (another script) gets a
symmetric pattern drawn from the title's hash instead: still its own.

A site may name its own PNG instead (`card = "card.png"`): config.py reads
it, card_file checks it, and it is served at the same path. CardImage is what
the unfurl tags say of an image (templates/card.html), this one or a record's
(cards.py)."""
from __future__ import annotations

import colorsys
import hashlib
import io
import struct
import unicodedata
import zlib
from dataclasses import dataclass, field
from typing import NamedTuple

from .. import urls
from ..model import Page

SIZE = 256  # px, square: what `twitter:card` "summary" and chat thumbnails show
BACKGROUND = (13, 17, 23)
INK = (230, 237, 243)

# 5×7 glyphs, one string per row, "#" for a pixel.
FONT = {
    "A": ".###.|#...#|#...#|#####|#...#|#...#|#...#", "B": "####.|#...#|#...#|####.|#...#|#...#|####.",
    "C": ".###.|#...#|#....|#....|#....|#...#|.###.", "D": "####.|#...#|#...#|#...#|#...#|#...#|####.",
    "E": "#####|#....|#....|####.|#....|#....|#####", "F": "#####|#....|#....|####.|#....|#....|#....",
    "G": ".###.|#...#|#....|#.###|#...#|#...#|.####", "H": "#...#|#...#|#...#|#####|#...#|#...#|#...#",
    "I": ".###.|..#..|..#..|..#..|..#..|..#..|.###.", "J": "..###|...#.|...#.|...#.|...#.|#..#.|.##..",
    "K": "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#", "L": "#....|#....|#....|#....|#....|#....|#####",
    "M": "#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#", "N": "#...#|#...#|##..#|#.#.#|#..##|#...#|#...#",
    "O": ".###.|#...#|#...#|#...#|#...#|#...#|.###.", "P": "####.|#...#|#...#|####.|#....|#....|#....",
    "Q": ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#", "R": "####.|#...#|#...#|####.|#.#..|#..#.|#...#",
    "S": ".####|#....|#....|.###.|....#|....#|####.", "T": "#####|..#..|..#..|..#..|..#..|..#..|..#..",
    "U": "#...#|#...#|#...#|#...#|#...#|#...#|.###.", "V": "#...#|#...#|#...#|#...#|#...#|.#.#.|..#..",
    "W": "#...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.", "X": "#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#",
    "Y": "#...#|#...#|.#.#.|..#..|..#..|..#..|..#..", "Z": "#####|....#|...#.|..#..|.#...|#....|#####",
    "0": ".###.|#...#|#..##|#.#.#|##..#|#...#|.###.", "1": "..#..|.##..|..#..|..#..|..#..|..#..|.###.",
    "2": ".###.|#...#|....#|...#.|..#..|.#...|#####", "3": "####.|....#|....#|.###.|....#|....#|####.",
    "4": "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.", "5": "#####|#....|####.|....#|....#|#...#|.###.",
    "6": ".###.|#....|#....|####.|#...#|#...#|.###.", "7": "#####|....#|...#.|..#..|.#...|.#...|.#...",
    "8": ".###.|#...#|#...#|.###.|#...#|#...#|.###.", "9": ".###.|#...#|#...#|.####|....#|....#|.###.",
}


def initials(title: str) -> str:
    """The first letter or digit of the title's first two words, in capitals
    ("Acme Errors" → "AE"); "" when one has no glyph here."""
    words = ["".join(c for c in word if c.isalnum()) for word in title.split()]
    letters = [word[0] for word in words if word][:2]
    plain = "".join(unicodedata.normalize("NFKD", c)[0].upper() for c in letters)
    return plain if plain and all(c in FONT for c in plain) else ""


def colour(title: str) -> tuple[int, int, int]:
    """The title's own accent: a hue from its hash, dark enough for light ink."""
    hue = hashlib.sha256(title.encode()).digest()[0] / 256
    return tuple(round(v * 255) for v in colorsys.hls_to_rgb(hue, 0.38, 0.6))


def pixels(title: str) -> list[bytearray]:
    """The image as rows of RGB bytes."""
    accent = colour(title)
    rows = [bytearray(bytes(BACKGROUND) * SIZE) for _ in range(SIZE)]

    def fill(x0: int, y0: int, width: int, height: int, rgb) -> None:
        for y in range(y0, y0 + height):
            rows[y][x0 * 3:(x0 + width) * 3] = bytes(rgb) * width

    margin = SIZE // 16
    fill(margin, margin, SIZE - 2 * margin, SIZE - 2 * margin, accent)  # a rounded look is not worth a rasterizer
    fill(margin, SIZE - 2 * margin, SIZE - 2 * margin, margin // 2, INK)  # the bar under the mark
    text = initials(title)
    if text:
        glyphs = [FONT[c].split("|") for c in text]
        columns = 6 * len(text) - 1
        scale = min((SIZE - 6 * margin) // columns, (SIZE - 7 * margin) // 7)
        left, top = (SIZE - columns * scale) // 2, (SIZE - margin - 7 * scale) // 2
        for n, glyph in enumerate(glyphs):
            for y, row in enumerate(glyph):
                for x, cell in enumerate(row):
                    if cell == "#":
                        fill(left + (6 * n + x) * scale, top + y * scale, scale, scale, INK)
    else:  # a 5×5 pattern, mirrored, from the title's hash
        bits = int.from_bytes(hashlib.sha256(title.encode()).digest()[1:5], "big")
        cell = (SIZE - 6 * margin) // 5
        left, top = (SIZE - 5 * cell) // 2, (SIZE - margin - 5 * cell) // 2
        for y in range(5):
            for x in range(3):
                if bits >> (y * 3 + x) & 1:
                    for column in {x, 4 - x}:
                        fill(left + column * cell, top + y * cell, cell, cell, INK)
    return rows


def png(rows: list[bytearray]) -> bytes:
    """RGB rows as a PNG file: no timestamps or text chunks, so the bytes depend on the rows alone."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", len(rows[0]) // 3, len(rows), 8, 2, 0, 0, 0)
    raw = b"".join(b"\0" + bytes(row) for row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


MAX_FILE_BYTES = 5 * 1024 * 1024  # X's limit for a card image; most unfurlers give up sooner
MAX_FILE_SIDE = 4096              # pixels, either side: X's limit too


@dataclass(frozen=True)
class CardFile:
    """The site's own card image, checked. Its repr (in the render
    fingerprint, through SiteOptions) names its digest, not its bytes."""
    digest: str
    width: int
    height: int
    content: bytes = field(repr=False, compare=False)


def card_file(content: bytes) -> CardFile:
    """`content` as the site's card, or a ValueError saying in a few words why
    not: not a PNG, damaged, too many bytes or pixels."""
    if len(content) > MAX_FILE_BYTES:
        raise ValueError(f"over {MAX_FILE_BYTES:,} bytes, the most a card image may have")
    if not content.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValueError("not a PNG image")
    from PIL import Image, UnidentifiedImageError  # only a build that names a card needs Pillow here
    try:
        with Image.open(io.BytesIO(content), formats=["PNG"]) as image:
            width, height = image.size
            image.verify()  # every chunk's checksum: a truncated or damaged file fails here, not in a reader's feed
    except UnidentifiedImageError:  # its message names a BytesIO object
        raise ValueError("a damaged PNG (its header cannot be read)") from None
    except Exception as error:  # Pillow's errors for a damaged file are of many kinds
        raise ValueError(f"a damaged PNG ({error})") from None
    if max(width, height) > MAX_FILE_SIDE:
        raise ValueError(f"{width}×{height} pixels; a card image may have at most {MAX_FILE_SIDE} a side")
    return CardFile(hashlib.sha256(content).hexdigest()[:16], width, height, content)


class CardImage(NamedTuple):
    """An unfurl image, as the card tags name it (templates/card.html)."""
    path: str            # in the site
    width: int
    height: int
    alt: str
    large: bool = False  # twitter:card summary_large_image, else summary
    version: str = ""    # ?v=: a changed image gets a new URL, so unfurlers fetch it again

    def url(self, site: urls.Site) -> str:
        return site.absolute(self.path) + (f"?v={self.version}" if self.version else "")


def site_card_image(title: str, own: CardFile | None) -> CardImage:
    """The site's card as the tags name it: its own file's size, or the square made from the title."""
    width, height = (own.width, own.height) if own else (SIZE, SIZE)
    return CardImage(urls.CARD_IMAGE_PATH, width, height, title)


def site_card(title: str, own: CardFile | None = None) -> Page:
    """`-/card.png`: the settings' file as it is, or the square made from the title."""
    return Page(urls.CARD_IMAGE_PATH, own.content if own else png(pixels(title)))
