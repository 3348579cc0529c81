"""A numpy z-buffer renderer: a piece in orthographic three-quarter view, an army standing in a row
seen from the side, or a set-up standing on a board seen through a camera (perspective from a
player's chair, or straight from above); smooth shading, outlines.

No OpenGL and no Pillow: the result is an RGBA uint8 array (transparent background); printing/
turns it into PNG files and caches it. The renderer reads a piece only through its built solid and
the height of its top face, so it draws whatever geometry `build_piece` returns.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from dealers_chess.pieces.catalogue import PieceDef
from dealers_chess.pieces.model3d.raster import rasterize

if TYPE_CHECKING:
    from dealers_chess.pieces.model3d.model import PieceModel

BAND_PIXELS = 1_500_000  # supersamples of a scene (render_scene) rasterized and shaded at once
DEPTH_JUMP_MM = 1.2  # neighbouring pixels further apart in depth get an outline
SHARP_DEG = 35.0  # faces meeting at a greater angle than this show a sharp edge between them
LINEUP_GAP = 0.3  # space between bases in a line-up, as a share of the square


@dataclass(frozen=True, slots=True)
class Palette:
    """Body colour, colour of the raised diagram (the second filament) and outline, as RGB 0..1."""

    body: tuple[float, float, float]
    accent: tuple[float, float, float]
    outline: tuple[float, float, float]
    specular: float


PALETTES: dict[str, Palette] = {
    "white": Palette((0.93, 0.90, 0.83), (0.62, 0.12, 0.10), (0.12, 0.10, 0.09), 0.18),
    "black": Palette((0.17, 0.17, 0.19), (0.93, 0.80, 0.40), (0.02, 0.02, 0.02), 0.35),
}


@dataclass(frozen=True, slots=True)
class View:
    """Camera angles in degrees: azimuth from the White player's side, elevation above the board."""

    azimuth_deg: float = 15.0
    elevation_deg: float = 36.0
    supersample: int = 2


SIDE_VIEW = View(azimuth_deg=0.0, elevation_deg=10.0, supersample=3)

# A set-up on a board: the board lies centred on the origin, its top at z = 0, White's side towards -y.
BOARD_PALETTES: dict[str, Palette] = {  # wooden squares and frame; accent unused (nothing on a board is raised)
    "light": Palette((0.87, 0.74, 0.54), (0.87, 0.74, 0.54), (0.20, 0.13, 0.08), 0.04),
    "dark": Palette((0.55, 0.36, 0.22), (0.55, 0.36, 0.22), (0.20, 0.13, 0.08), 0.04),
    "frame": Palette((0.32, 0.20, 0.12), (0.32, 0.20, 0.12), (0.10, 0.06, 0.04), 0.06),
}
BORDER_SQUARES = 0.25  # width of the frame around the squares, in squares
BOARD_THICKNESS_SQUARES = 0.3
CHAIR_DISTANCE_MM = 600.0  # eye to the board's centre for 8 squares of 50 mm; scales with the board's size
CHAIR_DISTANCE_BOARD_MM = 8 * 50.0
CHAIR_ELEVATION_DEG = 45.0
FRAME_MARGIN = 0.03  # around everything in the picture, as a share of its larger half-extent
NOT_RAISED_MM = 1e9  # the accent threshold of the board's vertices: never reached
BoardView = Literal["chair", "top"]
BOARD_VIEWS: tuple[BoardView, ...] = ("chair", "top")


