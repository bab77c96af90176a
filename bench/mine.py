"""Mine real error messages from the `raise` statements of installed Python code.

Distractor records for search tests and benchmarks must read like real ones:
real messages that share common words ("invalid argument", "out of range") and
real source around them.  Invented text would make search look better than it
is, so we parse the standard library and site-packages with `ast` and keep
every `raise SomeError(<literal | f-string | "%" | .format>)` message.

The result depends only on the Python files installed on this machine, of
the packages the lock files pin (and pip's): a tool installed beside them
(a profiler, a linter) must not change the distractors, or a developer's
figures would differ from CI's fresh environment.
"""
from __future__ import annotations

import ast, functools, importlib.metadata, os, re, string, sysconfig, zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

CONTEXT = 12                      # source lines kept around each raise
SKIP_DIRS = {"test", "tests", "idlelib", "site-packages", "__pycache__"}
NUMERIC = re.compile(r"(^|_)(n|i|j|k|num\w*|count|size|len|length|index|idx|line\w*|pos|offset|width"
                     r"|height|depth|level|axis|dim|ndim|rank|step|max\w*|min\w*|limit|total|port|\w*bytes)(_|$)")
WORDS = ["foo", "bar", "baz", "qux", "spam", "eggs", "alpha", "beta", "main", "default", "item",
         "sample", "widget", "label", "node_7", "user_42", "key1", "col_a", "src", "dst", "tmp",
         "obj", "record", "field_1", "layer2", "my_model", "config.yaml", "data.csv", "x", "y"]
NUMBERS = ["3", "0", "2", "5", "16", "42", "128", "-1"]
TYPES = ["int", "str", "NoneType", "list", "dict", "float"]


@dataclass(frozen=True)
class MinedMessage:
    message: str            # concrete text, as a user would see it
    pattern: str            # same text with {name} placeholders
    error_class: str        # exception as written at the raise site
    module_path: str        # repo-relative path, e.g. Lib/json/decoder.py
    line_number: int
    source_lines: list      # real lines around the raise (no newlines inside)
    source_start: int
    package: str            # distribution name, "cpython" for the stdlib
    language: str = "python"
    function: str = ""      # enclosing qualified name, e.g. JSONDecoder.raw_decode


def _name(expr: str, i: int) -> str:
    """Placeholder name from an expression: `len(self.args)` -> `len_self_args`."""
    name = re.sub(r"_+", "_", re.sub(r"[^a-z0-9_]+", "_", expr.lower())).strip("_")[:30]
    return name if name and not name[0].isdigit() else f"arg{i}"


def _value(name: str, spec: str, conv: str | None, salt: str) -> str:
    """A plausible concrete value for a placeholder: a number or type name when its name or
    format says so, else a filler word.  Picked by a hash of the name and the message text
    (salt), so it is deterministic yet no single filler dominates the corpus vocabulary."""
    pick = zlib.crc32(f"{name}|{salt}".encode())
    if (spec and spec[-1] in "dfegxXbn%") or NUMERIC.search(name):
        return NUMBERS[pick % len(NUMBERS)]
    if re.search(r"type|cls|class", name):
        return TYPES[pick % len(TYPES)]
    word = WORDS[pick % len(WORDS)]
    return f"'{word}'" if conv in ("r", "a") else word


