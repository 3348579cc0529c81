"""The heads of the shape language: rims (crown, tower, coronet), finials on the top face (horse, mitre,
ball, cross) and the plates on the stem (knight fins, direction ribs).

Finials are drawn for 50 mm squares with the top face at z = 0 and scaled to fit; every face that
looks down leans at most 40 degrees from vertical, so they print upright without supports.
"""

from __future__ import annotations

import math

import numpy as np
from manifold3d import CrossSection, Manifold, OpType

from dealers_chess.pieces.model3d.body import MAX_FLARE, ROUND_SEGMENTS, BodySize
from dealers_chess.pieces.model3d.shape import Modality, Rim, ShapeSpec

# a horse head seen from its right side, facing forward (+y), in mm at 50 mm squares
HORSE_PROFILE = [
    (-6.5, -1.0), (3.5, -1.0), (3.5, 4.5), (2.4, 7.5), (5.6, 11.6), (6.4, 12.6), (6.6, 14.2), (5.6, 15.2),
    (1.8, 18.0), (1.4, 20.8), (0.2, 21.6), (-0.6, 19.4), (-2.6, 18.8), (-5.6, 13.6), (-6.5, 7.5),
]
HORSE_EARS = [(1.4, 20.8), (0.2, 21.6), (-0.6, 19.4)]  # left out under a mitre
HORSE_HALF_WIDTH_MM = 3.5
HORSE_CHAMFER_MM = 0.8
MITRE_PROFILE = [(0.0, -0.5), (3.0, -0.5), (3.0, 1.0), (5.0, 1.0 + 2.0 / MAX_FLARE), (5.0, 5.0), (4.6, 8.0),
                 (3.6, 10.5), (2.2, 12.6), (0.9, 14.0), (0.0, 14.6)]
MITRE_CUT_MM, MITRE_CUT_DEG, MITRE_CUT_Z = 1.3, 55.0, 9.5
POLL_MITRE = 0.62  # the mitre a horse wears (Archbishop, Unicorn), as a share of the bishop's
BALL_PROFILE = [(0.0, -0.5), (2.0, -0.5), (2.0, 1.2), (3.4, 1.2 + 1.4 / MAX_FLARE), (3.4, 3.6), (2.9, 5.0),
                (1.8, 6.0), (0.0, 6.5)]
CROSS_OUTLINE = [(-1.2, 0.5), (1.2, 0.5), (1.2, 4.2), (3.8, 7.3), (3.8, 8.6), (1.2, 8.6), (1.2, 11.0),
                 (-1.2, 11.0), (-1.2, 8.6), (-3.8, 8.6), (-3.8, 7.3), (-1.2, 4.2)]
CROSS_BASE = [(0.0, -0.5), (3.2, -0.5), (3.2, 1.1), (1.6, 3.0), (0.0, 3.0)]
FINIAL_RADIUS_MM = {"horse": math.hypot(6.6, HORSE_HALF_WIDTH_MM), "mitre": 5.0, "ball": 3.4, "cross": 4.0}
FINIAL_HEIGHT_MM = {"horse": 21.6, "mitre": 14.6, "ball": 6.5, "cross": 11.0}
PLATE_MM = 2.4  # fins and ribs, at 50 mm squares
FIN_REACH = 0.3  # how far knight fins stand out from the stem, as a share of the base radius
RIB_INSET_MM = 0.3  # how far inside the foot's edge a rib stands
# how far up the stem a rib reaches (a share of it): a way a piece moves and captures, a way it only moves
RIB_TOP, MOVE_RIB_TOP = 0.85, 0.5
RIMS = {  # width, height at 50 mm squares, cuts, V-shaped cuts (else square)
    Rim.CROWN: (1.6, 3.5, 6, True), Rim.TOWER: (2.4, 4.0, 6, False), Rim.CORONET: (1.6, 3.0, 10, True),
    Rim.BAND: (1.2, 1.6, 0, False), Rim.POINTS: (1.2, 5.0, 8, True), Rim.BATTLEMENT: (1.2, 3.0, 8, False),
}


