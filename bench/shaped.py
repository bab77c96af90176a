"""Deterministic corpus of records shaped like the real ones, for benchmarks.

Each record wraps one real raising line from bench/sources.py: its 30-36-line
source window, the message as a user sees it (format directives filled in) and
its pattern, in one of seven languages taken in turn (as in the real records,
where each language has about the same share). Every field is filled the way
the real records fill it: prose paragraphs in Markdown, three solutions and
three tips, 4-5 tags, and all five code fields in the record's language.

The records come from repositories shaped like the dataset's (bench/repos.py):
about 500 at 10,000 records and 2,500 at 100,000, a long-tailed number of
records each, owners and names as varied as GitHub's. A repository has one
language and takes that language's windows in a seeded order (they repeat
once a language's run out), its own package name in its paths and classes.
Output depends only on (count, seed) and on the installed packages.

    python bench/shaped.py --count 1000 --out /tmp/corpus1k [--seed 0]
"""
from __future__ import annotations

import argparse, dataclasses, functools, hashlib, json, re, sys, zlib
from pathlib import Path, PurePosixPath
from typing import Iterator

if __package__ in (None, ""):     # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import snippets as S  # noqa: E402
from bench.repos import Repository, repositories  # noqa: E402
from bench.corpus import CLASS_TYPES, ERROR_TYPES, STRATEGIES, slugify, write_docs  # noqa: E402
from bench.sources import Window, trees, windows  # noqa: E402

LANGUAGES = ("python", "go", "rust", "javascript", "java", "c", "cpp")
DATASET = "2026-11-30T00:00:00.000Z"
DIRECTIVE = re.compile(r"%%|\{\{|\}\}|%(?:\((\w+)\))?[-+#0]*\d*(?:\.\d+)?([a-zA-Z])|\$\{([^}]*)\}|\{([^{}]*)\}")
WORDS = ["foo", "bar", "config.yaml", "main", "default", "item", "user_42", "key1", "/tmp/data.csv", "widget",
         "node_7", "src", "dst", "alpha", "beta", "sample", "field_1", "layer2", "text/html", "utf-8"]
NUMBERS = ["3", "0", "2", "5", "16", "42", "128", "-1", "4096"]
TYPES = ["int", "str", "nil", "bool", "float64", "object"]
CPP_CLASSES = {"throw_spdlog_ex": "spdlog::spdlog_ex", "FMT_THROW": "fmt::format_error"}


def _hash(*parts: object) -> int:
    return int(hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:15], 16)


def _pick(options: list, *parts: object):
    return options[_hash(*parts) % len(options)]


def render_message(literal: str, salt: str) -> tuple[str, str]:
    """(message, pattern) from a string literal: escapes read, format directives
    (printf's %s, Rust's and Python's {}, JS's ${}) become a plausible value in the
    message and a {name} placeholder in the pattern."""
    text = re.sub(r"\\(.)", lambda m: {"n": " ", "t": " "}.get(m.group(1), m.group(1)), literal)
    message, pattern, pos, i = [], [], 0, 0
    for m in DIRECTIVE.finditer(text):
        named, verb, js, brace = m.groups()
        message.append(text[pos:m.start()]), pattern.append(text[pos:m.start()])
        pos = m.end()
        if m.group(0) in ("%%", "{{", "}}") or (brace is not None and not re.fullmatch(r"[\w.:?#<>]*", brace)):
            literal = m.group(0)[0] if m.group(0) in ("%%", "{{", "}}") else m.group(0)
            message.append(literal), pattern.append(literal)
            continue
        inner = re.sub(r"\W+", "_", named or js or (brace or "").split(":")[0]).strip("_").lower()[:24]
        name = inner if inner[:1].isalpha() else "n" if verb and verb in "diux" else f"arg{i}"
        i += 1
        pick = zlib.crc32(f"{name}|{salt}".encode())
        if (verb and verb in "dioxXufgeb") or re.search(r"(^|_)(n|len|size|count|index|idx|line|max|min|pos)(_|$)", name):
            value = NUMBERS[pick % len(NUMBERS)]
        elif verb == "T" or re.search(r"type|kind|cls", name):
            value = TYPES[pick % len(TYPES)]
        else:
            value = WORDS[pick % len(WORDS)]
        message.append(value), pattern.append("{%s}" % name)
    message.append(text[pos:]), pattern.append(text[pos:])
    return " ".join("".join(message).split()), " ".join("".join(pattern).split())


