"""The same records as a Hugo site, to build side by side with ours.

One Markdown page per record (JSON front matter; URL /owner/name/slug/ as
ours), its sections in the order of our record page: the prose, the source
window fenced with line numbers from `sourceCodeStart` and the raising line
highlighted, the solutions, the four code snippets fenced in the record's
language, the tips. Minimal layouts give what our site also has: a page per
record, paginated listings per repository, tag, type and severity (Hugo
taxonomies, 100 a page), a home page, a JSON search file, sitemap and robots.
Highlighting uses CSS classes, as ours does, and raw HTML is off, as in ours.
"""
from __future__ import annotations

import hashlib, json, re, shutil, subprocess
from pathlib import Path

from bench import measure

LANGS = {".py": "python", ".go": "go", ".rs": "rust", ".js": "javascript", ".ts": "typescript", ".java": "java",
         ".c": "c", ".h": "c", ".hpp": "cpp", ".cc": "cpp", ".cpp": "cpp", ".tcc": "cpp"}
CONFIG = """baseURL = "http://localhost:8000/"
title = "Error index (Hugo)"
disableKinds = ["RSS"]
enableRobotsTXT = true
buildFuture = true
paginate = 100
[taxonomies]
  repo = "repos"
  tag = "tags"
  type = "types"
  severity = "severities"
[outputs]
  home = ["HTML", "JSON"]
[markup.highlight]
  noClasses = false
[markup.goldmark.renderer]
  unsafe = false
"""
LAYOUTS = {
    "_default/baseof.html": """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>{{ .Title }} — {{ .Site.Title }}</title><meta name="description" content="{{ .Description }}">
<link rel="canonical" href="{{ .Permalink }}"></head><body>
<header><a href="{{ "" | relURL }}">{{ .Site.Title }}</a></header><main>{{ block "main" . }}{{ end }}</main></body></html>
""",
    "_default/single.html": """{{ define "main" }}<article><h1>{{ .Title }}</h1>
<p class="meta">{{ range .Params.repos }}<a href="{{ "repos/" | relURL }}{{ . | urlize }}/">{{ . }}</a>{{ end }}
{{ .Params.errorClass }} {{ .Params.errorCode }}
{{ range .Params.tags }}<a class="tag" href="{{ "tags/" | relURL }}{{ . | urlize }}/">{{ . }}</a> {{ end }}</p>
{{ .Content }}<p>Analysed {{ .Params.analyzedSha }} on {{ .Date.Format "2006-01-02" }}</p></article>{{ end }}
""",
    "_default/list.html": """{{ define "main" }}<h1>{{ .Title }}</h1><ol>
{{ range (.Paginate .Pages).Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <span>{{ .Description }}</span></li>
{{ end }}</ol>{{ template "_internal/pagination.html" . }}{{ end }}
""",
    "_default/terms.html": """{{ define "main" }}<h1>{{ .Title }}</h1><ul>
{{ range .Data.Terms.ByCount }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> {{ .Count }}</li>{{ end }}
</ul>{{ end }}
""",
    "index.html": """{{ define "main" }}<h1>{{ .Site.Title }}</h1><p>{{ len .Site.RegularPages }} records</p><ul>
{{ range .Site.Taxonomies.repos.ByCount }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> {{ .Count }}</li>{{ end }}
</ul><ol>{{ range first 20 (.Site.RegularPages.ByDate.Reverse) }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ol>{{ end }}
""",
    "index.json": """[{{ range $i, $p := .Site.RegularPages }}{{ if $i }},{{ end }}{{ dict "t" $p.Title "u" $p.RelPermalink "d" $p.Description "g" $p.Params.tags | jsonify }}{{ end }}]
""",
}


def fence(code: str, info: str) -> str:
    """A fenced block that no run of backticks inside the code can close."""
    ticks = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", code)), default=0))
    return f"{ticks}{info}\n{code.rstrip(chr(10))}\n{ticks}\n"


