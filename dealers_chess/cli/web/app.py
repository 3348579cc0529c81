"""`dealer serve`'s web application: one game session behind a small JSON API, an event stream and a static page.

dealers_chess.cli.web.guard stands in front of every route: only a page opened from a printed address
may read the game or act on it, and the guard says which seat's key a request carries (SEAT in its
scope). What each seat may do is the session's (engine.session.seats); dealers_chess.cli.web.bodies
says what each action's body may hold; the table (dealers_chess.cli.web.table) runs one action at a
time. The API is documented in docs/web-api.md.
"""

from __future__ import annotations

import re
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp

from dealers_chess.cli.web.access import Access
from dealers_chess.cli.web.bodies import CancelBody, CommandBody, MoveBody, NameBody, PageCommand, RequestError, decode
from dealers_chess.cli.web.guard import SEAT, Guard
from dealers_chess.cli.web.pieces import PictureRefusal
from dealers_chess.cli.web.stream import state_events
from dealers_chess.cli.web.table import Table
from dealers_chess.cli.web.views import board_view, record_text, report_view, table_view
from dealers_chess.engine.session.seats import Seat, run_seat_line, seat_cancel, seat_name, seat_play
from dealers_chess.engine.session.session import Report
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.seat_keys import write_seat_keys

PAGE_DIR = Path(__file__).with_name("static")  # the page, its scripts and style sheet
KEY_SLOT = "__DEALER_KEY__"  # where index.html receives the seat's key, for the page's script to send
ASSETS_SLOT = "__ASSETS__"  # where index.html receives the path part of the page's own files
MAX_PLY = 100_000
ASSET_TYPES = {"js": "text/javascript", "css": "text/css"}  # the page's own files: its scripts and style sheet


class Endpoints:
    """The handlers of the routes, over one table; the guard in front has already vetted every request."""

    def __init__(self, table: Table, access: Access) -> None:
        self.table, self.access = table, access
        self.page_text = (PAGE_DIR / "index.html").read_text(encoding="utf-8").replace(ASSETS_SLOT, access.assets)

    def page(self, request: Request) -> Response:
        return HTMLResponse(self.page_text.replace(KEY_SLOT, self.access.key_for(_seat(request))))

    def seat(self, request: Request) -> Seat:
        """The seat the request's key opens now (a rematch swaps the sides' keys)."""
        return self.table.seat_for(_seat(request))

    def state(self, request: Request) -> Response:
        self.table.refresh()
        return JSONResponse(table_view(self.table, self.seat(request)))

    def events(self, request: Request) -> Response:
        return StreamingResponse(state_events(self.table, lambda: self.seat(request)), media_type="text/event-stream")

    def board(self, request: Request) -> Response:
        ply = request.query_params.get("ply", "")
        if not re.fullmatch(r"[0-9]{1,6}", ply) or int(ply) > MAX_PLY:
            return _refused("ply: give the number of moves played, 0 for the start (e.g. /api/board?ply=12)")
        played = len(self.table.session.sans)
        if int(ply) > played:
            return _refused(f"ply {int(ply)}: the game has {played} moves so far; give 0 to {played}")
        return JSONResponse(board_view(self.table, int(ply)))

    def record(self, request: Request) -> Response:
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", self.table.saver.path.name) or "game.pgn"
        return Response(record_text(self.table), media_type="application/x-chess-pgn",
                        headers={"content-disposition": f'attachment; filename="{name}"'})

    async def play(self, request: Request) -> Response:
        seat = self.seat(request)
        return await self._act(request, MoveBody,
                               lambda body: _played(seat_play(self.table.session, seat, body.move.strip())))

    async def command(self, request: Request) -> Response:
        table, seat = self.table, self.seat(request)

        def action(body: CommandBody) -> tuple[Report, bool]:
            if body.command is PageCommand.REMATCH:
                return self._rematch(seat)
            return _ran(run_seat_line(table.session, table.saver, seat, body.command.value))
        return await self._act(request, CommandBody, action)

    def _rematch(self, seat: Seat) -> tuple[Report, bool]:
        """(Under the table's lock.) A rematch offered or begun; a new game keeps its keys beside its record, each
        side's key now opening the other side's seat."""
        played = self.table.round
        answer = self.table.rematch(seat)
        if self.table.round != played:
            write_seat_keys(self.table.saver.path, {s.value: self.access.key_for(self.table.seat_for(s)) for s in Seat})
        return answer

    async def name(self, request: Request) -> Response:
        seat = self.seat(request)
        return await self._act(request, NameBody, lambda body: (seat_name(self.table.session, seat, body.name), True))

    async def cancel(self, request: Request) -> Response:
        seat = self.seat(request)
        return await self._act(request, CancelBody, lambda body: (Report(), seat_cancel(self.table.session, seat)))

    async def _act(self, request: Request, shape, action) -> Response:
        """Read the body as `shape`, run the action on the table (refused if the page missed a change), answer with
        the state as the request's seat sees it after the action (a rematch gives its key the other seat)."""
        table = self.table
        try:
            body = decode(await request.body(), shape)
            if isinstance(body, MoveBody) and not body.move.strip():
                raise RequestError("no move given: send a move such as e2e4")
            report = await run_in_threadpool(table.act, body.version, lambda: action(body))
        except RequestError as error:
            return _refused(str(error))
        except DealerError as error:
            return _refused(str(error), table_view(table, self.seat(request)))
        return JSONResponse(report_view(report) | {"state": table_view(table, self.seat(request))})

    def card(self, request: Request) -> Response:
        piece_id = request.path_params["piece"]
        if piece_id not in self.table.session.position.catalogue:
            return Response(f"no piece {piece_id[:40]!r} in the catalogue", status_code=404, media_type="text/plain")
        try:
            return Response(self.table.card_svg(piece_id), media_type="image/svg+xml")
        except DealerError as error:  # words that do not fit the card: the page shows why, once per piece
            return Response(f"the card cannot be drawn: {error}", status_code=422, media_type="text/plain")

    def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        kind = name.rpartition(".")[2]
        path = PAGE_DIR / name
        if not re.fullmatch(r"[a-z]{1,20}\.(js|css)", name) or not path.is_file():
            return Response("no such file", status_code=404, media_type="text/plain")
        return FileResponse(path, media_type=ASSET_TYPES[kind])

    def picture(self, request: Request) -> Response:
        piece_id = request.path_params["piece"]
        path = self.table.picture_path(piece_id) if piece_id in self.table.session.position.catalogue else None
        if path is None:
            return Response("no cached picture", status_code=404, media_type="text/plain")
        return FileResponse(path, media_type="image/png")

    async def piece_picture(self, request: Request) -> Response:
        """A small picture of the printed piece for the board (made the first time it is asked for), or JSON
        saying why not."""
        try:
            picture = await self.table.pieces.picture(self.table.session, self.table.lock, request.path_params["piece"],
                                                dict(request.query_params))
        except PictureRefusal as refusal:
            return JSONResponse({"error": str(refusal)}, status_code=refusal.status)
        timing = {"server-timing": f"render;dur={picture.made_s * 1000:.1f}"}
        return FileResponse(picture.path, media_type="image/png", headers=timing)


