"""The commands of a game at the board, shared by every interface: one line in, an Answer out.

A line is a move (or the answer to a pending choice) or a command: moves, undo, redo, card, board,
clear, fen, save, draw, accept, decline, claim, resign, help, quit. The terminal, a script and the web
page all call run_line; how the game is saved is the interface's Autosave. A line that ends the game by
a player's word (resign, accepting a draw, a claim) has a `confirmation` question the terminal and the
page ask first; a script's lines are taken as meant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from dealers_chess.engine.measure.describe import piece_text
from dealers_chess.engine.notation import format_fen, format_move
from dealers_chess.engine.session.events import side_name
from dealers_chess.engine.session.session import Report, Session
from dealers_chess.pieces.errors import DealerError

HELP = """\
a move       e2e4, e7e8=Q, Nf3, exd5, O-O, e1f1/h1; a battle move: d3d4&e3e4
moves [SQ]   the legal moves, or those of the piece on square SQ
undo, redo   take back the last move, play it again
card ID      a piece's rules and diagram (catalogue id, code like CH, square)
board, clear the board again (clear: on a cleared screen)
fen          the position as FEN
save [FILE]  save now (every move is saved anyway) and pause the clock
draw         offer a draw; 'accept' or 'decline' answers an offer
accept undo  take back the move the other player asked to (or: decline undo)
claim        claim a draw (threefold repetition, fifty-move rule)
resign       the side to move resigns
help, quit   this text; leave (the game is saved: continue with --resume FILE)
In a hand, CODE* is a shared extra: the first side to promote to it takes it."""


class Autosave(Protocol):
    """Where the game is saved: after every change, and to a file of the player's with `save FILE`."""

    def save(self, session: Session, path: Path | None = None) -> Path:
        """Save the session's record (to `path` when given); return where it went."""


@dataclass(slots=True)
class Answer:
    """What one line did: its report, lines of text to show, whether to save and whether to stop."""

    report: Report = field(default_factory=Report)
    lines: list[str] = field(default_factory=list)
    changed: bool = False
    quit: bool = False
    board: bool = False  # the terminal draws the board again
    board_text: bool = False  # the player asked for the board: a script prints it as text
    clear: bool = False  # the terminal clears the screen first
    unwrapped: bool = False  # the lines are copied back whole (a FEN): a terminal must not wrap them


def run_line(session: Session, saver: Autosave, line: str) -> Answer:
    """Do what one line says: a command or a move (or the answer to a pending choice).

    A flag that fell while the line was typed ends the game first; the line is then not carried out.
    """
    flag = session.check_time()
    if flag is not None:
        return Answer(flag, changed=True, board=True)
    if not line.strip():
        return Answer()
    word, _, rest = line.strip().partition(" ")
    handler = HANDLERS.get(word.lower())
    if handler is None:
        report = session.play(line.strip())
        return Answer(report, changed=bool(report.events), board=bool(report.events))
    return handler(session, saver, rest.strip())


def computer_turn(session: Session) -> Answer | None:
    """When it is the computer's turn, let it move (it thinks here, for its --think seconds); else None.

    Its move comes first as its own line, `computer: d8h4`, then the events of the move like anyone's.
    The interface saves it like any move.
    """
    computer = session.computer
    if computer is None or not session.computer_due:
        return None
    flag = session.check_time()
    if flag is not None:
        return Answer(flag, changed=True, board=True)
    move = computer.choose(session.position, clock_left=session.computer_clock())
    if move is None:
        return None
    text = format_move(session.position, move)
    return Answer(session.computer_move(move), lines=[f"computer: {text}"], changed=True, board=True)


def _moves(session: Session, saver: Autosave, rest: str) -> Answer:
    rows = session.moves(rest or None)
    if not rows and rest:
        pos = session.position
        found = pos.piece_at(pos.board.parse_square(rest))
        if found is None:
            return Answer(lines=[f"no piece stands on {rest}"])
        if found[1] != pos.turn:
            return Answer(
                lines=[f"the piece on {rest} is {side_name(found[1])}'s, and it is {side_name(pos.turn)}'s turn"]
            )
    if not rows:
        return Answer(lines=["no legal moves" + (f" for the piece on {rest}" if rest else "")])
    return Answer(lines=[f"{len(rows)} legal moves: " + " ".join(row.san for row in rows)])


