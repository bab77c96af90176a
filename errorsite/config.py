"""Settings: built-in defaults, then `site.toml` (or `--config FILE`), then the
command-line options, each overriding the one before.

Every key is declared once, in KEYS: it makes the command-line options, the
`--help` text and the checks, so a key cannot exist in one and not the other
(a test holds the README's list to the same keys). A wrong key or value is a
ConfigError naming the file and the key: `site.toml: page_size: expected an
integer, got "10"`. Paths in the file are relative to the file's folder.
"""
from __future__ import annotations

import argparse
import difflib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

from .pages.render import SITE_DESCRIPTION, SITE_NAME, SiteOptions
from .pages.sitecard import MAX_FILE_BYTES, CardFile, card_file
from .process.cpus import usable_cpus
from .urls import PAGE_SIZE, normalize_base_url
from .validate.formats import repo_problems

DEFAULT_CONFIG = Path("site.toml")
DEFAULT_BASE_URL = "http://localhost:8000/"
MAX_CARD_READ = MAX_FILE_BYTES + 1


class Key(NamedTuple):
    name: str        # in site.toml; "serve.port" is `port` in the [serve] table
    kind: str        # one of KINDS
    default: object
    help: str

    @property
    def attr(self) -> str:
        return self.name.rsplit(".", 1)[-1]

    @property
    def option(self) -> str:
        return "--" + self.attr.replace("_", "-")


KEYS: tuple[Key, ...] = (
    Key("title", "text", SITE_NAME, "site name, in every title, header and footer"),
    Key("description", "text", SITE_DESCRIPTION, "what the site is, for search engines and link cards"),
    Key("base_url", "url", DEFAULT_BASE_URL,
        "absolute URL the site is served from, e.g. https://example.org/errors/"),
    Key("dataset_url", "link", None, "the dataset's home page, linked from every footer"),
    Key("dataset_repo", "repo", None, "the dataset's GitHub repository, owner/name: each record page offers "
        "\"Report a problem with this record\" there, and a search with no match \"Request this error\""),
    Key("page_size", "count", PAGE_SIZE, "entries per listing page"),
    Key("templates", "folder", None, "folder of templates that replace the built-in ones of the same name"),
    Key("records", "folder", Path("records"), "folder of record JSON files, read recursively"),
    Key("out", "path", Path("site"), "output folder, replaced whole when the build succeeds"),
    Key("cache_dir", "path", None, "folder for what a build keeps for the next one, never beside the output "
                                   "(default: the user's cache folder, e.g. ~/.cache/errorsite)"),
    Key("strict", "bool", False, "fail, writing nothing, if any record is bad"),
    Key("jobs", "count", None, "processes rendering record pages (default: one per CPU it may use)"),
    Key("card", "png", None, "a PNG (at most 5 MB, 4096 px a side) every page unfurls with, "
                             "instead of the square made from the title"),
    Key("cards", "bool", False, "a 1200×630 card image per record (its message, repository, type and "
                                "severity), shown large where its links unfurl"),
    Key("serve.host", "host", "127.0.0.1", "address `serve` listens on"),
    Key("serve.port", "port", 8000, "port `serve` listens on (0: any free port)"),
)
BY_NAME = {key.name: key for key in KEYS}
TOML_TYPE = {"text": str, "host": str, "url": str, "link": str, "repo": str, "folder": str, "path": str, "png": str,
             "count": int, "port": int, "bool": bool}
TYPE_NAMES = {str: "a string", int: "an integer", bool: "a boolean (true or false)"}
KIND_NAMES = {"text": "string", "host": "string", "url": "URL", "link": "URL", "repo": "owner/name", "folder": "folder", "path": "path",
              "png": "PNG file", "count": "integer", "port": "integer", "bool": "boolean"}


class ConfigError(ValueError):
    """One wrong key or value, as `where: key: message`."""


@dataclass(frozen=True)
class Settings:
    title: str
    description: str
    base_url: str
    dataset_url: str | None
    page_size: int
    templates: Path | None
    records: Path
    out: Path
    strict: bool
    jobs: int
    card: CardFile | None   # read and checked at the start: a bad file stops the command before any work
    cards: bool
    host: str
    port: int
    config: Path | None = None   # the file they came from, if any
    cache_dir: Path | None = None   # None: the user's cache folder (cache/folder.py)
    defaulted: frozenset[str] = frozenset()   # the keys neither the options nor the file gave
    dataset_repo: str | None = None   # owner/name on GitHub, for report and request links

    @property
    def site_options(self) -> SiteOptions:
        return SiteOptions(self.title, self.description, self.dataset_url, self.page_size, self.templates,
                           self.card, self.cards, self.dataset_repo)


# --- the file ------------------------------------------------------------------------

