"""The top-face emblem as 2D regions in mm: the raised symbols (empty grid cells stay plain: colour, or in
one colour the taller relief, tells a dot from the face around it; pits there made busy tops look
perforated).

Sizes follow the printable limits for a 0.4 mm nozzle: every raised element at least 0.8 mm wide
(dots 1.2-3.0 mm, bars >= 1.2 mm, lines and ring walls >= 0.82 mm), every hole at least 1.0 mm
(ring holes 1.08 mm), gaps >= 0.85 mm. Where a ring would not fit the grid, a dash
across the cell says "move only".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from manifold3d import CrossSection, JoinType, OpType

from dealers_chess.pieces.model3d.emblem import Bar, Emblem, Marker, Point, Shape

GAP_MM = 0.9  # between neighbouring markers
LINE_MM = 0.85
RING_WALL_MM, RING_HOLE_MM = 0.82, 0.56  # wall width and hole radius of a move-only ring
RING_MIN_PITCH_MM = 2 * (RING_WALL_MM + RING_HOLE_MM) + 0.85  # smaller grids get dashes
DASH_MM = 0.9  # width of a move-only dash
OPENING_DEG = 50.0  # half the angle of the wedge that makes a first-move ring a C
CIRCLE_SEGMENTS = 16
RING_SEGMENTS = 32
PINCH_MM = 0.05


@dataclass(frozen=True, slots=True)
class Layout:
    """Grid pitch and symbol sizes for one emblem on one top face."""

    pitch_mm: float
    marker_mm: float  # diameter of a dot
    bar_mm: float
    line_mm: float
    radius_mm: float  # usable radius of the top face

    @classmethod
    def fit(cls, reach: float, radius_mm: float, min_marker_mm: float = 1.2) -> Layout:
        """The largest pitch at which every cell of the given reach fits inside radius_mm; dots at least
        min_marker_mm across (where the pitch leaves room: see min_pitch)."""
        pitch = max(0.1, (radius_mm - 0.7) / reach)
        for _ in range(3):
            marker = min(3.0, max(min_marker_mm, 0.62 * pitch))
            pitch = max(0.1, (radius_mm - marker / 2) / reach)
        marker = min(max(3.0, min_marker_mm), max(min_marker_mm, 0.62 * pitch), max(0.4, pitch - GAP_MM))
        bar = min(2.0, max(1.2, 0.42 * pitch))
        return cls(pitch, marker, bar, max(LINE_MM, 0.5 * bar), radius_mm)

    @staticmethod
    def min_pitch(min_marker_mm: float = 1.2) -> float:
        """The finest pitch at which dots of min_marker_mm keep a printable gap (2 mm for the usual dots,
        which shrink to 1.1 mm on the finest grids)."""
        return 2.0 if min_marker_mm <= 1.2 else max(2.0, min_marker_mm + GAP_MM)

    def mm(self, cell: Point) -> Point:
        """A point in cells as mm on the top face."""
        return (cell[0] * self.pitch_mm, cell[1] * self.pitch_mm)


def relief_section(emblem: Emblem, layout: Layout) -> CrossSection:
    """The raised symbols as a 2D region centred on the piece's axis, +y forward."""
    solids: list[list[Point]] = []
    holes: list[CrossSection] = []
    segments: list[tuple[Point, Point, float]] = []  # centre lines with half widths, for the markers' room
    for bar in emblem.bars:
        _bar(bar, layout, solids, holes, segments)
    for line in emblem.lines:
        points = [layout.mm(p) for p in line]
        solids.extend(_polyline(points, layout.line_mm))
        segments.extend((a, b, layout.line_mm / 2) for a, b in zip(points, points[1:], strict=False))
    bar_starts = {bar.start for bar in emblem.bars}
    for marker in emblem.markers:
        # a step a bent slide starts from gets a dot clearly wider than its bars
        grow = (1.0 if marker.cell not in bar_starts
                else min(layout.pitch_mm - GAP_MM, 1.8 * layout.bar_mm) / layout.marker_mm)
        centre = layout.mm(marker.cell)
        _marker(centre, marker.shape, marker.small, layout, solids, holes, max(1.0, grow), _room(centre, segments))
    raised = CrossSection(solids) if solids else CrossSection()
    if holes:
        raised = CrossSection.batch_boolean([raised, *holes], OpType.Subtract)
    return _close_pinches(raised)


