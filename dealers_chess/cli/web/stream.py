"""Server-sent events for the board page: each open page gets the game's state the moment it changes.

A stream looks for a change every CHECK_S (a version number compared: nothing is computed while the
game stands still), lets the clock's flag fall once a second, and sends a comment every HEARTBEAT_S
so a page that went away is noticed. It ends when the page closes it or the server stops
(Table.closing), so a SIGTERM never waits on an open page.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable

from starlette.concurrency import run_in_threadpool

from dealers_chess.cli.web.table import Table
from dealers_chess.cli.web.views import table_view
from dealers_chess.engine.session.seats import Seat

CHECK_S = 0.05
CLOCK_S = 1.0
HEARTBEAT_S = 10.0


async def state_events(table: Table, seat_now: Callable[[], Seat]) -> AsyncIterator[str]:
    """`event: state` with the seat's view of the game, first at once and then after every change; the seat is
    asked each time (a rematch gives each side's key the other side's seat)."""
    seen: int | None = None
    last_sent = last_clock = time.monotonic()
    while not table.closing.is_set():
        now = time.monotonic()
        if table.session.clock is not None and now - last_clock >= CLOCK_S:
            last_clock = now
            await run_in_threadpool(table.refresh)  # a flag that fell ends the game: a new version
        if table.version != seen:
            view = await run_in_threadpool(table_view, table, seat_now())
            seen, last_sent = view["version"], now
            yield f"event: state\ndata: {json.dumps(view, separators=(',', ':'))}\n\n"
        elif now - last_sent >= HEARTBEAT_S:
            last_sent = now
            yield ": the game goes on\n\n"
        await asyncio.sleep(CHECK_S)
