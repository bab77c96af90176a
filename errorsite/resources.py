"""Where the generator's own files are: the built-in templates, the static
files (vendored lunr.js and its licence among them) and the record schema.

The repository keeps them at its top level, beside the package (`templates/`,
`static/`, `schema/`), so that they read as the site's parts rather than as
code. An installed package carries them inside itself, as
`errorsite/templates/` and so on: pyproject.toml maps each top-level folder in
as package data, so a wheel holds them without a second copy in git. Whichever
layout this module finds itself in, these paths name the one copy there is.
"""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def own_folder(name: str) -> Path:
    """The folder `name` inside the installed package, or else beside the package in a checkout."""
    installed = PACKAGE / name
    return installed if installed.is_dir() else PACKAGE.parent / name


TEMPLATES = own_folder("templates")
STATIC = own_folder("static")
SCHEMA = own_folder("schema")
