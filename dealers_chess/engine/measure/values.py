"""Piece values from mobility: expected moves on a board crowded at random, scaled to N=3, Q=9.

The model (docs/values.md explains it): every square of the board is occupied independently
with probability DENSITY. A piece's mobility M is its expected number of moves, averaged over
all squares, from the kernel's own rays. Value = a*M + b*M^2, with a and b solved so that the
Knight is 3 and the Queen 9 on 8x8. Then the usual corrections: colour-bound pieces x0.9,
pawns get a promotion constant that makes the Standard Pawn 1. A catalogue `value` overrides.
"""

from __future__ import annotations

from functools import cache

from dealers_chess.engine.board import Board, board_of
from dealers_chess.engine.kernel import Ray, movement_rays
from dealers_chess.pieces.catalogue import Group, PieceDef
from dealers_chess.pieces.movement import Hop, Movement, parse_movement

DENSITY = 0.3  # chance that any other square is occupied
MOVE_ONLY_WEIGHT = 0.6  # a move that cannot capture, or a capture that cannot move, counts this much
CAPTURE_WEIGHT = 1.0
COLOUR_BOUND_FACTOR = 0.9
CALIBRATION = {"N": 3.0, "Q": 9.0}
STANDARD_PAWN = "fmWfceFifmnD"
DEFAULT_BOARD = board_of(8, 8)


@cache
def mobility(movement: Movement, board: Board = DEFAULT_BOARD) -> float:
    """Expected number of moves, averaged over every square of the board.

    A square and its mirror images under the movement's own symmetries have the same mobility, so
    one square of each such set is computed and weighted by the set's size.
    """
    total = 0.0
    for square, weight in _representatives(movement, board):
        best: dict[int, float] = {}
        for ray in movement_rays(movement, board, square):
            if ray.initial:
                continue
            for reached, worth in _ray_worth(ray):
                best[reached] = max(best.get(reached, 0.0), worth)
        total += weight * sum(best.values())
    return total / board.size


# Symmetries of the board that a movement may share: (transform of a step, transform of a square).
_MIRRORS = (
    (lambda v: (-v[0], v[1]), lambda f, r, b: (b.files - 1 - f, r)),
    (lambda v: (v[0], -v[1]), lambda f, r, b: (f, b.ranks - 1 - r)),
    (lambda v: (v[1], v[0]), lambda f, r, b: (r, f)),  # only on square boards
)


def _representatives(movement: Movement, board: Board) -> tuple[tuple[int, int], ...]:
    """(square, how many squares it stands for): one per set of squares the movement's symmetries join."""
    square_board = board.files == board.ranks
    mirrors = tuple(index for index, (on_step, _) in enumerate(_MIRRORS[: 3 if square_board else 2])
                    if {p.turned(on_step) for p in movement.paths} == set(movement.paths))
    return _orbits(board, mirrors)


