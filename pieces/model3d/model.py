"""Parametric 3D pieces: a lathe body by group, the movement emblem in relief on top, a forward notch,
a crown for royals, the stem shaped by movement family and the code debossed (mirrored) underneath.

Pure geometry with manifold3d; nothing here writes files (printing/solids/stl.py and printing/solids/threemf.py do).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache

import numpy as np
from manifold3d import CrossSection, Manifold, OpType

from pieces.catalogue import Group, PieceDef
from pieces.errors import DealerError
from pieces.model3d.body import (
    MAX_FLARE, PROPORTIONS, BodySize, Family, body, body_size, family_of,
)
from pieces.model3d.emblem import Emblem, emblem_of
from pieces.model3d.font import text_section, text_width_mm
from pieces.model3d.relief import Layout, relief_sections

MIN_PITCH_MM = 2.0
NUDGES = (1.0, 1.003, 1.006, 0.997)  # relative pitch changes tried when symbols pinch
RELIEF_MM = 0.8  # raised symbols
EMBED_MM = 0.3  # symbols start this far inside the top disc (no shared faces)
NOTCH_DEPTH_MM = 1.6
CROWN_WIDTH_MM = 1.6
CODE_DEPTH_MM = 0.6
CODE_INLAY_MM = 0.6  # the floor of the debossed code, a separate part for a second colour
STROKE_MM = 0.9
POCKET_RADIUS_MM = 10.2  # M10 washer, 20 mm, plus clearance
POCKET_DEPTH_MM = 2.2
POCKET_WALL_MM = 1.2
DEFAULT_SQUARE_MM = 50.0
MIN_SQUARE_MM, MAX_SQUARE_MM = 20.0, 80.0


class ModelError(DealerError):
    """A piece that cannot be built as a printable model with the options given."""


@dataclass(frozen=True, slots=True)
class ModelOptions:
    """What a build depends on besides the piece itself."""

    square_mm: float = DEFAULT_SQUARE_MM
    weight_pocket: bool = True


class Part(Enum):
    """A separately coloured part of a piece (a multi-colour print gives each its own filament)."""

    BODY = "body"
    RELIEF = "relief"  # the raised diagram on the top face
    CODE = "code"  # the floor of the debossed code under the base


@dataclass(frozen=True)
class PieceModel:
    """A built piece: the solid, its parts for multi-colour printing and the figures it was made from.

    The parts are closed solids that touch but do not overlap; their union is the solid.
    """

    piece_id: str
    solid: Manifold
    parts: dict[Part, Manifold]
    size: BodySize
    family: Family
    layout: Layout
    pocket_radius_mm: float

    def mesh(self) -> tuple[np.ndarray, np.ndarray]:
        """Vertices (N x 3, mm, float64) and triangles (M x 3, counter-clockwise seen from outside)."""
        return mesh_arrays(self.solid)

    @property
    def triangle_count(self) -> int:
        """Triangles of the solid."""
        return self.solid.num_tri()


def mesh_arrays(solid: Manifold) -> tuple[np.ndarray, np.ndarray]:
    """A solid's vertices (N x 3, mm, float64) and triangles (M x 3, counter-clockwise seen from outside)."""
    mesh = solid.to_mesh()
    return np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3], np.asarray(mesh.tri_verts, dtype=np.int64)


def size_limits(group: Group, square_mm: float) -> tuple[float, float]:
    """The documented envelope of a group's pieces: (largest diameter, largest height) in mm."""
    size = body_size(group, square_mm)
    return 2 * size.base_radius, size.height + max(RELIEF_MM, size.crown_height)


def build_piece(piece: PieceDef, options: ModelOptions = ModelOptions()) -> PieceModel:
    """Build the printable solid of one catalogue piece; raise ModelError if it cannot print."""
    return _build_cached(piece.id, piece.group, piece.code, piece.movement, options)


@lru_cache(maxsize=256)
def _build_cached(piece_id, group, code, movement, options: ModelOptions) -> PieceModel:
    _check_square(options.square_mm, piece_id)
    emblem = emblem_of(movement)
    size, layout = _fit_emblem(piece_id, group, emblem, options.square_mm)
    family = family_of(movement)
    for nudge in NUDGES:  # symbols that happen to touch at a single point: shift the grid a hair
        model = _assemble(piece_id, code, emblem, size, replace(layout, pitch_mm=layout.pitch_mm * nudge), family, options)
        if not _has_pinches(model.solid):
            return model
    raise ModelError(f"piece {piece_id!r}: the diagram's symbols touch at single points at --square-mm {options.square_mm:g}; "
                     "try a slightly different square size")


def _has_pinches(solid: Manifold) -> bool:
    """Whether two mesh vertices share a position in float32 (an STL would not be closed)."""
    positions = np.asarray(solid.to_mesh().vert_properties[:, :3], dtype=np.float32)
    return len(np.unique(positions, axis=0)) != len(positions)


