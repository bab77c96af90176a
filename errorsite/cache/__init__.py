"""The previous build and the next: what a rebuild may reuse, and the one
home of the files that say so. Nothing outside this package opens them.

Files, all written by builds, none trusted further than checked:
- `.errorsite.json` (MARKER), in the site: "this folder is ours", the render
  fingerprint, each record page's key, the record files' digests, the global
  pages' key and paths, the problems reported;
- `.errorsite-outcomes.json` (OUTCOMES), beside it: each record file's
  problems, summary, files and key, read only by a rebuild that renders;
- `.NAME.digests` beside the output: the record files' stats and digests,
  this machine's, never published.
The writer (write/) puts the marker and outcomes into the site it writes and
keeps the spare (write/spare.py) and its listing; the URL history is a page
of the site (redirects.py).
"""
MARKER = ".errorsite.json"  # written into every site: "this folder is ours to replace"
OUTCOMES = ".errorsite-outcomes.json"  # beside it: each record file's outcome, read only by a rebuild that renders
LISTING = ".errorsite-spare.json"  # in the spare only: its files and their inodes, so a rebuild need not walk it
DIGESTS = "digests"         # .NAME.digests beside the output: the record files' stats and digests