def _undo(session: Session, saver: Autosave, rest: str) -> Answer:
    return Answer(session.undo(), changed=True, board=True)


def _redo(session: Session, saver: Autosave, rest: str) -> Answer:
    return Answer(session.redo(), changed=True, board=True)


def confirmation(session: Session, line: str) -> str | None:
    """The question to ask before `line` if it would end the game by a player's word (resign, accept, claim)."""
    word = line.strip().partition(" ")[0].lower()
    if session.over:
        return None
    if word == "resign":
        return f"{side_name(session.turn)} resigns and loses the game. Resign?"
    if word == "accept" or (word == "draw" and session.draw_offer is not None):
        if session.draw_offer is None:
            return None
        offered = session.draw_offer
        return f"{side_name(1 - offered)} accepts {side_name(offered)}'s draw offer: the game ends 1/2-1/2. Accept?"
    if word == "claim" and session.claimable() is not None:
        return f"{side_name(session.turn)} claims a draw ({session.claimable()}): the game ends 1/2-1/2. Claim?"
    return None


def _card(session: Session, saver: Autosave, rest: str) -> Answer:
    return Answer(lines=piece_text(_piece_named(session, rest)).splitlines())


def _piece_named(session: Session, text: str):
    pos = session.position
    if not text:
        codes = sorted({pos.types[pos.piece[sq]].piece.code for side in (0, 1) for sq in pos.squares[side]})
        raise DealerError(
            f"name a piece: a catalogue id (knight), a square (g1) or a code on the board: {' '.join(codes)}"
        )
    by_code = pos.types.by_code(text.upper().strip("()"))
    if by_code is not None:
        return pos.types[by_code].piece
    try:
        square = pos.board.parse_square(text)
    except DealerError:
        return pos.catalogue.get(text.lower())
    found = pos.piece_at(square)
    if found is None:
        raise DealerError(f"no piece stands on {text}; name a piece by catalogue id, code or square")
    return pos.catalogue.get(found[0])


def _board(session: Session, saver: Autosave, rest: str) -> Answer:
    return Answer(board=True, board_text=True)


def _clear(session: Session, saver: Autosave, rest: str) -> Answer:
    return Answer(board=True, board_text=True, clear=True)


def _fen(session: Session, saver: Autosave, rest: str) -> Answer:
    return Answer(lines=[f"fen: {format_fen(session.position)}"], unwrapped=True)


def _save(session: Session, saver: Autosave, rest: str) -> Answer:
    session.pause()
    path = saver.save(session, Path(rest) if rest else None)
    paused = "; the clock is paused until the next move" if session.clock is not None and not session.over else ""
    return Answer(lines=[f"saved to {path}{paused}"])


def _draw(session: Session, saver: Autosave, rest: str) -> Answer:
    report = session.accept_draw() if session.draw_offer is not None else session.offer_draw()
    return Answer(report, changed=True)


def _accept(session: Session, saver: Autosave, rest: str) -> Answer:
    if rest.lower() == "undo":
        return Answer(session.answer_takeback(True), changed=True, board=True)
    return Answer(session.accept_draw(), changed=True)


def _decline(session: Session, saver: Autosave, rest: str) -> Answer:
    if rest.lower() == "undo":
        return Answer(session.answer_takeback(False), changed=True)
    return Answer(session.decline_draw(), changed=True)


def _claim(session: Session, saver: Autosave, rest: str) -> Answer:
    return Answer(session.claim_draw(), changed=True)


def _resign(session: Session, saver: Autosave, rest: str) -> Answer:
    return Answer(session.resign(), changed=True)


def _help(session: Session, saver: Autosave, rest: str) -> Answer:
    return Answer(lines=HELP.splitlines())


def _quit(session: Session, saver: Autosave, rest: str) -> Answer:
    session.pause()
    return Answer(changed=True, quit=True)


HANDLERS = {
    "moves": _moves, "undo": _undo, "redo": _redo, "card": _card, "board": _board, "clear": _clear, "fen": _fen,
    "save": _save, "draw": _draw, "accept": _accept, "decline": _decline, "claim": _claim, "resign": _resign,
    "help": _help, "quit": _quit,
}
