"""The turned body of a 3D piece: proportions by group; the stem's cross-section by movement family
(riders, hoppers, bent riders) or, for leapers, with rounded corners where the leaps go (moves below,
captures above when they differ); its collars and rings by the shape language (pieces/model3d/shape.py).

Every outline rises at most 40 degrees from vertical where it widens upwards, so it prints without
supports; coaxial features live in one profile, revolved (round or a family's polygon) or lofted
through the stem's section, never added by booleans. The top face sits on a 0.2 mm layer boundary.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

import numpy as np
from manifold3d import CrossSection, Manifold, Mesh

from dealers_chess.pieces.catalogue import Group
from dealers_chess.pieces.model3d.shape import Angle, Modality, ShapeSpec
from dealers_chess.pieces.movement import Hop, Movement

MAX_FLARE = math.tan(math.radians(40))  # widening per mm of height, 40 degrees from vertical
CHAMFER_MM = 0.6
ROUND_SEGMENTS = 48
LAYER_MM = 0.2
FAMILY_RINGS_AT = (0.24,)  # stem fraction of the first of the ranged, bent and hopping families' rings
COLLARS_AT = (0.50, 0.67, 0.84)  # stem fractions of the leap collars, by distance 1, 2, 3+
MODALITY_SHIFT = {Modality.MOVE: -0.16, Modality.BOTH: 0.0, Modality.CAPTURE: 0.14}  # of the stem, from the place
COLLAR = 0.38  # collar depth as a share of the base radius
RULE_RING = 0.28  # a named rule's ring depth as a share of the base radius
FAMILY_RING = 0.18  # the rings of ranged, bent and hopping movers
OVERLAP_MM = 0.2  # the upper part of a stem of two sections starts this far inside the lower
PLINTH_SQUARES = 0.05  # the plinth a pawn that may step back stands on: its foot, and so the piece, is taller
# on a piece with direction ribs, collars reach this share of the base radius (the ribs stand proud)
RIBBED_COLLAR_REACH = 0.93
ANGLE_SHIFT = {Angle.ORTHOGONAL: 0.0, Angle.DIAGONAL: 0.13, Angle.OBLIQUE: 0.06}  # a lone collar's place, of the stem


def on_layer(z_mm: float) -> float:
    """A height rounded to the nearest 0.2 mm layer boundary."""
    return round(round(z_mm / LAYER_MM) * LAYER_MM, 6)


@dataclass(frozen=True, slots=True)
class Proportions:
    """A group's size as fractions of the square: base diameter and height of the top face."""

    base: float
    height: float
    crown_mm: float  # crown height at 50 mm squares (scaled), 0 = no crown


PROPORTIONS: dict[Group, Proportions] = {
    Group.ROYAL: Proportions(0.76, 1.70, 3.5),
    Group.PIECE: Proportions(0.72, 1.25, 0.0),
    Group.PAWN: Proportions(0.60, 0.90, 0.0),
    Group.SPEAR: Proportions(0.64, 1.10, 0.0),
}


class Family(Enum):
    """Movement family shown by the stem: (sides of its cross-section, collar rings)."""

    LEAPER = (ROUND_SEGMENTS, 0)  # leapers and steppers: round, plain
    RANGED = (ROUND_SEGMENTS, 1)  # slides of limited range: round, one collar ring
    RIDER = (8, 0)  # unlimited slides: octagonal
    BENT = (8, 2)  # bent riders (a step, then a slide): octagonal, two collar rings
    BENT_STEP = (ROUND_SEGMENTS, 2)  # two steps in a row (a bent leap): round, two collar rings
    HOPPER = (6, 3)  # cannons and grasshoppers: hexagonal, three rings (hurdles)

    @property
    def sides(self) -> int:
        """Sides of the stem's cross-section."""
        return self.value[0]

    @property
    def rings(self) -> int:
        """Collar rings on the stem."""
        return self.value[1]


def family_of(movement: Movement) -> Family:
    """The family a movement belongs to, the strongest kind of path deciding."""
    paths = movement.paths
    if any(p.hop is not Hop.NONE for p in paths):
        return Family.HOPPER
    if any(len(p.legs) > 1 and p.final.max_steps != 1 for p in paths):
        return Family.BENT
    if any(p.final.max_steps is None for p in paths):
        return Family.RIDER
    if any(len(p.legs) > 1 for p in paths):
        return Family.BENT_STEP
    if any(p.final.max_steps not in (1, None) for p in paths):
        return Family.RANGED
    return Family.LEAPER


