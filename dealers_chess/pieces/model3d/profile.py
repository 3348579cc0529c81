"""Turned profiles: corners (radius, height) rounded into one tangent-continuous curve, and the lathe
that turns a profile into a solid of SEGMENTS sides.

A profile runs from the axis at its bottom, out along the bed, up the outside and back to the axis at
its top. Where it widens going up it rises at most 40 degrees from vertical (MAX_FLARE), so it prints
without supports; `overhangs` lists the places that do not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from manifold3d import Manifold, Mesh

MAX_FLARE = math.tan(math.radians(40))  # widening per mm of height, 40 degrees from vertical
SEGMENTS = 96  # sides a turn: at a 20 mm radius a facet is 0.011 mm deep, a twentieth of a layer
TOLERANCE_MM = 0.05  # how far an arc's chords may stray from the arc
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Corner:
    """A corner of a profile at (r, z) mm, rounded by an arc of radius `round_mm` (0: a sharp corner)."""

    r: float
    z: float
    round_mm: float = 0.0


def rounded(corners: Sequence[Corner]) -> list[Point]:
    """The profile's points: straight runs between the corners, each corner an arc tangent to both runs
    (its radius shrunk where the runs are too short for it), sampled to TOLERANCE_MM."""
    points = [(c.r, c.z) for c in corners]
    tangents = [0.0] * len(points)
    for i in range(1, len(points) - 1):
        tangents[i] = _tangent_length(points[i - 1], points[i], points[i + 1], corners[i].round_mm)
    out: list[Point] = [points[0]]
    for i in range(1, len(points) - 1):
        before, after = _distance(points[i - 1], points[i]), _distance(points[i], points[i + 1])
        # neighbouring arcs share a run: each gets at most its share of it
        share_before = before * tangents[i] / max(1e-12, tangents[i] + tangents[i - 1]) if i > 1 else before
        share_after = after * tangents[i] / max(1e-12, tangents[i] + tangents[i + 1]) if i < len(points) - 2 else after
        length = min(tangents[i], share_before, share_after)
        out.extend(_arc(points[i - 1], points[i], points[i + 1], length))
    out.append(points[-1])
    return [p for index, p in enumerate(out) if index == 0 or _distance(p, out[index - 1]) > 1e-5]


def _tangent_length(a: Point, b: Point, c: Point, radius: float) -> float:
    """How far from corner b an arc of the radius meets its two runs."""
    if radius <= 0:
        return 0.0
    half = _half_angle(a, b, c)
    return 0.0 if half > math.radians(89.9) else radius / math.tan(half)


def _half_angle(a: Point, b: Point, c: Point) -> float:
    """Half the angle at b between the runs to a and to c."""
    u, v = _unit(a, b), _unit(c, b)
    return math.acos(max(-1.0, min(1.0, u[0] * v[0] + u[1] * v[1]))) / 2


def _arc(a: Point, b: Point, c: Point, length: float) -> list[Point]:
    """The corner b rounded: the arc tangent to b-a and b-c at `length` from b (b itself when 0)."""
    if length <= 1e-9:
        return [b]
    u, v = _unit(a, b), _unit(c, b)
    half = _half_angle(a, b, c)
    radius = length * math.tan(half)
    start, end = (b[0] + u[0] * length, b[1] + u[1] * length), (b[0] + v[0] * length, b[1] + v[1] * length)
    bisector = (u[0] + v[0], u[1] + v[1])
    norm = math.hypot(*bisector)
    centre = (b[0] + bisector[0] / norm * radius / math.sin(half), b[1] + bisector[1] / norm * radius / math.sin(half))
    a0 = math.atan2(start[1] - centre[1], start[0] - centre[0])
    a1 = math.atan2(end[1] - centre[1], end[0] - centre[0])
    sweep = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi  # the short way round
    step = 2 * math.acos(max(-1.0, 1 - TOLERANCE_MM / max(radius, 1e-9)))
    count = max(1, math.ceil(abs(sweep) / max(step, 1e-3)))
    angles = [a0 + sweep * k / count for k in range(count + 1)]
    return [(centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a)) for a in angles]


def _unit(p: Point, origin: Point) -> Point:
    dx, dy = p[0] - origin[0], p[1] - origin[1]
    length = math.hypot(dx, dy)
    return (dx / length, dy / length) if length > 1e-12 else (0.0, 0.0)


def _distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def overhangs(points: Sequence[Point], limit: float = MAX_FLARE) -> list[tuple[Point, Point]]:
    """The runs above the bed that widen faster than `limit` (mm out per mm up): they would need support."""
    bad = []
    for (r0, z0), (r1, z1) in zip(points, points[1:], strict=False):
        widening, rise = r1 - r0, abs(z1 - z0)
        if widening > 1e-6 and max(z0, z1) > 1e-6 and widening > limit * rise + 1e-6:
            bad.append(((r0, z0), (r1, z1)))
    return bad


def lathe(points: Sequence[Point]) -> Manifold:
    """The profile turned about the z axis in SEGMENTS meridians: a closed solid, its first and last points on
    the axis."""
    angles = np.linspace(0.0, 2 * math.pi, SEGMENTS, endpoint=False)
    rings = np.asarray(points[1:-1], dtype=np.float64)
    n, count = SEGMENTS, len(rings)
    radii = np.repeat(rings[:, :1], n, axis=1)
    heights = np.repeat(rings[:, 1], n)
    walls = np.column_stack([(radii * np.cos(angles)).ravel(), (radii * np.sin(angles)).ravel(), heights])
    vertices = [np.array([[0.0, 0.0, points[0][1]]]), walls, np.array([[0.0, 0.0, points[-1][1]]])]
    k = np.arange(n)
    k1 = (k + 1) % n
    triangles = [np.column_stack([np.zeros(n, dtype=np.int64), 1 + k1, 1 + k])]  # the bottom, seen from below
    for ring in range(count - 1):
        a, b = 1 + ring * n, 1 + (ring + 1) * n
        triangles.append(np.column_stack([a + k, a + k1, b + k1]))
        triangles.append(np.column_stack([a + k, b + k1, b + k]))
    top, last = 1 + (count - 1) * n, 1 + count * n
    triangles.append(np.column_stack([np.full(n, last), top + k, top + k1]))
    mesh = Mesh(vert_properties=np.concatenate(vertices).astype(np.float32),
                tri_verts=np.concatenate(triangles).astype(np.uint32))
    return Manifold(mesh)


def radius_at(points: Sequence[Point], z: float) -> float:
    """The profile's outer radius at height z (the largest where several runs cross it)."""
    p = np.asarray(points, dtype=np.float64)
    (r0, z0), (r1, z1) = p[:-1].T, p[1:].T
    crossing = (np.minimum(z0, z1) <= z) & (z <= np.maximum(z0, z1)) & (z0 != z1)
    if not crossing.any():
        return 0.0
    r0, z0, r1, z1 = r0[crossing], z0[crossing], r1[crossing], z1[crossing]
    return max(0.0, float((r0 + (r1 - r0) * (z - z0) / (z1 - z0)).max()))


def widest_between(points: Sequence[Point], z_low: float, z_high: float) -> float:
    """The profile's largest radius between two heights."""
    inside = [r for r, z in points if z_low <= z <= z_high]
    return max([*inside, radius_at(points, z_low), radius_at(points, z_high)])


__all__ = ["Corner", "MAX_FLARE", "SEGMENTS", "lathe", "overhangs", "radius_at", "rounded", "widest_between"]