def _assemble(piece_id, code, emblem, size, layout, family, options) -> PieceModel:
    """Body, crown and raised symbols, less the notch, code, pits and pocket; and the same split into parts."""
    shape = [body(size, family), *_crown(size)]
    raised, pits = relief_sections(emblem, layout)
    relief = _extrude(raised, size.height - EMBED_MM, RELIEF_MM + EMBED_MM)
    pocket = _pocket_radius(piece_id, size, family, code, options) if options.weight_pocket else 0.0
    letters = _code_section(code, size, pocket)
    other_cuts = [_extrude(pits, size.height - 0.6, 0.6 + EMBED_MM)] if not pits.is_empty() else []
    if pocket:
        other_cuts.append(_pocket(pocket))
    notch, code_cut = _notch(size), _extrude(letters, -0.5, CODE_DEPTH_MM + 0.5)
    solid = Manifold.batch_boolean(
        [Manifold.batch_boolean([*shape, relief], OpType.Add), notch, code_cut, *other_cuts], OpType.Subtract)
    _check_solid(solid, piece_id)
    parts = _parts(shape, relief, letters, [notch, *other_cuts])
    return PieceModel(piece_id, solid, parts, size, family, layout, pocket)


def _parts(shape: list[Manifold], relief: Manifold, letters: CrossSection, cuts: list[Manifold]) -> dict[Part, Manifold]:
    """The solid's parts, built from the same operands: the relief and code floor as they are, the body
    with room for both. Operands never share a face, so no boolean leaves slivers (manifold3d evaluates
    these lazily: the STL path never pays for them)."""
    floor = _extrude(letters, CODE_DEPTH_MM, CODE_INLAY_MM)
    deep_code_cut = _extrude(letters, -0.5, CODE_DEPTH_MM + CODE_INLAY_MM + 0.5)
    body_part = Manifold.batch_boolean(
        [Manifold.batch_boolean(shape, OpType.Add), deep_code_cut, *cuts, relief], OpType.Subtract)
    extras = {Part.RELIEF: relief, Part.CODE: floor}
    return {Part.BODY: body_part, **{part: solid for part, solid in extras.items() if not solid.is_empty()}}


def _check_square(square_mm: float, piece_id: str) -> None:
    if not MIN_SQUARE_MM <= square_mm <= MAX_SQUARE_MM:
        raise ModelError(
            f"piece {piece_id!r}: square size {square_mm:g} mm is not allowed; use {MIN_SQUARE_MM:g} to {MAX_SQUARE_MM:g} mm"
        )


def _check_solid(solid: Manifold, piece_id: str) -> None:
    status = solid.status()
    if solid.is_empty() or status.name != "NoError":
        raise ModelError(f"piece {piece_id!r}: the geometry kernel returned no solid ({status.name})")
    if solid.genus() < 0 or len(solid.decompose()) != 1:
        raise ModelError(f"piece {piece_id!r}: the model falls apart into several bodies")


def usable_radius(size: BodySize) -> float:
    """The radius on the top face that symbols may use, clear of the rim, notch and crown."""
    rim = NOTCH_DEPTH_MM + 0.6
    if size.crown_height:
        rim = max(rim, CROWN_WIDTH_MM + 0.3 + 0.6)
    return size.top_radius - rim


def _fit_emblem(piece_id: str, group: Group, emblem: Emblem, square_mm: float) -> tuple[BodySize, Layout]:
    """Size the grid to the emblem's reach; widen the top disc up to the base if the pitch is too fine."""
    size = body_size(group, square_mm)
    layout = Layout.fit(emblem.reach, usable_radius(size))
    if layout.pitch_mm < MIN_PITCH_MM:
        size = body_size(group, square_mm, top_radius_mm=size.base_radius)
        layout = Layout.fit(emblem.reach, usable_radius(size))
    if layout.pitch_mm < MIN_PITCH_MM:
        needed = _square_needed(emblem.reach, group)
        raise ModelError(
            f"piece {piece_id!r}: its diagram reaches {emblem.reach:.1f} squares and needs a grid pitch of "
            f"{MIN_PITCH_MM} mm, which does not fit the top face at --square-mm {square_mm:g}; "
            + (f"use --square-mm {needed} or more" if needed <= MAX_SQUARE_MM else "it is too wide to print")
        )
    return size, layout


def _square_needed(reach: float, group: Group) -> int:
    """The smallest whole square size in mm at which the emblem fits at the minimum pitch."""
    for square_mm in range(int(MIN_SQUARE_MM), int(MAX_SQUARE_MM) + 1):
        size = body_size(group, float(square_mm), top_radius_mm=body_size(group, float(square_mm)).base_radius)
        if Layout.fit(reach, usable_radius(size)).pitch_mm >= MIN_PITCH_MM:
            return square_mm
    return int(MAX_SQUARE_MM) + 1


def _extrude(section: CrossSection, z_mm: float, height_mm: float) -> Manifold:
    return Manifold.extrude(section, height_mm).translate((0.0, 0.0, z_mm))


def _notch(size: BodySize) -> Manifold:
    """A V notch in the rim at the front (+y), the same place on every piece."""
    r = size.top_radius
    floor = size.height - 0.6 * size.top_thickness
    tri = CrossSection([[(0.0, r - NOTCH_DEPTH_MM), (NOTCH_DEPTH_MM + 1.0, r + 1.0), (-NOTCH_DEPTH_MM - 1.0, r + 1.0)]])
    return _extrude(tri, floor, size.height + size.crown_height + 2.0 - floor)


