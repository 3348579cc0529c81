"""Parametric 3D pieces: a turned body by group and power band, its head and finial by the shape
language, the movement diagram in relief on the top plate, a forward notch, a notch a leap distance in the
collar, named rules' pips or notches, and the code debossed (mirrored) under the base beside a pocket for
two stacked washers.

Pure geometry with manifold3d; nothing here writes files (printing/solids/stl.py and printing/solids/threemf.py do).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache

import numpy as np
from manifold3d import CrossSection, JoinType, Manifold, OpType

from dealers_chess.pieces.catalogue import Group, PieceDef
from dealers_chess.pieces.errors import DealerError
from dealers_chess.pieces.model3d.body import (
    BALL_FLAT,
    BASES,
    MAX_BASE_SHARE,
    BodySize,
    Turned,
    body,
    body_size,
    collar_notches,
    turned,
)
from dealers_chess.pieces.model3d.emblem import Emblem, emblem_of
from dealers_chess.pieces.model3d.font import text_section, text_width_mm
from dealers_chess.pieces.model3d.heads import finial, finial_radius_mm, pips, rim, rim_width_mm
from dealers_chess.pieces.model3d.horse import FOOT_RADIUS_MM as MIN_HORSE_SEAT_MM
from dealers_chess.pieces.model3d.horse import MAX_SEAT_MM as MAX_HORSE_SEAT_MM
from dealers_chess.pieces.model3d.profile import MAX_FLARE, SEGMENTS, radius_at
from dealers_chess.pieces.model3d.relief import Layout, free_radius, relief_section
from dealers_chess.pieces.model3d.shape import Finial, Head, Mark, Rim, ShapeSpec, shape_of, without_horse

MIN_PITCH_MM = 2.0
HORSE_SEAT_MM = (MIN_HORSE_SEAT_MM, MAX_HORSE_SEAT_MM)  # a horse's chest on its top plate, radius at 50 mm
PAWN_PITCH_MM = 2.4  # the pitch a pawn's flat widens for (within its ball) before the foot grows
NUDGES = (1.0, 1.003, 1.006, 0.997)  # relative pitch changes tried when symbols pinch
RELIEF_MM = 0.8  # raised symbols, for a second colour
ONE_COLOUR_RELIEF_MM = 1.2  # raised symbols in one colour: they read by their shadow
ONE_COLOUR_MARKER_MM = 2.0  # and its dots at least this wide
EMBED_MM = 0.3  # symbols start this far inside the top plate (no shared faces)
NOTCH_DEPTH_MM = 1.2
FINIAL_CLEARANCE_MM = 1.0  # between a finial's foot and the nearest symbol, at 50 mm squares
CODE_DEPTH_MM = 0.6
CODE_INLAY_MM = 0.6  # the floor of the debossed code, a separate part for a second colour
STROKE_MM = 1.05
POCKET_RADIUS_MM = 10.2  # M10 washer, 20 mm, plus clearance
POCKET_DEPTH_MM = 4.2  # two stacked M10 washers (2.0 mm each) and play
WASHERS_PER_POCKET = 2
POCKET_WALL_MM = 1.2
GROWTH = 1.04  # the foot widens by this much a step where the diagram needs room
FINIAL_GROWTH = 1.15  # to make room round a finial's foot the foot widens at most this much
ONE_COLOUR_GROWTH = 1.1  # for one colour's bigger dots the foot widens at most this much
DEFAULT_SQUARE_MM = 50.0
BODY_COLOURED_FINIALS = frozenset({Finial.HORSE})  # printed in the body's colour above the relief
RESERVED_FINIALS = frozenset({Finial.CROSS, Finial.BALL, Finial.MITRE})  # the side's family marks: never shrunk
MIN_SQUARE_MM, MAX_SQUARE_MM = 20.0, 80.0


class ModelError(DealerError):
    """A piece that cannot be built as a printable model with the options given."""


@dataclass(frozen=True, slots=True)
class ModelOptions:
    """What a build depends on besides the piece itself."""

    square_mm: float = DEFAULT_SQUARE_MM
    weight_pocket: bool = True
    one_colour: bool = False  # printed in one filament: taller symbols


DEFAULT_OPTIONS = ModelOptions()  # 50 mm squares, with the weight pocket, for two colours


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
    layout: Layout
    pocket_radius_mm: float
    shape: ShapeSpec
    profile: Turned
    relief_mm: float = RELIEF_MM
    # where the filament changes, bottom up: to the accent at the top face (the relief starts), and back to
    # the body's colour at the relief's top where a body-coloured finial continues above it (a horse head);
    # none in one colour
    colour_changes_mm: tuple[float, ...] = ()

    @property
    def top_mm(self) -> float:
        """Height of the top face the diagram stands on (a 0.2 mm layer boundary at the usual sizes)."""
        return self.size.height

    @property
    def relief_top_mm(self) -> float:
        """Height of the raised diagram's top."""
        return self.size.height + self.relief_mm

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
    tallest = {Group.ROYAL: 1.96, Group.PIECE: 1.85, Group.PAWN: 1.10, Group.SPEAR: 1.45}[group]
    return MAX_BASE_SHARE * square_mm, tallest * square_mm


