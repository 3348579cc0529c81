"""The top-face emblem of a 3D piece: its Movement's paths as symbols in grid units (White's view).

Same meanings as the cards: dot = move or capture, ring = move only, square = capture only,
bar = unlimited slide (to the rim), bar with a gap = hop, thin line = path that must be empty
(non-leaping moves, limited slides through their cells' markers, the first legs of bent moves),
half-size marker = first move only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import TypedDict

from dealers_chess.pieces.movement import Hop, Mode, Movement, Path

Point = tuple[float, float]


class Shape(Enum):
    """A destination marker's shape, from what the piece may do there."""

    DOT = "move or capture"
    RING = "move only"
    SQUARE = "capture only"


@dataclass(frozen=True, slots=True)
class Marker:
    """A destination cell and its marker; small = first move only."""

    cell: tuple[int, int]
    shape: Shape
    small: bool = False


@dataclass(frozen=True, slots=True)
class Bar:
    """A slide from start: to `end`, or towards `direction` up to the rim when end is None."""

    start: Point
    direction: Point
    end: Point | None = None
    gap: bool = False  # a hop: the bar is broken once
    thin_before_gap: bool = False  # hop only (no plain slide this way): the part before the gap is a thin line
    end_shape: Shape | None = None  # marker at the rim end (None when the slide may move or capture)
    gap_shape: Shape | None = None  # marker before the gap for the plain slide of a hop direction
    lands_behind: bool = False  # a grasshopper: the gap sits by the rim, a short stub and a dot follow
    small: bool = False


@dataclass(frozen=True, slots=True)
class Emblem:
    """Everything drawn on the top face, in cells (1 = one grid pitch)."""

    markers: tuple[Marker, ...]
    bars: tuple[Bar, ...]
    lines: tuple[tuple[Point, ...], ...]

    @property
    def extent(self) -> float:
        """The farthest point that must fit inside the top face, in cells."""
        points = [m.cell for m in self.markers] + [p for line in self.lines for p in line]
        for bar in self.bars:
            if bar.end is not None:
                points.append(bar.end)
            else:  # show at least two steps before the rim
                points.append((bar.start[0] + 2 * bar.direction[0], bar.start[1] + 2 * bar.direction[1]))
        return max([0.0] + [math.hypot(x, y) for x, y in points])

    @property
    def reach(self) -> float:
        """The grid's reach in cells: the extent, at least 2 (a single step's diagram keeps its scale)."""
        return max(2.0, self.extent)


class _RimSlides(TypedDict):
    """The unlimited slides from one start one way: what the plain and the hopping ones may do on arrival,
    whether all are first-move only, whether any is a grasshopper's."""

    plain: set[Mode]
    hop: set[Mode]
    initial: bool
    g: bool


def shape_of(modes: frozenset[Mode]) -> Shape:
    """The marker shape for what a move may do on arrival."""
    moves = Mode.MOVE in modes
    captures = bool(modes & {Mode.CAPTURE, Mode.EN_PASSANT})
    if moves and captures:
        return Shape.DOT
    return Shape.RING if moves else Shape.SQUARE


def emblem_of(movement: Movement) -> Emblem:
    """The emblem of a movement: markers, slide bars and thin path lines."""
    cells: dict[tuple[int, int], dict[bool, set[Mode]]] = {}
    rim: dict[tuple[Point, Point], _RimSlides] = {}
    bars: list[Bar] = []
    lines: list[tuple[Point, ...]] = []

    def mark(cell: tuple[int, int], path: Path) -> None:
        cells.setdefault(cell, {True: set(), False: set()})[path.initial].update(path.modes)

    for path in movement.paths:
        start, route = _walk_first_legs(path)
        final = path.final
        if len(route) > 1:
            lines.append(tuple(route))
        if final.max_steps == 1:
            end = (start[0] + final.vector[0], start[1] + final.vector[1])
            if final.lame:
                lame = [(start[0] + dx, start[1] + dy) for dx, dy in final.lame]
                lines.append(tuple([start, *lame, end]) if len(route) == 1 else tuple([route[-1], *lame, end]))
            mark(end, path)
        elif final.max_steps is None:
            entry = rim.setdefault((start, final.vector), {"plain": set(), "hop": set(), "initial": True, "g": False})
            entry["g"] = entry["g"] or path.hop is Hop.GRASSHOPPER
            (entry["hop"] if path.hop is not Hop.NONE else entry["plain"]).update(path.modes)
            entry["initial"] = entry["initial"] and path.initial
        else:
            end = (start[0] + final.vector[0] * final.max_steps, start[1] + final.vector[1] * final.max_steps)
            bars.append(Bar(start, final.vector, end, gap=path.hop is not Hop.NONE, small=path.initial))
            for step in range(1, final.max_steps + 1):
                mark((start[0] + final.vector[0] * step, start[1] + final.vector[1] * step), path)
    bars.extend(_rim_bar(key, entry) for key, entry in rim.items())
    markers = [_marker(cell, modes) for cell, modes in cells.items()]
    return Emblem(tuple(sorted(markers, key=_marker_key)), tuple(bars), tuple(dict.fromkeys(lines)))


def _walk_first_legs(path: Path) -> tuple[tuple[int, int], list[Point]]:
    """Where the last leg starts, and the route of the earlier legs from the centre."""
    position = (0, 0)
    route: list[Point] = [position]
    for leg in path.legs[:-1]:
        for dx, dy in leg.lame:
            route.append((position[0] + dx, position[1] + dy))
        position = (position[0] + leg.vector[0], position[1] + leg.vector[1])
        route.append(position)
    return position, route


def _rim_bar(key: tuple[Point, Point], entry: _RimSlides) -> Bar:
    start, direction = key
    plain, hop = entry["plain"], entry["hop"]
    if not hop:
        return Bar(start, direction, end_shape=_shape_unless_dot(plain), small=entry["initial"])
    return Bar(
        start, direction, gap=True, thin_before_gap=not plain, end_shape=_shape_unless_dot(hop),
        gap_shape=_shape_unless_dot(plain) if plain else None, small=entry["initial"], lands_behind=entry["g"],
    )


def _shape_unless_dot(modes: set[Mode]) -> Shape | None:
    shape = shape_of(frozenset(modes))
    return None if shape is Shape.DOT else shape


def _marker(cell: tuple[int, int], modes: dict[bool, set[Mode]]) -> Marker:
    if modes[False]:
        return Marker(cell, shape_of(frozenset(modes[False])))
    return Marker(cell, shape_of(frozenset(modes[True])), small=True)


def _marker_key(marker: Marker) -> tuple:
    return (marker.cell, marker.shape.name, marker.small)
