"""Why a SAN-like move names no legal move here, in the player's words.

The notation reads SAN by matching it against the legal moves, so a typo only says "not the SAN of
a legal move". Here the text is taken apart (piece code, from-file or rank, capture, target square)
to say what is wrong: `GNf3` onto its own piece, `e5` for a blocked pawn, `Nf3` with no N on the board.
"""

from __future__ import annotations

import re

from dealers_chess.engine.board import BoardError
from dealers_chess.engine.kernel import EMPTY
from dealers_chess.engine.measure.probe import probe
from dealers_chess.engine.move import Move
from dealers_chess.engine.notation import format_san
from dealers_chess.engine.position import Position, squares_between
from dealers_chess.engine.rules import refusal_reason
from dealers_chess.engine.session.events import side_name
from dealers_chess.pieces.catalogue import Group

SAN_PARTS = re.compile(
    r"(?P<code>[A-Z]+)?(?P<file>[a-p])?(?P<rank>\d{1,2})?(?P<capture>[x:])?(?P<to>[a-p]\d{1,2})"
    r"(?P<after>(>[a-p]\d{1,2})?(=?\(?[A-Za-z]+\)?)?)[+#!?]*"
)
COORDINATES = re.compile(r"[a-p]\d{1,2}[-x:]?[a-p]\d{1,2}")  # e2e4, e7-e8: the notation explains those itself


def san_reason(pos: Position, legal: list[Move], text: str) -> str | None:
    """Why `text`, read as SAN, is no legal move here; None when it does not look like SAN at all."""
    match = SAN_PARTS.fullmatch(text.strip().replace(" ", ""))
    if match is None or COORDINATES.match(text.strip()):
        return None
    board, side = pos.board, pos.turn
    try:
        to = board.parse_square(match["to"])
    except BoardError as error:
        return str(error)
    movers = _movers(pos, match["code"], match["file"] or (None if match["code"] else match["to"][0]))
    if isinstance(movers, str):
        return movers
    if pos.occ[to] == side:
        return f"the target {match['to']} holds {side_name(side)}'s own {_name_on(pos, to)}"
    if match["rank"]:
        movers = [sq for sq in movers if board.name(sq)[1:] == match["rank"]]
    if not movers:
        where = f"{match['file']}{match['rank']}" if match["file"] else f"rank {match['rank']}"
        return f"no {side_name(side)} {_named(pos, match['code'])} stands on {where}"
    reaching = [m for m in legal if m.frm in movers and m.to == to]
    if reaching:
        forms = sorted({format_san(pos, m, legal) for m in reaching})
        return f"it is written {' or '.join(forms)}"
    if len(movers) == 1:
        return refusal_reason(pos, movers[0], to) + _in_the_way(pos, movers[0], to)
    squares = " or ".join(board.name(sq) for sq in sorted(movers, key=board.name))
    return f"no {side_name(side)} {_named(pos, match['code'])} can move to {match['to']} (from {squares})"


def _movers(pos: Position, code: str | None, file: str | None) -> list[int] | str:
    """The side to move's squares holding pieces of `code` (pawns without one), on `file` if given; or why none."""
    side, board = pos.turn, pos.board
    who = side_name(side)
    if code is not None and not any(piece.code == code for piece in pos.catalogue):
        return f"no piece has the code {code!r}"
    if code is None:
        found = [sq for sq in pos.squares[side] if pos.types[pos.piece[sq]].group is Group.PAWN]
        what = "pawn"
    else:
        found = [sq for sq in pos.squares[side] if pos.types[pos.piece[sq]].piece.code == code]
        what = _named(pos, code)
    if not found:
        return f"{who} has no {what} on the board"
    on_file = [sq for sq in found if file is None or board.name(sq)[0] == file]
    return on_file or f"{who} has no {what} on the {file} file"


def _named(pos: Position, code: str | None) -> str:
    """'Knight (N)' for a code, 'pawn' without one."""
    if code is None:
        return "pawn"
    piece = next((p for p in pos.catalogue if p.code == code), None)
    return f"{piece.name} ({code})" if piece is not None else code


def _name_on(pos: Position, sq: int) -> str:
    return f"{pos.types[pos.piece[sq]].piece.name} ({pos.types[pos.piece[sq]].piece.code})"


def _in_the_way(pos: Position, frm: int, to: int) -> str:
    """'; e3 is in the way' when the piece moves that way on an empty board but a piece stands between."""
    board = pos.board
    blockers = [sq for sq in squares_between(board, frm, to) if pos.occ[sq] != EMPTY]
    if not blockers:
        return ""
    sign = 1 if pos.occ[frm] == 0 else -1  # Black's moves are White's turned half round
    offset = (sign * (board.file_of(to) - board.file_of(frm)), sign * (board.rank_of(to) - board.rank_of(frm)))
    reach = probe(pos.types[pos.piece[frm]].piece)
    if offset not in {*reach.moves, *reach.initial_moves, *reach.captures, *reach.initial_captures}:
        return ""
    return f"; {board.name(blockers[0])} is in the way"
