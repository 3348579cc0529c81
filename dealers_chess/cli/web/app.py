"""`dealer serve`'s web application: one game session behind a small JSON API and a static page.

Starlette runs the plain (non-async) endpoints in a thread pool; a lock around the session makes
every action one step at a time, so two tabs acting at once cannot corrupt the game or its record.
dealers_chess.cli.web.guard stands in front of every route: only the page served with the run's key may
read the game or act on it; dealers_chess.cli.web.bodies says what each action's body may hold.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from dealers_chess.cli.web.access import Access
from dealers_chess.cli.web.bodies import CancelBody, CommandBody, MoveBody, RequestError, decode
from dealers_chess.cli.web.guard import Guard
from dealers_chess.engine.move import Kind
from dealers_chess.engine.notation import format_move
from dealers_chess.engine.rules import battle_step_options
from dealers_chess.engine.session.choices import Choice
from dealers_chess.engine.session.commands import run_line
from dealers_chess.engine.session.computer import replayed
from dealers_chess.engine.session.session import Report, Session
from dealers_chess.engine.session.state import session_state
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.records import Saver

PAGE_DIR = Path(__file__).with_name("static")  # the page, its script and style sheet
KEY_SLOT = "__DEALER_KEY__"  # where index.html receives the run's key, for the page's script to send
STALE = "the game changed in another tab or window; the board is now up to date, try again"


@dataclass(slots=True)
class Table:
    """The one game served: its session, autosave, and a version that changes with every change."""

    session: Session
    saver: Saver
    pictures_dir: Path | None = None  # the output folder whose render cache holds piece pictures
    version: int = 0
    save_error: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    computer_said: tuple[str, ...] = ()  # what the computer's last move did, for the page to show
    _thinker: threading.Thread | None = None  # the computer thinking, off the lock, on a copy of the position
    _stop_thinking: threading.Event = field(default_factory=threading.Event)
    _cards: dict[str, str] = field(default_factory=dict)
    _pictures: dict[str, Path | None] = field(default_factory=dict)

    def act(self, seen: int, action) -> Report:
        """Run one action on the session (under the lock) and save; a stale page's action is refused."""
        with self.lock:
            if seen != self.version:
                raise DealerError(STALE)
            report, changed = action()
            if changed:
                self._changed()
            self._think_if_due()
            return report

    def refresh(self) -> None:
        """The page asks (on load and on a timer): start the clock the first time, end the game if a flag fell.

        The computer starts thinking here the first time it is its turn (it plays White, or a game resumed).
        """
        with self.lock:
            self.session.start_clock()
            if self.session.check_time() is not None:
                self._changed()
            self._think_if_due()

    @property
    def thinking(self) -> bool:
        """Whether the computer is to move (it is thinking, or about to)."""
        return self.session.computer_due

    def _think_if_due(self) -> None:
        """(Under the lock.) Start the computer thinking when it is its turn and it is not already."""
        if not self.session.computer_due or self._stop_thinking.is_set():
            return
        if self._thinker is not None and self._thinker.is_alive():
            return
        copy = replayed(self.session.position, self.session.start_fen)
        self._thinker = threading.Thread(target=self._think, args=(copy, self.version, self.session.computer_clock()),
                                         daemon=True)
        self._thinker.start()

    def _think(self, position, seen: int, clock_left: float | None) -> None:
        """The computer's search, off the lock; its move is played only if nothing changed meanwhile."""
        session = self.session
        computer = session.computer
        assert computer is not None  # started only when computer_due, which needs a computer
        move = computer.choose(position, self._stop_thinking, clock_left)
        with self.lock:
            self._thinker = None
            if self._stop_thinking.is_set():
                return
            if move is not None and seen == self.version and session.computer_due:
                text = format_move(session.position, move)
                report = session.computer_move(move)
                self.computer_said = (f"Computer: {text}", *(event.text for event in report.events))
                self._changed()
            self._think_if_due()  # the game changed while it thought (an undo in another tab): think again

    def stop_thinking(self) -> None:
        """Stop the computer for good (the server stops): its search ends at once and its move is not played."""
        self._stop_thinking.set()
        thinker = self._thinker
        if thinker is not None:
            thinker.join()

    def _changed(self) -> None:
        self.version += 1
        try:
            self.saver.save(self.session)
            self.save_error = None
        except DealerError as error:  # the game goes on, unsaved; the page says why
            self.save_error = f"not saved: {error}"

    def card_svg(self, piece_id: str) -> str:
        """The piece's card face as SVG, drawn as printed (with its 3D picture where one is cached)."""
        if piece_id not in self._cards:
            from dealers_chess.printing.cards.jobs import card_drawing
            from dealers_chess.printing.cards.svg import svg_text
            from dealers_chess.printing.pictures import cached_pictures, no_pictures

            catalogue = self.session.position.catalogue
            pictures = no_pictures if self.pictures_dir is None else cached_pictures(catalogue, self.pictures_dir)
            self._cards[piece_id] = svg_text(card_drawing(catalogue, piece_id), 0.0, pictures)
        return self._cards[piece_id]

    def picture_path(self, piece_id: str) -> Path | None:
        """The piece's cached 3D picture (the card's, white), if `dealer kit`, `cards` or `render` made it."""
        if piece_id not in self._pictures:
            self._pictures[piece_id] = None
            if self.pictures_dir is not None:
                from dealers_chess.printing.pictures import PICTURE_PX
                from dealers_chess.printing.render_cache import default_cache_dir, existing_render_path

                piece = self.session.position.catalogue.get(piece_id)
                self._pictures[piece_id] = existing_render_path(piece, default_cache_dir(self.pictures_dir), PICTURE_PX)
        return self._pictures[piece_id]


