"""The house rules of docs/architecture.md and STYLE.md, held by a test.

What is held, and over which files:

- a module (a Python or JavaScript file) is at most MODULE_LINES lines: the
  package (errorsite/**), build.py, bench/ and the browser's scripts
  (static/*.js, errorsite/**/*.js; static/vendor/ is a third party's);
- a Python function is at most PY_FUNCTION_LINES lines, from its `def` to its
  last line (ast's lineno to end_lineno; decorators not counted), a nested
  function counted on its own and in its parent;
- a JavaScript function is at most JS_FUNCTION_LINES lines, from its
  `function` (or its name, or an arrow's parameters) to its closing brace,
  read by tests/js_functions.py; a module's wrapper (the UMD factory or
  IIFE around a whole file) is the module, held by the module rule;
- a Python function takes at most PARAMETERS parameters: positional,
  keyword-only and positional-only ones, `*args` and `**kwargs` one each,
  and `self` or `cls` of a method not counted;
- no comment or docstring of the package or the browser's scripts carries a
  benchmark figure (a time, a speed-up, memory in MiB/GiB, a share of the
  build or record step, or a corpus size such as "at 100k"): STYLE.md says
  figures go in bench/results.jsonl and commit messages. A size or a
  budget that is the code's own setting ("under 200 KB", "5% of the
  records") is not a figure; a few facts the pattern catches are named in
  NOT_FIGURES;
- docs/architecture.md's layer table is tests/test_layers.py's LAYERS, row for
  row: one truth, in two places that must agree.

Each rule has an allow-list of today's offenders. It may only shrink: a new
offender fails, and so does an entry that no longer offends (take it off the
list). For the figures, the entry is a file and how many of its lines carry
one."""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from tests.js_functions import scan
from tests.test_layers import LAYERS

ROOT = Path(__file__).resolve().parent.parent

MODULE_LINES = 300
PY_FUNCTION_LINES = 60
JS_FUNCTION_LINES = 100
PARAMETERS = 8

PYTHON = sorted({*ROOT.glob("errorsite/**/*.py"), ROOT / "build.py", *ROOT.glob("bench/*.py")})
PACKAGE_JS = sorted({*ROOT.glob("static/*.js"), *ROOT.glob("errorsite/**/*.js")})
JAVASCRIPT = sorted({*PACKAGE_JS, *ROOT.glob("bench/*.js")})

LONG_MODULES = {
    "bench/quality.py",
    "static/search-ui.js",
}
LONG_PY_FUNCTIONS = {
    "bench/report.py:table",
    "errorsite/search/chunks.py:search_stream",
    "errorsite/validate/fields.py:check_values",
}
LONG_JS_FUNCTIONS: set[str] = set()
MANY_PARAMETERS = {
    "errorsite/cache/planning.py:plan_build",
}
FIGURES_IN_COMMENTS = {  # file: how many of its lines carry a figure
    "errorsite/cache/outcomes.py": 1,
    "errorsite/cache/stored.py": 3,
    "errorsite/markup/code.py": 7,
    "errorsite/records.py": 3,
}

