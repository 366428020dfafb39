"""`snowrules serve`: the table in a browser (the `web` extra: Starlette, uvicorn, websockets).

The game lives on the server (`table.Table`, or `watch.Watch` for a saved game); a page is told
its seat's view and nothing else (`views.py`), over a websocket or plain HTTP (`app.py`, which
also holds the tokens, the size and rate bounds and the security headers). The page itself is
package data (`static/`): plain HTML, CSS and a small hand-written script that builds the page
from that JSON with text nodes only, so nothing a ruleset names is ever read as markup.
"""
