"""The names each repository goes by in real output, for the browser to match
against the context of a paste (`node_modules/express/`, `site-packages/requests/`,
`candle_core::…`, `redis.exceptions.ResponseError`, `llama-server`).

A repository is known by its own name, and by the top-level module or package
of its records' `errorClass` (`candle_core::Error::Msg` → `candle_core`,
`pydantic.errors.PydanticUserError` → `pydantic`) and `filePath`
(`candle-core/src/x.rs` → `candle_core`, `src/jinja2/parser.py` → `jinja2`).
The result is a small map, name → repositories, shipped beside the index.

`name_key` and `name_aliases` have twins in `static/search-paste.js`, which
reads this module's word lists from meta.json (`name_rules`); a test runs both
on the same names.
"""
from __future__ import annotations

import re

from ..model import Summary

# Leading folders that hold a project's code rather than name it.
SOURCE_ROOTS = frozenset({
    "src", "lib", "libs", "include", "pkg", "packages", "crates", "source", "sources", "modules",
    "main", "java", "kotlin", "scala", "python", "py", "js", "go", "rust", "cpp", "app", "apps",
})
# Reverse-domain prefixes of Java-style packages: `com.fasterxml.jackson` is fasterxml's.
DOMAINS = frozenset({"com", "org", "io", "net", "dev", "me", "co", "edu", "gov", "uk", "de", "fr", "app"})
# The vendor before a .NET namespace: `Microsoft.EntityFrameworkCore` is EntityFrameworkCore.
VENDORS = frozenset({"microsoft"})
# Roots of a language's own library: they name no repository in a record's class.
BUILTIN_ROOTS = frozenset({"std", "core", "alloc", "java", "javax", "jdk", "sun", "kotlin", "scala",
                           "builtins", "system", "node", "internal", "crate", "self", "super"})
# Module names too generic to name a repository (`errors.HeaderParseError` is
# whatever module imported `errors`).
GENERIC = frozenset({"error", "errors", "exception", "exceptions", "exc", "util", "utils", "base", "common",
                     "core", "internal", "lib", "main", "types", "models", "api", "client", "clients",
                     "server", "impl", "test", "tests", "src", "app"})
# How a project's name differs from its repository's: `llama.cpp` is llama,
# `markdown-it-py` is markdown_it, `node-glob` is glob, `redis-cli` is redis.
PREFIXES = ("node_", "python_", "py_", "go_", "rust_", "js_")
SUFFIXES = ("_py", "_js", "_rs", "_go", "_cpp", "_rb", "_php", "_cli", "_server", "_client", "_core",
            "_sdk", "_lib", "_rust", "_python", "_node")
# A command at a shell prompt names its program (`$ llama-server -m …`,
# `C:\app>webpack`), found past the launchers before it (`sudo`, `npx`,
# `python -m`); a runner of scripts names nothing (`npm run build`,
# `python train.py`). The browser reads both lists from meta.json.
LAUNCHERS = ("sudo", "npx", "pnpx", "bunx", "env", "time", "nohup", "exec", "python -m", "python3 -m", "py -m",
             "uv run", "uvx", "poetry run", "pipenv run", "pdm run", "npm exec", "pnpm exec", "pnpm dlx", "yarn dlx")
RUNNERS = frozenset({"npm", "yarn", "pnpm", "bun", "node", "deno", "python", "python3", "py", "uv", "poetry",
                     "pipenv", "pdm", "bash", "sh", "zsh", "fish", "cmd", "powershell", "pwsh", "cd", "ls", "dir",
                     "cat", "echo", "make", "start"})
_SEPARATORS = re.compile(r"[-.\s]+")
_KEY = re.compile(r"^[a-z0-9_][a-z0-9_/@]*$")
_CLASS_SPLIT = re.compile(r"::|\.|\\")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def name_rules() -> dict[str, list[str]]:
    """The word lists the browser reads a paste's names with, for meta.json."""
    return {"generic": sorted(GENERIC), "prefixes": list(PREFIXES), "suffixes": list(SUFFIXES),
            "domains": sorted(DOMAINS | VENDORS), "builtinRoots": sorted(BUILTIN_ROOTS),
            "launchers": list(LAUNCHERS), "runners": sorted(RUNNERS)}


def name_key(name: str) -> str:
    """The form both sides compare: lowercase, `-` and `.` as `_`, no outer `_`."""
    return _SEPARATORS.sub("_", name.lower()).strip("_")


def name_aliases(name: str) -> list[str]:
    """The key of a name, then the key without one language or tool affix."""
    key = name_key(name)
    if not key or key in GENERIC:
        return []
    keys = [key]
    for prefix in PREFIXES:
        if key.startswith(prefix) and len(key) > len(prefix) + 1:
            keys.append(key[len(prefix):])
    for suffix in SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix) + 1:
            keys.append(key[:-len(suffix)])
    return [k for k in dict.fromkeys(keys) if k not in GENERIC]


def class_names(error_class: str) -> list[str]:
    """The package of a dotted, `::` or PHP class: `requests.exceptions.InvalidURL` → requests,
    `Illuminate\\Database\\QueryException` → Illuminate."""
    parts = [part for part in _CLASS_SPLIT.split(error_class.strip()) if part]
    if len(parts) < 2 or not all(_IDENTIFIER.match(part) for part in parts):
        return []
    names = []
    if parts[0].lower() in VENDORS and len(parts) > 2:
        parts = parts[1:]
    elif parts[0].lower() in DOMAINS and len(parts) > 2:
        parts = parts[1:]
        names = [parts[1]] if len(parts) > 2 else []  # com.fasterxml.jackson: fasterxml, jackson
    if parts[0].lower() in BUILTIN_ROOTS:
        return []
    return [parts[0], *names]


def path_names(file_path: str) -> list[str]:
    """The top-level package of a source file: its first folder past the source
    roots (`include/nlohmann/…` → nlohmann), or a top-level Python module."""
    parts = [part for part in file_path.replace("\\", "/").split("/") if part not in ("", ".")]
    while len(parts) > 1 and (parts[0].lower() in SOURCE_ROOTS or parts[0].lower() in DOMAINS):
        parts = parts[1:]
    if len(parts) > 1:
        return [parts[0]] if _IDENTIFIER.match(parts[0]) else []
    if parts and parts[0].endswith(".py") and _IDENTIFIER.match(parts[0][:-3]):
        return [parts[0][:-3]]
    return []


def record_names(record: Summary) -> list[str]:
    """Every key this record's repository is known by."""
    owner, _, repo = record.repo.partition("/")
    names = [repo, *class_names(record.error_class or ""), *path_names(record.file_path or "")]
    keys = [key for name in names for key in name_aliases(name) if _KEY.match(key) and len(key) > 1]
    return list(dict.fromkeys([f"{owner}/{repo}".lower(), *keys]))  # first: as in github.com/owner/name


def repo_names(records: list[Summary]) -> dict[str, list[str]]:
    """name → the repositories known by it, sorted; deterministic JSON."""
    names: dict[str, set[str]] = {}
    for record in records:
        for key in record_names(record):
            names.setdefault(key, set()).add(record.repo)
    return {key: sorted(repos) for key, repos in sorted(names.items())}