def table_view(table: Table) -> dict:
    """Everything the page draws, as JSON-ready data."""
    with table.lock:
        session = table.session
        state = session_state(session)
        return {
            "version": table.version, "game": state.game, "game_name": state.game_name,
            "files": state.files, "ranks": state.ranks,
            "squares": [_square(sq) for row in state.rows for sq in row],
            "turn": state.turn, "check": state.check,
            "hands": {side: [_hand_card(card) for card in cards] for side, cards in state.hands.items()},
            "hand_promotion": state.hand_promotion, "draw_stack": state.draw_stack, "discard": list(state.discard),
            "moves": list(state.moves), "last_move": state.last_move, "last_squares": list(state.last_squares),
            "result": state.result, "reason": state.reason, "can_undo": state.can_undo,
            "can_redo": bool(session.redo_moves) and not session.over,
            "clock": None if state.clock is None else {"white_s": state.clock.white_s, "black_s": state.clock.black_s,
                                                       "running": state.clock.running},
            "draw_offer": state.draw_offer, "claimable": state.claimable,
            "computer": None if session.computer is None else {
                "side": "white" if session.computer.side == 0 else "black", "thinking": table.thinking,
                "said": list(table.computer_said)},
            "pending": None if state.pending is None else choice_view(state.pending),
            "fen": state.fen, "targets": targets(session), "battle": battle_open(session),
            "battle_steps": battle_steps(session),
            "saved_to": str(table.saver.path), "save_error": table.save_error,
            "pictures": sorted({sq.piece for row in state.rows for sq in row
                                if sq.piece and table.picture_path(sq.piece) is not None}),
        }


def _square(sq) -> dict:
    return {"name": sq.name, "light": sq.light, "piece": sq.piece, "code": sq.code, "side": sq.side, "royal": sq.royal,
            "piece_name": sq.piece_name}


def _hand_card(card) -> dict:
    return {"piece": card.piece, "code": card.code, "name": card.name, "shared": card.shared}


def choice_view(choice: Choice) -> dict:
    """A question for the page's dialog: prompt, and each option's key, words and the piece a promotion makes
    (the dialog shows that piece's card)."""
    return {"kind": choice.kind.value, "prompt": choice.prompt, "squares": list(choice.squares),
            "options": [{"key": o.key, "text": o.text, "move": o.notation, "piece": o.move.promotion}
                        for o in choice.options]}


def targets(session: Session) -> dict[str, list[dict]]:
    """Per from-square, the squares its legal moves reach: 'move', 'capture' or 'castle' (one entry per square)."""
    pos = session.position
    board, enemy = pos.board, 1 - pos.turn
    found: dict[str, dict[str, str]] = {}
    for m in session.legal_moves():
        if m.kind == Kind.CASTLE:
            kind = "castle"
        elif m.kind == Kind.EN_PASSANT or pos.occ[m.to] == enemy:
            kind = "capture"
        else:
            kind = "move"
        found.setdefault(board.name(m.frm), {}).setdefault(board.name(m.to), kind)
    return {frm: [{"to": to, "kind": kind} for to, kind in tos.items()] for frm, tos in found.items()}


