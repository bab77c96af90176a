"""The package's layering, as docs/architecture.md states it, read from every
import of every module (ast): a module imports only modules of lower layers
(and its own subpackage), and never another module's private (`_name`)
helpers. An import under `if TYPE_CHECKING:` is an annotation, never run,
and is not counted. A folder that groups modules by what they hold (GROUPS)
is no layer: each module in it, or package, keeps a layer of its own."""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "errorsite"

# Lowest first. `errorsite` is the package itself (its __version__). Each
# layer may import every layer before it, none after it, and none of its own
# but itself. docs/architecture.md holds the same table, row for row
# (tests/test_house_rules.py compares them).
LAYERS = [
    ("values", {"errorsite", "model", "urls", "resources", "process.generator_result", "tools.logsafe"}),
    ("helpers", {"process.budget", "process.background", "tokens", "process.pool", "process.cpus", "text",
                 "pages.template_errors"}),
    ("load", {"load"}),
    ("previous build", {"cache"}),
    ("validate", {"validate"}),
    ("markup", {"markup"}),
    ("plain text", {"pages.plain_text"}),
    ("page parts", {"pages.sitecard", "pages.describe", "pages.share", "pages.assets", "pages.api"}),
    ("cards", {"pages.cards"}),
    ("render", {"pages.render", "pages.readable"}),
    ("listing machinery", {"pages.listing"}),
    ("indexes", {"pages.codes", "pages.tag_index"}),
    ("listings", {"pages.browse", "pages.feeds", "pages.schema", "pages.url_history", "pages.links"}),
    ("record step and redirects", {"records", "pages.redirects"}),
    ("global steps", {"pages.sitewide", "search"}),
    ("shards", {"shards"}),
    ("write", {"write"}),
    ("pipeline", {"pipeline"}),
    ("commands", {"config", "tools.check", "tools.reporting", "tools.find"}),
    ("bot", {"tools.bot"}),
    ("serve", {"tools.serve"}),
    ("cli", {"cli"}),
    ("main", {"__main__"}),
]
LAYER = {unit: index for index, (_, units) in enumerate(LAYERS) for unit in units}

# Folders that group modules of several layers by what they hold (the page
# makers, the tools beside the build, the process plumbing): no layer
# themselves, each module or package in one has a layer of its own, so a
# folder never lets its modules import each other against the layers.
GROUPS = {"pages", "tools", "process"}