@dataclass(frozen=True, slots=True)
class BodySize:
    """The body's dimensions in mm for one group and square size."""

    base_radius: float
    height: float  # z of the top face (the diagram stands on it)
    top_radius: float
    top_thickness: float
    foot_height: float  # top of the vertical band above the chamfer
    neck_radius: float  # where the foot's cove meets the stem
    waist_radius: float
    crown_height: float

    @property
    def foot_top(self) -> float:
        """Height where the foot's cove meets the stem."""
        return self.foot_height + (self.base_radius - self.neck_radius)

    @property
    def flare_bottom(self) -> float:
        """Where the head's 40-degree cone starts below the top disc."""
        return self.height - self.top_thickness - (self.top_radius - self.waist_radius) / MAX_FLARE


def body_size(
    group: Group, square_mm: float, top_radius_mm: float | None = None, spec: ShapeSpec | None = None,
) -> BodySize:
    """The body dimensions of a group on squares of square_mm (top radius may be widened), the top face
    moved for a tall head and put on a layer boundary."""
    p = PROPORTIONS[group]
    base_radius = p.base * square_mm / 2
    offset = spec.top_offset_squares if spec else 0.0
    plinth = PLINTH_SQUARES * square_mm if spec and spec.plinth else 0.0
    height = on_layer((p.height + offset) * square_mm + plinth)  # a plinth lifts the whole piece
    top = top_radius_mm if top_radius_mm is not None else 0.9 * base_radius
    thick = bool(spec and spec.thick)
    waist = spec.waist_share if spec else 0.42
    return BodySize(
        base_radius=base_radius, height=height, top_radius=min(top, base_radius - 0.2),
        top_thickness=max(2.0, 0.05 * square_mm),
        foot_height=max(2.5, 0.07 * (height - plinth)) + plinth,
        neck_radius=min(0.85, waist + (0.12 if thick else 0.20)) * base_radius,
        waist_radius=(waist + (0.16 if thick else 0.0)) * base_radius,
        crown_height=p.crown_mm * square_mm / 50,
    )


def body(size: BodySize, family: Family, spec: ShapeSpec | None = None) -> Manifold:
    """Foot, stem and head joined: round foot and head, the stem shaped by the family and the shape."""
    foot = _revolve([
        (0, 0), (size.base_radius - CHAMFER_MM, 0), (size.base_radius, CHAMFER_MM),
        (size.base_radius, size.foot_height), (size.neck_radius, size.foot_top), (0, size.foot_top),
    ], ROUND_SEGMENTS)
    flare = size.flare_bottom
    disc_bottom = size.height - size.top_thickness
    # the cone starts lower, inside the stem's flats, so its flat bottom is hidden
    start = min(size.waist_radius - 2 * MAX_FLARE, stem_core_radius(size, family, spec, pinch=False) - 0.3)
    start_z = flare - (size.waist_radius - start) / MAX_FLARE
    head = _revolve([
        (0, start_z), (start, start_z), (size.top_radius, disc_bottom),
        (size.top_radius, size.height), (0, size.height),
    ], ROUND_SEGMENTS)
    return Manifold.batch_boolean([foot, _stem(size, family, spec), head], _add())


ROUND_SHARE = math.cos(math.pi / ROUND_SEGMENTS) - 1e-9  # flats of a round stem
CORNER_ROUNDING = 0.3  # the radius of a stem's rounded corners, as a share of its corners' distance
MAX_CORNERS = 16  # a leaper whose leaps go more ways than this stands on a round stem


class Section(NamedTuple):
    """A stem's cross-section: corners as (degrees, reach), rounded (a leaper's) or sharp (a family's polygon)."""

    corners: tuple[tuple[float, float], ...]
    rounded: bool


def stem_section(family: Family, spec: ShapeSpec | None, corners: tuple | None = None) -> Section:
    """The stem's cross-section: the family's sharp regular polygon for riders, hoppers and bent riders;
    for the round families rounded corners where the piece's leaps go (spec.corners, or the corners
    given), so a Wazir stands on a square stem, a Ferz on a diamond and a Zebra on eight points."""
    corners = spec.corners if corners is None and spec else corners
    if family.sides == ROUND_SEGMENTS and corners and len(corners) <= MAX_CORNERS:
        return Section(corners, True)
    return Section(tuple((360.0 * k / family.sides, 1.0) for k in range(family.sides)), False)