def usable(message: str) -> bool:
    return (8 <= len(message) <= 200 and len(message.split()) >= 2 and message.isprintable()
            and re.search("[A-Za-z]{3}", message) is not None)


@functools.lru_cache(maxsize=None)
def pool(language: str) -> tuple[Window, ...]:
    """Every usable window of one language, one per (repo, message)."""
    seen, out = set(), []
    for tree in trees():
        if tree.language == language:
            for w in windows(tree):
                message = render_message(w.message, w.path)[0]
                if usable(message) and (w.repo, message) not in seen:
                    seen.add((w.repo, message))
                    out.append(w)
    return tuple(out)


def error_class(w: Window) -> str | None:
    """The exception as the real records name it; Go's errors and C's messages have none."""
    if w.language in ("go", "c") or w.cls in ("panic!", "unreachable!", "unimplemented!", ".expect", ""):
        return None
    if w.language == "rust":
        return f"{w.package.replace('-', '_')}::Error"
    if w.language == "cpp":
        if w.code:
            return f"nlohmann::json::{w.cls}"
        if w.cls.startswith("__throw_"):
            return "std::" + w.cls.removeprefix("__throw_").removesuffix("_fmt")
        return CPP_CLASSES.get(w.cls, None if w.cls.isupper() else w.cls)
    return w.cls


def names(w: Window) -> dict:
    """The identifiers the prose and code talk about."""
    path = PurePosixPath(w.path)
    stem = re.sub(r"\W", "_", path.stem.split(".")[0]) or "module"
    function = w.function or stem
    if w.language == "python":
        module = ".".join(path.with_suffix("").parts[1:]).removesuffix(".__init__") or stem
        func, call = f"{module}.{function}", f"{function}(value)"
    elif w.language == "go":
        func = call = f"{path.parent.name}.{function}"
        call += "(value)"
    elif w.language == "rust":
        func = f"{w.package.replace('-', '_')}::{function}"
        call = f"{func}(input)"
    elif w.language == "java":
        func = f"{stem}.{function}"
        call = f"{stem[:1].lower()}{stem[1:]}.{function}(value)"
    else:
        func, call = function, f"{function}(arg)"
    return {"func": func, "call": call, "file": w.path, "line": w.line, "pkg": w.package}


def package_tag(w: Window) -> str:
    tag = slugify(w.package, 40)
    return tag if tag != w.language else slugify(PurePosixPath(w.path).parent.name, 40)


