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

from dealers_chess.pieces.catalogue import Group, PieceDef
from dealers_chess.pieces.errors import DealerError
from dealers_chess.pieces.model3d.body import (
    MAX_FLARE,
    PROPORTIONS,
    BodySize,
    Family,
    body,
    body_size,
    family_of,
    stem_core_radius,
    stem_flat_share,
)
from dealers_chess.pieces.model3d.emblem import Emblem, emblem_of
from dealers_chess.pieces.model3d.font import text_section, text_width_mm
from dealers_chess.pieces.model3d.heads import (
    FINIAL_HEIGHT_MM,
    FINIAL_RADIUS_MM,
    finial,
    finial_names,
    plates,
    rim,
    rim_width_mm,
)
from dealers_chess.pieces.model3d.relief import PIT_RADIUS_MM, Layout, free_radius, relief_sections
from dealers_chess.pieces.model3d.shape import (
    MAX_REACH_OFFSET,
    TOP_OFFSET_SQUARES,
    Rim,
    ShapeSpec,
    shape_of,
    without_horse,
)

MIN_PITCH_MM = 2.0
NUDGES = (1.0, 1.003, 1.006, 0.997)  # relative pitch changes tried when symbols pinch
RELIEF_MM = 0.8  # raised symbols
EMBED_MM = 0.3  # symbols start this far inside the top disc (no shared faces)
NOTCH_DEPTH_MM = 1.6
MIN_FINIAL_SCALE = 0.55  # a horse head smaller than this share of its drawing gives way to knight fins
FINIAL_CLEARANCE_MM = 0.8
CODE_DEPTH_MM = 0.6
CODE_INLAY_MM = 0.6  # the floor of the debossed code, a separate part for a second colour
STROKE_MM = 1.05
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


DEFAULT_OPTIONS = ModelOptions()  # 50 mm squares, with the weight pocket

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
    shape: ShapeSpec

    @property
    def top_mm(self) -> float:
        """Height of the top face the diagram stands on (a 0.2 mm layer boundary at the usual sizes)."""
        return self.size.height

    @property
    def relief_top_mm(self) -> float:
        """Height of the raised diagram's top."""
        return self.size.height + RELIEF_MM

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
    scale = square_mm / 50
    size = body_size(group, square_mm)
    heads = [(0.0, RELIEF_MM / scale), (TOP_OFFSET_SQUARES["coronet"], FINIAL_HEIGHT_MM["ball"])]
    if group is Group.ROYAL:
        heads = [(0.0, size.crown_height / scale + FINIAL_HEIGHT_MM["cross"]),
                 (TOP_OFFSET_SQUARES["royal_horse"], FINIAL_HEIGHT_MM["horse"])]
    else:
        heads += [(TOP_OFFSET_SQUARES["horse"], FINIAL_HEIGHT_MM["horse"]),
                  (TOP_OFFSET_SQUARES["mitre"], FINIAL_HEIGHT_MM["mitre"])]
    tallest = max((PROPORTIONS[group].height + offset + MAX_REACH_OFFSET) * square_mm + head_mm * scale + 0.2
                  for offset, head_mm in heads)
    return 2 * size.base_radius, tallest


def build_piece(piece: PieceDef, options: ModelOptions = DEFAULT_OPTIONS) -> PieceModel:
    """Build the printable solid of one catalogue piece; raise ModelError if it cannot print."""
    return _build_cached(piece.id, piece.group, piece.code, piece.movement, shape_of(piece), options)


@lru_cache(maxsize=256)
def _build_cached(piece_id, group, code, movement, spec: ShapeSpec, options: ModelOptions) -> PieceModel:
    _check_square(options.square_mm, piece_id)
    emblem = emblem_of(movement)
    size, layout = _fit_emblem(piece_id, group, emblem, options.square_mm, spec)
    family = family_of(movement)
    smallest_head = MIN_FINIAL_SCALE * options.square_mm / 50
    if spec.horse and _finial_scale(spec, emblem, layout, options.square_mm) < smallest_head:
        spec = without_horse(spec, group is Group.ROYAL)
        size, layout = _fit_emblem(piece_id, group, emblem, options.square_mm, spec)
    for nudge in NUDGES:  # symbols that happen to touch at a single point: shift the grid a hair
        model = _assemble(piece_id, code, emblem, size, replace(layout, pitch_mm=layout.pitch_mm * nudge), family,
                          options, spec)
        if not _has_pinches(model.solid):
            return model
    raise ModelError(f"piece {piece_id!r}: the diagram's symbols touch at single points at "
                     f"--square-mm {options.square_mm:g}; try a slightly different square size")


def _has_pinches(solid: Manifold) -> bool:
    """Whether two mesh vertices share a position in float32 (an STL would not be closed)."""
    positions = np.asarray(solid.to_mesh().vert_properties[:, :3], dtype=np.float32)
    return len(np.unique(positions, axis=0)) != len(positions)


