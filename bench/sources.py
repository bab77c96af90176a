"""Real source windows, in several languages, from a fixed set of Debian packages.

Each *tree* is one package's source as Debian installs it (the Go standard
library, Rust crates, Node packages, the JDK's sources, C and C++ headers, the
Python standard library). We scan it for the lines that raise an error with a
literal message (`raise X("...")`, `errors.New("...")`, `panic!("...")`,
`throw new X("...")`, `#error "..."`…) and keep a 30-36-line window around each,
as the real records have. The result depends only on the installed packages,
whose versions `fingerprint()` names.
"""
from __future__ import annotations

import glob, json, re, subprocess, zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, NamedTuple

WINDOW, BEFORE = 36, 15          # lines per window; lines before the raising one
RUST_CRATES = ("anyhow", "bytes", "clap", "crossbeam-channel", "flate2", "gimli", "indexmap", "petgraph",
               "rayon-core", "regex", "regex-syntax", "serde", "serde_json", "syn", "tokio", "toml", "url")
NODE_PACKAGES = ("argparse", "body-parser", "busboy", "commander", "content-disposition", "cookie", "express",
                 "iconv-lite", "ipaddr.js", "js-yaml", "path-to-regexp", "qs", "semver", "source-map", "undici", "uuid")
JDK_MODULES = ("java.base", "java.desktop", "java.logging", "java.management", "java.naming", "java.net.http",
               "java.sql", "java.xml", "jdk.compiler", "jdk.httpserver")
PACKAGES = ("libpython3.11-stdlib", "golang-1.19-src", "openjdk-17-source", "nlohmann-json3-dev",
            "libstdc++-12-dev", "libcli11-dev", "libfmt-dev", "libspdlog-dev", "libtoml11-dev", "libgtest-dev",
            "libabsl-dev", "libc6-dev", "linux-libc-dev", "libcurl4-doc",
            *(f"librust-{c.replace('_', '-')}-dev" for c in RUST_CRATES), *(f"node-{p}" for p in NODE_PACKAGES))

# One pattern per way of raising an error: named groups cls (the error class), code, msg.
_STR = r'"(?P<msg>(?:[^"\\\n]|\\.)+)"'
HITS = {
    "python": [r'raise\s+(?P<cls>[A-Z][\w.]*)\(\s*[fr]?(?P<q>["\'])(?P<msg>(?:(?!(?P=q))[^\\\n]|\\.)+)(?P=q)'],
    "go": [r'(?P<cls>errors\.New|fmt\.Errorf|panic|log\.Fatalf?)\(\s*' + _STR],
    "rust": [r'(?P<cls>panic!|unreachable!|unimplemented!|bail!|anyhow!|\.expect|Error::custom|Error::new|'
             r'Err)\(\s*(?:[\w:]+,\s*)?' + _STR],
    "javascript": [r'throw new (?P<cls>\w+)\(\s*(?P<q>[\'"`])(?P<msg>(?:(?!(?P=q))[^\\\n]|\\.)+)(?P=q)'],
    "java": [r'throw new (?P<cls>[A-Z]\w*)\(\s*' + _STR],
    "c": [r'^\s*#\s*error\s+' + _STR, r'\b(?P<cls>fatalf|perror|fprintf\s*\(\s*stderr\s*,)\s*\(?\s*' + _STR],
    "cpp": [r'JSON_THROW\((?P<cls>\w+)::create\((?P<code>\d+),\s*' + _STR,
            r'(?P<cls>__throw_\w+)\(\s*(?:__N\()?\s*' + _STR, r'FMT_THROW\(\s*(?P<cls>[\w:]+)\(\s*' + _STR,
            r'throw\s+(?P<cls>[A-Za-z_][\w:]*)\(\s*' + _STR, r'(?P<cls>throw_spdlog_ex)\(\s*' + _STR,
            r'(?P<cls>ABSL_RAW_LOG|ABSL_INTERNAL_LOG|GTEST_LOG_)\(\s*FATAL\s*(?:,|\)\s*<<)\s*' + _STR],
}
HITS = {lang: [re.compile(p) for p in pats] for lang, pats in HITS.items()}
QUICK = {"python": ("raise",), "go": ("errors.New", "Errorf", "panic(", "Fatal"), "javascript": ("throw new",),
         "rust": ("panic!", "unreachable!", "unimplemented!", "bail!", "anyhow!", "expect(", "Error::", "Err("),
         "java": ("throw new",), "c": ("error", "fatalf", "perror", "stderr"), "cpp": ("THROW", "throw", "FATAL")}
