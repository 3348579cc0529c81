"""The turned body of a 3D piece: one profile in the grammar of a turned chess set, from the bed up: a
foot (a disc, a bead and a cove), a concave stem, one collar band, a neck and a head with the top
plate the diagram stands on.

Sizes by group, heights on a few shared levels by power band (levels.py: royals and the Queen highest,
leapers, then riders' heads and pawns, horses lowest under their heads). The stem is round all the way
round: what a piece shows besides its head is on its one collar and its rule bands. Where the profile
widens going up it rises at most 40 degrees from vertical; the top face sits on a 0.2 mm layer boundary.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from manifold3d import Manifold

from dealers_chess.pieces.catalogue import Group
from dealers_chess.pieces.model3d.levels import LAYER_MM, band_of, on_layer, top_face_mm
from dealers_chess.pieces.model3d.profile import MAX_FLARE, Corner, Point, lathe, rounded
from dealers_chess.pieces.model3d.shape import Head, Mark, Ring, ShapeSpec

CHAMFER_MM = (0.5, 0.6)  # the bottom edge's chamfer against elephant's foot: 0.5 in over 0.6 up (40 degrees)
PLATE_SHARE = 0.75  # the top plate's radius as a share of the foot's, at most
MAX_BASE_SHARE = 0.96  # a piece whose diagram needs it grows its foot up to this share of the square
PLINTH_SQUARES = 0.048  # how much taller a pawn's foot is when it may step back or sideways
STEP_MM = 1.6  # the stem's rings at most this far apart (its curve strays less than 0.01 mm from the chords)
BASES = {Group.ROYAL: 0.76, Group.PIECE: 0.72, Group.PAWN: 0.60, Group.SPEAR: 0.64}  # foot diameter / square


@dataclass(frozen=True, slots=True)
class BodySize:
    """A piece's turned size in mm: its foot, its top face's height and its top plate."""

    base_radius: float
    height: float  # z of the top face (the diagram stands on it)
    plate_radius: float  # the top face's outer radius (its flat ends PLATE_EDGE_MM inside)
    scale: float  # the square's size over 50 mm

    @property
    def flat_radius(self) -> float:
        """The top face's flat part (inside the plate's rounded edge)."""
        return self.plate_radius - 0.8 * self.scale


BALL_FLAT = (0.58, 0.64)  # a pawn's ball is cut flat at this share of the foot's radius (up to the second)


def body_size(
    group: Group, square_mm: float, spec: ShapeSpec, base_radius_mm: float | None = None,
    flat_share: float | None = None,
) -> BodySize:
    """The body of a group's piece on squares of square_mm (the foot, and a pawn's flat, may be widened for
    a diagram), the top face on one of the few shared levels (levels.py): its power band's, or a higher
    one where its collar band or foot needs the room."""
    scale = square_mm / 50
    base = base_radius_mm if base_radius_mm is not None else BASES[group] * square_mm / 2
    plate = (flat_share or BALL_FLAT[0] if spec.head is Head.BALL else PLATE_SHARE) * base
    size = BodySize(base, 0.0, plate, scale)
    stem = (MIN_LOW_STEM_MM if spec.head is Head.LOW else MIN_STEM_MM) * scale
    needed = _foot_height(base, scale, spec.plinth) + stem + _rings_height(size, spec)
    needed += _head_height(size, spec)
    return BodySize(base, top_face_mm(band_of(group, spec), needed, square_mm), plate, scale)


MIN_STEM_MM, MIN_LOW_STEM_MM = 4.0, 1.5  # at 50 mm squares: the stem under a head, under a horse's plate


@dataclass(frozen=True, slots=True)
class Turned:
    """A body's profile and where its parts stand."""

    points: list[Point]
    stem: tuple[float, float]  # bottom and top of the stem
    band: tuple[float, float, float] | None  # the pips' band: bottom, top and radius
    neck_radius: float  # the stem's radius under the head (a finial or horse may start inside it)
    notched_band: tuple[float, float, float] | None = None  # the promotion rule's band: bottom, top and radius
    collar: tuple[float, float, float] | None = None  # a notched collar's bottom, top and radius


STEM_BOTTOM = 0.50  # the stem's radius over the foot's cove, as a share of the foot's
# the stem's narrowest radius and the neck's over the collar band, as shares of the foot's: a sturdy Staunton
# stem (40 % of the foot across), a pawn's slimmer
STEM_TOP_NECK = {Head.BALL: (0.32, 0.36)}
STEM_TOP, NECK = 0.40, 0.42


def _stem_top(spec: ShapeSpec) -> float:
    return STEM_TOP_NECK.get(spec.head, (STEM_TOP, NECK))[0]