FIGURE = re.compile(r"""
    \d[\d,.]*\s?(?:CPU-s|CPU-ms|ms|µs|us|ns)\b          # 3 µs, 1.55 CPU-ms, 20 ms
  | \d[\d,.]*\s(?:s|seconds?|minutes?)\b               # 1.4 s (not 301s, nor 30s in a quoted message)
  | \b\d+(?:\.\d+)?[x×](?![\w\d])                      # 3.4x, 2× (not 5×7)
  | \d[\d,.]*\s?(?:MiB|GiB)\b                          # what a process held
  | \bat\s\d[\d,]*(?:k\b|,\d{3}\b)                     # at 100k, at 100,000 (records)
  | \d+(?:\.\d+)?%\s(?:of\sthe\s(?:record\sstep|build|time|CPU)|faster|slower|less)\b
""", re.VERBOSE)
NOT_FIGURES = [  # what FIGURE catches that is no measurement of ours
    "2 s on FAT",   # FAT's timestamps: the granularity digests.py allows for
]


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def lines_of(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def python_functions(path: Path) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(qualified name, node) of every function and method of the file: `Class.method`, `outer.inner`."""
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((prefix + child.name, child))
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    arguments = function.args
    names = [a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    return len(names) + (arguments.vararg is not None) + (arguments.kwarg is not None)


def python_comments(path: Path) -> list[tuple[int, str]]:
    """(first line, text) of every comment and docstring of the file."""
    source = path.read_text(encoding="utf-8")
    found = [(token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(source).readline)
             if token.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found.append((first.lineno, first.value.value))
    return found


def figure_lines(comments: list[tuple[int, str]]) -> set[int]:
    """The lines of the comments that carry a benchmark figure."""
    lines = set()
    for first, text in comments:
        for offset, line in enumerate(text.splitlines()):
            for fact in NOT_FIGURES:
                line = line.replace(fact, "")
            if FIGURE.search(line):
                lines.add(first + offset)
    return lines


def held(name: str, found: set[str] | dict[str, int], allowed: set[str] | dict[str, int]) -> None:
    """Fails on an offender the allow-list lacks, and on an entry that no longer offends as it says."""
    if isinstance(allowed, dict):
        new = {key: count for key, count in found.items() if count > allowed.get(key, 0)}
        healed = {key: count for key, count in allowed.items() if found.get(key, 0) < count}
        assert not new, f"{name}: more than allowed (file: lines), move the figures to bench/results.jsonl: {new}"
        assert not healed, f"{name}: fewer than the allow-list says, lower it to {dict(found)}: {healed}"
    else:
        assert not found - allowed, f"{name}: new offenders {sorted(found - allowed)}"
        assert not allowed - found, f"{name}: no longer offend, take them off the list: {sorted(allowed - found)}"


def test_modules_are_short():
    found = {relative(path) for path in [*PYTHON, *JAVASCRIPT] if lines_of(path) > MODULE_LINES}
    held(f"modules over {MODULE_LINES} lines", found, LONG_MODULES)


def test_python_functions_are_short():
    found = {f"{relative(path)}:{name}" for path in PYTHON for name, node in python_functions(path)
             if node.end_lineno - node.lineno + 1 > PY_FUNCTION_LINES}
    held(f"Python functions over {PY_FUNCTION_LINES} lines", found, LONG_PY_FUNCTIONS)


def test_javascript_functions_are_short():
    found = {f"{relative(path)}:{function.name}" for path in JAVASCRIPT
             for function in scan(path.read_text(encoding="utf-8")).functions
             if not function.wrapper and function.lines > JS_FUNCTION_LINES}
    held(f"JavaScript functions over {JS_FUNCTION_LINES} lines", found, LONG_JS_FUNCTIONS)


def test_python_functions_take_few_parameters():
    found = {f"{relative(path)}:{name}" for path in PYTHON for name, node in python_functions(path)
             if parameters(node) > PARAMETERS}
    held(f"Python functions of over {PARAMETERS} parameters", found, MANY_PARAMETERS)


def test_comments_carry_no_benchmark_figures():
    found = {}
    for path in [*(p for p in PYTHON if relative(p).startswith("errorsite/")), *PACKAGE_JS]:
        comments = python_comments(path) if path.suffix == ".py" else scan(path.read_text("utf-8")).comments
        if count := len(figure_lines(comments)):
            found[relative(path)] = count
    held("lines of comments with a benchmark figure", found, FIGURES_IN_COMMENTS)


def architecture_layers() -> list[tuple[str, set[str]]]:
    """docs/architecture.md's layer table: (layer, its modules as test_layers names them), lowest first.
    `x.py` and `x/` name module x, `group/x.py` module group.x; `__init__.py` is the package itself."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][2:]   # past the head and its rule
    layers = []
    for row in rows:
        layer, modules = (cell.strip() for cell in row.strip("|").split("|")[:2])
        names = re.findall(r"`([\w./]+?)(?:\.py|/)`", modules)
        layers.append((layer, {"errorsite" if name == "__init__" else name.replace("/", ".") for name in names}))
    return layers


def test_the_layer_table_of_the_docs_is_the_tests():
    assert architecture_layers() == [(layer, set(units)) for layer, units in LAYERS]


def test_figures_are_told_from_settings():
    caught = ["(1.0 of 17.4 CPU-s at 100k).", "about 1 µs more", "5.5% faster", "the twin's 22 MB at 100k",
              "took 3.4x as long", "peaked at 1,068 MiB", "(5 s at 100,000 records)", "2.4% of the record step"]
    passed = ["the largest real record is ~30 KB", "under 200 KB", "a word in more than 5% of the records",
              "Connection timed out after 30s", "as real 301s", "5×7 glyphs", "12.5% more per unit",
              "a 2 s on FAT granularity", "BUDGET_S = 2  # seconds of CPU a record's code may take"]
    assert [text for text in caught if not figure_lines([(1, text)])] == []
    assert [text for text in passed if figure_lines([(1, text)])] == []


def test_the_scanner_reads_javascript():
    source = """(function (root, factory) { root.X = factory(); })(this, function () {
      var re = /[/{]\\}/g, s = "}{", t = `a ${ {b: 1}.b } }`;
      // a comment with a } brace
      function named(a, b) {
        return a / b / 2;
      }
      var arrow = (x) => {
        return { y: x };
      };
      var o = { method(z) { if (z) { return 1; } return 2; } };
      return { named: named };
    });
    """
    found = {(f.name, f.first_line, f.last_line, f.wrapper) for f in scan(source).functions}
    assert found == {("<function at line 1>", 1, 1, True), ("<function at line 1>", 1, 12, True),
                     ("named", 4, 6, False), ("arrow", 7, 9, False), ("method", 10, 10, False)}
    assert [line for line, _ in scan(source).comments] == [3]
