"""The pages link the codes' index only when some record has an error code
(issue 62, item 7): a dataset with none has no "Codes" link in any page and
no empty index; the build finds out as it reads the records, and starts again
when they say otherwise than the pages it was making (pipeline.build)."""
from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path

from errorsite import pipeline
from errorsite.pipeline import BuildSettings, assemble
from errorsite.shards import Shard
from tests.conftest import build_quietly

GOOD = Path(__file__).parent / "fixtures" / "bad" / "good-dataclass-on-model.json"
CODES_LINK = re.compile(r'<a href="[^"]*/-/code/">')


def record_data(i: int, code: str | None) -> dict:
    data = copy.deepcopy(json.loads(GOOD.read_text("utf-8")))
    data["record"].update(id=f"r{i:04d}", slug=f"error-number-{i}", errorMessage=f"Error number {i} went wrong",
                          messagePattern=None, errorCode=code)
    return data


def write_record(records: Path, i: int, code: str | None = None) -> None:
    records.mkdir(parents=True, exist_ok=True)
    (records / f"r{i:04d}.json").write_text(json.dumps(record_data(i, code)), "utf-8")


def codeless(records: Path, count: int = 4) -> Path:
    for i in range(count):
        write_record(records, i)
    return records


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def html_pages(site: Path) -> dict[str, str]:
    return {path: content.decode() for path, content in tree(site).items() if path.endswith(".html")}


def built(records: Path, out: Path, **options) -> Path:
    result, lines = build_quietly(records, out, **options)
    assert result.written and lines == [], lines
    return out


def test_a_dataset_without_codes_links_no_codes_index_and_has_none(tmp_path):
    site = built(codeless(tmp_path / "records"), tmp_path / "site")
    pages = html_pages(site)
    assert "index.html" in pages and "r0001/" not in pages
    assert [path for path, html in pages.items() if CODES_LINK.search(html)] == []
    assert [path for path, html in pages.items() if ">Codes</a>" in html or ">Error codes</a>" in html] == []
    assert not (site / "-" / "code").exists()
    assert not (site / "-" / "go" / "code").exists()


def test_a_dataset_with_a_code_links_it_from_every_page(tmp_path):
    records = codeless(tmp_path / "records")
    write_record(records, 9, "E0382")
    site = built(records, tmp_path / "site")
    pages = html_pages(site)
    record_pages = [path for path in pages if "/error-number-" in path]
    assert len(record_pages) == 5
    for path in record_pages:
        assert ">Codes</a>" in pages[path] and ">Error codes</a>" in pages[path], path
    assert "E0382" in pages["-/code/index.html"]


def rebuilt_equals_clean(records: Path, site: Path, tmp_path: Path, change) -> dict[str, bytes]:
    """`change` the records, rebuild `site` and build them afresh: the same bytes."""
    history = tmp_path / "urls.json"  # the URL history is not a cache: the clean build gets it too
    shutil.copy(site / "-" / "urls.json", history)
    change()
    built(records, site)
    clean = built(records, tmp_path / f"clean-{len(list(tmp_path.glob('clean-*')))}", cache=False,
                  previous_manifest=history)
    assert tree(site) == tree(clean)
    return tree(site)


def test_a_rebuild_when_the_first_code_comes_and_goes_equals_a_clean_build(tmp_path):
    records = codeless(tmp_path / "records")
    site = built(records, tmp_path / "site")
    files = rebuilt_equals_clean(records, site, tmp_path, lambda: write_record(records, 9, "TS2345"))
    assert ">Codes</a>" in files["pydantic/pydantic/error-number-0/index.html"].decode()
    assert "-/code/index.html" in files
    files = rebuilt_equals_clean(records, site, tmp_path, lambda: write_record(records, 9, None))
    assert ">Codes</a>" not in files["pydantic/pydantic/error-number-0/index.html"].decode()
    # No index any more, and its old URL still lands somewhere (pages/redirects.py).
    assert "<h1>This page has moved</h1>" in files["-/code/index.html"].decode()


def test_a_build_started_again_prints_each_line_once(tmp_path, monkeypatch):
    records = codeless(tmp_path / "records")
    write_record(records, 9, "E0382")
    (records / "broken.json").write_text("{", "utf-8")
    starts = []
    start = pipeline.start
    monkeypatch.setattr(pipeline, "start", lambda *a, **k: starts.append(start(*a, **k)) or starts[-1])
    result, lines = build_quietly(records, tmp_path / "site")
    assert [begun.options.codes for begun in starts] == [False, True]  # a first build guesses no code, and the record with one says otherwise
    assert result.written and len(lines) == 1 and "broken.json" in lines[0], lines


def test_a_site_assembled_from_shards_links_an_index_that_says_it_is_empty(tmp_path):
    records = codeless(tmp_path / "records")
    shards = [tmp_path / f"shard-{k}" for k in (1, 2)]
    for k, folder in enumerate(shards, 1):
        assert build_quietly(records, folder, shard=Shard(k, 2))[0].written
    lines: list[str] = []
    assert assemble(shards, tmp_path / "site", "http://127.0.0.1:1/errors/", BuildSettings(report=lines.append)).written
    index = (tmp_path / "site" / "-" / "code" / "index.html").read_text("utf-8")
    assert "No record here has an error code." in index
    assert ">Codes</a>" in (tmp_path / "site" / "index.html").read_text("utf-8")