def page(rec: dict) -> str:
    """One record as a Hugo content file."""
    lang = LANGS.get(Path(rec.get("filePath") or "").suffix, "text")
    doc = rec.get("documentation") or ""
    front = {"title": rec["errorMessage"], "date": rec.get("analyzedAt"), "description": doc.split(". ")[0][:160],
             "repos": [rec["repo"]], "tags": rec.get("tags") or [], "types": [rec["errorType"]],
             "severities": [rec["severity"]], "errorClass": rec.get("errorClass") or "",
             "errorCode": rec.get("errorCode") or "", "analyzedSha": rec.get("analyzedSha") or ""}
    parts = [json.dumps(front, ensure_ascii=False, indent=1), ""]
    if rec.get("messagePattern"):
        parts.append(f"Pattern: `{rec['messagePattern'].replace('`', '')}`\n")
    for title, key in (("What it means", "documentation"), ("What triggers it", "triggerScenarios"),
                       ("Common situations", "commonSituations")):
        if rec.get(key):
            parts.append(f"## {title}\n\n{rec[key]}\n")
    if rec.get("sourceCode"):
        start = rec.get("sourceCodeStart") or 1
        marked = (rec.get("lineNumber") or start) - start + 1
        parts.append(f"## Source\n\n[{rec.get('filePath')}]({rec['githubUrl']})\n")
        parts.append(fence(rec["sourceCode"], f"{lang} {{linenos=table,hl_lines=[{marked}],linenostart={start}}}"))
    if rec.get("solutions"):
        parts.append("## Solutions\n\n" + "".join(f"1. {s}\n" for s in rec["solutions"]))
    for title, key in (("Example fix", "exampleFix"), ("Validation", "validationCode"), ("Type guard", "typeGuard"),
                       ("Try/catch", "tryCatchPattern")):
        if rec.get(key):
            parts.append(f"## {title}\n\n" + fence(rec[key], lang))
    if rec.get("preventionTips"):
        parts.append("## Prevention\n\n" + "".join(f"- {t}\n" for t in rec["preventionTips"]))
    return "\n".join(parts)


def write_site(records_dir: Path, source_dir: Path) -> int:
    """A fresh Hugo source folder for every record file under `records_dir`."""
    measure.discard(source_dir)  # see measure.discard
    (source_dir / "content").mkdir(parents=True)
    (source_dir / "hugo.toml").write_text(CONFIG, encoding="utf-8")
    for name, text in LAYOUTS.items():
        (source_dir / "layouts" / name).parent.mkdir(parents=True, exist_ok=True)
        (source_dir / "layouts" / name).write_text(text, encoding="utf-8")
    count = 0
    for path in sorted(records_dir.glob("*.json")):
        rec = json.loads(path.read_bytes())["record"]
        target = source_dir / "content" / rec["repo"].lower() / f"{rec['slug']}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page(rec), encoding="utf-8")
        count += 1
    return count


def ensure_site(records_dir: Path, source_dir: Path, corpus_sha256: str) -> None:
    """write_site, unless `source_dir` already holds the source this module
    makes from this corpus (up to 13 minutes at 100k records); Hugo's cache is emptied
    either way, so every run's Hugo builds start as cold as the first."""
    stamp = source_dir / ".made-from"
    wanted = hashlib.sha256(corpus_sha256.encode() + b"\0" + Path(__file__).read_bytes()).hexdigest()
    if stamp.is_file() and stamp.read_text() == wanted:
        shutil.rmtree(source_dir / ".cache", ignore_errors=True)
        return
    write_site(records_dir, source_dir)
    stamp.write_text(wanted)


def command(source_dir: Path, out_dir: Path) -> list[str]:
    return ["hugo", "--quiet", "--source", str(source_dir), "--destination", str(out_dir.resolve()),
            "--cacheDir", str((source_dir / ".cache").resolve())]


def version() -> str | None:
    if not shutil.which("hugo"):
        return None
    out = subprocess.run(["hugo", "version"], capture_output=True, text=True).stdout
    m = re.search(r"v(\d+\.\d+\.\d+)", out)
    return m.group(1) if m else out.strip()