def read_config(path: Path) -> dict[str, object]:
    """The checked values of a config file, by key name."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    return parse_config(raw, str(path), path.parent)


def parse_config(raw: bytes, shown: str, folder: Path) -> dict[str, object]:
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise ConfigError(f"{shown}: not valid UTF-8 (byte {error.start})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{shown}: invalid TOML: {error}") from None
    values = {}
    for name, value in flatten(data, shown):
        key = BY_NAME.get(name)
        if key is None:
            close = difflib.get_close_matches(name, BY_NAME, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"{shown}: {name}: unknown key{hint}; the keys are listed by `build.py --help`")
        expected = TOML_TYPE[key.kind]
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise ConfigError(f"{shown}: {name}: expected {TYPE_NAMES[expected]}, got {describe(value)}")
        values[name] = checked(key, value, f"{shown}: {name}", folder)
    return values


def flatten(data: dict, shown: str, prefix: str = ""):
    """(dotted name, value) pairs; a table is a prefix only where KEYS have one."""
    for name, value in data.items():
        dotted = prefix + name
        if isinstance(value, dict) and any(k.startswith(dotted + ".") for k in BY_NAME):
            yield from flatten(value, shown, dotted + ".")
        elif any(k.startswith(dotted + ".") for k in BY_NAME):
            raise ConfigError(f"{shown}: {dotted}: expected a table ([{dotted}]), got {describe(value)}")
        else:
            yield dotted, value


def describe(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, (str, int, float)):
        return json.dumps(value, ensure_ascii=False)
    return f"a {type(value).__name__}"  # TOML dates and times


def checked(key: Key, value, where: str, folder: Path):
    """The value, converted (paths joined to `folder`, URLs normalized), or a
    ConfigError that starts with `where`: "site.toml: page_size" or "--page-size"."""
    def fail(message: str):
        if not where.startswith("--"):
            raise ConfigError(f"{where}: {message}")
        raise ConfigError(f"{where} {message}" if message.startswith("must") else f"{where}: {message}")

    if key.kind == "url":
        try:
            return normalize_base_url(value)
        except ValueError:
            fail(f"must be an absolute http(s) URL, got {value!r}")
    if key.kind == "link":
        try:
            parts = urlsplit(value)
        except ValueError:  # e.g. an unclosed [ in the host
            parts = urlsplit("")
        if parts.scheme not in ("http", "https") or not parts.netloc or any(
                c.isspace() or ord(c) < 32 for c in value):
            fail(f"must be an absolute http(s) URL, got {value!r}")
        return value
    if key.kind == "repo":
        if repo_problems(value):
            fail(f"must be a GitHub repository as owner/name, got {value!r}")
        return value
    if key.kind == "png":
        path = folder / Path(value).expanduser()
        try:
            with open(path, "rb") as file:  # one byte past the limit is enough to refuse it
                return card_file(file.read(MAX_CARD_READ))
        except FileNotFoundError:
            fail(f"{path}: no such file")
        except IsADirectoryError:
            fail(f"{path}: a folder, not a PNG file")
        except OSError as error:
            fail(f"{path}: cannot read: {error.strerror or error}")
        except ValueError as error:
            fail(f"{path}: {error}")
    if key.kind in ("folder", "path"):
        path = folder / Path(value).expanduser()
        if key.kind == "folder" and not path.is_dir():
            fail(f"{path} is not a folder")
        return path
    if key.kind == "count" and value < 1:
        fail(f"must be at least 1, got {value}")
    if key.kind == "port" and not 0 <= value <= 65535:
        fail(f"must be a port number from 0 to 65535, got {value}")
    if key.kind in ("text", "host") and not value.strip():
        fail("must not be empty")
    return value


# --- the command line ------------------------------------------------------------------

def add_options(parser: argparse.ArgumentParser, names: list[str]) -> None:
    """`--config`, and one option per key; every default is None, meaning "not given"."""
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help=f"settings file (default: {DEFAULT_CONFIG} if there is one)")
    for name in names:
        key = BY_NAME[name]
        if key.kind == "bool":
            parser.add_argument(key.option, action=argparse.BooleanOptionalAction, default=None, help=key.help)
        else:
            parser.add_argument(*SHORT.get(key.name, ()), key.option, dest=key.attr, default=None,
                                help=help_with_default(key), metavar=METAVARS[key.kind],
                                type=int if TOML_TYPE[key.kind] is int else str)


SHORT = {"jobs": ("-j",)}
METAVARS = {"text": "TEXT", "host": "ADDRESS", "url": "URL", "link": "URL", "repo": "OWNER/NAME", "folder": "DIR", "path": "DIR",
            "png": "FILE", "count": "N", "port": "PORT"}


def help_with_default(key: Key) -> str:
    default = key.default
    if default is None or key.kind == "bool" or key.name == "description":
        return key.help
    return f"{key.help} (default: {default})"


def keys_help() -> str:
    """The list of every key, for --help."""
    lines = [f"settings file keys ({DEFAULT_CONFIG} in the current folder, or --config FILE; "
             "options given on the command line win):"]
    for key in KEYS:
        table, _, name = key.name.rpartition(".")
        shown = f"[{table}] {name}" if table else name
        lines.append(f"  {shown:15} {KIND_NAMES[key.kind]:8} {key.help}")
    lines.append("paths in the file are relative to the file's folder.")
    return "\n".join(lines)


def resolve(args: argparse.Namespace) -> Settings:
    """Defaults, then the config file, then the options given: the settings of one run.
    Raises ConfigError."""
    config = args.config
    if config is not None and not config.is_file():
        raise ConfigError(f"--config: {config} is not a file")
    if config is None and DEFAULT_CONFIG.is_file():
        config = DEFAULT_CONFIG
    from_file = read_config(config) if config else {}
    values, defaulted = {}, set()
    for key in KEYS:
        given = getattr(args, key.attr, None)
        if given is not None:
            values[key.attr] = checked(key, given, key.option, Path("."))
            continue
        if key.name in from_file:
            values[key.attr] = from_file[key.name]
            continue
        defaulted.add(key.name)
        if key.kind == "folder" and key.default is not None and hasattr(args, key.attr):
            # a default folder is checked only by a command that reads it (assemble reads no records)
            values[key.attr] = checked(key, str(key.default), key.option, Path("."))
        else:
            values[key.attr] = key.default
    if values["jobs"] is None:
        values["jobs"] = usable_cpus()
    return Settings(**values, config=config, defaulted=frozenset(defaulted))