def build_piece(piece: PieceDef, options: ModelOptions = DEFAULT_OPTIONS) -> PieceModel:
    """Build the printable solid of one catalogue piece; raise ModelError if it cannot print."""
    return _build_cached(piece.id, piece.group, piece.code, piece.movement, shape_of(piece), options)


@lru_cache(maxsize=256)
def _build_cached(piece_id, group, code, movement, spec: ShapeSpec, options: ModelOptions) -> PieceModel:
    _check_square(options.square_mm, piece_id)
    emblem = emblem_of(movement)
    size, layout = _fit(piece_id, group, emblem, options, spec)
    if spec.finial in RESERVED_FINIALS and not _finial_fits(spec, emblem, layout, size.scale):
        # a reserved finial is never shrunk while a coarser grid makes room: its bars show one step, not two
        size, layout = _fit(piece_id, group, emblem, options, spec, bar_steps=1.0)
    if spec.finial is Finial.HORSE and not _finial_fits(spec, emblem, layout, size.scale):
        spec = without_horse(spec, movement, group is Group.ROYAL)  # the diagram leaves no room for its neck
        size, layout = _fit(piece_id, group, emblem, options, spec)
    for nudge in NUDGES:  # symbols that happen to touch at a single point: shift the grid a hair
        model = _assemble(piece_id, code, emblem, size, replace(layout, pitch_mm=layout.pitch_mm * nudge), options,
                          spec)
        if not _has_pinches(model.solid):
            return model
    raise ModelError(f"piece {piece_id!r}: the diagram's symbols touch at single points at "
                     f"--square-mm {options.square_mm:g}; try a slightly different square size")


def _has_pinches(solid: Manifold) -> bool:
    """Whether two mesh vertices share a position in float32 (an STL would not be closed)."""
    positions = np.asarray(solid.to_mesh().vert_properties[:, :3], dtype=np.float32) + np.float32(0.0)  # -0 is 0
    bits = np.ascontiguousarray(positions).view(np.uint32)
    ordered = bits[np.lexsort((bits[:, 2], bits[:, 1], bits[:, 0]))]
    return bool((ordered[1:] == ordered[:-1]).all(axis=1).any())


def usable_radius(size: BodySize, rim_kind: Rim = Rim.PLAIN, square_mm: float = DEFAULT_SQUARE_MM) -> float:
    """The radius on the top face that symbols may use, clear of the plate's rounded edge, notch and rim."""
    edge = NOTCH_DEPTH_MM + 0.4
    if rim_kind is not Rim.PLAIN:
        edge = max(edge, rim_width_mm(rim_kind, square_mm) + 0.3 + 1.4)  # square markers reach past the fit
    return size.flat_radius - edge


