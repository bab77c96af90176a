"""No good record is lost for its slug: one whose slug holds an emoji is built
under the slug made from it, with its permalink and search entry, and one
dropped-value line naming both slugs."""
from __future__ import annotations

import json

from errorsite import urls
from errorsite.tools.reporting import summary_line
from tests.conftest import ROOT, build_quietly, folder_reader, search_cards

SLUG = "内存不足-错误-😀"
DERIVED = "内存不足-错误"
MESSAGE = "out of memory: cannot allocate 4096 bytes (内存不足)"


def test_a_record_with_an_emoji_in_its_slug_is_built_under_one_made_from_it(tmp_path):
    records = tmp_path / "records"
    records.mkdir()
    data = json.loads((ROOT / "records" / "python__cpython__expecting-value.json").read_text("utf-8"))
    data["record"].update(id="oom-zh", slug=SLUG, errorMessage=MESSAGE, messagePattern=None)
    (records / "oom.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    out = tmp_path / "site"
    result, printed = build_quietly(records, out)
    assert printed == [f'{records.as_posix()}/oom.json: slug: dropped: "{SLUG}" is not a slug (letters or digits '
                       f'of any script in words joined by single hyphens, at most 255 bytes): replaced by "{DERIVED}"']
    assert summary_line(result) == "built 1 record, dropped 1 value — see above"
    page = (out / "python" / "cpython" / DERIVED / "index.html").read_text("utf-8")
    assert f"<bdi>{MESSAGE}</bdi>" in page
    permalink = (out / "-" / "r" / "oom-zh" / "index.html").read_text("utf-8")
    assert f'data-target="/errors/python/cpython/{urls.quote(DERIVED)}/"' in permalink
    assert [MESSAGE, "python/cpython"] in [card[:2] for card in search_cards(folder_reader(out))]