def _finial_scale(spec: ShapeSpec, emblem: Emblem, layout: Layout, square_mm: float) -> float:
    """The scale of the finial's 50 mm drawing: the square's, or less where the diagram leaves less room."""
    names = finial_names(spec)
    if not names:
        return square_mm / 50
    raised, _ = relief_sections(emblem, layout)
    room = free_radius(raised) - FINIAL_CLEARANCE_MM
    return max(0.05, min(square_mm / 50, room / FINIAL_RADIUS_MM[names[0]]))


def _head(
    size: BodySize, spec: ShapeSpec, emblem: Emblem, layout: Layout, square_mm: float, family: Family
) -> list[Manifold]:
    """Rim, finial and stem plates."""
    parts = [*rim(size, spec.rim, square_mm)]
    scale = _finial_scale(spec, emblem, layout, square_mm)
    top = finial(spec, scale)
    if top is not None:
        parts.append(top.translate((0.0, 0.0, size.height)))
    parts += plates(size, spec, lambda z: _stem_radius(size, z), square_mm, stem_core_radius(size, family, spec))
    return parts


def _finial_footprint(spec: ShapeSpec, emblem: Emblem, layout: Layout, square_mm: float) -> float:
    names = finial_names(spec)
    return FINIAL_RADIUS_MM[names[0]] * _finial_scale(spec, emblem, layout, square_mm) if names else 0.0


def _centre(section: CrossSection) -> tuple[float, float]:
    low_x, low_y, high_x, high_y = section.bounds()
    return ((low_x + high_x) / 2, (low_y + high_y) / 2)


def _stem_radius(size: BodySize, z: float) -> float:
    """The stem's nominal radius at height z."""
    share = min(1.0, max(0.0, (z - size.foot_top) / max(1e-6, size.flare_bottom - size.foot_top)))
    return size.neck_radius + (size.waist_radius - size.neck_radius) * share


def _assemble(piece_id, code, emblem, size, layout, family, options, spec) -> PieceModel:
    """Body, head and raised symbols, less the notch, code, pits and pocket; and the same split into parts."""
    shape = [body(size, family, spec), *_head(size, spec, emblem, layout, options.square_mm, family)]
    raised, pits = relief_sections(emblem, layout)
    footprint = _finial_footprint(spec, emblem, layout, options.square_mm)
    if footprint and not pits.is_empty():  # no pits under the finial
        pits = CrossSection.compose([pit for pit in pits.decompose()
                                     if math.hypot(*_centre(pit)) > footprint + 0.6 + 2 * PIT_RADIUS_MM])
    relief = _extrude(raised, size.height - EMBED_MM, RELIEF_MM + EMBED_MM)
    share = stem_flat_share(family, spec)
    pocket = _pocket_radius(piece_id, size, share, code, options) if options.weight_pocket else 0.0
    letters = _code_section(code, size, pocket)
    other_cuts = [_extrude(pits, size.height - 0.6, 0.6 + EMBED_MM)] if not pits.is_empty() else []
    if pocket:
        other_cuts.append(_pocket(pocket))
    notch, code_cut = _notch(size, spec), _extrude(letters, -0.5, CODE_DEPTH_MM + 0.5)
    solid = Manifold.batch_boolean(
        [Manifold.batch_boolean([*shape, relief], OpType.Add), notch, code_cut, *other_cuts], OpType.Subtract)
    _check_solid(solid, piece_id)
    parts = _parts(shape, relief, letters, [notch, *other_cuts])
    return PieceModel(piece_id, solid, parts, size, family, layout, pocket, spec)


def _parts(
    shape: list[Manifold], relief: Manifold, letters: CrossSection, cuts: list[Manifold]
) -> dict[Part, Manifold]:
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
            f"piece {piece_id!r}: square size {square_mm:g} mm is not allowed; "
            f"use {MIN_SQUARE_MM:g} to {MAX_SQUARE_MM:g} mm"
        )


def _check_solid(solid: Manifold, piece_id: str) -> None:
    status = solid.status()
    if solid.is_empty() or status.name != "NoError":
        raise ModelError(f"piece {piece_id!r}: the geometry kernel returned no solid ({status.name})")
    if solid.genus() < 0 or len(solid.decompose()) != 1:
        raise ModelError(f"piece {piece_id!r}: the model falls apart into several bodies")


def usable_radius(size: BodySize, rim_kind: Rim = Rim.PLAIN, square_mm: float = DEFAULT_SQUARE_MM) -> float:
    """The radius on the top face that symbols may use, clear of the rim, notch and crown."""
    edge = NOTCH_DEPTH_MM + 0.6
    if rim_kind is not Rim.PLAIN:
        edge = max(edge, rim_width_mm(rim_kind, square_mm) + 0.3 + 1.4)  # square markers reach past the fit
    return size.top_radius - edge


