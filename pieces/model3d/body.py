"""The lathe body of a 3D piece: proportions by group, cross-section and collar rings by movement family.

Every outline rises at most 40 degrees from vertical where it widens upwards, so it prints without
supports; coaxial features live in the revolved profiles, never in booleans.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from manifold3d import CrossSection, Manifold

from pieces.catalogue import Group
from pieces.movement import Hop, Movement

MAX_FLARE = math.tan(math.radians(40))  # widening per mm of height, 40 degrees from vertical
CHAMFER_MM = 0.6
ROUND_SEGMENTS = 72


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
    HOPPER = (6, 0)  # cannons and grasshoppers: hexagonal

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


def body_size(group: Group, square_mm: float, top_radius_mm: float | None = None) -> BodySize:
    """The body dimensions of a group on squares of square_mm (top radius may be widened)."""
    p = PROPORTIONS[group]
    base_radius = p.base * square_mm / 2
    height = p.height * square_mm
    top = top_radius_mm if top_radius_mm is not None else 0.9 * base_radius
    return BodySize(
        base_radius=base_radius, height=height, top_radius=min(top, base_radius - 0.2),
        top_thickness=max(2.0, 0.05 * square_mm), foot_height=max(2.5, 0.07 * height),
        neck_radius=0.62 * base_radius, waist_radius=0.42 * base_radius,
        crown_height=p.crown_mm * square_mm / 50,
    )


def body(size: BodySize, family: Family) -> Manifold:
    """Foot, stem and head joined: round foot and head, the stem shaped by the family."""
    foot = _revolve([
        (0, 0), (size.base_radius - CHAMFER_MM, 0), (size.base_radius, CHAMFER_MM),
        (size.base_radius, size.foot_height), (size.neck_radius, size.foot_top), (0, size.foot_top),
    ], ROUND_SEGMENTS)
    flare = size.flare_bottom
    disc_bottom = size.height - size.top_thickness
    head = _revolve([  # the cone starts 1 mm lower, inside the stem, so its flat bottom is hidden
        (0, flare - 1.0), (size.waist_radius - MAX_FLARE, flare - 1.0), (size.top_radius, disc_bottom),
        (size.top_radius, size.height), (0, size.height),
    ], ROUND_SEGMENTS)
    return Manifold.batch_boolean([foot, _stem(size, family), head], _add())


def _stem(size: BodySize, family: Family) -> Manifold:
    """The stem from inside the foot to inside the head cone, with its collar rings."""
    sides = family.sides
    grow = 1.0 / math.cos(math.pi / sides)  # polygon flats on the nominal radius
    bottom, top = size.foot_top - 1.0, size.flare_bottom + 1.0
    r_bottom = min(size.neck_radius * grow * 1.03, size.neck_radius + 0.9)
    r_top = size.waist_radius * (0.985 if sides == ROUND_SEGMENTS else grow * 0.98)
    r_top = min(r_top, size.waist_radius + 0.95 * MAX_FLARE - 0.05)
    profile = [(0.0, bottom), (r_bottom, bottom)]
    span = top - bottom
    for index in range(family.rings):
        centre = bottom + span * (0.55 + 0.14 * index)
        r_here = r_bottom + (r_top - r_bottom) * (centre - bottom) / span
        bead = min(1.6, 0.06 * size.base_radius * 2)
        profile += [(r_here, centre - bead / MAX_FLARE), (r_here + bead, centre), (r_here, centre + bead)]
    profile += [(r_top, top), (0.0, top)]
    return _revolve(profile, sides)


def _revolve(profile: list[tuple[float, float]], segments: int) -> Manifold:
    return CrossSection([profile]).revolve(segments)


def _add():
    from manifold3d import OpType

    return OpType.Add