def _fit(
    piece_id: str, group: Group, emblem: Emblem, options: ModelOptions, spec: ShapeSpec, bar_steps: float = 2.0,
) -> tuple[BodySize, Layout]:
    """The body and grid (_layout_for); raise ModelError naming the square size at which they fit."""
    found = _layout_for(group, emblem, options, spec, bar_steps)
    if found is not None:
        return found
    needed = _square_needed(group, emblem, options, spec, bar_steps)
    raise ModelError(
        f"piece {piece_id!r}: its diagram reaches {emblem.reach:.1f} squares and needs a grid pitch of "
        f"{MIN_PITCH_MM:g} mm, which does not fit the top face at --square-mm {options.square_mm:g}; "
        + (f"use --square-mm {needed} or more" if needed <= MAX_SQUARE_MM else "it is too wide to print")
    )


def _layout_for(
    group: Group, emblem: Emblem, options: ModelOptions, spec: ShapeSpec, bar_steps: float = 2.0,
) -> tuple[BodySize, Layout] | None:
    """The body and grid: the group's foot, widened step by step while the diagram's pitch is too fine
    (or a finial finds no room), a pawn's flat first, up to MAX_BASE_SHARE of the square. In one colour
    the dots are 2 mm across where the foot need not widen more than ONE_COLOUR_GROWTH for them, else as
    large as the grid allows."""
    reach, square_mm = grid_reach(emblem, spec, bar_steps), options.square_mm
    finial_limit = FINIAL_GROWTH * BASES[group] * square_mm / 2  # a finial widens the foot only this far
    ball = spec.head is Head.BALL
    usual, widest = BASES[group] * square_mm / 2, MAX_BASE_SHARE * square_mm / 2
    passes = []  # (smallest dot, finest pitch, only a pawn's flat widens, widest foot), the wish first
    if options.one_colour:
        big_dot = (ONE_COLOUR_MARKER_MM, Layout.min_pitch(ONE_COLOUR_MARKER_MM))
        passes += [(*big_dot, True, usual)] if ball else []
        passes.append((*big_dot, False, min(widest, ONE_COLOUR_GROWTH * usual)))
    if ball:  # a pawn's ball widens its flat before a grid gets as fine as it may
        passes.append((1.2, PAWN_PITCH_MM, True, usual))
    passes.append((1.2, MIN_PITCH_MM, False, widest))
    for marker, min_pitch, flats_only, foot_limit in passes:
        fitting = None
        for base, flat in _widenings(group, square_mm, foot_limit, flats_only):
            size = body_size(group, square_mm, spec, base, flat)
            layout = Layout.fit(reach, usable_radius(size, spec.rim, square_mm), marker)
            if layout.pitch_mm < min_pitch or not _symbols_apart(emblem, layout):
                continue
            fitting = fitting or (size, layout)
            if _finial_fits(spec, emblem, layout, size.scale):
                return size, layout
            if base > finial_limit:
                break
        if fitting:
            return fitting  # the pitch fits; a horse that does not is replaced, another finial made smaller
    return None


def _widenings(group: Group, square_mm: float, widest: float, flats_only: bool = False):
    """(foot radius, pawn's flat share) to try, narrowest first, the last at `widest` (a radius, mm)."""
    base = BASES[group] * square_mm / 2
    if flats_only:  # a pawn's flat, within its ball
        for flat in np.linspace(BALL_FLAT[0], BALL_FLAT[1], 4):
            yield base, float(flat)
        return
    while base < widest:
        yield base, BALL_FLAT[1]
        base = min(widest, base * GROWTH)
    yield widest, BALL_FLAT[1]


def _square_needed(group: Group, emblem: Emblem, options: ModelOptions, spec: ShapeSpec,
                   bar_steps: float = 2.0) -> int:
    """The smallest whole square size in mm above this one at which the body and grid fit (MAX_SQUARE_MM + 1 if
    none): from the size where the grid's pitch first fits on the widest foot, tried with the whole fit."""
    start = max(int(options.square_mm) + 1, _pitch_fits_from(grid_reach(emblem, spec), group, spec, 1.2))
    for square_mm in range(start, int(MAX_SQUARE_MM) + 1):
        if _layout_for(group, emblem, replace(options, square_mm=float(square_mm)), spec, bar_steps) is not None:
            return square_mm
    return int(MAX_SQUARE_MM) + 1