def unit_of(module: str) -> str:
    """errorsite.cache.keys → cache; errorsite.pages.render → pages.render;
    errorsite.tools.find.command → tools.find; errorsite → errorsite."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] in GROUPS:
        return ".".join(parts[1:3])
    return parts[1] if len(parts) > 1 else parts[0]


def is_group(module: str) -> bool:
    """errorsite.pages, a folder of GROUPS (its __init__.py), rather than a module of it."""
    parts = module.split(".")
    return len(parts) == 2 and parts[1] in GROUPS


def module_of(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under `if TYPE_CHECKING:`."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            skipped |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    return skipped


def imports(path: Path) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) of each import in the file that names errorsite."""
    module = module_of(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = type_checking_only(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join([*base, *([node.module] if node.module else [])]) if node.level else node.module
            names = [alias.name for alias in node.names]
            if target == "errorsite" or is_group(target) or (node.module is None and node.level):
                # `from . import urls`, `from .pages import render`: each name may be a module of its own
                found += [(f"{target}.{name}" if f"{target}.{name}" != "errorsite.__version__" else target, [], node.lineno)
                          for name in names]
            elif target and target.split(".")[0] == "errorsite":
                found.append((target, names, node.lineno))
        elif isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names if alias.name.split(".")[0] == "errorsite"]
    return found


def violations(importer: str, imported: str, names: list[str]) -> list[str]:
    """Why `importer` (a module) may not import `names` of `imported`; [] if it may."""
    mine, theirs = unit_of(importer), unit_of(imported)
    if mine == theirs:
        return []
    for unit in (mine, theirs):
        if unit not in LAYER:
            return [f"{unit} is in no layer of tests/test_layers.py and docs/architecture.md: give it one"]
    why = []
    if LAYER[theirs] >= LAYER[mine]:
        why.append(f"{mine} ({LAYERS[LAYER[mine]][0]}) imports {theirs} ({LAYERS[LAYER[theirs]][0]}), "
                   f"{'a layer above it' if LAYER[theirs] > LAYER[mine] else 'its own layer'}")
    why += [f"{mine} imports {theirs}'s private {name}" for name in names
            if name.startswith("_") and not name.startswith("__")]
    return why


def modules() -> list[Path]:
    """Every module of the package but a group's __init__.py, a docstring alone."""
    return [path for path in sorted(PACKAGE.rglob("*.py")) if not is_group(module_of(path))]


@lru_cache(maxsize=1)
def all_imports() -> list[tuple[str, str, list[str], int]]:
    return [(module_of(path), target, names, line) for path in modules()
            for target, names, line in imports(path)]


def test_every_import_keeps_to_the_layers():
    broken = [f"{importer}:{line}: {why}" for importer, imported, names, line in all_imports()
              for why in violations(importer, imported, names)]
    assert broken == []


def test_every_module_has_a_layer():
    units = {unit_of(module_of(path)) for path in modules()}
    assert units - set(LAYER) == set()


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_a_group_is_a_folder_with_a_docstring(group):
    """A group's __init__.py says what the folder holds, and holds nothing itself:
    were it to import its modules, importing one would run every other."""
    tree = ast.parse((PACKAGE / group / "__init__.py").read_text(encoding="utf-8"))
    assert ast.get_docstring(tree) and len(tree.body) == 1


def test_the_imports_are_read():
    found = {(unit_of(importer), unit_of(imported)) for importer, imported, _, _ in all_imports()}
    assert {("pipeline", "cache"), ("validate", "load"), ("cache", "errorsite"), ("records", "pages.render"),
            ("pipeline", "search"), ("records", "pages.plain_text"), ("write", "cache")} <= found


@pytest.mark.parametrize("importer, imported, names", [
    ("errorsite.cache.keys", "errorsite.pages.render", ["SiteOptions"]),  # once real (issue 43): the keys sit below render
    ("errorsite.load.scan", "errorsite.validate", ["ID_RE"]),
    ("errorsite.validate.record", "errorsite.pages.render", ["render"]),
    ("errorsite.model", "errorsite.urls", []),                      # values share one layer: none imports another
    ("errorsite.pages.links", "errorsite.pages.browse", ["paginate"]),  # once real (issue 43): pages/listing.py holds what both use
    ("errorsite.pages.render", "errorsite.pages.sitewide", []),     # a group is no layer: its modules keep theirs
    ("errorsite.write.guard", "errorsite.pipeline", ["PROJECT"]),
    ("errorsite.tools.check", "errorsite.tools.reporting", []),
    ("errorsite.process.pool", "errorsite.process.background", []),
    ("errorsite.pages.browse", "errorsite.markup.code", ["_highlight"]),  # a private helper, though the layer is lower
])
def test_an_import_against_the_layers_is_named(importer, imported, names):
    assert violations(importer, imported, names)


# The four imports issue 43 found against the old page's rule ("steps in the
# order they run"), each moved out of the code (architecture.md). The table
# forbids each, so that neither the import nor a table allowing it again comes
# back unnoticed.
MOVED_OUT = [
    ("errorsite.validate", "errorsite.markup"),            # pages/plain_text.py, above both, decides what is plain text
    ("errorsite.pages.links", "errorsite.pages.browse"),   # pages/listing.py, below both, holds what both use
    ("errorsite.cache.keys", "errorsite.pages.render"),    # the templates' folder is resources'
    ("errorsite.pages.sitewide", "errorsite.search"),      # the pipeline passes the search step in
]


@pytest.mark.parametrize("importer, imported", MOVED_OUT)
def test_the_imports_issue_43_moved_out_stay_out(importer, imported):
    mine, theirs = unit_of(importer), unit_of(imported)
    assert LAYER[mine] <= LAYER[theirs], f"the layer table allows {mine} to import {theirs} again"
    assert violations(importer, imported, [])
    assert [(a, b, line) for a, b, _, line in all_imports() if (unit_of(a), unit_of(b)) == (mine, theirs)] == []
