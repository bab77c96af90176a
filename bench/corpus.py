"""Deterministic generator of realistic distractor error records.

A search-quality test builds the real records plus thousands of distractors and
checks that the right record still ranks first.  It needs messages that read
like real ones, so each distractor wraps a real error message mined from
installed Python code (see bench/mine.py) in a full schema-v2 record with
templated prose.  Output depends only on (count, seed) and on the installed
Python files.  These records are cheaper to build than real ones (12-line
windows, short code fields), so the benchmarks use bench/shaped.py instead.

    python bench/corpus.py --count 5000 --out /tmp/corpus5k [--seed 0] [--stats]
"""
from __future__ import annotations

import argparse, hashlib, json, re, sys, time
from collections import Counter
from pathlib import Path
from typing import Iterable, Iterator

if __package__ in (None, ""):     # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.mine import MinedMessage, mine_messages  # noqa: E402  (re-exported)

STAMP = "2026-11-30T00:00:00.000Z"
OWNERS = {  # real GitHub owners for well-known packages; others use owner == name
    "cpython": "python", "pytest": "pytest-dev", "pluggy": "pytest-dev", "flask": "pallets",
    "jinja2": "pallets", "click": "pallets", "werkzeug": "pallets", "markupsafe": "pallets",
    "itsdangerous": "pallets", "pip": "pypa", "setuptools": "pypa", "packaging": "pypa",
    "boto3": "boto", "botocore": "boto", "s3transfer": "boto", "moto": "getmoto",
    "requests": "psf", "pyyaml": "yaml", "python-dateutil": "dateutil", "cfn-lint":
    "aws-cloudformation", "awscli": "aws", "hypothesis": "hypothesisworks", "trio":
    "python-trio", "libcst": "instagram", "markdown-it-py": "executablebooks",
    "cryptography": "pyca", "attrs": "python-attrs", "jedi": "davidhalter", "parso": "davidhalter",
    "playwright": "microsoft", "graphql-core": "graphql-python", "pygments": "pygments"}
# errorType: from the exception's name when it says, else a hash pick among generic types
CLASS_TYPES = [("valid", "validation"), ("pars|syntax", "parse"), ("type", "type"),
               ("notimplemented|unsupported", "unsupported"), ("auth|permission|access|credential", "auth"),
               ("encod|decod|unicode", "encoding"), ("memory|^os|^io|timeout|resource|notfound", "resource"),
               ("config|setting|option", "configuration"), ("shape|dimension", "shape"), ("runtime|state", "state")]
ERROR_TYPES = ["validation", "usage", "state", "configuration", "parse", "shape"]
STRATEGIES = ["validation", "code-fix", "configuration", "migration", "retry"]


def _hash(*parts: object) -> int:
    """Stable across runs and machines, unlike hash()."""
    return int(hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:15], 16)


def _pick(options: list, *parts: object):
    return options[_hash(*parts) % len(options)]


def slugify(text: str, limit: int = 80) -> str:
    """Kebab-case of text, cut at a word boundary so it stays within limit chars."""
    slug = ""
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if len(slug) + len(word) + bool(slug) > limit:
            break
        slug += "-" * bool(slug) + word
    return slug or re.sub(r"[^a-z0-9]", "", text.lower())[:limit] or "error"


def _repo(package: str, fork: int) -> str:
    name = re.sub(r"[^a-z0-9._-]+", "-", package.lower()).strip("-._") or "pkg"
    owner = OWNERS.get(name) or re.sub(r"[^a-z0-9]+", "-", name).strip("-")  # GitHub owners: no "_" or "."
    return f"fork{fork}-{owner}/{name}" if fork else f"{owner}/{name}"


# Prose templates: a record picks one (or a rotation) by a hash of its key.
DOCS = ['{func} raises {cls} with the message "{msg}" when its input fails a check, so the call stops before doing any work.',
        '`{module}` raises {short}("{msg}") when a precondition does not hold. It reports a caller mistake, not a transient fault: retrying the same call fails again.',
        'The message "{msg}" comes from {module} in {package}, which raises {cls} after checking its arguments and internal state.']