def _close_pinches(section: CrossSection) -> CrossSection:
    """Grow then shrink by a hair, so shapes that only touch at a point (a pinch the STL cannot
    represent) join with a small neck instead; elsewhere the outline is unchanged."""
    if section.is_empty():
        return section
    return section.offset(PINCH_MM, JoinType.Miter, 4.0).offset(-PINCH_MM, JoinType.Miter, 4.0)


def _room(centre: Point, segments: list[tuple[Point, Point, float]]) -> float:
    """How far a marker may reach from its centre and keep a gap to bars and lines passing by."""
    room = math.inf
    for a, b, half in segments:
        distance = _distance(centre, a, b)
        if distance > half + 0.05:  # a line ending at or running through the marker joins it
            room = min(room, distance - half - GAP_MM)
    return room


def _marker(centre: Point, shape: Shape, small: bool, layout: Layout, solids: list, holes: list, grow: float = 1.0,
            room: float = math.inf) -> None:
    scale = (0.55 if small else 1.0) * grow
    radius = max(0.5, min(room, layout.marker_mm / 2 * scale))
    x, y = centre
    if shape is Shape.SQUARE:
        half = max(0.5, min(room / math.sqrt(2), 0.45 * layout.marker_mm * scale))
        solids.append([(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)])
        return
    if shape is Shape.RING:
        if layout.pitch_mm < RING_MIN_PITCH_MM:
            length = max(1.6, layout.marker_mm * (0.7 if small else 1.0) * grow)
            solids.append(_dash(centre, max(DASH_MM + 0.3, min(length, layout.pitch_mm - GAP_MM, 2 * room))))
            return
        # full size even for a first move (a half-size ring prints as a dot): a C, open away from the centre
        outer = min(max(layout.marker_mm / 2 * grow, RING_WALL_MM + RING_HOLE_MM), layout.pitch_mm / 2 - GAP_MM / 2)
        hole = max(RING_HOLE_MM, outer - max(RING_WALL_MM, 0.24 * layout.marker_mm * grow))
        holes.append(CrossSection([_circle(x, y, hole, RING_SEGMENTS)]))
        if small:
            holes.append(CrossSection([_opening(centre, outer + 0.4)]))
        solids.append(_circle(x, y, outer, RING_SEGMENTS))
        return
    solids.append(_circle(x, y, radius))


def _radial(centre: Point) -> Point:
    """The unit vector from the piece's centre to a point (forward at the centre)."""
    length = math.hypot(*centre)
    return (centre[0] / length, centre[1] / length) if length > 1e-9 else (0.0, 1.0)


def _dash(centre: Point, length: float) -> list[Point]:
    """A move-only dash across the cell, square to the line from the centre."""
    ux, uy = _radial(centre)
    return _rectangle(centre, (-uy, ux), length / 2, (ux, uy), DASH_MM / 2)


def _opening(centre: Point, radius: float) -> list[Point]:
    """A wedge cut out of a ring, away from the piece's centre: its walls end square, the gap is at
    least 0.8 mm even at the hole."""
    ux, uy = _radial(centre)
    angle = math.atan2(uy, ux)
    x, y = centre
    return [(x, y)] + [(x + radius * math.cos(angle + math.radians(a)), y + radius * math.sin(angle + math.radians(a)))
                       for a in (-OPENING_DEG, -OPENING_DEG / 2, 0.0, OPENING_DEG / 2, OPENING_DEG)]


def _rectangle(centre: Point, along: Point, half_length: float, across: Point, half_width: float) -> list[Point]:
    """A rectangle, counter-clockwise."""
    x, y = centre
    corners = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    if along[0] * across[1] - along[1] * across[0] < 0:
        corners.reverse()
    return [(x + a * half_length * along[0] + b * half_width * across[0],
             y + a * half_length * along[1] + b * half_width * across[1]) for a, b in corners]