def battle_open(session: Session) -> bool:
    """Whether the side to move still has its battle move to make (Spinal Tap)."""
    pos = session.position
    return pos.game.battle_move and not session.over and pos.turn not in pos.battle_used


def battle_steps(session: Session) -> dict[str, list[str]]:
    """Per pawn or crab of the side to move, the squares one battle step may take it to (while the battle move
    is open)."""
    if not battle_open(session):
        return {}
    pos = session.position
    name = pos.board.name
    found = {name(sq): list(dict.fromkeys(name(step.to) for step in battle_step_options(pos, sq)))
             for sq in sorted(pos.squares[pos.turn])}
    return {frm: tos for frm, tos in found.items() if tos}


def report_view(report: Report) -> dict:
    return {"events": [{"kind": e.kind.value, "text": e.text} for e in report.events],
            "choice": None if report.choice is None else choice_view(report.choice)}


class Endpoints:
    """The handlers of the routes, over one table; the guard in front has already vetted every request."""

    def __init__(self, table: Table, page_text: str) -> None:
        self.table, self.page_text = table, page_text

    def page(self, request: Request) -> Response:
        return HTMLResponse(self.page_text)

    def state(self, request: Request) -> Response:
        self.table.refresh()
        return JSONResponse(table_view(self.table))

    async def play(self, request: Request) -> Response:
        return await self._act(request, MoveBody, lambda body: _played(self.table.session.play(body.move.strip())))

    async def command(self, request: Request) -> Response:
        table = self.table
        return await self._act(request, CommandBody,
                               lambda body: _ran(run_line(table.session, table.saver, body.command.value)))

    async def cancel(self, request: Request) -> Response:
        def drop(body: CancelBody) -> tuple[Report, bool]:
            changed = self.table.session.pending is not None
            self.table.session.pending = None
            return Report(), changed
        return await self._act(request, CancelBody, drop)

    async def _act(self, request: Request, shape, action) -> Response:
        """Read the body as `shape`, run the action on the table (refused if the page missed a change), answer."""
        table = self.table
        try:
            body = decode(await request.body(), shape)
            if isinstance(body, MoveBody) and not body.move.strip():
                raise RequestError("no move given: send a move such as e2e4")
            report = await run_in_threadpool(table.act, body.version, lambda: action(body))
        except RequestError as error:
            return _refused(str(error))
        except DealerError as error:
            return _refused(str(error), table_view(table))
        return JSONResponse(report_view(report) | {"state": table_view(table)})

    def card(self, request: Request) -> Response:
        piece_id = request.path_params["piece"]
        if piece_id not in self.table.session.position.catalogue:
            return Response(f"no piece {piece_id[:40]!r} in the catalogue", status_code=404, media_type="text/plain")
        return Response(self.table.card_svg(piece_id), media_type="image/svg+xml")

    def picture(self, request: Request) -> Response:
        piece_id = request.path_params["piece"]
        path = self.table.picture_path(piece_id) if piece_id in self.table.session.position.catalogue else None
        if path is None:
            return Response("no cached picture", status_code=404, media_type="text/plain")
        return FileResponse(path, media_type="image/png")


def create_app(table: Table, access: Access) -> ASGIApp:
    """The web application serving `table` behind the guard: the page at /, its files under /static, the game
    under /api."""
    page_text = (PAGE_DIR / "index.html").read_text(encoding="utf-8").replace(KEY_SLOT, access.key)
    ends = Endpoints(table, page_text)
    routes = [
        Route("/", ends.page), Route("/api/state", ends.state), Route("/api/play", ends.play, methods=["POST"]),
        Route("/api/command", ends.command, methods=["POST"]), Route("/api/cancel", ends.cancel, methods=["POST"]),
        Route("/card/{piece}.svg", ends.card), Route("/picture/{piece}.png", ends.picture),
        Mount("/static", StaticFiles(directory=PAGE_DIR), name="static"),
    ]
    return Guard(Starlette(routes=routes), access)


def _played(report: Report) -> tuple[Report, bool]:
    return report, bool(report.events) or report.choice is not None


def _ran(answer) -> tuple[Report, bool]:
    return answer.report, answer.changed


def _refused(reason: str, state: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": reason} | ({"state": state} if state is not None else {}), status_code=400)
