"""The move kernel: a Movement compiled, per board and square, into rays of squares with flags.

This is the project's only move generator. `destinations` walks a square's rays over an
occupancy; the game rules (positions, check, castling, promotion) are built on top of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import NamedTuple

from dealers_chess.engine.board import Board
from dealers_chess.pieces.movement import Hop, LegPath, Mode, Movement, Path

EMPTY = -1  # occupancy value of an empty square; otherwise the side (0 White, 1 Black)


class Reach(Enum):
    """How a piece arrives on a destination square."""

    MOVE = "move"
    CAPTURE = "capture"
    EN_PASSANT = "en passant"


RANK = {Reach.MOVE: 0, Reach.EN_PASSANT: 1, Reach.CAPTURE: 2}  # a square reached two ways keeps the higher


class Ray(NamedTuple):
    """One way out of one square: squares to walk in order, with what must hold on the way.

    A NamedTuple rather than a frozen dataclass: compiling a board makes tens of thousands.
    """

    squares: tuple[int, ...]
    via: tuple[int, ...] = ()  # earlier legs' squares: all must be empty
    lame: tuple[tuple[int, ...], ...] = ()  # per square: more squares that must be empty to go on
    jump: tuple[tuple[int, ...], ...] = ()  # per square: squares that must be occupied to arrive
    move: bool = True
    capture: bool = True
    en_passant: bool = False
    hop: Hop = Hop.NONE
    initial: bool = False
    skip_first: bool = False
    path: Path | None = None  # the path this ray was compiled from (for diagrams and tests)


MAX_STEPS = 15  # no ride goes further on a board of at most 16x16


@dataclass(frozen=True, slots=True)
class _Template:
    """A ray of one path walked from (0, 0) on an unbounded board: offsets, before any board edge."""

    via: tuple[tuple[int, int], ...]
    squares: tuple[tuple[int, int], ...]
    lame: tuple[tuple[tuple[int, int], ...], ...]
    jump: tuple[tuple[tuple[int, int], ...], ...]
    straight: tuple[int, int] | None = None  # the step, when the ray is a plain line from the origin


@cache
def compile_movement(movement: Movement, board: Board, black: bool = False) -> tuple[tuple[Ray, ...], ...]:
    """The rays of a movement from every square of a board, for White or Black."""
    prepared = _prepared(movement, board, black)
    return tuple(_square_rays(prepared, board, sq) for sq in range(board.size))


@cache
def _prepared(movement: Movement, board: Board, black: bool = False) -> tuple:
    """Per path of the movement: its templates on this board and the fields its rays share."""
    paths = movement.for_black() if black else movement.paths
    return tuple((_templates(path, board.files, board.ranks), _ray_fields(path)) for path in paths)


def movement_rays(movement: Movement, board: Board, square: int, black: bool = False) -> tuple[Ray, ...]:
    """The rays of a movement from one square: compile_movement(...)[square] without the other squares."""
    return _square_rays(_prepared(movement, board, black), board, square)


def path_rays(path: Path, board: Board, square: int) -> list[Ray]:
    """The rays of one path from one square (a bent path may branch at each turning point)."""
    return list(_square_rays([(_templates(path, board.files, board.ranks), _ray_fields(path))], board, square))


def _square_rays(prepared, board: Board, square: int) -> tuple[Ray, ...]:
    origin = (board.file_of(square), board.rank_of(square))
    rays = []
    for templates, fields in prepared:
        for template in templates:
            ray = _place(template, fields, board, origin)
            if ray is not None:
                rays.append(ray)
    return tuple(rays)


def _ray_fields(path: Path) -> tuple:
    """What every ray of a path shares: Ray's fields from `move` on, in order."""
    return (Mode.MOVE in path.modes, Mode.CAPTURE in path.modes, Mode.EN_PASSANT in path.modes,
            path.hop, path.initial, path.final.skip_first, path)


_new_ray = tuple.__new__  # Ray from a full tuple of fields, skipping NamedTuple's keyword handling (hot in compiling)


@cache
def _templates(path: Path, files: int, ranks: int) -> tuple[_Template, ...]:
    """The path's templates that fit a board of this size (a turning point off every such board is dropped)."""
    return tuple(_walk_legs(path, 0, (0, 0), (), (files - 1, ranks - 1)))