def rim_width_mm(rim: Rim, square_mm: float) -> float:
    """How much of the top face's edge the rim takes."""
    return RIMS[rim][0] * max(1.0, square_mm / 50) if rim in RIMS else 0.0


def rim_height_mm(rim: Rim, square_mm: float) -> float:
    """How far the rim stands above the top face."""
    return RIMS[rim][1] * square_mm / 50 if rim in RIMS else 0.0


def rim(size: BodySize, kind: Rim, square_mm: float) -> list[Manifold]:
    """The ring on the top face's edge with its cuts (none for a plain rim)."""
    if kind not in RIMS:
        return []
    _, _, cuts, pointed = RIMS[kind]
    outer = size.top_radius - 0.3
    inner = outer - rim_width_mm(kind, square_mm)
    height = rim_height_mm(kind, square_mm)
    bottom, top = size.height - 0.5, size.height + height
    ring = CrossSection([[(inner, bottom), (outer, bottom), (outer, top), (inner, top)]]).revolve(ROUND_SEGMENTS)
    angles = [math.pi / 2 + (k + 0.5 * (not pointed)) * 2 * math.pi / cuts for k in range(cuts)] if cuts else []
    if pointed:
        holes = [_v_cut(size.height, height, inner, outer, angle, cuts) for angle in angles]
    else:
        holes = [_square_cut(size.height, height, inner, outer, angle, cuts) for angle in angles]
    return [Manifold.batch_boolean([ring, *holes], OpType.Subtract)]


def _v_cut(top_face: float, height: float, inner: float, outer: float, angle: float, cuts: int) -> Manifold:
    """A V-shaped cut between two points, its flanks facing up (no overhang)."""
    apex = top_face + 0.35 * height
    top = top_face + height + 1.0
    half = 0.32 * outer * 2 * math.pi / cuts * (top - apex) / (height * 0.65)
    points = []
    for radius in (inner - 0.6, outer + 0.6):
        for tangent, z in ((0.0, apex), (-half, top), (half, top)):
            points.append(_turned(radius, tangent, z, angle))
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


def finial_names(spec: ShapeSpec) -> list[str]:
    """The finials a shape puts on the top face's centre."""
    names = [name for name, wanted in (("horse", spec.horse), ("mitre", spec.mitre and not spec.horse),
                                       ("ball", spec.ball), ("cross", spec.cross)) if wanted]
    return names[:1]


def finial(spec: ShapeSpec, scale: float) -> Manifold | None:
    """The finial at the top face's centre (z = 0 on the top face), scaled from its 50 mm drawing."""
    names = finial_names(spec)
    if not names:
        return None
    name = names[0]
    if name == "horse":
        shape = _horse(with_mitre=spec.mitre)
    elif name == "mitre":
        shape = _mitre()
    elif name == "ball":
        shape = CrossSection([BALL_PROFILE]).revolve(ROUND_SEGMENTS)
    else:
        shape = Manifold.batch_boolean([
            CrossSection([CROSS_BASE]).revolve(ROUND_SEGMENTS).rotate((0, 0, 2.5)),  # no meridian on the bar's edges
            _extrude_xz(CROSS_OUTLINE, 1.2),
        ], OpType.Add)
    return shape.scale((scale, scale, scale))


def _extrude_xz(outline: list[tuple[float, float]], half: float) -> Manifold:
    """An outline in the x-z plane extruded from y = -half to +half."""
    return Manifold.extrude(CrossSection([outline]), 2 * half).translate((0, 0, -half)).rotate((90, 0, 0))


def _extrude_yz(outline: list[tuple[float, float]], half: float) -> Manifold:
    """An outline in the y-z plane (y forward) extruded from x = -half to +half."""
    return _extrude_xz(outline, half).rotate((0, 0, 90))


