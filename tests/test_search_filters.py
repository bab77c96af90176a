"""Search filters (issue 42, item 7): the facets the build puts on result
cards, and the browser's filter rules (static/search-filters.js) under Node."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from errorsite.search import result_doc, search_rules
from errorsite.search.facets import LANGUAGE_NAMES, language_of
from tests.conftest import ROOT, in_ci
from tests.test_search_ranking import make_record


def test_a_file_extension_names_the_language():
    assert [language_of(p) for p in ("Lib/json/decoder.py", "src/lib.rs", "a/B.JAVA", "x.tsx", "Makefile", None)] == \
        ["py", "rs", "java", "ts", "", ""]
    assert set(language_of(f"f{ext}") for ext in (".py", ".go", ".c", ".cpp", ".js")) <= set(LANGUAGE_NAMES)


def test_a_card_carries_severity_and_language_and_meta_names_the_languages():
    card = result_doc(make_record(filePath="src/server.c", severity="warning"))
    assert card[6:8] == ["warning", "c"]
    assert search_rules(1)["facets"]["languages"]["c"] == "C"


FILTERS = ROOT / "static" / "search-filters.js"


def node(script: str) -> object:
    if not shutil.which("node"):
        if in_ci():
            pytest.fail("node is missing in CI")
        pytest.skip("node is missing: the browser's filter rules run under node")
    code = f"const F = require({json.dumps(str(FILTERS))});\nconsole.log(JSON.stringify(({script})()));"
    return json.loads(subprocess.run(["node", "-e", code], capture_output=True, text=True, check=True).stdout)


def test_filters_travel_in_the_fragment_after_the_query():
    parsed = node("""() => [F.parse("#q=a%26b%20c&repo=o%2Fn&lang=py"), F.parse("#repo=o/n"),
                            F.parse("#q=old&link&type=parse"), F.fragment("x y", {repo: "o/n", severity: "error"}),
                            F.fragment("", {})]""")
    assert parsed == [{"query": "a&b c", "filters": {"repo": "o/n", "lang": "py"}},
                      {"query": None, "filters": {"repo": "o/n"}},
                      {"query": "old&link", "filters": {"type": "parse"}},
                      "q=x%20y&repo=o%2Fn&severity=error", ""]


def test_filters_apply_to_held_cards_and_count_each_value_among_the_others():
    out = node("""() => {
      const card = (repo, type, sev, lang) => ({doc: ["m", repo, "p/", type, "", "", sev, lang]});
      const results = [card("a/x", "parse", "error", "py"), card("a/y", "parse", "warning", "go"),
                       card("b/z", "io", "error", "py"), {doc: undefined}];
      const filters = {owner: "A", lang: "py"};
      return [F.apply(results, filters).map(r => r.doc[1]), F.counts(results, filters), F.apply(results, {}).length,
              F.describe({repo: "a/x", lang: "py"}, {py: "Python"})];
    }""")
    assert out[0] == ["a/x"]
    assert out[1]["repo"] == [["a/x", 1]] and out[1]["owner"] == [["a", 1], ["b", 1]]
    assert out[1]["lang"] == [["go", 1], ["py", 1]] and out[1]["severity"] == [["error", 1]]
    assert out[2] == 4  # no filter: every result, a card on its way too
    assert out[3] == "repository a/x, language Python"