def _walk_legs(path: Path, index: int, origin: tuple[int, int], via: tuple[tuple[int, int], ...], span):
    leg = path.legs[index]
    if index == len(path.legs) - 1:
        yield _final_template(leg, origin, via)
        return
    for position, passed in _steps(leg, origin):
        if abs(position[0]) > span[0] or abs(position[1]) > span[1]:
            return  # moving on along this leg only goes further off the board
        yield from _walk_legs(path, index + 1, position, via + passed + (position,), span)


def _steps(leg: LegPath, origin: tuple[int, int]):
    """Successive (position, lame squares passed) along a leg, as offsets from the path's start."""
    x, y = origin
    for _ in range(leg.max_steps or MAX_STEPS):
        lame = tuple((x + dx, y + dy) for dx, dy in leg.lame)
        x, y = x + leg.vector[0], y + leg.vector[1]
        yield (x, y), lame


def _final_template(leg: LegPath, origin: tuple[int, int], via: tuple[tuple[int, int], ...]) -> _Template:
    squares, lame, jump = [], [], []
    position = origin
    for step_to, passed in _steps(leg, origin):
        squares.append(step_to)
        lame.append(passed)
        jump.append(tuple((position[0] + dx, position[1] + dy) for dx, dy in leg.jump))
        position = step_to
    plain = not via and not any(lame) and not any(jump)
    return _Template(via, tuple(squares), tuple(lame), tuple(jump), leg.vector if plain else None)


def _steps_to_edge(start: int, step: int, size: int) -> int:
    if step > 0:
        return (size - 1 - start) // step
    if step < 0:
        return start // -step
    return MAX_STEPS


def _indices(offsets, fx: int, fy: int, files: int, ranks: int) -> tuple[int, ...] | None:
    """Square indices of offsets from (fx, fy), or None if any is off the board."""
    found = []
    for dx, dy in offsets:
        x, y = fx + dx, fy + dy
        if not (0 <= x < files and 0 <= y < ranks):
            return None
        found.append(y * files + x)
    return tuple(found)


def _place(template: _Template, fields: tuple, board: Board, origin: tuple[int, int]) -> Ray | None:
    """The template moved to one square and cut at the board's edge; None if nothing is left."""
    fx, fy = origin
    files, ranks = board.files, board.ranks
    if template.straight:
        vx, vy = template.straight
        count = min(len(template.squares), _steps_to_edge(fx, vx, files), _steps_to_edge(fy, vy, ranks))
        if count <= 0:
            return None
        step = vy * files + vx
        start = fy * files + fx
        return _new_ray(Ray, (tuple(range(start + step, start + step * (count + 1), step)), (), (), ()) + fields)
    via = _indices(template.via, fx, fy, files, ranks) if template.via else ()
    if via is None:
        return None
    squares, lame, jump = [], [], []
    for k, (dx, dy) in enumerate(template.squares):
        x, y = fx + dx, fy + dy
        if not (0 <= x < files and 0 <= y < ranks):
            break
        passed = _indices(template.lame[k], fx, fy, files, ranks) if template.lame[k] else ()
        if passed is None:
            break
        squares.append(y * files + x)
        lame.append(passed)
        jump.append((_indices(template.jump[k], fx, fy, files, ranks) or ()) if template.jump[k] else ())
    if not squares:
        return None
    return _new_ray(
        Ray, (tuple(squares), via, tuple(lame) if any(lame) else (), tuple(jump) if any(jump) else ()) + fields
    )


def destinations(
    rays: Sequence[Ray],
    occupancy: Sequence[int],
    side: int,
    unmoved: bool = False,
    ep_squares: frozenset[int] = frozenset(),
) -> dict[int, Reach]:
    """Every square a piece can reach along its rays: occupancy holds EMPTY or a side per square."""
    found: dict[int, Reach] = {}
    for ray in rays:
        if ray.initial and not unmoved:
            continue
        if any(occupancy[sq] != EMPTY for sq in ray.via):
            continue
        walk = _walk_hop if ray.hop is not Hop.NONE else _walk_plain
        for square, reach in walk(ray, occupancy, side, ep_squares):
            known = found.get(square)
            if known is None or RANK[reach] > RANK[known]:
                found[square] = reach
    return found


