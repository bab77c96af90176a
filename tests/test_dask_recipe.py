"""The Dask recipe of docs/commands.md, run as written on a LocalCluster of
two worker processes (daemonic, as Dask's are): sixteen shard builds fanned
out, assembled, the same bytes as one build. Only the scheduler's address and
the shared folder are put in for the test's own."""
from __future__ import annotations

import re

import pytest

from errorsite.pipeline import BuildSettings, build
from tests.conftest import ROOT
from tests.test_incremental import tree, write_records

pytestmark = pytest.mark.slow  # a cluster of worker processes

RECIPE = re.compile(r"with Dask's `distributed`.*?```python\n(.*?)```", re.S)


def test_the_dask_recipe_assembles_the_same_site_as_one_build(tmp_path):
    from dask.distributed import LocalCluster

    recipe = RECIPE.search((ROOT / "docs" / "commands.md").read_text("utf-8")).group(1)
    assert '"scheduler:8786"' in recipe and recipe.count('"/shared/') == 3
    write_records(tmp_path / "records", 40)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        code = recipe.replace('"scheduler:8786"', repr(cluster.scheduler_address)).replace('"/shared/', f'"{tmp_path}/')
        exec(compile(code, "docs/commands.md (the Dask recipe)", "exec"), {"__name__": "recipe"})
    assert build(tmp_path / "records", tmp_path / "one", "https://example.org/errors/", BuildSettings(report=lambda line: None)).written
    assert tree(tmp_path / "site") == tree(tmp_path / "one")
