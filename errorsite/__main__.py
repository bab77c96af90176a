"""`python -m errorsite [command] [options]`: the same commands as `errorsite` and `build.py`."""
import sys

from .cli import main

sys.exit(main())
