#!/usr/bin/env python3
"""Build the error-index site: `python build.py [options]`; also `serve` and `check`
(`python build.py --help`). The commands live in errorsite/cli.py."""
from __future__ import annotations

import sys

from errorsite.cli import main

if __name__ == "__main__":
    sys.exit(main())
