"""Seats at the table: what a page tied to one side may do (`dealer serve`'s White and Black links).

The table's own seat (one device for both sides, and the terminal) may do everything the session
allows. A side's seat moves, redoes, claims and answers the referee's questions only on its own
turn; offers, accepts and declines draws and resigns only for its own side; and its undo is a
request the other seat accepts or declines. Against the computer, the computer's seat only follows
the game and the player's undo is immediate, as at one device. A spectator's seat (the Watch: link)
only follows the game.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from dealers_chess.engine.position import SIDE_NAMES
from dealers_chess.engine.session.commands import Answer, Autosave, run_line
from dealers_chess.engine.session.events import side_name
from dealers_chess.engine.session.rematch import decline_rematch, offer_rematch, require_over
from dealers_chess.engine.session.session import Report, Session, SessionError


class Seat(Enum):
    """Who a page plays for: both sides (the table's link) or one side (that side's link)."""

    BOTH = "both"
    WHITE = "white"
    BLACK = "black"
    WATCH = "watch"  # a spectator: sees the game, does nothing

    @property
    def side(self) -> int | None:
        """The side this seat plays (0 White, 1 Black), or None for both (and for a spectator, who plays none)."""
        return SIDE_NAMES.index(self.value) if self in (Seat.WHITE, Seat.BLACK) else None


WATCHING = "this page watches the game (the Watch: address) and cannot act; a player's page can"


def seat_play(session: Session, seat: Seat, text: str) -> Report:
    """A move (or the answer to the referee's question) from a seat: only on its own turn."""
    _require_actor(seat)
    if seat.side is not None:
        _require_turn(session, seat.side, "move")
    return session.play(text)


def seat_cancel(session: Session, seat: Seat) -> bool:
    """Put away the referee's question (a promotion piece, a castling partner); whether there was one."""
    _require_actor(seat)
    if session.pending is None:
        return False
    if seat.side is not None:
        _require_turn(session, seat.side, "answer the question")
    session.pending = None
    return True


def seat_name(session: Session, seat: Seat, name: str) -> Report:
    """A side's page gives its player's name (the table's page and a spectator's name nobody)."""
    if seat.side is None:
        raise SessionError("a name is given on a side's page (the White: or Black: address), for its own player")
    return session.name_player(seat.side, name)


def seat_rematch(session: Session, seat: Seat) -> bool:
    """A seat asks for a rematch once the game is over: True to play again now (the table's page, a game against
    the computer, or the other side's offer stood), False while this side's offer waits for the other's answer."""
    _require_actor(seat)
    if seat.side is not None:
        _require_player(session, seat.side)
    if seat.side is None or session.computer is not None:
        require_over(session)
        return True
    return offer_rematch(session, seat.side)


def run_seat_line(session: Session, saver: Autosave, seat: Seat, line: str) -> Answer:
    """One of the page's commands from a seat, checked against the seat, then carried out."""
    _require_actor(seat)
    side = seat.side
    if side is None:
        return run_line(session, saver, line)
    flag = session.check_time()
    if flag is not None:
        return Answer(flag, changed=True, board=True)
    _require_player(session, side)
    action = SEAT_COMMANDS.get(" ".join(line.lower().split()))
    if action is None:
        raise SessionError(f"{line.strip()[:40]!r} is not a command; allowed: {', '.join(SEAT_COMMANDS)}")
    return action(session, side)


def _require_actor(seat: Seat) -> None:
    if seat is Seat.WATCH:
        raise SessionError(WATCHING)


def _require_player(session: Session, side: int) -> None:
    if session.computer is not None and session.computer.side == side:
        raise SessionError(f"the computer plays {side_name(side)}: this page follows the game")


def _require_turn(session: Session, side: int, doing: str) -> None:
    _require_player(session, side)
    if session.turn != side and not session.over:
        raise SessionError(f"it is {side_name(session.turn)}'s turn: this page plays {side_name(side)} "
                           f"and may {doing} on {side_name(side)}'s turn")


def _require_offer_from(session: Session, side: int) -> None:
    """The other side's draw offer stands, for `side` to answer."""
    if session.draw_offer is None:
        raise SessionError("no draw has been offered")
    if session.draw_offer != 1 - side:
        raise SessionError(f"{side_name(side)} offered this draw: {side_name(1 - side)} answers it")


def _undo(session: Session, side: int) -> Answer:
    if session.computer is not None:  # the computer takes back at once, its move and the player's
        return Answer(session.undo(), changed=True, board=True)
    return Answer(session.request_takeback(side), changed=True)


def _redo(session: Session, side: int) -> Answer:
    _require_turn(session, side, "redo")
    return Answer(session.redo(), changed=True, board=True)


def _draw(session: Session, side: int) -> Answer:
    return Answer(session.offer_draw(side), changed=True)


def _accept(session: Session, side: int) -> Answer:
    _require_offer_from(session, side)
    return Answer(session.accept_draw(), changed=True)


def _decline(session: Session, side: int) -> Answer:
    _require_offer_from(session, side)
    return Answer(session.decline_draw(), changed=True)


def _claim(session: Session, side: int) -> Answer:
    _require_turn(session, side, "claim a draw")
    return Answer(session.claim_draw(), changed=True)


def _resign(session: Session, side: int) -> Answer:
    return Answer(session.resign(side), changed=True)


def _accept_undo(session: Session, side: int) -> Answer:
    return Answer(session.answer_takeback(True, side), changed=True, board=True)


def _decline_undo(session: Session, side: int) -> Answer:
    return Answer(session.answer_takeback(False, side), changed=True)


def _decline_rematch(session: Session, side: int) -> Answer:
    return Answer(decline_rematch(session, side), changed=True)


SEAT_COMMANDS: dict[str, Callable[[Session, int], Answer]] = {
    "undo": _undo, "redo": _redo, "draw": _draw, "accept": _accept, "decline": _decline, "claim": _claim,
    "resign": _resign, "accept undo": _accept_undo, "decline undo": _decline_undo, "decline rematch": _decline_rematch,
}
