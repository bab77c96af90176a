"""`serve`: build, serve the site on 127.0.0.1, rebuild when an input changes,
and reload the pages open in a browser.

It only adds watching and serving around the one `pipeline.build`: each rebuild
is that build, into a private folder, swapped in whole by `write`, so a request
always sees one complete build — the last good one while a rebuild fails.
Pages are served as built plus one tag, `<script src=…/live-reload.js>`: a
file, so the pages' CSP (`script-src 'self'`) stays as strict as in production.
The script waits on `status` for the next build and then reloads the page, or
shows in an overlay what is wrong with the records or the templates.
watch.py is the loop that builds; handler.py answers the requests.
"""
from __future__ import annotations

from .handler import OWN, DevServer, Route, Status, route, with_script
from .watch import changed_names, inputs_stamp, rebuild, serve, watched

__all__ = ["OWN", "DevServer", "Route", "Status", "changed_names", "inputs_stamp", "rebuild", "route", "serve",
           "watched", "with_script"]
