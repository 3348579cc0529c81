"""The board page of `dealer serve`: the Starlette app (app) over a session, and the page itself in static/
(no build step)."""
