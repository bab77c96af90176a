"""The page makers: functions from values (a record, the summaries, the URL
history) to the site's pages, which take no part in reading or writing.
render.py holds the Jinja environment and the record page; the record
step's other files come from readable.py (the Markdown twin), api.py (its
JSON), links.py (its permalink) and cards.py (its card image), with
plain_text.py deciding what its page shows as plain text; sitewide.py makes
every page of the whole site, in one stated order, from browse.py and
listing.py (the listings), codes.py and tag_index.py (the indexes), feeds.py,
redirects.py (from url_history.py), schema.py, assets.py and sitecard.py; the
parts a page says of a record are describe.py's and share.py's, and
template_errors.py tells a failed template in one line."""