def _pitch_fits_from(reach: float, group: Group, spec: ShapeSpec, marker: float) -> int:
    """The smallest whole square size in mm at which a grid of this reach fits at the minimum pitch on the
    widest foot (a lower bound: the symbols must also keep apart)."""
    for square_mm in range(int(MIN_SQUARE_MM), int(MAX_SQUARE_MM) + 1):
        size = body_size(group, float(square_mm), spec, MAX_BASE_SHARE * square_mm / 2, BALL_FLAT[1])
        layout = Layout.fit(reach, usable_radius(size, spec.rim, float(square_mm)), marker)
        if layout.pitch_mm >= Layout.min_pitch(marker):
            return square_mm
    return int(MAX_SQUARE_MM) + 1


def _symbols_apart(emblem: Emblem, layout: Layout) -> bool:
    """Whether the diagram's symbols keep a nozzle's gap between them: closing the gaps under 0.8 mm joins
    no two of them (a fine grid can crowd a square against a diagonal line)."""
    raised = relief_section(emblem, layout)
    if raised.is_empty():
        return True
    joined = raised.offset(0.4, JoinType.Round, 2.0, 48).offset(-0.4, JoinType.Round, 2.0, 48)
    return len(joined.decompose()) >= len(raised.decompose())


def grid_reach(emblem: Emblem, spec: ShapeSpec, bar_steps: float = 2.0) -> float:
    """The diagram's reach in cells: a finial standing on the centre needs the single steps' cells farther
    out, so a piece with one may use a coarser grid than the usual two cells' reach (and, where its finial
    would not fit otherwise, bars that show fewer steps before the rim)."""
    if spec.finial is Finial.NONE:
        return emblem.reach
    if bar_steps == 2.0:
        return max(1.5, emblem.extent)
    return max(1.5, _extent_with_bar_steps(emblem, bar_steps))


def _extent_with_bar_steps(emblem: Emblem, bar_steps: float) -> float:
    """The emblem's extent in cells with its rim-bound bars showing bar_steps steps."""
    points = [m.cell for m in emblem.markers] + [p for line in emblem.lines for p in line]
    for bar in emblem.bars:
        end = bar.end if bar.end is not None else (bar.start[0] + bar_steps * bar.direction[0],
                                                   bar.start[1] + bar_steps * bar.direction[1])
        points.append(end)
    return max([0.0] + [math.hypot(x, y) for x, y in points])


def _finial_room(emblem: Emblem, layout: Layout) -> float:
    """How far from the centre a finial's foot may reach: to the nearest symbol, less the clearance."""
    raised = relief_section(emblem, layout)
    return free_radius(raised)


def _finial_fits(spec: ShapeSpec, emblem: Emblem, layout: Layout, scale: float) -> bool:
    if spec.finial is Finial.NONE:
        return True
    return finial_radius_mm(spec.finial, scale) + FINIAL_CLEARANCE_MM * scale <= _finial_room(emblem, layout)


def _finial_scale(spec: ShapeSpec, emblem: Emblem, layout: Layout, scale: float) -> float:
    """A finial's scale: the square's, or less where the diagram leaves less room round its foot (never a
    horse: a horse that does not fit is not built)."""
    foot = finial_radius_mm(spec.finial, 1.0)
    if not foot or spec.finial is Finial.HORSE:
        return scale
    room = _finial_room(emblem, layout) - FINIAL_CLEARANCE_MM * scale
    return max(0.3 * scale, min(scale, room / foot))


def _horse_seat_mm(spec: ShapeSpec, emblem: Emblem, layout: Layout, scale: float) -> float:
    """A horse's seat radius at 50 mm squares: its chest as wide as the diagram leaves room for (at least
    the smallest seat, which _fit made room for); 0 for other finials."""
    if spec.finial is not Finial.HORSE:
        return 0.0
    room = _finial_room(emblem, layout) / scale - FINIAL_CLEARANCE_MM
    return math.floor(10 * max(HORSE_SEAT_MM[0], min(HORSE_SEAT_MM[1], room))) / 10