@cache
def _orbits(board: Board, mirrors: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(square, size of its set) for the first square of each set of squares that these _MIRRORS join."""
    on_squares = [_MIRRORS[index][1] for index in mirrors]
    seen: set[int] = set()
    found = []
    for square in range(board.size):
        if square in seen:
            continue
        orbit, frontier = {square}, [square]
        while frontier:
            f, r = board.file_of(frontier[-1]), board.rank_of(frontier.pop())
            for on_square in on_squares:
                image = board.square(*on_square(f, r, board))
                if image not in orbit:
                    orbit.add(image)
                    frontier.append(image)
        seen |= orbit
        found.append((square, len(orbit)))
    return tuple(found)


def _arrival_worth(ray: Ray) -> float:
    """Expected worth of arriving at a square, given it was reached."""
    both = ray.move and ray.capture
    empty_worth = 1.0 if both else MOVE_ONLY_WEIGHT if ray.move else 0.0
    full_worth = CAPTURE_WEIGHT if both else MOVE_ONLY_WEIGHT if ray.capture else 0.0
    return (1 - DENSITY) * empty_worth + DENSITY * full_worth


def _ray_worth(ray: Ray):
    """(square, expected worth) along one ray."""
    clear = (1 - DENSITY) ** len(set(ray.via))
    one_screen = 0.0
    for i, square in enumerate(ray.squares):
        if ray.lame:
            clear *= (1 - DENSITY) ** len(ray.lame[i])
            one_screen *= (1 - DENSITY) ** len(ray.lame[i])
        if ray.hop is Hop.NONE:
            if ray.skip_first and i == 0:
                continue
            jumped = DENSITY ** len(ray.jump[i]) if ray.jump else 1.0
            yield square, clear * jumped * _arrival_worth(ray)
            clear *= 1 - DENSITY
        else:
            yield square, one_screen * _arrival_worth(ray)
            one_screen = one_screen * (1 - DENSITY) + clear * DENSITY
            clear *= 1 - DENSITY


@cache
def _coefficients() -> tuple[float, float]:
    """a and b such that a*M + b*M^2 gives the calibration values on 8x8."""
    (m1, v1), (m2, v2) = [(mobility(parse_movement(b)), v) for b, v in CALIBRATION.items()]
    b = (v2 - v1 * m2 / m1) / (m2 * m2 - m1 * m2)
    a = (v1 - b * m1 * m1) / m1
    return a, b


def is_colour_bound(movement: Movement) -> bool:
    """True when every move keeps the square colour (Bishop, Ferz, Alfil, ...)."""
    return all(sum(sum(leg.vector) for leg in path.legs) % 2 == 0 for path in movement.paths)


def model_value(movement: Movement, board: Board = DEFAULT_BOARD, pawn: bool = False) -> float:
    """The model's value of a movement on a board."""
    a, b = _coefficients()
    m = mobility(movement, board)
    value = a * m + b * m * m
    if is_colour_bound(movement):
        value *= COLOUR_BOUND_FACTOR
    if pawn:
        value += _promotion_constant()
    return value


@cache
def _promotion_constant() -> float:
    a, b = _coefficients()
    m = mobility(parse_movement(STANDARD_PAWN))
    return 1.0 - (a * m + b * m * m)


def model_piece_value(piece: PieceDef, board: Board = DEFAULT_BOARD) -> float:
    """The model's value of a piece on a board: the catalogue's fixed value if it has one, else the formula's.

    The engine's evaluation uses this (not the measured table), so the games that measure values are
    played by an engine that the measurements do not change."""
    if piece.value is not None:
        return piece.value
    return round(model_value(piece.movement, board, pawn=piece.group in (Group.PAWN, Group.SPEAR)), 2)


def piece_value(piece: PieceDef, board: Board = DEFAULT_BOARD) -> float:
    """The value shown and dealt by: the self-play measurement where the package has one for this piece
    (as it is in the catalogue) and board, else the model's estimate."""
    from dealers_chess.engine.measure.table import measured_value

    measured = measured_value(piece, board)
    return model_piece_value(piece, board) if measured is None else measured


def value_margin(piece: PieceDef, board: Board = DEFAULT_BOARD) -> float | None:
    """Half the width of the measured value's 95 % interval; None where the value is the model's."""
    from dealers_chess.engine.measure.table import measured_row

    row = measured_row(piece, board)
    return None if row is None else round((row["high"] - row["low"]) / 2, 2)


def value_rows(pieces: list[PieceDef], board: Board = DEFAULT_BOARD) -> list[dict]:
    """For `dealer values`: each piece's model value, its shipped measurement (None where there is none) and
    the value used (the measurement once its interval is narrow enough, else the model's)."""
    from dealers_chess.engine.measure.table import measured_row

    rows = []
    for piece in pieces:
        row = measured_row(piece, board, precise_only=False)
        measured = None if row is None else {k: row[k] for k in ("value", "low", "high", "games", "matchup")}
        rows.append({"id": piece.id, "name": piece.name, "group": piece.group.value, "betza": piece.betza,
                     "model": model_piece_value(piece, board), "measured": measured,
                     "value": piece_value(piece, board), "uses": "model" if value_margin(piece, board) is None
                     else "measured"})
    return rows