def _neck(spec: ShapeSpec) -> float:
    return STEM_TOP_NECK.get(spec.head, (STEM_TOP, NECK))[1]


def turned(size: BodySize, spec: ShapeSpec) -> Turned:
    """The profile of a piece from the bed up: foot, stem (with the rule band), collar band, neck, head."""
    rb, s = size.base_radius, size.scale
    foot, z = _foot(rb, s, spec.plinth)
    stem_top = size.height - _head_height(size, spec) - _rings_height(size, spec)
    stem, band, notched = _stem(z, stem_top, STEM_BOTTOM * rb, _stem_top(spec) * rb, s, spec)
    corners = [*foot, *stem]
    collar_low = corners[-1].z
    for ring in _collar_band(rb, s, spec):
        corners = _joined(corners, ring(corners[-1].r, corners[-1].z), 0.6 * s)
    collar = (collar_low, corners[-1].z, COLLAR_SHARE * rb) if collar_notches(spec) else None
    corners = _joined(corners, _head(size, spec)(corners[-1].r, corners[-1].z), 0.3 * s)
    return Turned(rounded(corners), (z, stem_top), band, _stem_top(spec) * rb, notched, collar)


def _joined(corners: list[Corner], more: list[Corner], round_mm: float) -> list[Corner]:
    """Corners continued by more, the corner they meet at rounded by round_mm."""
    last = corners[-1]
    return [*corners[:-1], Corner(last.r, last.z, round_mm), *more]


def _foot_height(rb: float, s: float, plinth: bool) -> float:
    return _foot(rb, s, plinth)[1]


def _rings_height(size: BodySize, spec: ShapeSpec) -> float:
    """The collar band's height, measured on its corners."""
    corners = [Corner(_stem_top(spec) * size.base_radius, 0.0)]
    for ring in _collar_band(size.base_radius, size.scale, spec):
        corners += ring(corners[-1].r, corners[-1].z)
    return corners[-1].z


def _foot(rb: float, s: float, plinth: bool) -> tuple[list[Corner], float]:
    """The foot: a disc with a rounded top edge, a ledge, a bead and a cove up into the stem."""
    disc = 0.21 * rb + (PLINTH_SQUARES * 50 * s if plinth else 0.0)
    ledge, bead_r, bead_top = 0.88 * rb, 0.915 * rb, 0.80 * rb
    z_bead = disc + 0.05 * rb
    z_bead_out = z_bead + (bead_r - ledge) / MAX_FLARE
    corners = [
        Corner(0.0, 0.0), Corner(rb - CHAMFER_MM[0], 0.0), Corner(rb, CHAMFER_MM[1]),
        Corner(rb, disc, 0.08 * rb),
        Corner(ledge, z_bead, 0.02 * rb),
        Corner(bead_r, z_bead_out, 0.05 * rb),
        Corner(bead_top, z_bead_out + 0.09 * rb, 0.04 * rb),
    ]
    z_cove = z_bead_out + 0.12 * rb
    corners.append(Corner(0.50 * rb, z_cove, 0.15 * rb))  # the cove: in, then up into the stem
    return corners, z_cove


def _stem(
    z0: float, z1: float, r0: float, r1: float, s: float, spec: ShapeSpec,
) -> tuple[list[Corner], tuple[float, float, float] | None, tuple[float, float, float] | None]:
    """The concave stem from (r0, z0) to (r1, z1); a plain band low on it for a rule of what the piece does
    (pips stand round it), another high on it for a rule of promotion (notches are cut round it). Returns the
    corners and each band's (bottom, top, radius), None where it has none."""
    def radius(z: float) -> float:  # concave: quickly narrower above the foot, nearly straight under the collar
        t = (z - z0) / max(1e-9, z1 - z0)
        return r1 + (r0 - r1) * (1 - t) ** 2.2

    zs = list(np.linspace(z0, z1, max(3, math.ceil((z1 - z0) / STEP_MM) + 1)))[1:]
    bands: dict[Mark, list[Corner]] = {}
    if Mark.PIPS in spec.marks:
        low = z0 + 2.0 * s
        bands[Mark.PIPS] = _band(low, radius(low) + BAND_PROUD_MM[Mark.PIPS] * s, radius, s)
    if Mark.NOTCHES in spec.marks:
        proud = BAND_PROUD_MM[Mark.NOTCHES] * s
        low = z1 - NOTCHED_BAND_GAP_MM * s - _band(0.0, proud, lambda z: 0.0, s)[-1].z
        bands[Mark.NOTCHES] = _band(low, radius(low) + proud, radius, s)
    ordered = sorted(bands.values(), key=lambda band: band[0].z)
    if (any(band[0].z < z0 + 0.5 * s or band[-1].z > z1 - 0.8 * s for band in ordered)
            or any(low[-1].z > high[0].z for low, high in zip(ordered, ordered[1:], strict=False))):
        bands, ordered = {}, []  # no room on a short stem
    corners: list[Corner] = []
    for band in ordered:
        corners += [Corner(radius(z), z) for z in zs if (corners[-1].z if corners else z0) < z < band[0].z]
        corners += band
    corners += [Corner(radius(z), z) for z in zs if z > (corners[-1].z if corners else z0)]
    return corners, _extent(bands.get(Mark.PIPS)), _extent(bands.get(Mark.NOTCHES))


