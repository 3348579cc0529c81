"""The turned body of a 3D piece: one profile in the grammar of a turned chess set, from the bed up: a
foot (a disc, a bead and a cove), a concave stem, one collar band, a neck and a head with the top
plate the diagram stands on.

Sizes by group, heights on a few shared levels by power band (levels.py: royals and the Queen highest,
leapers, then riders' heads and pawns, horses lowest under their heads); the
stem's shallow corners, a pawn's ribs and carved knight grooves as offsets of the turned radius
(profile.lathe), at most RELIEF_MM proud, blending into the round. Where the profile widens going up
it rises at most 40 degrees from vertical; the top face sits on a 0.2 mm layer boundary.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from manifold3d import Manifold

from dealers_chess.pieces.catalogue import Group
from dealers_chess.pieces.model3d.levels import LAYER_MM, band_of, on_layer, top_face_mm
from dealers_chess.pieces.model3d.profile import MAX_FLARE, SEGMENTS, Corner, Point, lathe, refined_angles, rounded
from dealers_chess.pieces.model3d.shape import Head, Mark, Modality, Ring, ShapeSpec

CHAMFER_MM = (0.5, 0.6)  # the bottom edge's chamfer against elephant's foot: 0.5 in over 0.6 up (40 degrees)
PLATE_SHARE = 0.75  # the top plate's radius as a share of the foot's, at most
MAX_BASE_SHARE = 0.96  # a piece whose diagram needs it grows its foot up to this share of the square
PLINTH_SQUARES = 0.048  # how much taller a pawn's foot is when it may step back or sideways
FLUTE_MM, RIB_MM, GROOVE_MM = 0.9, 1.1, 1.0  # at 50 mm squares: stem corners, pawn ribs, knight grooves
STEP_MM = 1.6  # the stem's rings at most this far apart (its curve strays less than 0.01 mm from the chords;
# the lathe adds rings where the corners, ribs and grooves grow or fade)
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
    stem: tuple[float, float]  # bottom and top of the stem (where corners, ribs and grooves run)
    band: tuple[float, float, float] | None  # the pips' band: bottom, top and radius
    neck_radius: float  # the stem's radius under the head (a finial or horse may start inside it)
    upper_band: float | None = None  # where the grooved band starts (the stem's offsets end below it)
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
    stem, band, upper = _stem(z, stem_top, STEM_BOTTOM * rb, _stem_top(spec) * rb, s, spec)
    corners = [*foot, *stem]
    collar_low = corners[-1].z
    for ring in _collar_band(rb, s, spec):
        corners = _joined(corners, ring(corners[-1].r, corners[-1].z), 0.6 * s)
    collar = (collar_low, corners[-1].z, RING_SHARES[0] * rb) if collar_notches(spec) else None
    corners = _joined(corners, _head(size, spec)(corners[-1].r, corners[-1].z), 0.3 * s)
    return Turned(rounded(corners), (z, stem_top), band, _stem_top(spec) * rb, upper, collar)


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
) -> tuple[list[Corner], tuple | None, float | None]:
    """The concave stem from (r0, z0) to (r1, z1), points close enough for the lathe's offsets to follow;
    a band of pips low on it for a rule of what the piece does, a grooved band high on it for a rule
    of promotion. Returns the corners, the pips' band (bottom, top, radius) and the grooved band's bottom."""
    def radius(z: float) -> float:  # concave: quickly narrower above the foot, nearly straight under the collar
        t = (z - z0) / max(1e-9, z1 - z0)
        return r1 + (r0 - r1) * (1 - t) ** 2.2

    zs = list(np.linspace(z0, z1, max(3, math.ceil((z1 - z0) / STEP_MM) + 1)))[1:]
    bands: list[list[Corner]] = []
    if Mark.PIPS in spec.marks:
        low = z0 + 2.0 * s
        bands.append(_band(low, radius(low) + 1.0 * s, radius, s, grooved=False))
    if Mark.GROOVES in spec.marks:
        trial = _band(0.0, 1.0 * s, lambda z: 0.0, s, grooved=True)
        low = z1 - 1.4 * s - trial[-1].z
        bands.append(_band(low, radius(low) + 1.0 * s, radius, s, grooved=True))
    if (any(band[0].z < z0 + 0.5 * s or band[-1].z > z1 - 0.8 * s for band in bands)
            or (len(bands) == 2 and bands[0][-1].z > bands[1][0].z)):
        bands = []  # no room on a short stem
    corners: list[Corner] = []
    for band in bands:
        corners += [Corner(radius(z), z) for z in zs if (corners[-1].z if corners else z0) < z < band[0].z]
        corners += band
    corners += [Corner(radius(z), z) for z in zs if z > (corners[-1].z if corners else z0)]
    pips = bands[0] if bands and Mark.PIPS in spec.marks else None
    grooved = bands[-1] if bands and Mark.GROOVES in spec.marks else None
    return corners, (pips[0].z, pips[-1].z, pips[1].r) if pips else None, grooved[0].z if grooved else None


def _band(low: float, r: float, radius, s: float, grooved: bool) -> list[Corner]:
    """A plain band from height low: a 40-degree underside, room for a ring of pips or three grooves,
    and its top back to the stem."""
    rise = (r - radius(low)) / MAX_FLARE
    z = low + rise
    corners = [Corner(radius(low), low, 0.3 * s), Corner(r, z, 0.3 * s)]
    if grooved:
        depth = 0.75 * s
        for _ in range(3):
            corners += [Corner(r, z + 0.5 * s), Corner(r - depth, z + 1.0 * s),
                        Corner(r, z + 1.0 * s + depth / MAX_FLARE + 0.05)]
            z = corners[-1].z
    else:
        z += 3.0 * s
        corners.append(Corner(r, z))
    top = z + 0.6 * s
    return [*corners, Corner(r, top, 0.35 * s), Corner(radius(top + 0.6 * s) + 0.05, top + 0.6 * s, 0.2 * s)]


RING_SHARES = (0.66, 0.60, 0.54)  # the collar band's rings' radii as shares of the foot's, bottom up


def collar_notches(spec: ShapeSpec) -> int:
    """How many notches a piece's one collar carries: a leaper's leap distances (pawns keep their rings, which
    tell their classes apart; one distance is the plain collar every turned piece has)."""
    return len(spec.rings) if spec.head is not Head.BALL and len(spec.rings) > 1 else 0


def _principal_ring(spec: ShapeSpec) -> Ring:
    """The one collar's profile: the farthest leap's ring (a skipped distance's thin ring says nothing of
    direction)."""
    return next((ring for ring in reversed(spec.rings) if ring is not Ring.THIN), spec.rings[-1])


def _collar_band(rb: float, s: float, spec: ShapeSpec) -> list:
    """The collar band, bottom up: each ring as a function of the radius and height it starts from."""
    if spec.head is Head.LOW and spec.rings == (Ring.ROUND,):
        return []  # a horse's top plate is its collar
    shares = (0.56, 0.50) if spec.head is Head.BALL else RING_SHARES
    out = []
    neck = _neck(spec) * rb
    rings = spec.rings if spec.head is Head.BALL or len(spec.rings) < 2 else (_principal_ring(spec),)
    for index, ring in enumerate(rings):
        outer = shares[min(index, len(shares) - 1)] * rb
        if ring is Ring.THIN:
            outer = neck + 0.45 * (outer - neck)
        out.append(_ring_function(ring, outer, neck, s))
    return out


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
        else:  # ROUND or THIN: a bead
            edge = [Corner(outer, z_out, 0.9 * s if ring is Ring.ROUND else 0.5 * s),
                    Corner(neck, z_out + (1.9 if ring is Ring.ROUND else 1.4) * s, 0.3 * s)]
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
    """The turned body, its stem modulated where the piece's corners, ribs and grooves go."""
    shape = shape or turned(size, spec)
    meridians = refined_angles(_narrow_bumps(spec), max(SEGMENTS, 4 * len(spec.corners)))
    return lathe(shape.points, _modulation(size, spec, shape, np.degrees(meridians)), meridians)


