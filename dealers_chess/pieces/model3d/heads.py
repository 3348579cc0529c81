"""The heads of the shape language: rims on the top plate (crown, coronet, crenellations), finials on
its centre (cross, ball, mitre; the horse is horse.py) and the pips of named rules.

Finials are drawn for 50 mm squares with the top face at z = 0 and scaled; every face that looks
down leans at most 40 degrees from vertical, so they print upright without supports.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from manifold3d import CrossSection, Manifold, OpType

from dealers_chess.pieces.model3d.horse import MAX_SEAT_MM, MITRE_ON_POLL, horse_head
from dealers_chess.pieces.model3d.profile import MAX_FLARE, SEGMENTS, Corner, lathe, rounded
from dealers_chess.pieces.model3d.shape import Finial, Rim

# rims: width, height at 50 mm squares, cuts, V-shaped cuts (points) or square ones (crenels)
RIMS = {
    Rim.CROWN: (1.9, 5.0, 6, True), Rim.TOWER: (2.6, 4.6, 6, False), Rim.CORONET: (1.6, 4.2, 10, True),
}
CROSS_HEIGHT_MM = 20.0
CROSS_HALF_THICKNESS = 2.3


def _cross_outline() -> list[tuple[float, float]]:
    """The King's cross pattee (x, z): each arm narrow at the middle and flaring to its end in a concave
    sweep; the side arms' undersides rise 39 degrees from vertical (printable), their tops dip to the middle."""
    def sweep(a, b, bulge: float, steps: int = 6) -> list[tuple[float, float]]:
        """From a to b, bowed in by `bulge` mm at the middle (a concave flare)."""
        (x0, z0), (x1, z1) = a, b
        nx, nz = z1 - z0, -(x1 - x0)
        length = math.hypot(nx, nz)
        return [(x0 + (x1 - x0) * t + bulge * math.sin(math.pi * t) * nx / length,
                 z0 + (z1 - z0) * t + bulge * math.sin(math.pi * t) * nz / length)
                for t in np.linspace(0.0, 1.0, steps + 1)[1:]]
    slope = math.tan(math.radians(39))
    waist, arm_low, arm_end = 1.6, 7.6, 6.0
    arm_end_low = arm_low + (arm_end - waist) / slope
    right = [(2.9, -0.5), *sweep((2.9, -0.5), (waist, arm_low), -0.5)]  # the foot of the upright, flaring down
    right.append((arm_end, arm_end_low))  # the arm's underside, straight
    right += [(arm_end + 0.3, 16.4), *sweep((arm_end + 0.3, 16.4), (waist, 15.2), -0.6)]  # its end and dipping top
    right += sweep((waist, 15.2), (3.0, CROSS_HEIGHT_MM), -0.6)  # the top arm flaring up
    left = [(-x, z) for x, z in reversed(right)]
    return right + left
MITRE_CUT_MM, MITRE_CUT_DEG, MITRE_CUT_Z = 1.8, 55.0, 10.0
POLL_MITRE = 0.6  # the mitre on a horse's poll, as a share of the bishop's
FINIAL_HEIGHT_MM = {Finial.CROSS: CROSS_HEIGHT_MM, Finial.BALL: 12.6, Finial.MITRE: 15.0}
FINIAL_RADIUS_MM = {Finial.CROSS: 3.05, Finial.BALL: 3.4, Finial.MITRE: 3.8}  # where they stand
PIP_RADIUS_MM = 1.1
PIPS_A_RING = 8


def rim_width_mm(rim: Rim, square_mm: float) -> float:
    """How much of the top face's edge the rim takes."""
    return RIMS[rim][0] * max(1.0, square_mm / 50) if rim in RIMS else 0.0


def rim_height_mm(rim: Rim, square_mm: float) -> float:
    """How far the rim stands above the top face."""
    return RIMS[rim][1] * square_mm / 50 if rim in RIMS else 0.0


