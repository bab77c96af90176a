"""Repositories shaped like the dataset's, for the benchmark corpus (bench/shaped.py).

The dataset's records come from thousands of repositories: at 100,000 records
about 2,500, at 10,000 about 500 (`repo_count`), each with a long-tailed number
of records (a few with hundreds, most with tens, many with a handful: a
log-normal spread, capped). Owners and names are as varied as GitHub's: people
and organisations, kebab, snake, camel and dotted names, language affixes
(`py-`, `-rs`, `.js`, `node-`), and the same name under several owners (forks,
and the `utils` everyone has). Everything depends only on (count, seed).
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from statistics import NormalDist

SPREAD = 1.2           # σ of the log-normal spread of records per repository
CAP = 10               # no repository holds more than CAP times the mean
FIRST = ["alex", "sam", "maria", "li", "wei", "jon", "kim", "ana", "raj", "yuki", "omar", "eva", "ivan", "lea",
         "tom", "nina", "hugo", "zoe", "amir", "chen", "paul", "sara", "dmitri", "ola", "ken", "lucas", "mei"]
LAST = ["smith", "nguyen", "garcia", "mueller", "tanaka", "kowalski", "silva", "ivanov", "patel", "cohen", "rossi",
        "dubois", "berg", "okafor", "larsen", "novak", "haddad", "sato", "moreau", "kim", "park", "fischer"]
ORG_WORDS = ["acme", "deep", "open", "cloud", "data", "quantum", "blue", "red", "astro", "nimbus", "vector",
             "tensor", "rapid", "iron", "silver", "north", "pixel", "cobalt", "lambda", "orbit", "hyper", "neural",
             "grid", "forge", "signal", "polar", "ember", "lumen", "aether", "spark"]
ORG_SUFFIXES = ["", "-labs", "hq", "-io", "-dev", "-inc", "-team", "-ai", "-org", "-oss", "-project", "soft", "-js"]
TOPICS = ["json", "yaml", "toml", "http", "grpc", "redis", "kafka", "sql", "orm", "cache", "queue", "auth", "jwt",
          "oauth", "crypto", "image", "video", "audio", "tensor", "llama", "bert", "vision", "graph", "geo", "csv",
          "parquet", "arrow", "cli", "tui", "log", "metrics", "trace", "config", "env", "docker", "k8s", "s3",
          "ftp", "ssh", "dns", "smtp", "pdf", "markdown", "html", "css", "regex", "date", "time", "uuid", "zip",
          "tar", "mqtt", "ws", "rpc", "wasm", "gpu", "cuda", "blas", "fft", "ocr", "tts", "diff", "git", "semver"]
ROLES = ["parser", "client", "server", "utils", "tools", "core", "kit", "lib", "sdk", "engine", "bridge", "proxy",
         "router", "loader", "validator", "runner", "store", "sync", "watch", "gen", "fmt", "lint", "bench", "rs",
         "api", "db", "ui", "worker", "agent", "stream"]
COMMON_NAMES = ["utils", "dotfiles", "playground", "backend", "api", "core", "sdk", "tools", "server", "app",
                "llama.cpp", "whisper.cpp", "transformers", "express", "requests", "tokio", "serde", "flask"]


def _hash(*parts: object) -> int:
    return int(hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:15], 16)


def _pick(options: list, *parts: object):
    return options[_hash(*parts) % len(options)]


def repo_count(records: int) -> int:
    """About 500 repositories at 10,000 records and 2,500 at 100,000 (records^0.7)."""
    return max(1, min(records, round(0.79 * records ** 0.7)))


def spread(records: int, repos: int) -> list[int]:
    """Records per repository, largest first, summing to `records`: log-normal
    quantiles (deterministic), capped at CAP times the mean, each at least one."""
    normal = NormalDist()
    weights = [math.exp(SPREAD * normal.inv_cdf((i + 0.5) / repos)) for i in range(repos)]
    cap = CAP * sum(weights) / repos
    weights = sorted((min(w, cap) for w in weights), reverse=True)
    spare = records - repos                      # one each, then the rest by weight
    total = sum(weights)
    counts = [1 + math.floor(spare * w / total) for w in weights]
    left = records - sum(counts)
    order = sorted(range(repos), key=lambda i: (spare * weights[i] / total) % 1, reverse=True)
    for i in order[:left]:
        counts[i] += 1
    return sorted(counts, reverse=True)


def owner(n: int, seed: int) -> str:
    kind = _hash(seed, n, "owner") % 10
    first, last = _pick(FIRST, seed, n, "first"), _pick(LAST, seed, n, "last")
    digits = str(_hash(seed, n, "digits") % 1000)
    if kind < 3:
        return f"{first}{last}" if kind else f"{first}-{last}"
    if kind < 5:
        return f"{first}{digits}" if kind == 3 else f"{first[0]}{last}{digits[:2]}"
    if kind < 6:
        return f"{first.capitalize()}{last.capitalize()}"
    word, other = _pick(ORG_WORDS, seed, n, "org"), _pick(ORG_WORDS, seed, n, "org2")
    return f"{word}{_pick(ORG_SUFFIXES, seed, n, 'suffix')}" if kind < 9 else f"{word}-{other}"


def name(n: int, seed: int, language: str) -> str:
    kind = _hash(seed, n, "name") % 20
    topic, role = _pick(TOPICS, seed, n, "topic"), _pick(ROLES, seed, n, "role")
    other = _pick(TOPICS, seed, n, "topic2")
    affix = {"python": ("py-", "-py", "python-"), "rust": ("", "-rs", "rust-"), "go": ("go-", "", "-go"),
             "javascript": ("node-", ".js", "-js"), "java": ("", "-java", "j"), "c": ("lib", "", "-c"),
             "cpp": ("", ".cpp", "-cpp")}[language]
    if kind < 2:
        return _pick(COMMON_NAMES, seed, n, "common")
    if kind < 7:
        return f"{topic}-{role}"
    if kind < 9:
        return f"{topic}_{role}" if kind == 7 else f"{topic}{role}"
    if kind < 11:
        return f"{topic.capitalize()}{role.capitalize()}" if kind == 9 else f"{topic}-{other}-{role}"
    if kind < 15:
        a = _pick(affix, seed, n, "affix")
        return f"{a}{topic}" if a.endswith(("-", "j")) or a in ("lib", "") else f"{topic}{a}"
    if kind < 17:
        return f"{topic}{_pick(['2', '-v2', '3', '-next', '-ng', '-lite', '-plus'], seed, n, 'v')}"
    if kind < 19:
        return f"{owner(n, seed).split('-')[0].lower()}-{topic}"
    return f"awesome-{topic}"


@dataclass(frozen=True)
class Repository:
    repo: str          # owner/name
    language: str
    package: str       # the module or crate its code lives in
    records: int


def package_of(repo_name: str, language: str) -> str:
    key = repo_name.lower().replace(".", "-")
    for affix in ("py-", "python-", "rust-", "go-", "node-", "lib"):
        if key.startswith(affix) and len(key) > len(affix) + 2:
            key = key[len(affix):]
    for affix in ("-py", "-rs", "-go", "-js", "-java", "-cpp", "-c"):
        if key.endswith(affix) and len(key) > len(affix) + 2:
            key = key[:-len(affix)]
    return key if language == "javascript" else key.replace("-", "_")


def repositories(records: int, seed: int, languages: tuple[str, ...], repos: int | None = None) -> list[Repository]:
    """The repositories of a corpus of `records`, each with its language and its
    share of the records; `repos` overrides their number."""
    repos = repos or repo_count(records)
    out, seen = [], set()
    for n, share in enumerate(spread(records, repos)):
        language = _pick(list(languages), seed, n, "language")
        k, full = 0, None
        while full is None or full.lower() in seen:      # GitHub's names are unique
            full = f"{owner(n + k * 7919, seed)}/{name(n + k * 104729, seed, language)}"
            k += 1
        seen.add(full.lower())
        out.append(Repository(full, language, package_of(full.split("/")[1], language), share))
    return out
