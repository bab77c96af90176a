"""The tools beside the build, each a command of its own that calls the
steps and never takes part in them: `check` (check.py), `serve` (serve/),
`find` (find/, the site's own search outside the browser) and the issue bot
(bot.py, `python -m errorsite.tools.bot`); and what the commands print: a
build's result as lines (reporting.py), and every line that may hold record
text made inert for a CI log (logsafe.py)."""
