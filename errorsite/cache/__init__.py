"""The previous build and the next: what a rebuild may reuse, and the one
home of the files that say so. Nothing outside this package opens them.

Files, all written by builds, none trusted further than checked:
- `.errorsite.json` (MARKER), in the site: "this folder is ours", the render
  fingerprint, the number of files, and the digest of the state. A few
  hundred bytes, no paths and no problems: it is published with the site.
- `state`, in the build's own folder (folder.py, in the user's cache): each
  record page's key, the record files' digests, the global pages' key and
  paths, the problems reported. Trusted only when the served marker names its digest.
- `outcomes` beside it: each record file's outcome, one line a file (outcomes.py
  says its layout), read only by a rebuild that renders.
- `digests` beside it: the record files' stats and digests.
- `spare` beside it: the site before the served one, the next build's start
  (write/spare.py), with its listing inside; and `twin-PID`, a first build's.
The build's own folder is this machine's and never published. planning.py
reads them into the build's Plan; the writer (write/) puts the marker into
the site it writes and keeps the spare and its listing; the URL history is a
page of the site (pages/redirects.py).
"""
from ..urls import MARKER  # noqa: F401  # written into every site: "this folder is ours to replace"
STATE = "state"             # what the next build reads (PreviousBuild)
OUTCOME_FILE = "outcomes"   # each record file's outcome
LISTING = ".errorsite-spare"  # in the spare only: its files and their inodes, so a rebuild need not walk it
DIGESTS = "digests"         # the record files' stats and digests
SPARE = "spare"             # the site before, the next build's start
TWIN = "twin"               # twin-PID: a first build's links to its new site, the spare once it is swapped in
