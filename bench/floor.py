"""The floor: the work no generator of these pages can skip, in one process.

Parse every record's JSON, highlight each of its code fields with Pygments
(the lexers of errorsite/markup/code.py, and its formatter options: HtmlFormatter
with nowrap=True), and write one HTML file per record holding the results.
No templates, no Markdown, no listings, no search index: whatever our build
costs above this is overhead we could, in principle, remove.

`--our-lexing` runs the same work as our build highlights: with
errorsite/markup/lexing.py in place (the RegexLexer loop our build uses: each
state's rules by first character), and the HTML written by
errorsite/markup/code.py's format_html from lexed's tokens (HtmlFormatter's
bytes, in one loop, since 2026-12-05; without get_tokens' generator, since
2026-12-06): the floor for a build that highlights as ours does, so that
what we add above highlighting is measured apart from it.

`--our-files` (with `--our-lexing`) writes what our site holds for each
record rather than one file: the record's page in a folder of its own under
its repository's, its permanent link's page in a folder of its own under
`-/r/`, and beside it the record as JSON (the file's own bytes) and as
Markdown (its code): the file system's work for the files no build of this
site can skip, measured apart from our rendering. It leaves out what is ours
by choice (the twin a first build makes for the next one, the listings, the
search data).

    python bench/floor.py [--our-lexing [--our-files]] RECORDS_DIR OUT_DIR
"""
from __future__ import annotations

import json, os, re, sys, time
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from errorsite.markup import lexing  # noqa: E402
from errorsite.markup import lexer_for, snippet_lexer  # noqa: E402
from errorsite.markup.code import format_html, lexed  # noqa: E402

CODE_FIELDS = ("sourceCode", "exampleFix", "validationCode", "typeGuard", "tryCatchPattern")
FORMATTER = HtmlFormatter(nowrap=True)  # as errorsite/markup/code.py


def render(rec: dict, ours: bool = False) -> bytes:
    parts = []
    for field in CODE_FIELDS:
        code = rec.get(field)
        if code:
            code = code if code.endswith("\n") else code + "\n"
            lexer = lexer_for(rec.get("filePath")) if field == "sourceCode" else snippet_lexer(code, rec.get("filePath"))
            html = format_html(lexed(lexer, code)) if ours else highlight(code, lexer, FORMATTER)
            parts.append(f'<pre class="highlight">{html}</pre>')
    return "\n".join(parts).encode()


def write_our_files(out: Path, name: str, raw: bytes, rec: dict, page: bytes) -> None:
    """The record's four files in our site's shape: its page under its
    repository's folder, its permanent link's page, its JSON and Markdown."""
    repo = "/".join(re.sub(r"[^A-Za-z0-9._-]", "-", part) or "-" for part in str(rec.get("repo", "")).split("/")[:2])
    page_folder = out / repo / name
    page_folder.mkdir(parents=True)
    (page_folder / "index.html").write_bytes(page)
    link_folder = out / "-" / "r" / name
    link_folder.mkdir()
    (link_folder / "index.html").write_bytes(f'<a href="/{repo}/{name}/">{name}</a>\n'.encode())
    (out / "-" / "r" / f"{name}.json").write_bytes(raw)
    (out / "-" / "r" / f"{name}.md").write_bytes(
        "\n".join(rec.get(field) or "" for field in CODE_FIELDS).encode())


def main(records: Path, out: Path, ours: bool = False, our_files: bool = False) -> None:
    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=False)
    if our_files:
        (out / "-" / "r").mkdir(parents=True)
    count = 0
    for dirpath, _, files in sorted(os.walk(records)):
        for name in sorted(f for f in files if f.endswith(".json")):
            raw = Path(dirpath, name).read_bytes()
            rec = json.loads(raw)["record"]
            if our_files:
                write_our_files(out, f"{count}-{name[:-5]}", raw, rec, render(rec, ours))
            else:
                (out / f"{count}.html").write_bytes(render(rec, ours))
            count += 1
    print(f"floor: {count} records in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    our_lexing, our_files = "--our-lexing" in arguments, "--our-files" in arguments
    arguments = [a for a in arguments if a not in ("--our-lexing", "--our-files")]
    if len(arguments) != 2 or (our_files and not our_lexing):
        raise SystemExit(__doc__)
    if our_lexing and not lexing.install():
        raise SystemExit("errorsite/markup/lexing.py does not mirror this Pygments: no floor with our lexing")
    main(Path(arguments[0]), Path(arguments[1]), our_lexing, our_files)