def _walk_plain(ray: Ray, occupancy: Sequence[int], side: int, ep_squares: frozenset[int]):
    for i, square in enumerate(ray.squares):
        if ray.lame and any(occupancy[sq] != EMPTY for sq in ray.lame[i]):
            return
        if ray.jump and any(occupancy[sq] == EMPTY for sq in ray.jump[i]):
            continue
        if ray.skip_first and i == 0:
            continue
        who = occupancy[square]
        if who == EMPTY:
            if ray.en_passant and square in ep_squares:
                yield square, Reach.EN_PASSANT
            elif ray.move:
                yield square, Reach.MOVE
            continue
        if ray.capture and who != side:
            yield square, Reach.CAPTURE
        return


def _walk_hop(ray: Ray, occupancy: Sequence[int], side: int, ep_squares: frozenset[int]):
    screened = False
    for i, square in enumerate(ray.squares):
        if ray.lame and any(occupancy[sq] != EMPTY for sq in ray.lame[i]):
            return
        who = occupancy[square]
        if not screened:
            screened = who != EMPTY
            continue
        if who == EMPTY:
            if ray.move:
                yield square, Reach.MOVE
        elif ray.capture and who != side:
            yield square, Reach.CAPTURE
        if who != EMPTY or ray.hop is Hop.GRASSHOPPER:
            return


# --- The fast path: the same rays flattened for the rules engine's tight loops. ---------------
#
# Positions walk these entries instead of calling `destinations` per piece: an entry is
# (squares, flags, ray); ray is None for a plain slide or leap (no via, lame, jump, hop or skip)
# and the Ray itself otherwise, which is then walked by the generic walkers above.

# An entry's flags: bit 0 F_MOVE (its squares take a move), bit 1 F_CAPTURE (a capture), bit 2 F_EP (an
# en-passant capture), bit 3 F_INITIAL (open only to an unmoved piece); the bits from 4 up, flags >> 4,
# count the leading squares that must be empty and are not destinations (F_PASS per square: a lame leap).
F_MOVE, F_CAPTURE, F_EP, F_INITIAL = 1, 2, 4, 8
R_MOVE, R_EP, R_CAPTURE = 0, 1, 2  # reach codes of `fast_destinations`, ranked like RANK

Entry = tuple[tuple[int, ...], int, "Ray | None"]


def is_plain(ray: Ray) -> bool:
    """A ray walked square by square until the first piece: no conditions but emptiness."""
    return not (ray.via or ray.lame or ray.jump or ray.skip_first) and ray.hop is Hop.NONE


F_PASS = 16  # one leading square that must be empty and is not a destination (flags >> 4 counts them)


def _is_lame_leap(ray: Ray) -> bool:
    """A single non-leaping step (nD, nA, nN): plain once its lame squares lead the walk."""
    return (
        len(ray.squares) == 1 and bool(ray.lame) and not (ray.via or ray.jump or ray.skip_first)
        and ray.hop is Hop.NONE
    )


def fast_entries(rays: Sequence[Ray]) -> tuple[Entry, ...]:
    """One square's rays as fast-path entries (a lame leap becomes a plain walk over its lame squares)."""
    entries: list[Entry] = []
    for ray in rays:
        flags = (
            (F_MOVE if ray.move else 0) | (F_CAPTURE if ray.capture else 0)
            | (F_EP if ray.en_passant else 0) | (F_INITIAL if ray.initial else 0)
        )
        if _is_lame_leap(ray):
            entries.append((ray.lame[0] + ray.squares, flags | F_PASS * len(ray.lame[0]), None))
        else:
            entries.append((ray.squares, flags, None if is_plain(ray) else ray))
    return tuple(entries)


def rays_overlap(per_square: Sequence[Sequence[Ray]]) -> bool:
    """Whether two rays of one square can end on the same square (destinations then need merging)."""
    for rays in per_square:
        seen: set[int] = set()
        for ray in rays:
            squares = set(ray.squares)
            if seen & squares:
                return True
            seen |= squares
    return False


_REACH_CODE = {Reach.MOVE: R_MOVE, Reach.EN_PASSANT: R_EP, Reach.CAPTURE: R_CAPTURE}