def _inside_rim(size: BodySize, spec: ShapeSpec, square_mm: float) -> Manifold:
    """A cylinder a finial keeps inside: clear of the rim's inside by the finial's clearance (a horse's chest
    in a crown or a turret's crenellations would close loops with it)."""
    inner = size.flat_radius + 0.2 * size.scale - rim_width_mm(spec.rim, square_mm) - FINIAL_CLEARANCE_MM * size.scale
    if spec.rim is Rim.PLAIN:
        inner = size.plate_radius * 2
    return Manifold.cylinder(200.0, inner, inner, SEGMENTS).translate((0.0, 0.0, -10.0))


def _assemble(piece_id, code, emblem, size: BodySize, layout: Layout, options: ModelOptions, spec) -> PieceModel:
    """Body, head and raised symbols, less the notch, code and pocket; and the same split into parts."""
    profile = turned(size, spec)
    s = size.scale
    shape = [body(size, spec, profile), *rim(size.height, size.flat_radius + 0.2 * s, spec.rim, options.square_mm)]
    seat = _horse_seat_mm(spec, emblem, layout, s)
    top = finial(spec.finial, _finial_scale(spec, emblem, layout, s), spec.horse_mitre, seat)
    if top is not None and seat:
        top = top ^ _inside_rim(size, spec, options.square_mm)
    if top is not None:
        shape.append(top.translate((0.0, 0.0, size.height)))
    if profile.band and Mark.PIPS in spec.marks:
        shape += pips(*profile.band, s)
    raised = relief_section(emblem, layout)
    relief_mm = ONE_COLOUR_RELIEF_MM if options.one_colour else RELIEF_MM
    relief = _extrude(raised, size.height - EMBED_MM, relief_mm + EMBED_MM)
    pocket = _pocket_radius(piece_id, size, profile, code, options) if options.weight_pocket else 0.0
    letters = _code_section(code, size, pocket)
    other_cuts: list[Manifold] = []
    if pocket:
        other_cuts.append(_pocket(pocket))
    notch, code_cut = _notch(size, spec.head), _extrude(letters, -0.5, CODE_DEPTH_MM + 0.5)
    other_cuts += _collar_notches(profile, collar_notches(spec), s) + _band_notches(profile, s)
    # the small operands joined among themselves first, so the many-triangled turned body meets a boolean
    # twice, not once for each of them (manifold3d's batch added each to the body: twice the time)
    attached = Manifold.batch_boolean([*shape[1:], relief], OpType.Add)
    cuts = Manifold.batch_boolean([notch, code_cut, *other_cuts], OpType.Add)
    solid = Manifold.batch_boolean([shape[0], attached], OpType.Add) - cuts
    _check_solid(solid, piece_id)
    parts = _parts(shape, relief, letters, [notch, *other_cuts])
    changes = colour_changes_mm(size.height, relief_mm, spec, options)
    return PieceModel(piece_id, solid, parts, size, layout, pocket, spec, profile, relief_mm, changes)


def colour_changes_mm(top_mm: float, relief_mm: float, spec: ShapeSpec, options: ModelOptions) -> tuple[float, ...]:
    """The heights a two-colour print changes filament at: the top face, and the relief's top where what
    stands above it prints in the body's colour."""
    if options.one_colour:
        return ()
    if spec.finial in BODY_COLOURED_FINIALS:
        return (round(top_mm, 6), round(top_mm + relief_mm, 6))
    return (round(top_mm, 6),)


COLLAR_NOTCH_MM = (1.2, 1.0)  # a collar notch's width and depth at 50 mm squares
COLLAR_NOTCH_DEG = 22.0  # notches this far apart round the collar, centred on the owner's side (-y)


BAND_NOTCHES = 8  # round a promotion rule's band, one facing each way a king steps


def _collar_notches(profile: Turned, count: int, scale: float) -> list[Manifold]:
    """Vertical slots through the collar's edge, one a leap distance, facing the piece's owner."""
    if not count or profile.collar is None:
        return []
    first = -90.0 - COLLAR_NOTCH_DEG * (count - 1) / 2
    return _slots(profile.collar, [first + k * COLLAR_NOTCH_DEG for k in range(count)], scale)


def _band_notches(profile: Turned, scale: float) -> list[Manifold]:
    """Vertical slots all round a promotion rule's band (the same slots as the collar's)."""
    if profile.notched_band is None:
        return []
    return _slots(profile.notched_band, [-90.0 + k * 360.0 / BAND_NOTCHES for k in range(BAND_NOTCHES)], scale)


