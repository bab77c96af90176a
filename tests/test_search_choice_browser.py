"""The result a reader chose with ↑ ↓ stays chosen when the cards of the
results past the first screen arrive and the list is drawn again
(search-ui.js completeCards). After a search with no match nothing is chosen
at first, so the choice is the reader's alone; redrawing must keep it, not
step from the top or reset it to the first result.

The late card fetch is held until the test releases it, so the arrows are
pressed before the redraw on every run, whatever the machine's speed."""
from __future__ import annotations

import hashlib
import json

import pytest

from tests.conftest import ROOT, serve_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QUERY = "zorblax quendle"
RECORDS = 256     # four card files of 64 (chunks.DOCS_PER_FILE)
SHARING = 12      # every 12th record's documentation has the query's words: 22 records, over the four files

# Holds a card file (d/N.json) asked for once the list shows results: the
# first screen's cards come before it is drawn, the late ones after.
HOLD_LATE_CARDS = """(() => {
  const fetch = window.fetch;
  let release;
  const released = new Promise(resolve => { release = resolve; });
  window.__held = 0;
  window.__releaseCards = () => release();
  window.fetch = function (url, ...rest) {
    const late = /\\/-\\/search\\/d\\/\\d+\\.json/.test(String(url)) && document.querySelector('#search-results > li');
    if (!late) return fetch.call(this, url, ...rest);
    window.__held++;
    return released.then(() => fetch.call(this, url, ...rest));
  };
})()"""

ACTIVE = "() => [...document.querySelectorAll('#search-results > li')].findIndex(li => li.classList.contains('active'))"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """RECORDS records whose messages lack the query's words (no match); every
    SHARING-th has them in its documentation (its card's summary), words no
    card travels with (carried.py): past the first screen, cards come late."""
    tmp = tmp_path_factory.mktemp("search-choice")
    base = json.loads((ROOT / "tests" / "fixtures" / "bad" / "good-dataclass-on-model.json").read_text("utf-8"))
    records = tmp / "records"
    records.mkdir()
    for n in range(RECORDS):
        document = json.loads(json.dumps(base))
        document["record"].update(
            id=hashlib.sha256(str(n).encode()).hexdigest()[:16], repo="acme/widgets", slug=f"widget-{n:03d}",
            errorMessage=f"Widget {n:03d} could not start", messagePattern=None, errorCode=None,
            documentation=f"The widget stops: {QUERY} applies." if n % SHARING == 0 else "The widget stops.")
        (records / f"acme__widgets__widget-{n:03d}.json").write_text(json.dumps(document), encoding="utf-8")
    server, _ = serve_site(tmp / "www", records)
    yield server
    server.close()


def test_the_readers_choice_survives_the_late_cards(site, page):
    page.page.add_init_script(HOLD_LATE_CARDS)
    assert page.page.goto(site.base_url + "-/search/#q=" + QUERY.replace(" ", "%20")).ok
    page.page.wait_for_function("() => window.__held > 0")  # the first screen is drawn, the rest's cards held
    assert page.page.get_attribute("#search-results", "data-match") == "none"
    assert page.page.evaluate(ACTIVE) == -1  # no match: nothing chosen until the reader chooses
    for _ in range(3):
        page.page.locator("#search-input").press("ArrowDown")
    assert page.page.evaluate(ACTIVE) == 2
    page.page.evaluate("() => { window.__first = document.querySelector('#search-results > li'); __releaseCards(); }")
    # The list is drawn again (new items) once the held cards are in; the choice is restored in the same task.
    page.page.wait_for_function("() => document.querySelector('#search-results > li') !== window.__first")
    assert page.page.evaluate(ACTIVE) == 2
    assert page.errors == []