NOTCHED_BAND_GAP_MM = 3.0  # the promotion band's top this far under the stem's top, at 50 mm squares
# how far a rule's band stands proud of the stem, at 50 mm squares (pips stand 1 mm further; notches cut 1 mm in)
BAND_PROUD_MM = {Mark.PIPS: 1.0, Mark.NOTCHES: 1.6}


def _extent(band: list[Corner] | None) -> tuple[float, float, float] | None:
    """A band's bottom, top and radius."""
    return (band[0].z, band[-1].z, band[1].r) if band else None


def _band(low: float, r: float, radius, s: float) -> list[Corner]:
    """A plain band from height low: a 40-degree underside, a face 3 mm tall for a ring of pips or notches,
    and its top back to the stem."""
    z = low + (r - radius(low)) / MAX_FLARE
    corners = [Corner(radius(low), low, 0.3 * s), Corner(r, z, 0.3 * s), Corner(r, z + 3.0 * s)]
    top = z + 3.6 * s
    return [*corners, Corner(r, top, 0.35 * s), Corner(radius(top + 0.6 * s) + 0.05, top + 0.6 * s, 0.2 * s)]


COLLAR_SHARE, PAWN_COLLAR_SHARE = 0.66, 0.56  # the one collar's radius as a share of the foot's


def collar_notches(spec: ShapeSpec) -> int:
    """How many notches a piece's one collar carries: its leap distances (one distance, a pawn's class or a
    rider's collar is the plain collar every turned piece has)."""
    return len(spec.rings) if len(spec.rings) > 1 else 0


def _principal_ring(spec: ShapeSpec) -> Ring:
    """The one collar's profile: the farthest leap's ring (a skipped distance's thin ring says nothing of
    direction)."""
    return next((ring for ring in reversed(spec.rings) if ring is not Ring.THIN), spec.rings[-1])


def _collar_band(rb: float, s: float, spec: ShapeSpec) -> list:
    """The one collar (none under a horse: its top plate is its collar), as a function of the radius and height
    it starts from."""
    if spec.head is Head.LOW and spec.rings == (Ring.ROUND,):
        return []  # a horse's top plate is its collar
    outer = (PAWN_COLLAR_SHARE if spec.head is Head.BALL else COLLAR_SHARE) * rb
    return [_ring_function(_principal_ring(spec), outer, _neck(spec) * rb, s)]


def _ring_function(ring: Ring, outer: float, neck: float, s: float):
    """The corners of one ring starting from (r, z): a 40-degree underside, its edge, its top back to the neck."""
    def corners(r: float, z: float) -> list[Corner]:
        z_out = z + max(0.0, outer - r) / MAX_FLARE
        if ring is Ring.FLAT:
            edge = [Corner(outer, z_out, 0.25 * s), Corner(outer, z_out + 1.4 * s, 0.35 * s),
                    Corner(neck, z_out + 2.2 * s, 0.3 * s)]
        elif ring is Ring.FULL:
            edge = [Corner(outer, z_out, 0.5 * s), Corner(outer, z_out + 1.0 * s, 0.9 * s),
                    Corner(neck, z_out + 2.4 * s, 0.3 * s)]
        elif ring is Ring.POINTED:
            edge = [Corner(outer, z_out, 0.12 * s), Corner(neck, z_out + 1.5 * s, 0.3 * s)]
        else:  # ROUND: a bead
            edge = [Corner(outer, z_out, 0.9 * s), Corner(neck, z_out + 1.9 * s, 0.3 * s)]
        return [*edge, Corner(neck, edge[-1].z + 0.8 * s)]

    return corners


HEAD_NECK_MM = 1.0  # the shortest neck between the collar band and the head, at 50 mm squares