def _crown(size: BodySize) -> list[Manifold]:
    """A ring of points on the rim of a royal's top face (none for other groups)."""
    if not size.crown_height:
        return []
    outer = size.top_radius - 0.3
    inner = outer - CROWN_WIDTH_MM
    bottom, top = size.height - 0.5, size.height + size.crown_height
    ring = CrossSection([[(inner, bottom), (outer, bottom), (outer, top), (inner, top)]]).revolve(72)
    cuts = [_crown_cut(size, inner, outer, math.pi / 2 + k * math.pi / 3) for k in range(6)]
    return [Manifold.batch_boolean([ring, *cuts], OpType.Subtract)]


def _crown_cut(size: BodySize, inner: float, outer: float, angle: float) -> Manifold:
    """A V-shaped cut between two points of the crown, its flanks facing up (no overhang)."""
    apex = size.height + 0.35 * size.crown_height
    top = size.height + size.crown_height + 1.0
    half = 0.32 * outer * math.pi / 3 * (top - apex) / (size.crown_height * 0.65)
    points = []
    for radius in (inner - 0.6, outer + 0.6):
        for tangent, z in ((0.0, apex), (-half, top), (half, top)):
            points.append((radius * math.cos(angle) - tangent * math.sin(angle),
                           radius * math.sin(angle) + tangent * math.cos(angle), z))
    return Manifold.hull_points(np.array(points))


def code_height_mm(size: BodySize) -> float:
    """Letter height of the base code: 16 % of the base diameter, at least 4 mm, at most 6 mm."""
    return min(6.0, max(4.0, 0.16 * 2 * size.base_radius))


def _code_section(code: str, size: BodySize, pocket_mm: float) -> CrossSection:
    """The code's letters, mirrored to read under the base, centred or behind the pocket."""
    height = code_height_mm(size)
    section = text_section(code, height, STROKE_MM, mirrored=True)
    if pocket_mm:
        section = section.translate((0.0, -(pocket_mm + 0.8 + height / 2)))
    return section


def _pocket_radius(piece_id: str, size: BodySize, family: Family, code: str, options: ModelOptions) -> float:
    """The widest weight pocket (up to an M10 washer) that leaves walls and room for the code."""
    height = code_height_mm(size)
    safe = size.base_radius - 0.6 - 0.8
    half_width = text_width_mm(code, height, STROKE_MM) / 2
    radius = min(POCKET_RADIUS_MM, math.sqrt(max(0.0, safe**2 - half_width**2)) - height - 0.8)
    while radius >= 3.0 and not _pocket_walls_ok(size, family, radius):
        radius -= 0.1
    if radius < 3.0:
        raise ModelError(
            f"piece {piece_id!r}: no weight pocket fits beside the code at --square-mm {options.square_mm:g}; "
            "use --no-weight-pocket or bigger squares"
        )
    return round(radius, 2)


def _pocket_walls_ok(size: BodySize, family: Family, radius: float) -> bool:
    """Whether the body keeps POCKET_WALL_MM of material around the pocket and its cone roof."""
    for z in np.linspace(0.0, POCKET_DEPTH_MM + radius / MAX_FLARE, 40):
        cone = radius if z <= POCKET_DEPTH_MM else radius - (z - POCKET_DEPTH_MM) * MAX_FLARE
        if _inner_radius(size, family, float(z)) - cone < POCKET_WALL_MM:
            return False
    return True


def _inner_radius(size: BodySize, family: Family, z: float) -> float:
    """A lower bound of the body's radius at height z (flats of a polygonal stem included)."""
    foot = size.base_radius if z <= size.foot_height else size.base_radius - (z - size.foot_height)
    bottom, top = size.foot_top - 1.0, size.flare_bottom + 1.0
    if z < bottom:
        return foot
    share = min(1.0, (z - bottom) / (top - bottom))
    stem = size.neck_radius + (size.waist_radius - size.neck_radius) * share
    return max(foot, 0.98 * stem * math.cos(math.pi / family.sides))


def _pocket(radius: float) -> Manifold:
    """The weight pocket, open at the bottom, roofed by a cone 40 degrees from vertical (no flat ceiling)."""
    profile = [(0.0, -0.5), (radius, -0.5), (radius, POCKET_DEPTH_MM), (0.0, POCKET_DEPTH_MM + radius / MAX_FLARE)]
    return CrossSection([profile]).revolve(72)


def identity_signature(piece: PieceDef) -> tuple:
    """What the geometry shows besides the code: group, family and emblem (equal iff they look alike)."""
    return (piece.group, family_of(piece.movement), emblem_of(piece.movement))


__all__ = [
    "ModelError", "ModelOptions", "Part", "PieceModel", "build_piece", "mesh_arrays", "size_limits", "identity_signature",
    "PROPORTIONS", "MAX_FLARE", "MIN_PITCH_MM",
]