def section_outline(section: Section) -> list[tuple[float, float]]:
    """The stem's cross-section, its farthest corner at radius 1: the polygon through the corners, a
    leaper's with each corner rounded (a share CORNER_ROUNDING of the radius), so a square stem reads as
    a cushion, not a box."""
    corners = section.corners
    longest = max(reach for _, reach in corners)
    points = _convex([(reach / longest * math.cos(math.radians(a)), reach / longest * math.sin(math.radians(a)))
                      for a, reach in corners])  # a short corner between two long ones does not show
    rounding = CORNER_ROUNDING if section.rounded else 0.0
    normals = []
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True):  # outward normal of each edge
        length = math.hypot(x1 - x0, y1 - y0)
        normals.append(math.atan2(-(x1 - x0) / length, (y1 - y0) / length))
    outline: list[tuple[float, float]] = []
    for i, (x, y) in enumerate(points):
        before, after = normals[i - 1], normals[i]
        turn = (after - before) % (2 * math.pi)
        steps = max(1, math.ceil(turn / math.radians(15)))
        for k in range(steps + 1):
            phi = before + turn * k / steps
            point = ((1 - rounding) * x + rounding * math.cos(phi), (1 - rounding) * y + rounding * math.sin(phi))
            if not outline or math.dist(point, outline[-1]) > 1e-6:
                outline.append(point)
    return outline if math.dist(outline[0], outline[-1]) > 1e-6 else outline[:-1]


def _convex(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The corners of the points' convex hull, counter-clockwise (Andrew's monotone chain)."""
    ordered = sorted(set(points))

    def chain(sequence):
        hull: list[tuple[float, float]] = []
        for p in sequence:
            while len(hull) >= 2 and ((hull[-1][0] - hull[-2][0]) * (p[1] - hull[-2][1])
                                      - (hull[-1][1] - hull[-2][1]) * (p[0] - hull[-2][0])) <= 1e-12:
                hull.pop()
            hull.append(p)
        return hull[:-1]

    return chain(ordered) + chain(list(reversed(ordered)))


def flat_share(section: Section) -> float:
    """How close to the axis the stem's cross-section comes, as a share of its farthest corner's distance."""
    points = section_outline(section)
    return min(abs(x0 * y1 - x1 * y0) / max(1e-12, math.hypot(x1 - x0, y1 - y0))
               for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True))


def stem_flat_share(family: Family, spec: ShapeSpec | None) -> float:
    """The smallest flat share of any part of the stem."""
    parts = (None, *spec.corners_by_mode) if spec else (None,)
    return min(flat_share(stem_section(family, spec, corners)) for corners in parts)


def stem_core_radius(size: BodySize, family: Family, spec: ShapeSpec | None, pinch: bool = True) -> float:
    """A radius the stem's solid fills everywhere between foot and head: its thinnest flats, and (with
    pinch) the pinch of a stem of two sections (fins and ribs reach into it, so they never leave a hole)."""
    share = stem_flat_share(family, spec)
    r_bottom, r_top = _radii(size, share)
    core = min(r_bottom, r_top) * share
    two = spec is not None and len({stem_section(family, spec, corners) for corners in spec.corners_by_mode}) > 1
    return core * (0.9 * share if two and pinch else 1.0)  # the upper part starts inside the lower's flats


def _stem(size: BodySize, family: Family, spec: ShapeSpec | None) -> Manifold:
    """The stem from inside the foot to inside the head cone, with its rings and collars; a leaper that
    moves one way and captures another shows its moves on the lower stem and its captures on the upper,
    which starts inside the lower part's flats and grows out at 40 degrees."""
    bottom, top = size.foot_top - 1.0, size.flare_bottom + 1.0
    placed = _placed(sorted(_beads(family, spec), key=lambda bead: bead[0]), bottom, top, size.base_radius)
    low, high = (stem_section(family, spec, corners) for corners in (spec.corners_by_mode if spec else (None, None)))
    if low == high:
        section = stem_section(family, spec)
        return _loft(_profile(size, flat_share(section), placed, spec), section)
    split = _split(placed, bottom, top)
    lower, upper = _profile(size, flat_share(low), placed, spec), _profile(size, flat_share(high), placed, spec)
    below, above = split - OVERLAP_MM, split + OVERLAP_MM / 2  # the two parts overlap (no shared face)
    start = 0.9 * _radius_at(lower, below) * flat_share(low)  # inside the lower part's flats, whichever way they face
    lower = [p for p in lower if p[1] < above] + [(_radius_at(lower, above), above), (0.0, above)]
    upper = [(0.0, below), (start, below), *_grown_from(upper, below, start)]
    return Manifold.batch_boolean([_loft(lower, low), _loft(upper, high)], _add())