def _horse(with_mitre: bool) -> Manifold:
    """The horse head: its profile extruded, the outer layers inset (a stepped chamfer); a mitre on its poll."""
    outline = [point for point in HORSE_PROFILE if not (with_mitre and point in HORSE_EARS)]
    inset = CrossSection([outline]).offset(-HORSE_CHAMFER_MM)
    core = _extrude_yz(outline, HORSE_HALF_WIDTH_MM - HORSE_CHAMFER_MM)
    parts = [core]
    for polygon in inset.to_polygons():
        parts.append(_extrude_yz([tuple(p) for p in polygon], HORSE_HALF_WIDTH_MM))
    if with_mitre:
        parts.append(_mitre().scale((POLL_MITRE, POLL_MITRE, POLL_MITRE)).translate((0.0, -0.3, 17.6)))  # on the poll
    return Manifold.batch_boolean(parts, OpType.Add)


def _mitre() -> Manifold:
    """The bishop's mitre, with its slanting cut from the right side past the axis (never through)."""
    shape = CrossSection([MITRE_PROFILE]).revolve(ROUND_SEGMENTS)
    slab = Manifold.cube((30.0, 30.0, MITRE_CUT_MM), center=True).rotate((0, MITRE_CUT_DEG, 0))
    slab = slab.translate((0.0, 0.0, MITRE_CUT_Z))
    keep_left = Manifold.cube((30.0, 30.0, 30.0)).translate((-1.0, -15.0, MITRE_CUT_Z - 15.0))
    return Manifold.batch_boolean([shape, slab ^ keep_left], OpType.Subtract)


def plates(size: BodySize, spec: ShapeSpec, stem_radius, square_mm: float, core_radius: float) -> list[Manifold]:
    """Knight fins under the head and direction ribs on the lower stem, their inner edges inside the
    stem's core (core_radius) so no hole opens between plate and stem."""
    thickness = PLATE_MM * max(1.0, square_mm / 50) if square_mm >= 50 else max(1.2, PLATE_MM * square_mm / 50)
    out = []
    if spec.fins:
        low = size.foot_top + 0.45 * (size.flare_bottom - size.foot_top)
        # inside the stem all the way up (no loop between fin and stem)
        r_in = min(size.waist_radius, core_radius) - 0.6
        r_out = stem_radius(low) + FIN_REACH * size.base_radius
        high = size.flare_bottom + (r_out + 0.5 - size.waist_radius) / MAX_FLARE
        outline = [(r_in, low), (r_out, low + (r_out - r_in) / MAX_FLARE), (r_out, high), (r_in, high)]
        for dx, dy in spec.fin_vectors:
            out.append(_radial_plate(outline, thickness, math.atan2(dy, dx)))
    for (dx, dy), modality in spec.ribs:
        out.append(_radial_plate(_rib_outline(size, modality, stem_radius, core_radius), thickness, math.atan2(dy, dx)))
    return out


def _rib_outline(size: BodySize, modality: Modality, stem_radius, core_radius: float) -> list[tuple[float, float]]:
    """A direction rib in the (radius, z) plane, from inside the foot's band out to just inside the foot's
    edge, up to RIB_TOP of the stem for a way the piece moves and captures, to MOVE_RIB_TOP for a way it
    only moves (moves below, captures above)."""
    top = size.foot_top + (MOVE_RIB_TOP if modality is Modality.MOVE else RIB_TOP) * (size.flare_bottom - size.foot_top)
    r_out = size.base_radius - RIB_INSET_MM
    inner, core = stem_radius(top) - 0.8, min(stem_radius(top), core_radius) - 0.8
    bottom = size.foot_height - 0.5  # inside the foot's band
    return [(core, bottom), (r_out, bottom), (r_out, top - (r_out - inner)), (inner, top), (core, top)]


def _radial_plate(outline: list[tuple[float, float]], thickness: float, angle: float) -> Manifold:
    """An outline in the (radius, z) plane as a plate of the given thickness, turned to the angle."""
    return _extrude_xz(outline, thickness / 2).rotate((0, 0, math.degrees(angle)))


__all__ = ["rim", "rim_width_mm", "rim_height_mm", "finial", "finial_names", "plates", "FINIAL_RADIUS_MM",
           "FINIAL_HEIGHT_MM"]