def _head(size: BodySize, spec: ShapeSpec):
    """The head as a function of the radius and height it starts from: its corners up to the top face,
    the neck taking whatever height is left."""
    rb, s, plate, top = size.base_radius, size.scale, size.plate_radius, size.height
    if spec.head is Head.BALL:
        radius, above = _ball_geometry(size)
        centre = top - above
        lower = math.radians(-40)
        tangent = (radius * math.cos(lower), centre + radius * math.sin(lower))

        def ball(r: float, z: float) -> list[Corner]:
            start_z = tangent[1] - (tangent[0] - r) / MAX_FLARE
            corners = [Corner(r, start_z, 1.5 * s)]
            for angle in np.linspace(lower, math.asin(above / radius), 16):
                corners.append(Corner(radius * math.cos(angle), centre + radius * math.sin(angle)))
            corners[-1] = Corner(plate, top, 0.7 * s)
            return [*corners, Corner(0.0, top)]

        return ball
    if spec.head is Head.TOWER:
        def tower(r: float, z: float) -> list[Corner]:
            z_out = z + HEAD_NECK_MM * s + (plate - r) / MAX_FLARE
            return [Corner(r, z + HEAD_NECK_MM * s, 2.5 * s), Corner(plate, z_out, 1.0 * s),
                    Corner(plate - 0.35 * s, (z_out + top) / 2, 8.0 * s),
                    Corner(plate, top - 2.6 * s, 0.4 * s), Corner(plate, top, 0.6 * s), Corner(0.0, top)]

        return tower
    if spec.head is Head.LOW:
        def plate_on_collar(r: float, z: float) -> list[Corner]:
            z_plate = top - 1.2 * s
            z_flare = z_plate - (plate - r) / MAX_FLARE
            return [Corner(r, z_flare, 4.0 * s), Corner(plate, z_plate, 0.5 * s), Corner(plate, top - 0.4 * s, 0.8 * s),
                    Corner(plate - 0.8 * s, top), Corner(0.0, top)]

        return plate_on_collar
    bead = 0.66 * rb

    def cup(r: float, z: float) -> list[Corner]:
        rest = top - z - _cup_height(size, r)
        z_bead = z + HEAD_NECK_MM * s + rest + (bead - r) / MAX_FLARE
        z_under = z_bead + 1.4 * s
        z_plate = z_under + (plate - (bead - 0.5 * s)) / MAX_FLARE
        return [Corner(r, z + HEAD_NECK_MM * s + rest, 5.0 * s), Corner(bead, z_bead, 0.8 * s),
                Corner(bead - 0.5 * s, z_under, 0.4 * s), Corner(plate, z_plate, 0.5 * s),
                Corner(plate, top - 0.4 * s, 0.8 * s), Corner(plate - 0.8 * s, top), Corner(0.0, top)]

    return cup


def _cup_height(size: BodySize, r: float) -> float:
    """The cup head's height from a neck of radius r, with the shortest neck."""
    s, bead = size.scale, 0.66 * size.base_radius
    return (HEAD_NECK_MM * s + (bead - r) / MAX_FLARE + 1.4 * s + (size.plate_radius - bead + 0.5 * s) / MAX_FLARE
            + 0.4 * s)


def _head_height(size: BodySize, spec: ShapeSpec) -> float:
    """The head's height above the collar band (its neck the shortest)."""
    rb, s, plate = size.base_radius, size.scale, size.plate_radius
    neck = _neck(spec) * rb if _collar_band(rb, s, spec) else _stem_top(spec) * rb
    if spec.head is Head.BALL:
        radius, above = _ball_geometry(size)
        tangent_r = radius * math.cos(math.radians(40))
        return above + radius * math.sin(math.radians(40)) + (tangent_r - neck) / MAX_FLARE + 0.5 * s
    if spec.head is Head.TOWER:
        return HEAD_NECK_MM * s + (plate - neck) / MAX_FLARE + 9.0 * s
    if spec.head is Head.LOW:
        return HEAD_NECK_MM * s + (plate - neck) / MAX_FLARE + 1.2 * s
    return _cup_height(size, neck)


def _ball_geometry(size: BodySize) -> tuple[float, float]:
    """A pawn's ball: its radius and its centre's depth under the flat top."""
    radius = 0.68 * size.base_radius
    return radius, math.sqrt(max(0.0, radius ** 2 - size.plate_radius ** 2))


def body(size: BodySize, spec: ShapeSpec, shape: Turned | None = None) -> Manifold:
    """The turned body: its profile lathed, round all the way round."""
    return lathe((shape or turned(size, spec)).points)


__all__ = ["BASES", "BodySize", "LAYER_MM", "MAX_BASE_SHARE", "PLATE_SHARE", "Turned", "body", "body_size",
           "collar_notches", "on_layer", "turned"]