def _holes(node: ast.expr) -> list | None:
    """Split a message expression into literal text and (expression, spec, conversion)
    holes: handles "literal", f"..{x}..", "..%s.." % x and "..{}..".format(x)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [p.value if isinstance(p, ast.Constant) else (
            ast.unparse(p.value), "".join(str(getattr(c, "value", "")) for c in getattr(p.format_spec, "values", [])),
            chr(p.conversion) if p.conversion > 0 else None) for p in node.values]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and _is_str(node.left):
        args = [ast.unparse(e) for e in getattr(node.right, "elts", [node.right])]
        text, pos, k, out = node.left.value, 0, 0, []
        for m in re.finditer(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?([a-zA-Z%])", text):
            out.append(text[pos:m.start()])
            pos = m.end()
            if m.group(2) == "%":
                out.append("%")
            else:
                out.append((m.group(1) or (args[k] if k < len(args) else ""), m.group(2), m.group(2)))
                k += not m.group(1)
        return out + [text[pos:]]
    if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "format" and _is_str(node.func.value):
        args, auto, out = [ast.unparse(a) for a in node.args], 0, []
        try:
            for literal, field, spec, conv in string.Formatter().parse(node.func.value.value):
                out.append(literal)
                if field is not None:
                    index = int(field) if field.isdigit() else auto if not field else None
                    out.append((field if index is None else args[index] if index < len(args) else "", spec or "", conv))
                    auto += not field
        except ValueError:
            return None
        return out
    return None


def _is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _render(node: ast.expr) -> tuple[str, str] | None:
    """(message, pattern): holes become plausible values and {name} placeholders."""
    holes = _holes(node)
    if holes is None:
        return None
    msg, pat, i, salt = [], [], 0, "".join(p for p in holes if isinstance(p, str))
    for part in holes:
        if isinstance(part, str):
            msg.append(part), pat.append(part)
        else:
            name, i = _name(part[0], i), i + 1
            msg.append(_value(name, *part[1:], salt)), pat.append("{%s}" % name)
    return "".join(msg), "".join(pat)


def _keep(msg: str) -> bool:
    """Only one-line, printable, searchable messages: 8-200 chars, at least two words."""
    return (8 <= len(msg) <= 200 and len(msg.split()) >= 2 and msg.isprintable()
            and re.search("[A-Za-z]{2}", msg) is not None)


def _mine_file(path: Path, rel: str, package: str) -> Iterator[tuple]:
    """Yield (package, rel, line, col, MinedMessage) for each literal-message raise."""
    if path.stat().st_size > 1_000_000:
        return
    text = path.read_bytes().decode("utf-8", "replace")
    if "raise " not in text:
        return
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return
    lines = scopes = None
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args):
            continue
        cls = ast.unparse(node.exc.func)
        if not re.fullmatch(r"[A-Za-z_][\w.]*", cls) or not cls.rsplit(".", 1)[-1][:1].isupper():
            continue
        rendered = _render(node.exc.args[0])
        if not rendered or not _keep(" ".join(rendered[0].split())):
            continue
        if lines is None:  # split on \n only, as ast counts lines; blank other line breaks
            lines = re.sub(r"[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]", " ",
                           text.replace("\r\n", "\n").replace("\r", "\n")).split("\n")
            lines = lines[:-1] if lines[-1] == "" else lines
            scopes = sorted((n.lineno, n.end_lineno, n.name) for n in ast.walk(tree) if isinstance(
                n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
        start = max(1, min(node.lineno - CONTEXT // 2, len(lines) - CONTEXT + 1))
        snippet = lines[start - 1:start - 1 + CONTEXT]
        yield (package, rel, node.lineno, node.col_offset, MinedMessage(
            " ".join(rendered[0].split()), " ".join(rendered[1].split()), cls, rel,
            node.lineno, snippet, start, package,
            function=".".join(name for first, last, name in scopes if first <= node.lineno <= last)))


LOCKS = ("requirements.lock", "requirements-test.lock")


def _dist_key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@functools.lru_cache(maxsize=1)
def pinned() -> frozenset[str]:
    """The distributions the lock files pin, and pip and setuptools, which
    every virtual environment has."""
    root = Path(__file__).resolve().parent.parent
    names = {"pip", "setuptools"}
    for lock in LOCKS:
        for line in (root / lock).read_text(encoding="utf-8").splitlines():
            match = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)==", line)
            if match:
                names.add(_dist_key(match.group(1)))
    return frozenset(names)


def _sources() -> Iterator[tuple[Path, str, str]]:
    """(file, repo-relative path, package) for the stdlib and every pinned site-packages package."""
    stdlib, purelib = Path(sysconfig.get_paths()["stdlib"]), Path(sysconfig.get_paths()["purelib"])
    dists = importlib.metadata.packages_distributions()
    for root, prefix, is_std in ((stdlib, "Lib/", True), (purelib, "", False)):
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and "." not in d)
            for fn in sorted(f for f in filenames if f.endswith(".py")):
                rel = Path(dirpath, fn).relative_to(root).as_posix()
                top = rel.split("/")[0].removesuffix(".py")
                package = "cpython" if is_std else sorted(dists.get(top, [top.lstrip("_")]))[0]
                if is_std or _dist_key(package) in pinned():
                    yield Path(dirpath, fn), prefix + rel, package


@functools.lru_cache(maxsize=1)
def mine_messages() -> list[MinedMessage]:
    """Every usable raise message, sorted by (package, path, line); a repeated message keeps
    its first site within a package.  Cached: callers must not mutate the list."""
    found = sorted((hit for src in _sources() for hit in _mine_file(*src)), key=lambda h: h[:4])
    seen, out = set(), []
    for *_, m in found:
        if (m.message, m.package) not in seen:
            seen.add((m.message, m.package))
            out.append(m)
    return out