def fast_destinations(entries, occ, side, unmoved, ep_squares, out) -> None:
    """Append (square, reach code) for every destination along the entries (may repeat squares)."""
    for squares, flags, ray in entries:
        if flags & F_INITIAL and not unmoved:
            continue
        if ray is None:
            if flags >= F_PASS:
                passing = flags >> 4
                if occ[squares[0]] != EMPTY or (passing > 1 and any(occ[sq] != EMPTY for sq in squares[1:passing])):
                    continue
                squares = squares[passing:]
            for sq in squares:
                who = occ[sq]
                if who == EMPTY:
                    if flags & F_EP and sq in ep_squares:
                        out.append((sq, R_EP))
                    elif flags & F_MOVE:
                        out.append((sq, R_MOVE))
                    continue
                if flags & F_CAPTURE and who != side:
                    out.append((sq, R_CAPTURE))
                break
            continue
        if any(occ[sq] != EMPTY for sq in ray.via):
            continue
        walk = _walk_hop if ray.hop is not Hop.NONE else _walk_plain
        for sq, reach in walk(ray, occ, side, ep_squares):
            out.append((sq, _REACH_CODE[reach]))


def capture_lines(entries_per_square: Sequence[Sequence[Entry]]) -> tuple[dict, ...]:
    """Per from-square: target square -> tuple of (squares before it, ray or None) that can capture there.

    The attack table of a piece type, compiled from the same rays: a target is attacked when one
    line's squares before it are all empty (plain rays) or `ray_captures_at` says so (others).
    A first-move-only capture (the Patient Pawn's opening capture) is a line with its Ray, whose
    `initial` flag tells the reader to use it only while the piece has not moved.
    """
    tables = []
    for entries in entries_per_square:
        table: dict[int, list] = {}
        for squares, flags, ray in entries:
            if not flags & F_CAPTURE:
                continue
            passing = flags >> 4
            if flags & F_INITIAL and ray is None:
                ray = _initial_ray(squares, flags)
                squares, passing = ray.squares, 0
            for index, sq in enumerate(squares):
                if index < passing:
                    continue
                table.setdefault(sq, []).append((squares[:index], None) if ray is None else (index, ray))
        tables.append({sq: tuple(lines) for sq, lines in table.items()})
    return tuple(tables)


def _initial_ray(squares: tuple[int, ...], flags: int) -> Ray:
    """The Ray of a plain fast-path entry that is first-move-only (its leading lame squares as `via`)."""
    passing = flags >> 4
    return Ray(
        squares=squares[passing:], via=squares[:passing], move=bool(flags & F_MOVE), capture=True,
        en_passant=bool(flags & F_EP), initial=True,
    )


def line_open(line, occ: Sequence[int], unmoved: bool) -> bool:
    """Whether a capture line of `capture_lines` reaches its target over this occupancy, for a piece
    that has (not) moved: a first-move-only line counts only while `unmoved`."""
    before, ray = line
    if ray is None:
        return all(occ[sq] == EMPTY for sq in before)
    return (unmoved or not ray.initial) and ray_captures_at(ray, before, occ)


def ray_captures_at(ray: Ray, index: int, occ: Sequence[int]) -> bool:
    """Whether a (non-plain) ray can capture on its square number `index` over this occupancy."""
    if any(occ[sq] != EMPTY for sq in ray.via):
        return False
    screens = 0
    for i in range(index + 1):
        if ray.lame and any(occ[sq] != EMPTY for sq in ray.lame[i]):
            return False
        if i == index:
            break
        if ray.hop is Hop.NONE:
            if ray.jump and any(occ[sq] == EMPTY for sq in ray.jump[i]):
                continue
            if ray.skip_first and i == 0:
                continue
            if occ[ray.squares[i]] != EMPTY:
                return False
        elif occ[ray.squares[i]] != EMPTY:
            screens += 1
            if ray.hop is Hop.GRASSHOPPER and i != index - 1:
                return False
    if ray.hop is not Hop.NONE:
        return screens == 1
    if ray.jump and any(occ[sq] == EMPTY for sq in ray.jump[index]):
        return False
    return not (ray.skip_first and index == 0)


def line_squares(line) -> tuple[int, ...]:
    """Every square whose occupancy can change whether a capture line reaches its target."""
    before, ray = line
    if ray is None:
        return before
    index = before
    squares = list(ray.via) + list(ray.squares[:index])
    for i in range(index + 1):
        if ray.lame:
            squares.extend(ray.lame[i])
        if ray.jump:
            squares.extend(ray.jump[i])
    return tuple(squares)


@cache
def teleport_rays(board: Board) -> tuple[tuple[Ray, ...], ...]:
    """Per square, a move-only one-square ray to every square of the other colour (the Teleporter)."""
    return tuple(
        tuple(
            Ray(squares=(target,), capture=False)
            for target in range(board.size)
            if board.is_light(target) != board.is_light(square)
        )
        for square in range(board.size)
    )