def _record(w: Window, repo: str, slug: str, message: str, pattern: str, seed: int) -> dict:
    key = (seed, repo, slug)
    cls = error_class(w)
    short = (cls or "").rsplit("::", 1)[-1].rsplit(".", 1)[-1] or {"go": "error", "c": "error"}.get(
        w.language, "RuntimeError" if w.language == "python" else "Error")
    etype = next((t for p, t in CLASS_TYPES if re.search(p, short.lower())), None) or _pick(ERROR_TYPES, *key, "type")
    fmt = {**names(w), "cls": cls or short, "short": short, "msg": message, "kind": S.KINDS[etype],
           "lit": json.dumps(message, ensure_ascii=False) if w.language != "python" else repr(message)}
    if w.language in ("javascript",):
        fmt["lit"] = "'" + message.replace("\\", "\\\\").replace("'", "\\'") + "'"
    sha = hashlib.sha1(f"{w.repo} {w.package}".encode()).hexdigest()
    end = w.start + len(w.lines) - 1
    rot, sev = _hash(*key, "rotation"), _hash(*key, "severity") % 30
    keyword = next((word for word in re.findall(r"[a-z]{4,}", message.lower())
                    if word not in ("must", "should", "with", "that", "from", "when", "have", "cannot")), etype)
    background = f"{_pick(['invalid', 'unsupported', 'missing', 'bad'], *key, 'bg')}-{keyword}"
    code = (f"json.exception.{w.cls}.{w.code}" if w.code else
            background.upper().replace("-", "_") if _hash(*key, "code") % 5 < 2 else None)
    http = _pick([400, 404, 413, 500], *key, "http") if "http" in w.path.lower() and rot % 3 == 0 else None
    day = 1 + _hash(*key, "day") % 28
    code_fields = {field: _pick(variants, *key, field).format(**fmt) for field, variants in S.CODE[w.language].items()}
    return {
        "id": hashlib.sha256(f"{repo}/{slug}".encode()).hexdigest()[:16],
        "repo": repo, "slug": slug, "errorCode": code, "errorMessage": message,
        "messagePattern": pattern, "errorType": etype, "errorClass": cls, "httpStatus": http,
        "severity": "critical" if sev == 0 else "warning" if sev < 3 else "error",
        "filePath": w.path, "lineNumber": w.line, "sourceCode": "\n".join(w.lines),
        "sourceCodeStart": w.start, "sourceCodeEnd": end,
        "githubUrl": f"https://github.com/{repo}/blob/{sha}/{w.path}#L{w.start}-L{end}",
        "documentation": _pick(S.DOCS, *key, "doc").format(**fmt),
        "triggerScenarios": _pick(S.TRIGGERS, *key, "trigger").format(**fmt),
        "commonSituations": _pick(S.SITUATIONS, *key, "situation").format(**fmt),
        "solutions": [S.SOLUTIONS[(rot + k) % len(S.SOLUTIONS)].format(**fmt) for k in range(3)],
        "exampleFix": code_fields["exampleFix"], "handlingStrategy": _pick(STRATEGIES, *key, "strategy"),
        "validationCode": code_fields["validationCode"], "typeGuard": code_fields["typeGuard"],
        "tryCatchPattern": code_fields["tryCatchPattern"],
        "preventionTips": [S.TIPS[(rot + k) % len(S.TIPS)].format(**fmt) for k in range(3)],
        "tags": list(dict.fromkeys([w.language, package_tag(w), etype, keyword]
                                   + ([slugify(PurePosixPath(w.path).stem, 40)] if rot % 2 else []))),
        "backgroundTag": background, "analyzedSha": sha,
        "analyzedAt": f"2026-11-{day:02d}T{_hash(*key, 'h') % 24:02d}:{_hash(*key, 'm') % 60:02d}:00.000Z",
        "contentChangedAt": f"2026-10-{day:02d}T00:00:00.000Z" if rot % 5 == 0 else None, "schemaVersion": 2,
    }


def placed(w: Window, repository: Repository) -> Window:
    """The window as if it were this repository's code: its repo, its package
    in Python paths (`Lib/json/x.py` → `mypkg/json/x.py`) and in prose and classes."""
    path = w.path
    if w.language == "python":
        path = f"{repository.package}/{path.removeprefix('Lib/')}"
    return dataclasses.replace(w, repo=repository.repo, package=repository.package, path=path)


def iter_records(count: int, seed: int = 0, languages: tuple = LANGUAGES, repos: int | None = None) -> Iterator[dict]:
    """`count` documents, lazily, from the repositories of bench/repos.py (`repos`
    overrides their number): each language's windows in a seeded order, taken
    in turn by the repositories of that language and repeated once they run out."""
    pools = {lang: sorted(pool(lang), key=lambda w: _hash(seed, w.repo, w.path, w.line)) for lang in languages}
    pools = {lang: ws for lang, ws in pools.items() if ws}
    if not pools:
        raise SystemExit("no source trees found: see bench/README (apt-get install ...)")
    taken_per = dict.fromkeys(pools, 0)
    for repository in repositories(count, seed, tuple(pools), repos):
        used: set[str] = set()
        for _ in range(repository.records):
            lang = repository.language
            w = placed(pools[lang][taken_per[lang] % len(pools[lang])], repository)
            taken_per[lang] += 1
            message, pattern = render_message(w.message, f"{w.path}|{repository.repo}")
            base, n = slugify(message, 72), 1
            slug = base
            while slug in used or slug == "page":
                n += 1
                slug = f"{base}-{n}"
            used.add(slug)
            yield {"record": _record(w, repository.repo, slug, message, pattern, seed), "datasetVersion": DATASET}


def write_corpus(out_dir: Path, count: int, seed: int = 0, languages: tuple = LANGUAGES,
                 repos: int | None = None) -> int:
    """One `{owner}__{name}__{slug}.json` per record, written as it is made."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    return write_docs(out_dir, iter_records(count, seed, languages, repos))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repos", type=int, help="how many repositories (default: about 500 at 10k, 2,500 at 100k)")
    args = ap.parse_args(argv)
    print(f"{write_corpus(args.out, args.count, args.seed, repos=args.repos)} records in {args.out}")
    for lang in LANGUAGES:
        print(f"  {lang}: {len(pool(lang))} distinct source windows")


if __name__ == "__main__":
    main()