def _grown_from(profile: list[tuple[float, float]], z0: float, r0: float) -> list[tuple[float, float]]:
    """The profile above z0, nowhere wider than a 40-degree cone growing from radius r0 at z0."""
    out = []
    previous = (_radius_at(profile, z0), z0)
    for r, z in (p for p in profile[1:] if p[1] > z0):
        cone_before, cone = r0 + MAX_FLARE * (previous[1] - z0), r0 + MAX_FLARE * (z - z0)
        over_before, over = previous[0] - cone_before, r - cone
        if over_before * over < 0:  # the profile crosses the cone: keep the crossing
            t = over_before / (over_before - over)
            out.append((cone_before + t * (cone - cone_before), previous[1] + t * (z - previous[1])))
        out.append((min(r, cone), z))
        previous = (r, z)
    return out


def _beads(family: Family, spec: ShapeSpec | None) -> list:
    """The stem's rings and collars: (place as a share of the stem, direction classes, depth)."""
    beads = [(at, (frozenset({Angle.DIAGONAL}),), RULE_RING) for at in (spec.rule_rings if spec else ())]
    beads += [(FAMILY_RINGS_AT[0] + 0.05 * index, (frozenset({Angle.DIAGONAL}),), FAMILY_RING)
              for index in range(family.rings)]
    if spec:
        for at, kinds in zip(COLLARS_AT, spec.collars, strict=True):
            for modality, shift in MODALITY_SHIFT.items():
                angles = frozenset(angle for angle, mode in kinds if mode is modality)
                if angles:
                    lone = ANGLE_SHIFT[next(iter(angles))] if len(angles) == 1 else 0.0
                    beads.append((at + shift + lone, (angles,), COLLAR))
    return beads


def _radii(size: BodySize, share: float) -> tuple[float, float]:
    """The stem's corner radius at its bottom and top for a cross-section whose flats are this share of it."""
    grow = 1.0 / share  # polygon flats on the nominal radius
    r_bottom = min(size.neck_radius * grow * 1.03, size.neck_radius + 0.9)
    r_top = size.waist_radius * (0.985 if share > ROUND_SHARE else grow * 0.98)
    return r_bottom, min(r_top, size.waist_radius + 0.95 * MAX_FLARE - 0.05)


def _profile(size: BodySize, share: float, placed: list, spec: ShapeSpec | None) -> list[tuple[float, float]]:
    """The stem's (radius, height) profile for a cross-section whose flats are this share of its corners,
    collars and rings in it."""
    bottom, top = size.foot_top - 1.0, size.flare_bottom + 1.0
    r_bottom, r_top = _radii(size, share)
    span = top - bottom
    profile = [(0.0, bottom), (r_bottom, bottom)]
    for start, outline in placed:
        r_here = r_bottom + (r_top - r_bottom) * (start - bottom) / span
        reach = RIBBED_COLLAR_REACH * size.base_radius if spec and spec.ribs else size.base_radius - 0.8
        widest = reach - r_here  # collars stay inside the base, and inside the ribs
        profile += [(r_here + min(dr, widest), start + dz) for dr, dz in outline]
    if profile[-1][1] < size.flare_bottom - 2.5:  # straight under the head, around the cone's hidden start
        profile.append((r_top, size.flare_bottom - 2.5))
    return profile + [(r_top, top), (0.0, top)]


def _radius_at(profile: list[tuple[float, float]], z: float) -> float:
    """The profile's radius at height z (on its outer edge)."""
    for (r0, z0), (r1, z1) in zip(profile[1:], profile[2:], strict=False):
        if z0 <= z <= z1 and z1 > z0:
            return r0 + (r1 - r0) * (z - z0) / (z1 - z0)
    raise ValueError(z)


def _split(placed: list, bottom: float, top: float) -> float:
    """Where the lower stem gives way to the upper: at the widest point of the collar nearest the stem's
    middle (the upper part's regrowth hides in the collar's upper slope), else the middle."""
    middle = (bottom + top) / 2
    peaks = [start + max(outline, key=lambda point: point[0])[1] for start, outline in placed]
    return min(peaks, key=lambda z: abs(z - middle)) if peaks else middle


