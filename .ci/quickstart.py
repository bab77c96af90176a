"""Print the README's quick-start commands: the first two code blocks under
`## Quick start` (1 = set up and build, 2 = set up and test), so CI runs
exactly what a new user copies. Usage: python3 .ci/quickstart.py {1|2}"""
import re
import sys
from pathlib import Path

readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
section = re.search(r"^## Quick start\n(.*?)(?=^## )", readme, re.S | re.M)
blocks = re.findall(r"^```(?:sh|bash|console)?\n(.*?)^```", section.group(1) if section else "", re.S | re.M)
if len(blocks) < 2:
    sys.exit("README.md: '## Quick start' must start with two code blocks (build, then test)")
print(blocks[int(sys.argv[1]) - 1].strip())