def create_app(table: Table, access: Access) -> ASGIApp:
    """The web application serving `table` behind the guard: the page at / (opened by a printed address), its own
    scripts and style sheet under /static/ASSETS (nothing else there), the game under /api, card faces and
    pictures."""
    ends = Endpoints(table, access)
    routes = [
        Route("/", ends.page), Route("/api/state", ends.state), Route("/api/events", ends.events),
        Route("/api/board", ends.board), Route("/api/pgn", ends.record),
        Route("/api/play", ends.play, methods=["POST"]), Route("/api/command", ends.command, methods=["POST"]),
        Route("/api/cancel", ends.cancel, methods=["POST"]), Route("/api/name", ends.name, methods=["POST"]),
        Route("/api/piece/{piece}.png", ends.piece_picture),
        Route("/card/{piece}.svg", ends.card), Route("/picture/{piece}.png", ends.picture),
        Route(f"/static/{access.assets}/{{name}}", ends.asset),
    ]
    handlers = {HTTPException: _http_refusal, Exception: _failure}
    return Guard(Starlette(routes=routes, exception_handlers=handlers), access)


def _http_refusal(request: Request, error: Exception) -> Response:
    """Starlette's own refusals (no such route, a method the route does not take) as the API's: JSON under
    /api/, a line of text elsewhere."""
    assert isinstance(error, HTTPException)
    headers = {name.lower(): value for name, value in (error.headers or {}).items()}
    reasons = {404: f"no such address: {request.url.path[:80]}; the routes are in docs/web-api.md",
               405: f"{request.method} is not taken here: {request.url.path[:80]} takes "
                    f"{headers.get('allow', 'another method')}"}
    return _refusal_at(request, error.status_code, reasons.get(error.status_code, str(error.detail)), headers)


def _failure(request: Request, error: Exception) -> Response:
    """A bug (never the user's input): said in one line, JSON under /api/; the traceback goes to the terminal."""
    return _refusal_at(request, 500, f"the server failed ({type(error).__name__}): see its terminal", {})


def _refusal_at(request: Request, status: int, reason: str, headers: dict[str, str]) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": reason}, status_code=status, headers=headers)
    return Response(reason + "\n", status_code=status, media_type="text/plain", headers=headers)


def _seat(request: Request) -> Seat:
    """The seat whose key the guard found on the request (never a default: an unvetted request is a bug)."""
    seat = request.scope.get(SEAT)
    if not isinstance(seat, Seat):
        raise RuntimeError("a request reached the game without the guard's seat")
    return seat


def _played(report: Report) -> tuple[Report, bool]:
    return report, bool(report.events) or report.choice is not None


def _ran(answer) -> tuple[Report, bool]:
    return answer.report, answer.changed


def _refused(reason: str, state: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": reason} | ({"state": state} if state is not None else {}), status_code=400)