FLUTE_SHARE, RIB_HALF_DEG, GROOVE_HALF_DEG = 0.55, 9.0, 6.0  # a corner's half width (share of the corners'
# spacing), a rib's and a groove's (degrees)


def _flute_half(spec: ShapeSpec) -> float:
    return 360.0 / max(4, len(spec.corners)) * FLUTE_SHARE


def _narrow_bumps(spec: ShapeSpec) -> list[tuple[float, float]]:
    """The (centre, half width) in degrees of the offsets too narrow for the lathe's even meridians: ribs and
    grooves (a stem's corners get even meridians, four a corner at least)."""
    bumps = [(_degrees(v), RIB_HALF_DEG) for v, _ in spec.ribs]
    return bumps + [(_degrees(v), GROOVE_HALF_DEG) for v in spec.grooves]


def _modulation(size: BodySize, spec: ShapeSpec, shape: Turned, angles: np.ndarray):
    """The stem's offsets by height at the given meridians (degrees): shallow corners where a leaper leaps
    (the middle of the stem), ribs on the lower third where a directional piece moves, knight grooves carved
    high."""
    if not (spec.corners or spec.ribs or spec.grooves):
        return None
    s = size.scale
    low = shape.band[1] + 1.2 * s if shape.band else shape.stem[0]  # above the pips' band
    low, high = low + 0.5 * s, (shape.upper_band if shape.upper_band is not None else shape.stem[1]) - 0.8 * s
    flutes = _bumps(angles, spec.corners, _flute_half(spec)) if spec.corners else None
    ribs = [(_bumps(angles, [(_degrees(v), 1.0)], RIB_HALF_DEG), modality) for v, modality in spec.ribs]
    grooves = _bumps(angles, [(_degrees(v), 1.0) for v in spec.grooves], GROOVE_HALF_DEG) if spec.grooves else None
    span = high - low

    def window(z: float, start: float, end: float, rise_mm: float) -> float:
        return _window(z, low + start * span, low + end * span, rise_mm * s)

    def offsets(z: float) -> np.ndarray | None:
        if not low < z < high:
            return None
        out = np.zeros(len(angles))
        if flutes is not None:
            out += FLUTE_MM * s * window(z, 0.22, 0.86, 3.0) * flutes
        for rib, modality in ribs:
            out += RIB_MM * s * window(z, 0.0, 0.34 if modality is Modality.BOTH else 0.22, 2.5) * rib
        if grooves is not None:
            out -= GROOVE_MM * s * window(z, 0.35, 0.97, 2.0) * grooves
        return out if np.any(out) else None

    return offsets