TRIGGERS = ["Calling {func} with an argument or setting that fails the check just before line {line}.",
            "Passing a value of the wrong type or shape to {func}, often read from user input or a config file.",
            "Reaching the guarded branch in {module} because earlier code left an object in an unexpected state."]
SITUATIONS = ["Upgrading {package} while keeping code written for an older API; feeding unchecked data from files or the network.",
              "Writing a thin wrapper around {func} without validating inputs; copying an example written for another version of {package}.",
              "Running tests whose fixtures differ from production data; mixing objects built by different {package} versions."]
SOLUTIONS = ['Fix the value named in "{msg}" before calling {func}', "Validate inputs at the boundary so the problem is reported with context",
             "Check the {package} documentation for the expected arguments of {func}", "Pin or upgrade {package} so your code and the library agree on the API",
             "Catch {short} around the call and report which input caused it", 'Add a test that reproduces "{msg}" and fix the caller']
TIPS = ["Validate data before passing it to {module}", "Keep {package} pinned and read its changelog", "Log the offending value when {short} is raised",
        "Cover the failing input in unit tests", "Prefer explicit arguments over defaults you have not checked"]
FIX = "# before\nresult = {call}  # {short}: {msg}\n# after\nvalue = normalize(value)\nresult = {call}"
GUARD = "def is_valid(value: object) -> bool:\n    return isinstance(value, (str, int)) and bool(value)"
TRY = 'try:\n    {call}\nexcept {short} as exc:\n    logger.warning("{func} failed: %s", exc)\n    raise'


