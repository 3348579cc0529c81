"""What the board page is sent: the game as JSON-ready data for one seat, a board of the past, the record as PGN."""

from __future__ import annotations

from dealers_chess.cli.web.table import Table
from dealers_chess.engine.move import Kind
from dealers_chess.engine.position import SIDE_NAMES
from dealers_chess.engine.record import format_record
from dealers_chess.engine.rules import battle_step_options
from dealers_chess.engine.session.choices import Choice
from dealers_chess.engine.session.record import session_record
from dealers_chess.engine.session.seats import Seat
from dealers_chess.engine.session.session import Report, Session
from dealers_chess.engine.session.state import board_at, session_state


def table_view(table: Table, seat: Seat = Seat.BOTH) -> dict:
    """Everything the page of `seat` draws, as JSON-ready data."""
    with table.lock:
        session = table.session
        state = session_state(session)
        return {
            "version": table.version, "seat": seat.value, "game": state.game, "game_name": state.game_name,
            "files": state.files, "ranks": state.ranks,
            "squares": [_square(sq) for row in state.rows for sq in row],
            "turn": state.turn, "check": state.check,
            "hands": {side: [_hand_card(card) for card in cards] for side, cards in state.hands.items()},
            "hand_promotion": state.hand_promotion, "draw_stack": state.draw_stack, "discard": list(state.discard),
            "moves": list(state.moves), "last_move": state.last_move, "last_squares": list(state.last_squares),
            "result": state.result, "reason": state.reason, "ending": state.ending, "names": state.names,
            "round": table.round,
            "rematch_offer": None if session.rematch_offer is None else SIDE_NAMES[session.rematch_offer],
            "can_undo": state.can_undo,
            "can_redo": bool(session.redo_moves) and not session.over,
            "clock": None if state.clock is None else {"white_s": state.clock.white_s, "black_s": state.clock.black_s,
                                                       "running": state.clock.running},
            "draw_offer": state.draw_offer, "takeback": state.takeback, "claimable": state.claimable,
            "computer": None if session.computer is None else {
                "side": "white" if session.computer.side == 0 else "black", "thinking": table.thinking,
                "said": list(table.computer_said)},
            "pending": None if state.pending is None else choice_view(state.pending),
            "fen": state.fen, "targets": targets(session), "battle": battle_open(session),
            "battle_steps": battle_steps(session),
            "saved_to": str(table.saver.path), "save_error": table.save_error,
            "piece_style": table.piece_style,
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


def board_view(table: Table, ply: int) -> dict:
    """The board after the game's first `ply` moves, for looking back: its squares, last move and check."""
    with table.lock:
        view = board_at(table.session, ply)
    return {"ply": view.ply, "squares": [_square(sq) for row in view.rows for sq in row],
            "last_squares": list(view.last_squares), "turn": view.turn, "check": view.check, "fen": view.fen}


def record_text(table: Table) -> str:
    """The game so far as a PGN record, as the autosave writes it."""
    with table.lock:
        return format_record(session_record(table.session))
