"""The tags' index, `-/tags/`: every tag A–Z with its count, under its
initial, split into pages that each stay under TAG_INDEX_BYTES of tags
(well under 100 KB a page however many tags the records have), and every
page naming the range of each, so that any tag is two clicks away.

Pure functions of the tags' links; browse.py renders the pages and
links.listing_paths counts them with the same runs."""
from __future__ import annotations

from typing import NamedTuple

from markupsafe import escape

from .. import urls
from ..markup import shorten
from .listing import packed
from .render import Link

TAG_INDEX_BYTES = 70_000   # the most a page's tags may take, by item_bytes: the rest of the page is well under 30 KB
RANGE_LABEL = 20           # characters of each end of a page's range, in the links between pages


class Initial(NamedTuple):
    letter: str        # the tags' first character, upper case, or "#" for a digit or a sign
    links: list[Link]


def az(links: list[Link]) -> list[Link]:
    return sorted(links, key=lambda link: (link.label.casefold(), link.path))


def initial(label: str) -> str:
    first = label[:1].upper()
    return first if first.isalpha() else "#"


def item_bytes(link: Link) -> int:
    """At least the bytes of the link's list item (tags.html): its markup with
    the base path, the path quoted, the label escaped and isolated."""
    return 100 + len(urls.quote(link.path)) + len(str(escape(link.label)).encode())


def index_runs(links: list[Link], most: int = TAG_INDEX_BYTES) -> list[list[Link]]:
    """The links A–Z in as few pages as keep each within `most` bytes (one page at least)."""
    return packed(az(links), item_bytes, most)


def by_initial(links: list[Link]) -> list[Initial]:
    """Sorted links under their initials, in order."""
    groups: list[Initial] = []
    for link in links:
        letter = initial(link.label)
        if not groups or groups[-1].letter != letter:
            groups.append(Initial(letter, []))
        groups[-1].links.append(link)
    return groups


def run_label(run: list[Link]) -> str:
    """What a page of the index holds, for the links between pages: "a – kv-cache"."""
    if not run:
        return "none"
    first, last = shorten(run[0].label, RANGE_LABEL), shorten(run[-1].label, RANGE_LABEL)
    return first if len(run) == 1 else f"{first} – {last}"
