"""The benchmark. Its builds keep their private state (errorsite's cache
folder) under bench/out/cache, never in the user's home: every build the
benchmark starts, in this process or a child, inherits XDG_CACHE_HOME from
here, unless the caller (the test session, say) has set it already."""
import os
from pathlib import Path

os.environ.setdefault("XDG_CACHE_HOME", str(Path(__file__).resolve().parent / "out" / "cache"))
