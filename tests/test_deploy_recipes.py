"""The deploy recipes in docs/deploying.md as far as they can be checked here:
the GitHub Pages workflow parses, fetches the live URL history before it
builds and passes it on, and publishes the folder it built; every build.py
command the page shows uses options build.py has."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest
import yaml

from errorsite import urls
from tests.conftest import ROOT

DOC = ROOT / "docs" / "deploying.md"


def blocks(kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S)


@pytest.fixture(scope="module")
def workflow() -> dict:
    [found] = [doc for doc in map(yaml.safe_load, blocks("yaml")) if isinstance(doc, dict) and "jobs" in doc]
    return found


@pytest.fixture(scope="module")
def build_help() -> str:
    return subprocess.run([sys.executable, str(ROOT / "build.py"), "--help"], capture_output=True, text=True,
                          check=True).stdout


def build_commands(text: str) -> list[list[str]]:
    return [shlex.split(line.split("build.py", 1)[1]) for line in text.splitlines() if "build.py" in line]


def test_the_pages_workflow_builds_with_the_live_history_then_deploys(workflow):
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    steps = workflow["jobs"]["build"]["steps"]
    runs = [step.get("run", "") for step in steps]
    fetch = next(i for i, run in enumerate(runs) if "-/urls.json" in run)
    build = next(i for i, run in enumerate(runs) if "build.py" in run)
    assert fetch < build
    assert urls.URLS_PATH == "-/urls.json"
    assert "--previous-manifest previous-urls.json" in runs[fetch] and "$PREVIOUS" in runs[build]
    # only a site that is not there yet (404) builds without its history
    assert '"$status" = 200' in runs[fetch] and '"$status" != 404' in runs[fetch] and "exit 1" in runs[fetch]
    [(out,)] = [(args[args.index("--out") + 1],) for args in build_commands(runs[build])]
    [upload] = [step for step in steps if step.get("uses", "").startswith("actions/upload-pages-artifact@")]
    assert upload["with"]["path"] == out
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert [step["uses"].split("@")[0] for step in deploy["steps"]] == ["actions/deploy-pages"]
    assert workflow["env"]["BASE_URL"].endswith("/")


def test_every_build_command_shown_uses_options_build_py_has(build_help):
    commands = [args for text in blocks("sh") + blocks("yaml") for args in build_commands(text)]
    assert len(commands) >= 3
    for args in commands:
        for option in (arg for arg in args if arg.startswith("--")):
            assert re.search(rf"(^|[\s,\[]){re.escape(option)}\b", build_help), option


def test_the_tool_ref_the_workflow_checks_out_exists(workflow):
    """The recipe runs as written: the tool's `ref` is a commit of this repository."""
    refs = [step["with"]["ref"] for job in workflow["jobs"].values() for step in job["steps"]
            if step.get("uses", "").startswith("actions/checkout") and "ref" in step.get("with", {})]
    assert refs, "the workflow pins the tool's version"
    shallow = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--is-shallow-repository"], capture_output=True,
                             text=True)
    if shallow.returncode or shallow.stdout.strip() == "true":
        pytest.skip("not a full git checkout: its commits cannot be looked up")
    for ref in refs:
        found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
                               capture_output=True, text=True)
        assert found.returncode == 0, f"docs/deploying.md checks out {ref}, which is no commit here"