def _placed(beads: list, bottom: float, top: float, base_radius: float) -> list[tuple[float, list]]:
    """Each collar's start height and outline: at its place where it fits, every collar shrunk alike
    when together they are taller than the stem, none dropped."""
    gap, low, high = 0.3, bottom + 0.3, top - 1.0
    span = top - bottom
    outlines = [_collar(kinds, depth * base_radius) for _, (kinds,), depth in beads]
    need = sum(o[-1][1] for o in outlines) + gap * len(outlines)
    if need > high - low:
        shrink = (high - low) / need
        outlines = [_collar(kinds, depth * base_radius * shrink) for _, (kinds,), depth in beads]
    starts: list[float] = []
    for at, _, _ in beads:
        starts.append(max(bottom + span * at, starts[-1] + gap if starts else low,
                          (starts[-1] + outlines[len(starts) - 1][-1][1] + gap) if starts else low))
    ceiling = high
    for index in range(len(starts) - 1, -1, -1):
        starts[index] = min(starts[index], ceiling - outlines[index][-1][1])
        ceiling = starts[index] - gap
    return list(zip(starts, outlines, strict=True))


def _collar(kinds: frozenset[Angle], depth: float) -> list[tuple[float, float]]:
    """A collar's outline as (radius added, height) from its bottom: a flat-topped band for orthogonal
    leaps, a pointed bead for diagonal ones, a double bead for oblique ones, stacked when several."""
    rise = depth / MAX_FLARE
    outline: list[tuple[float, float]] = [(0.0, 0.0)]
    for kind in (Angle.ORTHOGONAL, Angle.DIAGONAL, Angle.OBLIQUE):
        if kind not in kinds:
            continue
        z = outline[-1][1]
        if kind is Angle.ORTHOGONAL:
            outline += [(depth, z + rise), (depth, z + rise + 0.6 * depth), (0.0, z + rise + 0.6 * depth + 0.3)]
        elif kind is Angle.DIAGONAL:
            outline += [(depth, z + rise), (0.0, z + rise + depth)]
        else:
            half = depth * 0.6
            outline += [(half, z + half / MAX_FLARE), (0.3, z + half / MAX_FLARE + half - 0.3),
                        (depth, z + half / MAX_FLARE + half - 0.3 + (depth - 0.3) / MAX_FLARE),
                        (0.0, z + half / MAX_FLARE + half - 0.3 + (depth - 0.3) / MAX_FLARE + depth)]
    return outline


def _loft(profile: list[tuple[float, float]], section: Section) -> Manifold:
    """A profile (radius, height) from the axis round to the axis turned into a solid whose cross-section
    is the section's outline, scaled so its farthest corner follows the profile's radius (a revolve with
    corners where we choose)."""
    if not section.rounded:
        return _revolve(profile, len(section.corners))  # a family's regular polygon, a corner at 0 degrees
    rings = _distinct(profile)[1:-1]  # no ring twice
    unit = section_outline(section)
    n = len(unit)
    vertices = [(0.0, 0.0, profile[0][1])]
    for r, z in rings:
        vertices += [(r * x, r * y, z) for x, y in unit]
    vertices.append((0.0, 0.0, profile[-1][1]))
    last = len(vertices) - 1
    triangles = [(0, 1 + (k + 1) % n, 1 + k) for k in range(n)]  # the bottom, seen from below
    for ring in range(len(rings) - 1):
        a, b = 1 + ring * n, 1 + (ring + 1) * n
        for k in range(n):
            k1 = (k + 1) % n
            triangles += [(a + k, a + k1, b + k1), (a + k, b + k1, b + k)]
    top = 1 + (len(rings) - 1) * n
    triangles += [(last, top + k, top + (k + 1) % n) for k in range(n)]
    return Manifold(Mesh(vert_properties=np.array(vertices, dtype=np.float32),
                         tri_verts=np.array(triangles, dtype=np.uint32)))


def _revolve(profile: list[tuple[float, float]], segments: int) -> Manifold:
    return CrossSection([_distinct(profile)]).revolve(segments)


def _distinct(profile: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The profile without a point that repeats the one before (to within 0.1 micrometre)."""
    return [point for index, point in enumerate(profile) if index == 0 or math.dist(point, profile[index - 1]) > 1e-4]


def _add():
    from manifold3d import OpType

    return OpType.Add