def _fit_emblem(
    piece_id: str, group: Group, emblem: Emblem, square_mm: float, spec: ShapeSpec
) -> tuple[BodySize, Layout]:
    """Size the grid to the emblem's reach; widen the top disc up to the base if the pitch is too fine."""
    size = body_size(group, square_mm, spec=spec)
    layout = Layout.fit(emblem.reach, usable_radius(size, spec.rim, square_mm))
    if layout.pitch_mm < MIN_PITCH_MM:
        size = body_size(group, square_mm, top_radius_mm=size.base_radius, spec=spec)
        layout = Layout.fit(emblem.reach, usable_radius(size, spec.rim, square_mm))
    if layout.pitch_mm < MIN_PITCH_MM:
        needed = _square_needed(emblem.reach, group, spec)
        raise ModelError(
            f"piece {piece_id!r}: its diagram reaches {emblem.reach:.1f} squares and needs a grid pitch of "
            f"{MIN_PITCH_MM} mm, which does not fit the top face at --square-mm {square_mm:g}; "
            + (f"use --square-mm {needed} or more" if needed <= MAX_SQUARE_MM else "it is too wide to print")
        )
    return size, layout


def _square_needed(reach: float, group: Group, spec: ShapeSpec) -> int:
    """The smallest whole square size in mm at which the emblem fits at the minimum pitch."""
    for square_mm in range(int(MIN_SQUARE_MM), int(MAX_SQUARE_MM) + 1):
        size = body_size(group, float(square_mm), top_radius_mm=body_size(group, float(square_mm)).base_radius)
        if Layout.fit(reach, usable_radius(size, spec.rim, float(square_mm))).pitch_mm >= MIN_PITCH_MM:
            return square_mm
    return int(MAX_SQUARE_MM) + 1


def _extrude(section: CrossSection, z_mm: float, height_mm: float) -> Manifold:
    return Manifold.extrude(section, height_mm).translate((0.0, 0.0, z_mm))


def _notch(size: BodySize, spec: ShapeSpec) -> Manifold:
    """A V notch in the rim at the front (+y), the same place on every piece."""
    r = size.top_radius
    floor = size.height - 0.6 * size.top_thickness
    tri = CrossSection([[(0.0, r - NOTCH_DEPTH_MM), (NOTCH_DEPTH_MM + 1.0, r + 1.0), (-NOTCH_DEPTH_MM - 1.0, r + 1.0)]])
    return _extrude(tri, floor, size.height + 2.0 * size.crown_height + 8.0 - floor)


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


def _pocket_radius(piece_id: str, size: BodySize, flat_share: float, code: str, options: ModelOptions) -> float:
    """The widest weight pocket (up to an M10 washer) that leaves walls and room for the code."""
    height = code_height_mm(size)
    safe = size.base_radius - 0.6 - 0.8
    half_width = text_width_mm(code, height, STROKE_MM) / 2
    radius = min(POCKET_RADIUS_MM, math.sqrt(max(0.0, safe**2 - half_width**2)) - height - 0.8)
    while radius >= 3.0 and not _pocket_walls_ok(size, flat_share, radius):
        radius -= 0.1
    if radius < 3.0:
        raise ModelError(
            f"piece {piece_id!r}: no weight pocket fits beside the code at --square-mm {options.square_mm:g}; "
            "use --no-weight-pocket or bigger squares"
        )
    return round(radius, 2)


def _pocket_walls_ok(size: BodySize, flat_share: float, radius: float) -> bool:
    """Whether the body keeps POCKET_WALL_MM of material around the pocket and its cone roof."""
    for z in np.linspace(0.0, POCKET_DEPTH_MM + radius / MAX_FLARE, 40):
        cone = radius if z <= POCKET_DEPTH_MM else radius - (z - POCKET_DEPTH_MM) * MAX_FLARE
        if _inner_radius(size, flat_share, float(z)) - cone < POCKET_WALL_MM:
            return False
    return True


def _inner_radius(size: BodySize, flat_share: float, z: float) -> float:
    """A lower bound of the body's radius at height z (flats of a polygonal stem included)."""
    foot = size.base_radius if z <= size.foot_height else size.base_radius - (z - size.foot_height)
    bottom, top = size.foot_top - 1.0, size.flare_bottom + 1.0
    if z < bottom:
        return foot
    share = min(1.0, (z - bottom) / (top - bottom))
    stem = size.neck_radius + (size.waist_radius - size.neck_radius) * share
    return max(foot, 0.98 * stem * flat_share)


def _pocket(radius: float) -> Manifold:
    """The weight pocket, open at the bottom, roofed by a cone 40 degrees from vertical (no flat ceiling)."""
    profile = [(0.0, -0.5), (radius, -0.5), (radius, POCKET_DEPTH_MM), (0.0, POCKET_DEPTH_MM + radius / MAX_FLARE)]
    return CrossSection([profile]).revolve(72)


def identity_signature(piece: PieceDef) -> tuple:
    """What the geometry shows besides the code: group, family, shape and emblem (equal iff they look alike)."""
    return (piece.group, family_of(piece.movement), shape_of(piece), emblem_of(piece.movement))


__all__ = [
    "ModelError", "ModelOptions", "Part", "PieceModel", "build_piece", "mesh_arrays", "size_limits",
    "identity_signature", "PROPORTIONS", "MAX_FLARE", "MIN_PITCH_MM",
]
