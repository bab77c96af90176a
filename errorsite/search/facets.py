"""What a search can be narrowed by, read from a record's summary: its
repository (and owner), error type and severity, which it has, and its
language, told by its file's extension. The result cards carry the severity
and the language's short code; meta.json carries the codes' names, so the
browser shows them as the build names them, and the extensions, so the
browser tells a paste's language from its frames as the build tells a
record's."""
from __future__ import annotations

from pathlib import PurePosixPath

from ..model import Summary

# Extension → language code; LANGUAGE_NAMES names each code.
EXTENSIONS = {
    ".py": "py", ".pyi": "py", ".pyx": "py", ".go": "go", ".rs": "rs",
    ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "js", ".ts": "ts", ".tsx": "ts", ".mts": "ts",
    ".java": "java", ".kt": "kt", ".kts": "kt", ".scala": "scala", ".groovy": "groovy",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp",
    ".cs": "cs", ".rb": "rb", ".php": "php", ".swift": "swift", ".m": "objc", ".mm": "objc",
    ".ex": "ex", ".exs": "ex", ".erl": "erl", ".hs": "hs", ".ml": "ml", ".lua": "lua", ".dart": "dart",
    ".zig": "zig", ".jl": "jl", ".r": "r", ".pl": "pl", ".pm": "pl", ".sh": "sh", ".bash": "sh",
}
LANGUAGE_NAMES = {
    "py": "Python", "go": "Go", "rs": "Rust", "js": "JavaScript", "ts": "TypeScript", "java": "Java",
    "kt": "Kotlin", "scala": "Scala", "groovy": "Groovy", "c": "C", "cpp": "C++", "cs": "C#", "rb": "Ruby",
    "php": "PHP", "swift": "Swift", "objc": "Objective-C", "ex": "Elixir", "erl": "Erlang", "hs": "Haskell",
    "ml": "OCaml", "lua": "Lua", "dart": "Dart", "zig": "Zig", "jl": "Julia", "r": "R", "pl": "Perl", "sh": "Shell",
}


def language_of(file_path: str | None) -> str:
    """The language code of a source file ("" when its extension names none)."""
    if not file_path:
        return ""
    return EXTENSIONS.get(PurePosixPath(file_path).suffix.lower(), "")


def facets(record: Summary) -> list[str]:
    """[severity, language code]: what a result card adds for the filters."""
    return [record.severity, language_of(record.file_path)]


def facet_rules() -> dict:
    """For meta.json: the names of the language codes cards carry, and the
    extensions that tell them (the judge reads a paste's stack frames with
    them: search-paste.js raisedIn)."""
    return {"languages": LANGUAGE_NAMES, "extensions": {ext[1:]: code for ext, code in EXTENSIONS.items()}}