def _record(m: MinedMessage, repo: str, slug: str, seed: int) -> dict:
    """Wrap a mined message in a full schema-v2 record (key order as in the real records)."""
    key, short = (seed, repo, slug), m.error_class.rsplit(".", 1)[-1]
    module = m.module_path.removeprefix("Lib/").removesuffix(".py").replace("/", ".").removesuffix(".__init__")
    func = f"{module}.{m.function}" if m.function else module
    call = f"{func}(value)" if m.function else f"importlib.import_module({module!r})"
    fmt = dict(call=call, msg=m.message, cls=m.error_class, short=short, module=module, func=func, package=m.package, line=m.line_number)
    etype = next((t for p, t in CLASS_TYPES if re.search(p, short.lower())), None) or _pick(ERROR_TYPES, *key, "type")
    sha = hashlib.sha1(m.package.encode()).hexdigest()
    end = m.source_start + len(m.source_lines) - 1
    rot, sev = _hash(*key, "rotation"), _hash(*key, "severity") % 20
    tags = [slugify(m.package), "python", etype, slugify(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", short))]
    tags += [slugify(module.rsplit(".", 1)[-1])] if rot % 2 else []
    return {
        "id": hashlib.sha256(f"{repo}/{slug}".encode()).hexdigest()[:16],
        "repo": repo, "slug": slug, "errorCode": None, "errorMessage": m.message,
        "messagePattern": m.pattern, "errorType": etype, "errorClass": m.error_class, "httpStatus": None,
        "severity": "critical" if sev == 0 else "warning" if sev < 3 else "error",
        "filePath": m.module_path, "lineNumber": m.line_number, "sourceCode": "\n".join(m.source_lines),
        "sourceCodeStart": m.source_start, "sourceCodeEnd": end,
        "githubUrl": f"https://github.com/{repo}/blob/{sha}/{m.module_path}#L{m.source_start}-L{end}",
        "documentation": _pick(DOCS, *key, "doc").format(**fmt),
        "triggerScenarios": _pick(TRIGGERS, *key, "trigger").format(**fmt),
        "commonSituations": _pick(SITUATIONS, *key, "situation").format(**fmt),
        "solutions": [SOLUTIONS[(rot + k) % len(SOLUTIONS)].format(**fmt) for k in range(3)],
        "exampleFix": FIX.format(**fmt), "handlingStrategy": _pick(STRATEGIES, *key, "strategy"),
        "validationCode": f"def check(value):\n    if value is None:\n        raise {short}({m.message!r})\n    return value",
        "typeGuard": GUARD if _hash(*key, "guard") % 2 else None, "tryCatchPattern": TRY.format(**fmt),
        "preventionTips": [TIPS[(rot + k) % len(TIPS)].format(**fmt) for k in range(2 + rot // 2 % 2)],
        "tags": list(dict.fromkeys(tags)), "backgroundTag": "-".join(slug.split("-")[:3]),
        "analyzedSha": sha, "analyzedAt": STAMP, "contentChangedAt": None, "schemaVersion": 2,
    }


def iter_records(count: int, seed: int = 0, *, reserved: Iterable[dict] = ()) -> Iterator[dict]:
    """Yield `count` documents lazily.  Messages are taken in a seeded order; past the
    end of the list they repeat under `fork{n}-{owner}` repos with a `-fork{n}` slug.
    `reserved` takes real records (bare or wrapped): a message that matches one of them by
    text, or by slug in the same repo, is skipped, and their (repo, slug) pairs are never
    taken, so distractors neither duplicate nor overwrite them."""
    mined = mine_messages()
    order = sorted(range(len(mined)), key=lambda k: _hash(seed, mined[k].package, mined[k].module_path, mined[k].line_number, k))
    real = [r.get("record", r) for r in reserved]
    skip = {r["errorMessage"].casefold() for r in real}
    real_pairs = {(r["repo"], r["slug"]) for r in real}
    taken: dict[str, set] = {}
    for r in real:
        taken.setdefault(r["repo"], set()).add(r["slug"])
    made, i = 0, 0
    while made < count:
        fork, m = divmod(i, len(mined))
        m, i = mined[order[m]], i + 1
        repo, suffix, n = _repo(m.package, fork), f"-fork{fork}" if fork else "", 1
        if m.message.casefold() in skip or (repo, slugify(m.message)) in real_pairs:
            continue
        used = taken.setdefault(repo, set())
        while (slug := slugify(m.message, 80 - len(suffix)) + suffix) in used:
            n += 1
            suffix = f"-{n}" + (f"-fork{fork}" if fork else "")
        used.add(slug)
        made += 1
        yield {"record": _record(m, repo, slug, seed), "datasetVersion": STAMP}


def make_records(count: int, seed: int = 0, *, reserved: Iterable[dict] = ()) -> list[dict]:
    """`count` distractor documents, identical for the same (count, seed).  Pass the real
    records as `reserved` when mixing: some installed packages (pydantic) raise the very
    messages the real records describe, and would otherwise duplicate them."""
    return list(iter_records(count, seed, reserved=reserved))


def write_corpus(out_dir: Path, count: int, seed: int = 0, *, reserved: Iterable[dict] = ()) -> int:
    """Write one `{owner}__{name}__{slug}.json` per record, streaming to bound memory."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = 0
    for doc in iter_records(count, seed, reserved=reserved):
        rec = doc["record"]
        name = "{}__{}.json".format(rec["repo"].replace("/", "__"), rec["slug"])
        (out_dir / name).write_text(json.dumps(doc, sort_keys=False, ensure_ascii=False, indent=None), encoding="utf-8")
        written += 1
    return written


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reserve", type=Path, help="directory of real records the corpus must not collide with")
    ap.add_argument("--stats", action="store_true", help="print mined-message statistics")
    args = ap.parse_args(argv)
    real = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(args.reserve.glob("*.json"))] if args.reserve else []
    start = time.perf_counter()
    if args.stats:
        msgs = mine_messages()
        words = Counter(w for m in msgs for w in re.findall(r"[a-z]+", m.message.lower()))
        print(f"mined {len(msgs)} messages in {time.perf_counter() - start:.1f}s; top words: {words.most_common(10)}")
    n = write_corpus(args.out, args.count, args.seed, reserved=real)
    print(f"{n} records in {time.perf_counter() - start:.1f}s")


if __name__ == "__main__":
    main()