def rim(top_mm: float, outer_mm: float, kind: Rim, square_mm: float) -> list[Manifold]:
    """The ring on the top face's edge with its cuts (none for a plain rim)."""
    if kind not in RIMS:
        return []
    _, _, cuts, pointed = RIMS[kind]
    inner = outer_mm - rim_width_mm(kind, square_mm)
    height = rim_height_mm(kind, square_mm)
    bottom, top = top_mm - 0.5, top_mm + height
    ring = CrossSection([[(inner, bottom), (outer_mm, bottom), (outer_mm, top), (inner, top)]]).revolve(SEGMENTS)
    ring = ring.rotate((0, 0, 180 / SEGMENTS))  # its meridians between the body's: no edges that coincide
    angles = [math.pi / 2 + (k + 0.5 * (not pointed)) * 2 * math.pi / cuts for k in range(cuts)]
    cut = _v_cut if pointed else _square_cut
    holes = [cut(top_mm, height, inner, outer_mm, angle, cuts) for angle in angles]
    return [Manifold.batch_boolean([ring, *holes], OpType.Subtract)]


def _v_cut(top_face: float, height: float, inner: float, outer: float, angle: float, cuts: int) -> Manifold:
    """A V-shaped cut between two points, its flanks facing up (no overhang)."""
    apex = top_face + 0.35 * height
    top = top_face + height + 1.0
    half = 0.32 * outer * 2 * math.pi / cuts * (top - apex) / (height * 0.65)
    points = [_turned(radius, tangent, z, angle) for radius in (inner - 0.6, outer + 0.6)
              for tangent, z in ((0.0, apex), (-half, top), (half, top))]
    return Manifold.hull_points(np.array(points))


def _square_cut(top_face: float, height: float, inner: float, outer: float, angle: float, cuts: int) -> Manifold:
    """A crenel: a square gap between merlons, its floor facing up."""
    floor = top_face + 0.45 * height
    half = max(0.6, 0.22 * outer * 2 * math.pi / cuts)
    points = [_turned(radius, tangent, z, angle) for radius in (inner - 0.6, outer + 0.6)
              for tangent in (-half, half) for z in (floor, top_face + height + 1.0)]
    return Manifold.hull_points(np.array(points))


def _turned(radius: float, tangent: float, z: float, angle: float) -> tuple[float, float, float]:
    x = radius * math.cos(angle) - tangent * math.sin(angle)
    y = radius * math.sin(angle) + tangent * math.cos(angle)
    return (x, y, z)


def finial(kind: Finial, scale: float, horse_mitre: bool = False, seat_mm: float | None = None) -> Manifold | None:
    """The finial at the top face's centre (z = 0 on the top face), scaled from its 50 mm drawing; a horse
    on a seat of radius seat_mm (at 50 mm squares: as wide as the diagram leaves room for)."""
    if kind is Finial.NONE:
        return None
    seat = round(min(MAX_SEAT_MM, seat_mm or MAX_SEAT_MM), 1) if kind is Finial.HORSE else 0.0
    return _drawn_finial(kind, horse_mitre, seat).scale((scale, scale, scale))


@functools.cache
def _drawn_finial(kind: Finial, horse_mitre: bool, seat_mm: float) -> Manifold:
    """A finial as drawn for 50 mm squares, made once (a horse head takes 200 ms; solids are never changed
    in place)."""
    if kind is Finial.HORSE:
        shape = horse_head(1.0, seat_mm)
        if horse_mitre:
            shape = shape + mitre().scale((POLL_MITRE,) * 3).translate(MITRE_ON_POLL)
        return shape
    return {Finial.CROSS: _cross, Finial.BALL: _ball, Finial.MITRE: mitre}[kind]()


def _turn(corners: list[Corner]) -> Manifold:
    return lathe(rounded(corners))


def _cross() -> Manifold:
    """The King's cross: a cross pattee 20 mm tall, 12.6 mm across and 4.6 mm thick on a turned boss."""
    boss = _turn([Corner(0, -0.5), Corner(3.05, -0.5), Corner(3.05, 0.6, 0.5), Corner(2.6, 2.0, 0.5),
                  Corner(2.6, 3.2), Corner(0, 3.2)])
    plate = Manifold.extrude(CrossSection([_cross_outline()]), 2 * CROSS_HALF_THICKNESS)
    plate = plate.translate((0, 0, -CROSS_HALF_THICKNESS)).rotate((90, 0, 0))
    return Manifold.batch_boolean([boss, plate], OpType.Add)