SCOPES = {  # the enclosing function, found by looking back from the raising line
    "python": r'^\s*(?:async\s+)?def\s+(\w+)', "go": r'^func\s+(?:\([^)]*\)\s*)?(\w+)',
    "rust": r'^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+)*fn\s+(\w+)',
    "javascript": r'^\s*(?:async\s+)?function\s*\*?\s*(\w+)|^\s*(?:static\s+)?(?:async\s+)?(\w+)\s*\([^)]*\)\s*\{\s*$',
    "java": r'^\s+(?:(?:public|protected|private|static|final|synchronized)\s+)+[\w<>\[\], ]+\s+(\w+)\s*\(',
    "c": r'^(?!\s)(?:static\s+|inline\s+)*[A-Za-z_][\w\s\*]*?\b(\w+)\s*\([^;]*$', "cpp": r'^\s*(?:[\w:<>,\*&~\s]+?\s)?(\w+)\s*\([^;]*\)\s*(?:const\s*)?\{?\s*$'}
SCOPES = {lang: re.compile(p) for lang, p in SCOPES.items()}
LINE_BREAKS = re.compile(r"[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
NOT_NAME = {"if", "for", "while", "switch", "return", "catch", "sizeof", "defined", "else", "new", "throw"}


class Tree(NamedTuple):
    name: str           # package or crate name
    language: str
    repo: str           # GitHub owner/name it comes from
    root: str           # folder on disk, or "zipfile!prefix" inside a zip
    prefix: str         # path of `root` inside the repo
    exts: tuple


@dataclass(frozen=True)
class Window:
    language: str
    package: str
    repo: str
    path: str           # repo-relative
    line: int           # the raising line
    start: int          # first line of the window
    lines: tuple        # the window's lines
    message: str        # the literal as written, format directives and all
    cls: str
    code: str | None
    function: str


def _cargo_repo(folder: str) -> str:
    text = Path(folder, "Cargo.toml").read_text(encoding="utf-8", errors="replace")
    m = re.search(r'^repository\s*=\s*"https://github\.com/([\w.-]+/[\w.-]+?)/?"', text, re.M)
    return m.group(1) if m else f"{Path(folder).name.rsplit('-', 1)[0]}-rs/{Path(folder).name.rsplit('-', 1)[0]}"


def _node_repo(folder: str) -> str:
    repo = json.loads(Path(folder, "package.json").read_bytes()).get("repository") or ""
    repo = repo.get("url", "") if isinstance(repo, dict) else repo
    m = re.search(r'(?:github\.com[/:])?([\w-]+/[\w.-]+?)(?:\.git)?$', repo.removeprefix("github:"))
    return m.group(1) if m else f"{Path(folder).name}/{Path(folder).name}"


def trees() -> list[Tree]:
    """The fixed set of source trees, as installed on this machine (missing ones are left out)."""
    out = [Tree("cpython", "python", "python/cpython", "/usr/lib/python3.11", "Lib/", (".py",)),
           Tree("go", "go", "golang/go", "/usr/share/go-1.19/src", "src/", (".go",)),
           Tree("go-cgo", "c", "golang/go", "/usr/share/go-1.19/src/runtime/cgo", "src/runtime/cgo/", (".c",)),
           Tree("nlohmann-json", "cpp", "nlohmann/json", "/usr/include/nlohmann", "include/nlohmann/", (".hpp",)),
           Tree("libstdc++", "cpp", "gcc-mirror/gcc", "/usr/include/c++/12", "libstdc++-v3/include/", (".h", ".tcc")),
           Tree("cli11", "cpp", "CLIUtils/CLI11", "/usr/include/CLI", "include/CLI/", (".hpp",)),
           Tree("fmt", "cpp", "fmtlib/fmt", "/usr/include/fmt", "include/fmt/", (".h",)),
           Tree("spdlog", "cpp", "gabime/spdlog", "/usr/include/spdlog", "include/spdlog/", (".h",)),
           Tree("toml11", "cpp", "ToruNiina/toml11", "/usr/include/toml", "toml/", (".hpp",)),
           Tree("googletest", "cpp", "google/googletest", "/usr/src/googletest", "", (".cc", ".h")),
           Tree("abseil", "cpp", "abseil/abseil-cpp", "/usr/include/absl", "absl/", (".h",)),
           Tree("curl", "c", "curl/curl", "/usr/share/doc/libcurl4/examples", "docs/examples/", (".c",)),
           Tree("glibc", "c", "bminor/glibc", "/usr/include/x86_64-linux-gnu", "include/", (".h",)),
           Tree("linux", "c", "torvalds/linux", "/usr/include/linux", "include/uapi/linux/", (".h",))]
    for crate in RUST_CRATES:
        found = sorted(glob.glob(f"/usr/share/cargo/registry/{crate}-[0-9]*"))
        if found:
            out.append(Tree(crate, "rust", _cargo_repo(found[-1]), found[-1], "", (".rs",)))
    for package in NODE_PACKAGES:
        if Path(f"/usr/share/nodejs/{package}/package.json").exists():
            out.append(Tree(package, "javascript", _node_repo(f"/usr/share/nodejs/{package}"),
                            f"/usr/share/nodejs/{package}", "", (".js",)))
    for module in JDK_MODULES:
        out.append(Tree(module, "java", "openjdk/jdk17u", f"/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip!{module}/",
                        f"src/{module}/share/classes/", (".java",)))
    return [t for t in out if Path(t.root.split("!")[0]).exists()]


SKIP = re.compile(r"(^|/)(tests?|testdata|testing|examples?|benches|vendor|node_modules|dist|build|idlelib|"
                  r"lib2to3|__pycache__|\.[^/]*)/|_test\.go$|(^|/)test_[^/]*$")


def _files(tree: Tree) -> Iterator[tuple[str, str]]:
    """(path inside the tree, text), in sorted order."""
    if "!" in tree.root:
        archive, inner = tree.root.split("!")
        with zipfile.ZipFile(archive) as zf:
            for name in sorted(n for n in zf.namelist() if n.startswith(inner) and n.endswith(tree.exts)):
                if not SKIP.search(name):
                    yield name[len(inner):], zf.read(name).decode("utf-8", "replace")
        return
    root = Path(tree.root)
    for path in sorted(p for p in root.rglob("*") if p.suffix in tree.exts and p.is_file()):
        rel = path.relative_to(root).as_posix()
        if not SKIP.search(rel) and path.stat().st_size < 2_000_000:
            yield rel, path.read_bytes().decode("utf-8", "replace")


def _scope(lines: list[str], index: int, language: str) -> str:
    for k in range(index - 1, max(-1, index - 80), -1):
        m = SCOPES[language].search(lines[k])
        name = m and next((g for g in m.groups() if g), None)
        if name and name not in NOT_NAME:
            return name
    return ""


def windows(tree: Tree) -> Iterator[Window]:
    """Every raising line of the tree that has a usable message, with its window."""
    quick = QUICK[tree.language]
    for rel, text in _files(tree):
        if not any(q in text for q in quick):
            continue
        lines = LINE_BREAKS.sub(" ", text.replace("\r\n", "\n").replace("\r", "\n")).split("\n")
        lines = lines[:-1] if lines and lines[-1] == "" else lines
        if len(lines) < 30:
            continue
        for i, line in enumerate(lines):
            if not any(q in line for q in quick):
                continue
            m = next((m for rx in HITS[tree.language] if (m := rx.search(line))), None)
            if not m or "\ufffd" in line:
                continue
            start = max(1, min(i + 1 - BEFORE, len(lines) - WINDOW + 1))
            chunk = tuple(lines[start - 1:start - 1 + WINDOW])
            if any(len(c) > 240 for c in chunk):
                continue
            groups = m.groupdict()
            yield Window(tree.language, tree.name, tree.repo, tree.prefix + rel, i + 1, start, chunk,
                         groups["msg"], (groups.get("cls") or "").strip(" (,"), groups.get("code"),
                         _scope(lines, i, tree.language))


def fingerprint() -> str:
    """The versions of the packages the trees come from, one `name version` a line."""
    run = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}\n", *PACKAGES],
                         capture_output=True, text=True)
    return "".join(sorted(line + "\n" for line in run.stdout.splitlines() if line.strip()))