@dataclass(frozen=True, slots=True)
class Camera:
    """An eye at `eye` looking at `target` (mm, z up), in perspective or, when orthographic, along that line.

    Image up is the world's z, or +y when the camera looks straight down."""

    eye: tuple[float, float, float]
    target: tuple[float, float, float] = (0.0, 0.0, 0.0)
    orthographic: bool = False
    supersample: int = 2

    def axes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(right, up, towards the camera) unit vectors in model space."""
        towards = _unit(np.subtract(self.eye, self.target, dtype=np.float64))
        hint = np.array([0.0, 0.0, 1.0]) if abs(towards[2]) < 0.999 else np.array([0.0, 1.0, 0.0])
        right = _unit(np.cross(hint, towards))
        return right, np.cross(towards, right), towards


@dataclass(frozen=True, slots=True)
class PieceMesh:
    """A piece as the renderer draws it: vertices (mm, forward +y, standing on z = 0), their normals (sharp
    edges split), triangles, and the height above which it takes the accent colour (its raised diagram; one
    height, or one a vertex where the print changes back to the body's colour above the relief)."""

    vertices: np.ndarray
    normals: np.ndarray
    faces: np.ndarray
    accent_above_mm: float | np.ndarray


@dataclass(frozen=True, slots=True)
class Placement:
    """A piece standing on a square (file and rank counted from 0, a1 = (0, 0)) in a side's colour."""

    piece: PieceDef
    file: int
    rank: int
    colour: str  # "white" or "black"


def render_piece(
    piece: PieceDef, width_px: int = 300, colour: str = "white", square_mm: float = 50.0,
    view: View = View(),
) -> np.ndarray:
    """The piece in three-quarter view as an RGBA uint8 array (height x width_px x 4), forward away from the viewer."""
    return render_model(_model(piece, square_mm), width_px, colour, view)


def render_model(model: PieceModel, width_px: int = 300, colour: str = "white", view: View = View()) -> np.ndarray:
    """render_piece's picture of a piece built before (a PieceModel), without building it again."""
    vertices, normals, faces = smooth_mesh(model.solid)
    return render_mesh(vertices, normals, faces, width_px, _palette(colour), view,
                       accent_above_mm=_accent_thresholds(model, vertices))


def render_lineup(
    pieces: Sequence[PieceDef], px_per_mm: float = 5.0, colour: str = "white", square_mm: float = 50.0,
    view: View = SIDE_VIEW,
) -> np.ndarray:
    """The pieces standing in a row, left to right, seen from the side, as one RGBA uint8 array at px_per_mm.

    Each piece stands as on White's side of the board, forward away from the camera: a horse head, which
    looks along the rank, shows its profile as a chess set is shown. One scale for all, so heights compare (and
    rows rendered apart at one px_per_mm line up); bases LINEUP_GAP x square apart."""
    vertices, normals, faces, accent = [], [], [], []
    x_mm, count = 0.0, 0
    for piece in pieces:
        model = _model(piece, square_mm)
        v, n, f = smooth_mesh(model.solid)
        v = v + np.array([x_mm - v[:, 0].min(), 0.0, 0.0])
        x_mm = float(v[:, 0].max()) + LINEUP_GAP * square_mm
        vertices.append(v)
        normals.append(n)
        faces.append(f + count)
        accent.append(_accent_thresholds(model, v))
        count += len(v)
    if not vertices:
        from dealers_chess.pieces.errors import DealerError

        raise DealerError("a line-up needs at least one piece")
    row = np.concatenate(vertices)
    width_px = max(8, math.ceil(float(np.ptp(row @ camera_axes(view)[0])) * px_per_mm) + 6)
    return render_mesh(row, np.concatenate(normals), np.concatenate(faces), width_px, _palette(colour), view,
                       accent_above_mm=np.concatenate(accent))


def piece_mesh(piece: PieceDef, square_mm: float = 50.0) -> PieceMesh:
    """The piece's built solid as the renderer draws it."""
    model = _model(piece, square_mm)
    vertices, normals, faces = smooth_mesh(model.solid)
    return PieceMesh(vertices, normals, faces, _accent_thresholds(model, vertices))


def render_board(
    placements: Sequence[Placement], files: int, ranks: int, square_mm: float = 50.0, view: BoardView = "chair",
    width_px: int = 1400, light_a1: bool = False, supersample: int = 2, meshes: Mapping[str, PieceMesh] | None = None,
) -> np.ndarray:
    """The pieces standing on their squares of a files x ranks board, as an RGBA uint8 array width_px wide.

    view "chair": from White's chair, in perspective (board_camera); "top": straight from above,
    orthographic, White at the bottom. a1 is a dark square unless light_a1. Every distinct piece is built
    and meshed once (or taken from meshes, by piece id: piece_mesh at this square_mm); White's pieces face
    +y, Black's are turned half a turn to face White. Both views share one light, standing to the pieces
    as it does on their cards (render_piece's view), so a piece reads alike on its card and on the board."""
    from dealers_chess.pieces.errors import DealerError

    if view not in BOARD_VIEWS:
        raise DealerError(f"view {view!r} is not known; use {' or '.join(BOARD_VIEWS)}")
    if not (math.isfinite(square_mm) and square_mm > 0):
        raise DealerError(f"a board's squares must be some mm across, not {square_mm:g}")
    palettes = [*BOARD_PALETTES.values(), *PALETTES.values()]
    material_of = {name: index for index, name in enumerate([*BOARD_PALETTES, *PALETTES])}
    built = dict(meshes or {})  # piece id -> its mesh, built once
    parts = [_board_mesh(files, ranks, square_mm, light_a1, material_of)]
    count = len(parts[0][0])
    half_turn = np.array([-1.0, -1.0, 1.0])
    for placed in placements:
        _palette(placed.colour)  # refuses a colour that is not a side's
        if placed.piece.id not in built:
            built[placed.piece.id] = piece_mesh(placed.piece, square_mm)
        mesh = built[placed.piece.id]
        v, n, f, above = mesh.vertices, mesh.normals, mesh.faces, mesh.accent_above_mm
        if placed.colour == "black":
            v, n = v * half_turn, n * half_turn
        centre = np.array([placed.file - (files - 1) / 2, placed.rank - (ranks - 1) / 2, 0.0]) * square_mm
        kind = material_of[placed.colour]
        parts.append((v + centre, n, f + count, np.full(len(f), kind), np.broadcast_to(above, (len(v),))))
        count += len(v)
    vertices, normals, faces, material, accent = (np.concatenate(column) for column in zip(*parts, strict=True))
    camera = board_camera(files, ranks, square_mm, view, supersample)
    lit_from = camera_axes(View())  # one light in both views, standing to the pieces as on their cards
    return render_scene(vertices, normals, faces, width_px, camera, palettes, material, accent, lit_from)


def board_camera(files: int, ranks: int, square_mm: float, view: BoardView, supersample: int = 2) -> Camera:
    """The camera of a board view: from White's chair, CHAIR_ELEVATION_DEG above the board and
    CHAIR_DISTANCE_MM from its centre for 8 squares of 50 mm (further for a bigger board, nearer for a
    smaller one), or straight from above."""
    distance = CHAIR_DISTANCE_MM * max(files, ranks) * square_mm / CHAIR_DISTANCE_BOARD_MM
    if view == "top":
        return Camera((0.0, 0.0, distance), orthographic=True, supersample=supersample)
    elevation = math.radians(CHAIR_ELEVATION_DEG)
    return Camera((0.0, -distance * math.cos(elevation), distance * math.sin(elevation)), supersample=supersample)


def render_scene(
    vertices: np.ndarray, normals: np.ndarray, faces: np.ndarray, width_px: int, camera: Camera,
    palettes: Sequence[Palette], material: np.ndarray, accent_above_mm: np.ndarray | None = None,
    lit_from: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Render closed meshes through a camera to an RGBA uint8 array width_px wide, height to fit.

    The picture is centred on the camera's target and just holds every vertex (FRAME_MARGIN around);
    face i takes palettes[material[i]]. The lights stand as they do for the camera, or for the camera
    axes lit_from. In perspective the z-buffer holds 1 / distance, which is linear
    across the screen; shading interpolates in screen space (the triangles of a piece are small).
    The picture is drawn in bands of rows, so memory stays bounded at any width."""
    right, up, towards = camera.axes()
    ss = camera.supersample
    offset = vertices - np.asarray(camera.eye, dtype=np.float64)
    ahead = -(offset @ towards)  # distance in front of the eye, along the view
    if camera.orthographic:
        u, v, depth = offset @ right, offset @ up, -ahead
    else:
        if ahead.min() <= 1e-6:
            from dealers_chess.pieces.errors import DealerError

            raise DealerError("the camera stands inside the scene")
        u, v, depth = offset @ right / ahead, offset @ up / ahead, 1.0 / ahead
    half_w, half_h = float(np.abs(u).max()), float(np.abs(v).max())
    pad = FRAME_MARGIN * max(half_w, half_h, 1e-9)
    half_w, half_h = half_w + pad, half_h + pad
    height_px = max(8, round(width_px * half_h / half_w))
    scale = width_px * ss / (2 * half_w)
    screen = np.stack([(u + half_w) * scale, (half_h - v) * scale, depth], axis=1)
    picture = np.zeros((height_px, width_px, 4), dtype=np.uint8)
    band = ss * max(1, BAND_PIXELS // (width_px * ss * ss))  # rows of supersamples drawn at once
    for top in range(0, height_px * ss, band):  # each band with ss rows more on either side: its outlines' neighbours
        low, high = max(0, top - ss), min(height_px * ss, top + band + ss)
        tri, bary, zbuf = rasterize(screen - [0.0, low, 0.0], faces, (high - low, width_px * ss))
        depth_mm = zbuf if camera.orthographic else -1.0 / np.where(tri >= 0, zbuf, 1.0)
        rgb, alpha = _shade(tri, bary, depth_mm, vertices, normals, faces, palettes, material,
                            lit_from or (right, up, towards), accent_above_mm)
        inner = slice(top - low, min(top + band, height_px * ss) - low)
        picture[top // ss: (top + band) // ss] = _downsample(rgb[inner], alpha[inner], ss)
    return picture


def _board_mesh(files: int, ranks: int, square_mm: float, light_a1: bool, material_of: dict[str, int]):
    """The board as (vertices, normals, faces, material per face, accent threshold per vertex): the squares
    and a frame flush at z = 0, the frame's sides down to the board's thickness (the underside is never seen)."""
    x1, y1 = files * square_mm / 2, ranks * square_mm / 2
    border, thick = BORDER_SQUARES * square_mm, BOARD_THICKNESS_SQUARES * square_mm
    X1, Y1 = x1 + border, y1 + border
    quads: list[tuple[list[tuple[float, float, float]], str]] = []
    for rank in range(ranks):
        for file in range(files):
            x, y = -x1 + file * square_mm, -y1 + rank * square_mm
            light = ((file + rank) % 2 == 1) != light_a1
            quads.append(([(x, y, 0), (x + square_mm, y, 0), (x + square_mm, y + square_mm, 0), (x, y + square_mm, 0)],
                          "light" if light else "dark"))
    for xa, ya, xb, yb in ((-X1, -Y1, X1, -y1), (-X1, y1, X1, Y1), (-X1, -y1, -x1, y1), (x1, -y1, X1, y1)):
        quads.append(([(xa, ya, 0), (xb, ya, 0), (xb, yb, 0), (xa, yb, 0)], "frame"))
    corners = [(-X1, -Y1), (X1, -Y1), (X1, Y1), (-X1, Y1)]
    for (xa, ya), (xb, yb) in zip(corners, corners[1:] + corners[:1], strict=True):
        quads.append(([(xa, ya, -thick), (xb, yb, -thick), (xb, yb, 0), (xa, ya, 0)], "frame"))
    corner = np.array([q for q, _ in quads], dtype=np.float64)  # (quads, 4, 3), counter-clockwise from outside
    normal = np.cross(corner[:, 1] - corner[:, 0], corner[:, 2] - corner[:, 0])
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    first = 4 * np.arange(len(quads))[:, None]
    faces = np.concatenate([first + [0, 1, 2], first + [0, 2, 3]])
    kinds = np.array([material_of[name] for _, name in quads])
    return (corner.reshape(-1, 3), np.repeat(normal, 4, axis=0), faces, np.concatenate([kinds, kinds]),
            np.full(4 * len(quads), NOT_RAISED_MM))


def _model(piece: PieceDef, square_mm: float):
    """The piece as `dealer pieces` builds it by default (the same cached build: the pocket under the base
    is out of sight), or without the pocket where the square leaves it no room."""
    from dealers_chess.pieces.model3d.model import ModelError, ModelOptions, build_piece

    try:
        return build_piece(piece, ModelOptions(square_mm=square_mm))
    except ModelError:
        return build_piece(piece, ModelOptions(square_mm=square_mm, weight_pocket=False))


ACCENT_ABOVE_TOP_MM = 0.05


def _accent_above(model) -> float:
    """Height above which a piece is drawn in the second filament's colour: its raised diagram."""
    return model.top_mm + ACCENT_ABOVE_TOP_MM


def _accent_thresholds(model, vertices: np.ndarray) -> np.ndarray:
    """Per vertex, the height above which it is drawn in the second filament's colour: the top face, and
    never where the print changes back to the body's colour (a horse head over its relief)."""
    changes = model.colour_changes_mm
    thresholds = np.full(len(vertices), _accent_above(model))
    if len(changes) > 1:
        thresholds[vertices[:, 2] > changes[1] + ACCENT_ABOVE_TOP_MM] = NOT_RAISED_MM
    return thresholds


def smooth_mesh(solid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vertices, per-vertex normals (sharp edges split) and triangles of a manifold3d solid.

    A vertex's normal is its faces' normals weighted by their angles there; a corner whose face turns more
    than half of SHARP_DEG away from that (across a sharp edge), or lies flat along it, takes its face's
    own normal, on a copy of the vertex. (manifold3d's calculate_normals, which splits each vertex's faces
    at the sharp edges between them, drew the same pictures to within a level of 255, in three times the time.)"""
    mesh = solid.to_mesh()
    vertices = np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3]
    faces = np.asarray(mesh.tri_verts, dtype=np.int64)
    corners = vertices[faces]
    edges = corners[:, [1, 2, 0]] - corners  # edge k runs from corner k to the next
    cross = np.cross(edges[:, 0], edges[:, 1])
    face_normal = cross / np.maximum(np.linalg.norm(cross, axis=1, keepdims=True), 1e-300)
    unit = edges / np.maximum(np.linalg.norm(edges, axis=2, keepdims=True), 1e-300)
    angle = np.arccos(np.clip(-np.einsum("ijk,ijk->ij", unit, unit[:, [2, 0, 1]]), -1.0, 1.0))  # at corner k
    weighted = (angle[:, :, None] * face_normal[:, None, :]).reshape(-1, 3)
    vertex_normal = np.stack([np.bincount(faces.ravel(), weighted[:, axis], len(vertices)) for axis in range(3)],
                             axis=1).astype(np.float64)
    vertex_normal /= np.maximum(np.linalg.norm(vertex_normal, axis=1, keepdims=True), 1e-300)
    turn = np.einsum("ijk,ik->ij", vertex_normal[faces], face_normal)
    own = np.flatnonzero((turn < math.cos(math.radians(SHARP_DEG / 2))) | (turn > 1.0 - 1e-9))
    faces.reshape(-1)[own] = len(vertices) + np.arange(len(own))
    return (np.concatenate([vertices, corners.reshape(-1, 3)[own]]),
            np.concatenate([vertex_normal, np.repeat(face_normal, 3, axis=0)[own]]), faces)


def _palette(colour: str) -> Palette:
    try:
        return PALETTES[colour]
    except KeyError:
        from dealers_chess.pieces.errors import DealerError

        raise DealerError(f"colour {colour!r} is not allowed; use {' or '.join(PALETTES)}") from None


def camera_axes(view: View) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(right, up, towards the camera) unit vectors in model space (z up, +y forward)."""
    az, el = math.radians(view.azimuth_deg), math.radians(view.elevation_deg)
    towards = np.array([math.sin(az) * math.cos(el), -math.cos(az) * math.cos(el), math.sin(el)])
    right = np.cross([0.0, 0.0, 1.0], towards)
    right /= np.linalg.norm(right)
    return right, np.cross(towards, right), towards


def render_mesh(
    vertices: np.ndarray, normals: np.ndarray, faces: np.ndarray, width_px: int, palette: Palette,
    view: View = View(), accent_above_mm: float | np.ndarray | None = None,
) -> np.ndarray:
    """Render a closed triangle mesh to an RGBA uint8 array width_px wide, height to fit.

    Surfaces above accent_above_mm (one height, or one per vertex) take the palette's accent colour."""
    right, up, towards = camera_axes(view)
    ss = view.supersample
    sx, sy, depth = vertices @ right, vertices @ up, vertices @ towards
    margin = 3 * ss
    scale = (width_px * ss - 2 * margin) / max(1e-9, float(np.ptp(sx)))
    height_px = int(math.ceil((float(np.ptp(sy)) * scale + 2 * margin) / ss))
    px = (sx - sx.min()) * scale + margin
    py = (sy.max() - sy) * scale + margin
    shape = (height_px * ss, width_px * ss)
    tri, bary, zbuf = rasterize(np.stack([px, py, depth], axis=1), faces, shape)
    rgb, alpha = _shade(tri, bary, zbuf, vertices, normals, faces, (palette,), None, (right, up, towards),
                        accent_above_mm)
    return _downsample(rgb, alpha, ss)


def _shade(tri, bary, depth_mm, vertices, normals, faces, palettes: Sequence[Palette], material, axes,
           accent_above_mm):
    """Two lights plus ambient and a soft highlight; the raised diagram in the accent colour; outlines.

    Each face takes palettes[material[face]] (material None: all palettes[0]); depth_mm grows towards
    the camera, in mm, for the outlines at depth jumps. A flat face wholly above or below the accent
    height has one colour, worked out once for the face (a board's squares are most of its pixels)."""
    flat_tri = tri.reshape(-1)
    mask = tri >= 0
    pixels = np.flatnonzero(mask)
    pixel_tri = flat_tri[pixels]
    material = np.zeros(len(faces), dtype=np.int64) if material is None else np.asarray(material)
    corner = normals.astype(np.float32)[faces]  # float32: half the bytes to move
    face_normal = corner[:, 0] / np.maximum(1e-12, np.linalg.norm(corner[:, 0], axis=1, keepdims=True))
    uniform = (corner == corner[:, :1]).all(axis=(1, 2))  # one normal at every corner
    excess = np.zeros(faces.shape)  # each corner's height over the accent threshold
    if accent_above_mm is not None:
        excess = (vertices[:, 2] - np.asarray(accent_above_mm, dtype=np.float64))[faces]
    face_raised = np.logical_and.reduce(excess > 0, axis=1)
    uniform &= face_raised | (excess <= 0).all(axis=1)
    colour_of = _colouring(palettes, axes)
    face_colour = np.zeros((len(faces) + 1, 3), dtype=np.float32)  # row 0 for the background (tri -1)
    face_colour[1:][uniform] = colour_of(face_normal[uniform], material[uniform], face_raised[uniform])
    rgb = np.take(face_colour, flat_tri + 1, axis=0)
    rest = pixels[~uniform[pixel_tri]]  # pixels shaded one by one
    smooth, raised = _smooth_pixels(flat_tri[rest], bary.reshape(-1, 2)[rest], corner, excess)
    rgb[rest] = colour_of(smooth, material[flat_tri[rest]], raised)

    pixel_normal = np.take(face_normal, flat_tri, axis=0)  # the shading normal of every pixel
    pixel_normal[rest] = smooth
    edges = _outline(mask, depth_mm, tri, pixel_normal.reshape(tri.shape + (3,)))
    rgb = rgb.reshape(tri.shape + (3,))
    outline = np.array([p.outline for p in palettes], dtype=np.float32)
    rgb[edges] = outline[material[tri[edges]]]
    return rgb, (mask | edges).astype(np.float32)


def _smooth_pixels(pixel_tri: np.ndarray, bary: np.ndarray, corner: np.ndarray, excess: np.ndarray):
    """The shading normals of some pixels, of the triangles pixel_tri at barycentrics bary, from the triangles'
    corner normals (M x 3 x 3); and whether each is raised (its height over the accent threshold, from the
    corners' excess, is positive). Corner 2's values, stepped by the weights of corners 0 and 1."""
    w0, w1 = bary[:, :1], bary[:, 1:]
    normal = np.take(corner[:, 2], pixel_tri, axis=0)
    normal += w0 * np.take(corner[:, 0] - corner[:, 2], pixel_tri, axis=0)
    normal += w1 * np.take(corner[:, 1] - corner[:, 2], pixel_tri, axis=0)
    normal /= np.sqrt(np.maximum(1e-24, np.einsum("ij,ij->i", normal, normal)))[:, None]
    height = np.take(excess[:, 2], pixel_tri) + w0[:, 0] * np.take(excess[:, 0] - excess[:, 2], pixel_tri)
    return normal, height + w1[:, 0] * np.take(excess[:, 1] - excess[:, 2], pixel_tri) > 0


def _colouring(palettes: Sequence[Palette], axes):
    """colour(unit normals, palette index, raised) -> RGB 0..1: the lights of _shade, fixed to the camera."""
    right, up, towards = axes
    key = _unit(-0.55 * right + 0.75 * up + 0.6 * towards)
    fill = _unit(0.8 * right + 0.1 * up + 0.5 * towards)
    lights = np.stack([key, fill, _unit(key + towards)], axis=1).astype(np.float32)  # the key, fill and highlight
    base = np.array([[p.body, p.accent] for p in palettes], dtype=np.float32).reshape(-1, 3)  # 2 x palette + raised
    specular = np.array([p.specular for p in palettes], dtype=np.float32)

    def colour(normal: np.ndarray, kind: np.ndarray, raised: np.ndarray) -> np.ndarray:
        lit = np.clip(np.asarray(normal, dtype=np.float32) @ lights, 0, 1)
        eighth = lit[:, 2] * lit[:, 2]
        eighth *= eighth
        eighth *= eighth
        shine = eighth * eighth
        shine *= shine
        shine *= eighth  # the highlight's 40th power, by squaring
        light = 0.30 + 0.62 * lit[:, 0] + 0.22 * lit[:, 1]
        return np.clip(base[2 * kind + raised] * light[:, None] + (specular[kind] * shine)[:, None], 0, 1)

    return colour


def _outline(mask: np.ndarray, zbuf: np.ndarray, tri: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """Pixels on the silhouette, at depth jumps and at sharp creases (between pixels of different triangles
    whose shading normals, `normal` per pixel, part by more than about 57 degrees)."""
    height, width = mask.shape
    edges = np.zeros_like(mask)
    depth = np.where(mask, zbuf, -1e6).astype(np.float32)
    for dy, dx in ((0, 1), (1, 0), (1, 1), (1, -1)):  # each pixel against its neighbour dy rows up, dx columns left
        here = (slice(dy, height), slice(max(dx, 0), width + min(dx, 0)))
        there = (slice(0, height - dy), slice(max(-dx, 0), width - max(dx, 0)))
        mask_a, mask_b, depth_a, depth_b = mask[here], mask[there], depth[here], depth[there]
        both = mask_a & mask_b
        gap = depth_a - depth_b
        nearer = gap >= 0
        np.abs(gap, out=gap)
        crease = np.einsum("ijk,ijk->ij", normal[here], normal[there]) < 0.55
        hit = (mask_a != mask_b) | (both & ((gap > DEPTH_JUMP_MM) | (crease & (tri[here] != tri[there]))))
        edges[here] |= hit & nearer
        edges[there] |= hit & ~nearer
    return edges


def _downsample(rgb: np.ndarray, alpha: np.ndarray, ss: int) -> np.ndarray:
    """Average ss x ss blocks (alpha-weighted) into an RGBA uint8 image."""
    h, w = alpha.shape[0] // ss, alpha.shape[1] // ss
    rgb, alpha = rgb[: h * ss, : w * ss], alpha[: h * ss, : w * ss]
    rgb *= alpha[..., None]  # the caller's buffer, weighted in place
    rgb_sum, alpha_sum = _block_sums(rgb, ss), _block_sums(alpha, ss)
    out = np.empty((h, w, 4), dtype=np.uint8)
    mean = np.divide(rgb_sum, alpha_sum[..., None], out=np.zeros_like(rgb_sum), where=alpha_sum[..., None] > 0)
    out[..., :3] = np.clip(mean * 255 + 0.5, 0, 255)
    out[..., 3] = np.clip(alpha_sum * (255 / (ss * ss)) + 0.5, 0, 255)
    return out


def _block_sums(values: np.ndarray, ss: int) -> np.ndarray:
    """The sums of the ss x ss blocks of the first two axes."""
    total = values[::ss, ::ss].copy()
    for i in range(ss):
        for j in range(ss):
            if i or j:
                total += values[i::ss, j::ss]
    return total


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / np.linalg.norm(vector)