def _bar(bar: Bar, layout: Layout, solids: list, holes: list, segments: list) -> None:
    """A slide: a bar to its end or to the rim, broken once for a hop, with end markers."""
    start = layout.mm(bar.start)
    # a limited slide is a thin path through its cells' markers; a bar to the rim is an unlimited one
    width = layout.line_mm if bar.small or bar.end is not None else layout.bar_mm
    if bar.end is not None:
        end = layout.mm(bar.end)
    else:
        end = _rim_point(start, bar.direction, layout.radius_mm - width / 2)
    segments.append((start, end, width / 2))
    if not bar.gap:
        solids.extend(_polyline([start, end], width))
    else:
        gap = max(1.0, 0.45 * layout.pitch_mm)
        length = math.dist(start, end)
        middle = 0.5 * length if bar.end is None else max(0.5 * length, length - layout.pitch_mm * 0.5)
        if bar.lands_behind:  # the hurdle may be anywhere; the landing is the square just beyond it
            middle = max(0.5 * length, length - 0.9 * layout.pitch_mm)
        before = _along(start, end, (middle - gap / 2) / length)
        after = _along(start, end, (middle + gap / 2) / length)
        solids.extend(_polyline([start, before], layout.line_mm if bar.thin_before_gap else width))
        solids.extend(_polyline([after, end], width))
        if bar.gap_shape is not None:
            # overlap the bar end, never just touch it
            at = max(0.0, middle - gap / 2 - 0.4 * layout.marker_mm) / length
            _marker(_along(start, end, at), bar.gap_shape, False, layout, solids, holes)
    end_shape = bar.end_shape or (Shape.DOT if bar.lands_behind else None)
    if end_shape is not None and bar.end is None:
        tip = _along(start, end, 1 - (layout.marker_mm / 2 - width / 2) / math.dist(start, end))
        _marker(tip, end_shape, bar.small, layout, solids, holes)


def _rim_point(start: Point, direction: Point, radius: float) -> Point:
    """Where a ray from start along direction crosses the circle of the radius."""
    sx, sy = start
    dx, dy = direction
    a = dx * dx + dy * dy
    b = 2 * (sx * dx + sy * dy)
    c = sx * sx + sy * sy - radius * radius
    t = (-b + math.sqrt(max(0.0, b * b - 4 * a * c))) / (2 * a)
    return (sx + t * dx, sy + t * dy)


def _along(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _circle(x: float, y: float, radius: float, segments: int = CIRCLE_SEGMENTS) -> list[Point]:
    return [
        (x + radius * math.cos(2 * math.pi * k / segments), y + radius * math.sin(2 * math.pi * k / segments))
        for k in range(segments)
    ]


def _polyline(points: list[Point], width: float) -> list[list[Point]]:
    """Rectangles along a polyline with round joints, counter-clockwise."""
    half = width / 2
    polygons = [_circle(x, y, half) for x, y in points[1:-1]]
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        length = math.hypot(x1 - x0, y1 - y0)
        if length < 1e-9:
            continue
        nx, ny = -(y1 - y0) / length * half, (x1 - x0) / length * half
        polygons.append([(x0 - nx, y0 - ny), (x1 - nx, y1 - ny), (x1 + nx, y1 + ny), (x0 + nx, y0 + ny)])
    return polygons


def free_radius(raised: CrossSection) -> float:
    """How far from the centre the nearest raised symbol not starting at the centre lies (a finial's room)."""
    nearest = math.inf
    for component in raised.decompose():
        edges = [np.asarray(polygon, dtype=float) for polygon in component.to_polygons()]
        distance = min(_polygon_distance(polygon) for polygon in edges)
        inside = CrossSection.circle(0.3, 8) ^ component
        if not inside.is_empty() and inside.area() > 1e-6:
            continue  # a bar or line from the centre: a finial may stand on its start
        nearest = min(nearest, distance)
    return nearest


def _polygon_distance(polygon: np.ndarray) -> float:
    """Distance from the origin to a closed polygon's outline."""
    a, b = polygon, np.roll(polygon, -1, axis=0)
    ab = b - a
    t = np.clip(-(a * ab).sum(axis=1) / np.maximum((ab * ab).sum(axis=1), 1e-12), 0.0, 1.0)
    closest = a + ab * t[:, None]
    return float(np.hypot(closest[:, 0], closest[:, 1]).min())


def _distance(p: Point, a: Point, b: Point) -> float:
    """Distance from point p to the segment a-b."""
    ap = np.subtract(p, a)
    ab = np.subtract(b, a)
    denominator = float(ab @ ab)
    t = 0.0 if denominator == 0 else min(1.0, max(0.0, float(ap @ ab) / denominator))
    return float(np.hypot(*(ap - t * ab)))


__all__ = ["Layout", "relief_section", "free_radius", "Marker"]
