"""The lathe body of a 3D piece: proportions by group, the stem's cross-section by movement family,
its collars and rings by the shape language (pieces/model3d/shape.py).

Every outline rises at most 40 degrees from vertical where it widens upwards, so it prints without
supports; coaxial features live in the revolved profiles, never in booleans. The top face sits on a
0.2 mm layer boundary.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from manifold3d import CrossSection, Manifold

from pieces.catalogue import Group
from pieces.model3d.shape import Angle, Modality, ShapeSpec
from pieces.movement import Hop, Movement

MAX_FLARE = math.tan(math.radians(40))  # widening per mm of height, 40 degrees from vertical
CHAMFER_MM = 0.6
ROUND_SEGMENTS = 48
LAYER_MM = 0.2
FAMILY_RINGS_AT = (0.24,)  # stem fraction of the first of the ranged, bent and hopping families' rings
COLLARS_AT = (0.50, 0.67, 0.84)  # stem fractions of the leap collars, by distance 1, 2, 3+
MODALITY_SHIFT = {Modality.MOVE: -0.16, Modality.BOTH: 0.0, Modality.CAPTURE: 0.14}  # of the stem, from the place
COLLAR = 0.32  # collar depth as a share of the base radius
RULE_RING = 0.10  # a named rule's ring depth as a share of the base radius
FAMILY_RING = 0.14  # the rings of ranged, bent and hopping movers
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
    height = on_layer((p.height + offset) * square_mm)
    top = top_radius_mm if top_radius_mm is not None else 0.9 * base_radius
    thick = bool(spec and spec.thick)
    waist = spec.waist_share if spec else 0.42
    return BodySize(
        base_radius=base_radius, height=height, top_radius=min(top, base_radius - 0.2),
        top_thickness=max(2.0, 0.05 * square_mm), foot_height=max(2.5, 0.07 * height),
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
    head = _revolve([  # the cone starts 2 mm lower, inside the stem, so its flat bottom is hidden
        (0, flare - 2.0), (size.waist_radius - 2 * MAX_FLARE, flare - 2.0), (size.top_radius, disc_bottom),
        (size.top_radius, size.height), (0, size.height),
    ], ROUND_SEGMENTS)
    return Manifold.batch_boolean([foot, _stem(size, family, spec), head], _add())


def _stem(size: BodySize, family: Family, spec: ShapeSpec | None) -> Manifold:
    """The stem from inside the foot to inside the head cone, with its rings and collars."""
    sides = family.sides
    grow = 1.0 / math.cos(math.pi / sides)  # polygon flats on the nominal radius
    bottom, top = size.foot_top - 1.0, size.flare_bottom + 1.0
    r_bottom = min(size.neck_radius * grow * 1.03, size.neck_radius + 0.9)
    r_top = size.waist_radius * (0.985 if sides == ROUND_SEGMENTS else grow * 0.98)
    r_top = min(r_top, size.waist_radius + 0.95 * MAX_FLARE - 0.05)
    span = top - bottom
    beads = [(at, (frozenset({Angle.DIAGONAL}),), RULE_RING) for at in (spec.rule_rings if spec else ())]
    beads += [(FAMILY_RINGS_AT[0] + 0.05 * index, (frozenset({Angle.DIAGONAL}),), FAMILY_RING)
              for index in range(family.rings)]
    if spec:
        for at, kinds in zip(COLLARS_AT, spec.collars):
            for modality, shift in MODALITY_SHIFT.items():
                angles = frozenset(angle for angle, mode in kinds if mode is modality)
                if angles:
                    lone = ANGLE_SHIFT[next(iter(angles))] if len(angles) == 1 else 0.0
                    beads.append((at + shift + lone, (angles,), COLLAR))
    profile = [(0.0, bottom), (r_bottom, bottom)]
    for start, outline in _placed(sorted(beads, key=lambda bead: bead[0]), bottom, top, size.base_radius):
        r_here = r_bottom + (r_top - r_bottom) * (start - bottom) / span
        widest = size.base_radius - 0.8 - r_here  # collars stay inside the base
        profile += [(r_here + min(dr, widest), start + dz) for dr, dz in outline]
    if profile[-1][1] < size.flare_bottom - 2.5:  # straight under the head, around the cone's hidden start
        profile.append((r_top, size.flare_bottom - 2.5))
    profile += [(r_top, top), (0.0, top)]
    return _revolve(profile, sides)


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
    starts = []
    for (at, _, _), outline in zip(beads, outlines):
        starts.append(max(bottom + span * at, starts[-1] + gap if starts else low,
                          (starts[-1] + outlines[len(starts) - 1][-1][1] + gap) if starts else low))
    ceiling = high
    for index in range(len(starts) - 1, -1, -1):
        starts[index] = min(starts[index], ceiling - outlines[index][-1][1])
        ceiling = starts[index] - gap
    return list(zip(starts, outlines))


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


def _revolve(profile: list[tuple[float, float]], segments: int) -> Manifold:
    return CrossSection([profile]).revolve(segments)


def _add():
    from manifold3d import OpType

    return OpType.Add
