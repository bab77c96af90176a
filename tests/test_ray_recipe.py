"""The Ray recipe of docs/commands.md, run as written on a local Ray instance
of two CPUs: sixteen shard builds as Ray tasks (each with its own pool of two
processes), assembled, the same bytes as one build. Only the cluster's
address and the shared folder are put in for the test's own."""
from __future__ import annotations

import re

import pytest

from errorsite.pipeline import BuildSettings, build
from tests.conftest import ROOT
from tests.test_incremental import tree, write_records

pytestmark = pytest.mark.slow  # starts a Ray instance: a scheduler, an object store and workers

RECIPE = re.compile(r"With Ray, each shard.*?```python\n(.*?)```", re.S)


def test_the_ray_recipe_assembles_the_same_site_as_one_build(tmp_path, tmp_path_factory, monkeypatch):
    ray = pytest.importorskip("ray")
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # a local instance: no token written to the home folder
    recipe = RECIPE.search((ROOT / "docs" / "commands.md").read_text("utf-8")).group(1)
    assert 'ray.init(address="auto")' in recipe and recipe.count('"/shared/') == 3
    write_records(tmp_path / "records", 40)
    # Ray's sockets live under its temporary folder, whose path must stay short (AF_UNIX allows 107 bytes):
    # the session's own, not the test's longer tmp_path.
    sessions = tmp_path_factory.getbasetemp() / "ray"
    local = f"ray.init(num_cpus=2, include_dashboard=False, _temp_dir={str(sessions)!r})"
    code = recipe.replace('ray.init(address="auto")', local).replace('"/shared/', f'"{tmp_path}/')
    try:
        exec(compile(code, "docs/commands.md (the Ray recipe)", "exec"), {"__name__": "recipe"})
    finally:
        ray.shutdown()
    assert build(tmp_path / "records", tmp_path / "one", "https://example.org/errors/", BuildSettings(report=lambda line: None)).written
    assert tree(tmp_path / "site") == tree(tmp_path / "one")