def _degrees(vector: tuple[int, int]) -> float:
    return math.degrees(math.atan2(vector[1], vector[0])) % 360.0


def _bumps(angles: np.ndarray, corners, width_deg: float) -> np.ndarray:
    """Smooth bumps (1 at each corner, times its reach) of half width width_deg around the given angles."""
    out = np.zeros_like(angles)
    for angle, reach in corners:
        delta = np.abs((angles - angle + 180.0) % 360.0 - 180.0)
        bump = np.where(delta < width_deg, np.cos(np.pi / 2 * delta / width_deg) ** 2, 0.0)
        out = np.maximum(out, reach * bump)
    return out


def _window(z: float, start: float, end: float, rise: float) -> float:
    """0 outside start..end, 1 inside, rising and falling smoothly over `rise` (mm): where an offset
    grows going up it grows at most about 35 degrees."""
    if z <= start or z >= end:
        return 0.0
    up = min(1.0, (z - start) / rise)
    down = min(1.0, (end - z) / rise)
    return math.sin(math.pi / 2 * min(up, down)) ** 2


__all__ = ["BASES", "BodySize", "LAYER_MM", "MAX_BASE_SHARE", "PLATE_SHARE", "Turned", "body", "body_size",
           "collar_notches", "on_layer", "turned"]
