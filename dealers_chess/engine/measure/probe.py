"""A piece alone on an empty board: its move, first-move and capture offsets (the kernel's answer)."""

from __future__ import annotations

from dataclasses import dataclass

from dealers_chess.engine.board import Board, board_of
from dealers_chess.engine.kernel import EMPTY, Reach, compile_movement, destinations, teleport_rays
from dealers_chess.pieces.catalogue import PieceDef, Rule

Offset = tuple[int, int]
PROBE_BOARD = board_of(15, 15)


@dataclass(frozen=True, slots=True)
class Offsets:
    """Destinations as [dx, dy] offsets, White's view, for a piece alone on the centre square."""

    moves: tuple[Offset, ...]
    initial_moves: tuple[Offset, ...]  # extra non-captures open only to an unmoved piece
    captures: tuple[Offset, ...]  # a lone enemy on the square can be taken by a moved piece
    initial_captures: tuple[Offset, ...]  # extra captures open only to an unmoved piece


def probe(piece: PieceDef, board: Board = PROBE_BOARD) -> Offsets:
    """Where the piece can go from the board's centre, alone or with one enemy on a square."""
    centre = board.square(board.files // 2, board.ranks // 2)
    rays = compile_movement(piece.movement, board)[centre]
    if piece.has(Rule.TELEPORT):
        rays = rays + teleport_rays(board)[centre]
    empty = [EMPTY] * board.size

    def offsets(squares) -> tuple[Offset, ...]:
        cx, cy = board.file_of(centre), board.rank_of(centre)
        return tuple(sorted((board.file_of(s) - cx, board.rank_of(s) - cy) for s in squares))

    def reachable(unmoved: bool) -> set[int]:
        return {s for s, reach in destinations(rays, empty, 0, unmoved).items() if reach is Reach.MOVE}

    through: dict[int, list] = {}  # square -> the rays that can end there (only they can capture on it)
    for ray in rays:
        for square in dict.fromkeys(ray.squares):
            through.setdefault(square, []).append(ray)

    def capturable(unmoved: bool) -> set[int]:
        found = set()
        for square, square_rays in through.items():
            if square == centre:
                continue
            occupancy = list(empty)
            occupancy[square] = 1
            if destinations(square_rays, occupancy, 0, unmoved).get(square) is Reach.CAPTURE:
                found.add(square)
        return found

    moves, captures = reachable(False), capturable(False)
    return Offsets(
        offsets(moves), offsets(reachable(True) - moves), offsets(captures), offsets(capturable(True) - captures)
    )