def _ball() -> Manifold:
    """The queen's ball on a short neck: a 40-degree cone under a sphere 9.2 mm across."""
    radius, centre = 4.6, 8.0
    lower = math.radians(-40)
    tangent = (radius * math.cos(lower), centre + radius * math.sin(lower))
    neck = 2.0
    start = tangent[1] - (tangent[0] - neck) / MAX_FLARE
    corners = [Corner(0, -0.5), Corner(3.4, -0.5), Corner(3.4, 0.5, 0.8), Corner(neck, 1.8, 0.6), Corner(neck, start)]
    angles = np.linspace(lower, math.pi / 2, 20)
    corners += [Corner(radius * math.cos(a), centre + radius * math.sin(a)) for a in angles]
    corners[-1] = Corner(0.0, centre + radius)
    return _turn(corners)


def mitre() -> Manifold:
    """The bishop's mitre, 15 mm tall and 10.6 mm across, with a slit 1.8 mm wide slanting in from its
    right side past the axis (never through)."""
    corners = [Corner(0, -0.5), Corner(3.8, -0.5), Corner(3.8, 0.6, 0.6), Corner(3.0, 1.6, 0.5)]
    z_wide = 1.6 + (5.3 - 3.0) / MAX_FLARE
    corners += [Corner(5.3, z_wide, 1.0), Corner(5.3, 6.2)]
    for angle in np.linspace(0.0, math.pi / 2, 14)[1:]:  # an ogive to the point at 15 mm
        corners.append(Corner(5.3 - 5.3 * (1 - math.cos(angle)) ** 0.8 if angle < math.pi / 2 else 0.0,
                              6.2 + 8.8 * math.sin(angle)))
    shape = _turn(corners)
    slab = Manifold.cube((30.0, 30.0, MITRE_CUT_MM), center=True).rotate((0, MITRE_CUT_DEG, 0))
    slab = slab.translate((0.0, 0.0, MITRE_CUT_Z))
    keep_right = Manifold.cube((30.0, 30.0, 30.0)).translate((-1.2, -15.0, MITRE_CUT_Z - 15.0))
    return Manifold.batch_boolean([shape, slab ^ keep_right], OpType.Subtract)


def pips(band_low: float, band_high: float, band_radius: float, scale: float) -> list[Manifold]:
    """A ring of pips round the plain band's middle: studs whose undersides are 40-degree cones."""
    radius = PIP_RADIUS_MM * scale
    z = (band_low + band_high) / 2 + 0.4 * scale
    out = []
    for k in range(PIPS_A_RING):
        angle = 2 * math.pi * (k + 0.5) / PIPS_A_RING
        centre = (band_radius - 0.1 * scale) * np.array([math.cos(angle), math.sin(angle)])
        sphere = [(centre[0] + radius * math.cos(a) * math.cos(b), centre[1] + radius * math.sin(a) * math.cos(b),
                   z + radius * math.sin(b)) for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)
                  for b in np.linspace(-math.pi / 2, math.pi / 2, 7)]
        apex = (centre[0], centre[1], z - radius / math.sin(math.radians(38)))  # right below: a 38-degree cone
        out.append(Manifold.hull_points(np.array([*sphere, apex])))
    return out


def finial_radius_mm(kind: Finial, scale: float) -> float:
    """How far from the centre a finial's foot reaches on the top face."""
    if kind is Finial.HORSE:
        from dealers_chess.pieces.model3d.horse import FOOT_RADIUS_MM

        return FOOT_RADIUS_MM * scale
    return FINIAL_RADIUS_MM.get(kind, 0.0) * scale


__all__ = ["FINIAL_HEIGHT_MM", "finial", "finial_radius_mm", "mitre", "pips", "rim", "rim_height_mm", "rim_width_mm"]