def _slots(extent: tuple[float, float, float], angles_deg: list[float], scale: float) -> list[Manifold]:
    """Vertical slots COLLAR_NOTCH_MM wide and deep through the edge of a ring (bottom, top, radius), at these
    angles (degrees from +x)."""
    low, high, radius = extent
    width, depth = (v * scale for v in COLLAR_NOTCH_MM)
    slot = Manifold.cube((depth + 2.0, width, high - low + 2.0)).translate((radius - depth, -width / 2, low - 1.0))
    return [slot.rotate((0, 0, angle)) for angle in angles_deg]


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
    """The kernel made a solid. That it is one body the file writers check on what they write (counting
    bodies here, by decompose, took half of a build's time)."""
    status = solid.status()
    if solid.is_empty() or status.name != "NoError":
        raise ModelError(f"piece {piece_id!r}: the geometry kernel returned no solid ({status.name})")


def _extrude(section: CrossSection, z_mm: float, height_mm: float) -> Manifold:
    return Manifold.extrude(section, height_mm).translate((0.0, 0.0, z_mm))


def _notch(size: BodySize, head: Head) -> Manifold:
    """A V notch in the top plate's rim at the front (+y), the same place on every piece but pawns: on a
    pawn's ball, seen from the other side of the board, it reads as a mouth under the diagram's two capture
    squares (a pawn says forward by its diagram). None: an empty solid."""
    if head is Head.BALL:
        return Manifold()
    r = size.plate_radius
    floor = size.height - 1.6 * size.scale
    depth = r - size.flat_radius + NOTCH_DEPTH_MM
    tri = CrossSection([[(0.0, r - depth), (depth + 1.0, r + 1.0), (-depth - 1.0, r + 1.0)]])
    return _extrude(tri, floor, 40.0 * size.scale)


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


def _pocket_radius(piece_id: str, size: BodySize, profile: Turned, code: str, options: ModelOptions) -> float:
    """The widest weight pocket (up to an M10 washer) that leaves walls and room for the code."""
    height = code_height_mm(size)
    safe = size.base_radius - 0.6 - 0.8
    half_width = text_width_mm(code, height, STROKE_MM) / 2
    radius = min(POCKET_RADIUS_MM, math.sqrt(max(0.0, safe**2 - half_width**2)) - height - 0.8)
    while radius >= 3.0 and not _pocket_walls_ok(profile, radius):
        radius -= 0.1
    if radius < 3.0:
        raise ModelError(
            f"piece {piece_id!r}: no weight pocket fits beside the code at --square-mm {options.square_mm:g}; "
            "use --no-weight-pocket or bigger squares"
        )
    return round(radius, 2)


def _pocket_walls_ok(profile: Turned, radius: float) -> bool:
    """Whether the body keeps POCKET_WALL_MM of material around the pocket and its cone roof."""
    for z in np.linspace(0.0, POCKET_DEPTH_MM + radius / MAX_FLARE, 40):
        cone = radius if z <= POCKET_DEPTH_MM else radius - (z - POCKET_DEPTH_MM) * MAX_FLARE
        if radius_at(profile.points, float(z)) - cone < POCKET_WALL_MM:
            return False
    return True


def _pocket(radius: float) -> Manifold:
    """The weight pocket, open at the bottom, roofed by a cone 40 degrees from vertical (no flat ceiling)."""
    profile = [(0.0, -0.5), (radius, -0.5), (radius, POCKET_DEPTH_MM), (0.0, POCKET_DEPTH_MM + radius / MAX_FLARE)]
    return CrossSection([profile]).revolve(SEGMENTS)


def identity_signature(piece: PieceDef) -> tuple:
    """What the geometry shows besides the code: group, shape and emblem (equal iff they look alike)."""
    return (piece.group, shape_of(piece), emblem_of(piece.movement))


__all__ = [
    "ModelError", "ModelOptions", "Part", "PieceModel", "build_piece", "mesh_arrays", "size_limits",
    "identity_signature", "MIN_PITCH_MM",
]
