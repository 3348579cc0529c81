"""A numpy z-buffer renderer: a piece in orthographic three-quarter view, or an army standing in a row
seen from the side; smooth shading, outlines.

No OpenGL and no Pillow: the result is an RGBA uint8 array (transparent background); printing/
turns it into PNG files and caches it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dealers_chess.pieces.catalogue import PieceDef

CHUNK_PIXELS = 3_000_000  # candidate pixels rasterized at once
DEPTH_JUMP_MM = 1.2  # neighbouring pixels further apart in depth get an outline
LINEUP_GAP = 0.3  # space between bases in a line-up, as a share of the square
QUARTER_TURN = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # forward (+y) to the right (+x)


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


def render_piece(
    piece: PieceDef, width_px: int = 300, colour: str = "white", square_mm: float = 50.0,
    view: View = View(),
) -> np.ndarray:
    """The piece in three-quarter view as an RGBA uint8 array (height x width_px x 4), forward away from the viewer."""
    model = _model(piece, square_mm)
    vertices, normals, faces = smooth_mesh(model.solid)
    return render_mesh(vertices, normals, faces, width_px, _palette(colour), view, accent_above_mm=_accent_above(model))


def render_lineup(
    pieces: Sequence[PieceDef], px_per_mm: float = 5.0, colour: str = "white", square_mm: float = 50.0,
    view: View = SIDE_VIEW,
) -> np.ndarray:
    """The pieces standing in a row, left to right, seen from the side, as one RGBA uint8 array at px_per_mm.

    Each piece is turned a quarter so its forward points right: the camera sees it from its side, as a
    chess set is shown, and a horse head shows its profile. One scale for all, so heights compare (and
    rows rendered apart at one px_per_mm line up); bases LINEUP_GAP x square apart."""
    vertices, normals, faces, accent = [], [], [], []
    x_mm, count = 0.0, 0
    for piece in pieces:
        model = _model(piece, square_mm)
        v, n, f = smooth_mesh(model.solid)
        v, n = v @ QUARTER_TURN.T, n @ QUARTER_TURN.T
        v = v + np.array([x_mm - v[:, 0].min(), 0.0, 0.0])
        x_mm = float(v[:, 0].max()) + LINEUP_GAP * square_mm
        vertices.append(v)
        normals.append(n)
        faces.append(f + count)
        accent.append(np.full(len(v), _accent_above(model)))
        count += len(v)
    if not vertices:
        from dealers_chess.pieces.errors import DealerError

        raise DealerError("a line-up needs at least one piece")
    row = np.concatenate(vertices)
    width_px = max(8, math.ceil(float(np.ptp(row @ camera_axes(view)[0])) * px_per_mm) + 6)
    return render_mesh(row, np.concatenate(normals), np.concatenate(faces), width_px, _palette(colour), view,
                       accent_above_mm=np.concatenate(accent))


def _model(piece: PieceDef, square_mm: float):
    """The piece as `dealer pieces` builds it by default (the same cached build: the pocket under the base
    is out of sight), or without the pocket where the square leaves it no room."""
    from dealers_chess.pieces.model3d.model import ModelError, ModelOptions, build_piece

    try:
        return build_piece(piece, ModelOptions(square_mm=square_mm))
    except ModelError:
        return build_piece(piece, ModelOptions(square_mm=square_mm, weight_pocket=False))


def _accent_above(model) -> float:
    """Height above which a piece is drawn in the second filament's colour: its raised diagram."""
    return model.size.height + 0.05


def smooth_mesh(solid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vertices, per-vertex normals (sharp edges split) and triangles of a manifold3d solid."""
    mesh = solid.calculate_normals(0, 35.0).to_mesh()
    props = np.asarray(mesh.vert_properties, dtype=np.float64)
    return props[:, :3], props[:, 3:6], np.asarray(mesh.tri_verts, dtype=np.int64)


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
    rgb, alpha = _shade(tri, bary, zbuf, vertices, normals, faces, palette, (right, up, towards), accent_above_mm)
    return _downsample(rgb, alpha, ss)


def rasterize(screen: np.ndarray, faces: np.ndarray, shape: tuple[int, int]):
    """Z-buffer: per pixel the nearest triangle index (-1 = none), its barycentrics and depth."""
    a, b, c = screen[faces[:, 0]], screen[faces[:, 1]], screen[faces[:, 2]]
    area = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (b[:, 1] - a[:, 1])
    keep = np.nonzero(area < -1e-12)[0]  # image y points down: front faces turn clockwise
    height, width = shape
    zbuf = np.full(height * width, -np.inf)
    tri_of = np.full(height * width, -1, dtype=np.int64)
    bary = np.zeros((height * width, 2))
    row_lo = np.clip(np.ceil(np.minimum(np.minimum(a, b), c)[keep, 1] - 0.5), 0, height).astype(np.int64)
    row_hi = np.clip(np.floor(np.maximum(np.maximum(a, b), c)[keep, 1] - 0.5) + 1, 0, height).astype(np.int64)
    rows = np.maximum(row_hi - row_lo, 0)
    budget = np.cumsum(rows * 40)  # rough pixels per triangle row, to size the chunks
    start = 0
    while start < len(keep):
        stop = int(np.searchsorted(budget, budget[start] - rows[start] * 40 + CHUNK_PIXELS)) + 1
        part = slice(start, min(stop, len(keep)))
        _raster_chunk(screen, faces, keep[part], row_lo[part], rows[part], area[keep[part]], shape, zbuf, tri_of, bary)
        start = part.stop
    return tri_of.reshape(shape), bary.reshape(shape + (2,)), zbuf.reshape(shape)


def _raster_chunk(screen, faces, tris, row_lo, rows, area, shape, zbuf, tri_of, bary) -> None:
    """Scan-convert some triangles: each row's span from the edge crossings, then depth test."""
    height, width = shape
    owner = np.repeat(np.arange(len(tris)), rows)
    if len(owner) == 0:
        return
    y = row_lo[owner] + (np.arange(len(owner)) - np.repeat(np.cumsum(rows) - rows, rows)) + 0.5
    f = faces[tris[owner]]
    x_lo, x_hi = np.full(len(y), np.inf), np.full(len(y), -np.inf)
    for i, j in ((0, 1), (1, 2), (2, 0)):
        p, q = screen[f[:, i]], screen[f[:, j]]
        dy = q[:, 1] - p[:, 1]
        crosses = ((p[:, 1] - y) * (q[:, 1] - y) <= 0) & (dy != 0)
        x = p[:, 0] + (y - p[:, 1]) * (q[:, 0] - p[:, 0]) / np.where(dy == 0, 1.0, dy)
        x_lo = np.where(crosses, np.minimum(x_lo, x), x_lo)
        x_hi = np.where(crosses, np.maximum(x_hi, x), x_hi)
    first = np.clip(np.ceil(x_lo - 0.5), 0, width).astype(np.int64)
    last = np.clip(np.floor(x_hi - 0.5) + 1, 0, width).astype(np.int64)
    span = np.where(np.isfinite(x_lo), np.maximum(last - first, 0), 0)
    run = np.repeat(np.arange(len(y)), span)
    px = first[run] + (np.arange(len(run)) - np.repeat(np.cumsum(span) - span, span)) + 0.5
    py = y[run]
    tri_local = owner[run]
    g = faces[tris[tri_local]]
    a, b, c = screen[g[:, 0]], screen[g[:, 1]], screen[g[:, 2]]
    w0 = ((b[:, 0] - px) * (c[:, 1] - py) - (c[:, 0] - px) * (b[:, 1] - py)) / area[tri_local]
    w1 = ((c[:, 0] - px) * (a[:, 1] - py) - (a[:, 0] - px) * (c[:, 1] - py)) / area[tri_local]
    w2 = 1.0 - w0 - w1
    z = w0 * a[:, 2] + w1 * b[:, 2] + w2 * c[:, 2]
    pid = (py - 0.5).astype(np.int64) * width + (px - 0.5).astype(np.int64)
    _keep_nearest(pid, z, w0, w1, tris[tri_local], zbuf, tri_of, bary)


def _keep_nearest(pid, z, w0, w1, tri, zbuf, tri_of, bary) -> None:
    """Per pixel, the nearest of the new fragments replaces the buffer's entry if it is nearer."""
    order = np.argsort(pid * 4096.0 - (z - z.min()) / (np.ptp(z) + 1e-9) * 4000.0, kind="stable")
    pid = pid[order]
    keep = np.ones(len(pid), dtype=bool)
    keep[1:] = pid[1:] != pid[:-1]
    pick = order[keep]
    pid = pid[keep]
    better = z[pick] > zbuf[pid]
    pid, pick = pid[better], pick[better]
    zbuf[pid] = z[pick]
    tri_of[pid] = tri[pick]
    bary[pid, 0] = w0[pick]
    bary[pid, 1] = w1[pick]


def _shade(tri, bary, zbuf, vertices, normals, faces, palette: Palette, axes, accent_above_mm):
    """Two lights plus ambient and a soft highlight; the raised diagram in the accent colour; outlines."""
    right, up, towards = axes
    mask = tri >= 0
    f = faces[tri[mask]]
    w = np.concatenate([bary[mask], 1.0 - bary[mask].sum(axis=1, keepdims=True)], axis=1)
    normal = sum(w[:, [k]] * normals[f[:, k]] for k in range(3))
    normal /= np.maximum(1e-12, np.linalg.norm(normal, axis=1, keepdims=True))
    key = _unit(-0.55 * right + 0.75 * up + 0.6 * towards)
    fill = _unit(0.8 * right + 0.1 * up + 0.5 * towards)
    half = _unit(key + towards)
    light = 0.30 + 0.62 * np.clip(normal @ key, 0, 1) + 0.22 * np.clip(normal @ fill, 0, 1)
    highlight = palette.specular * np.clip(normal @ half, 0, 1) ** 40
    base = np.tile(np.array(palette.body), (len(f), 1))
    if accent_above_mm is not None:
        z = sum(w[:, k] * vertices[f[:, k], 2] for k in range(3))
        above = np.asarray(accent_above_mm, dtype=np.float64)
        threshold = sum(w[:, k] * above[f[:, k]] for k in range(3)) if above.ndim else above
        base[z > threshold] = palette.accent
    colour = np.clip(base * light[:, None] + highlight[:, None], 0, 1)
    rgb = np.zeros(tri.shape + (3,))
    rgb[mask] = colour
    normal_image = np.zeros(tri.shape + (3,))
    normal_image[mask] = normal
    edges = _outline(mask, zbuf, normal_image)
    rgb[edges] = palette.outline
    return rgb, (mask | edges).astype(np.float64)


def _outline(mask: np.ndarray, zbuf: np.ndarray, normal_image: np.ndarray) -> np.ndarray:
    """Pixels on the silhouette, at depth jumps and at sharp creases."""
    edges = np.zeros_like(mask)
    depth = np.where(mask, zbuf, -1e6)
    for dy, dx in ((0, 1), (1, 0), (1, 1), (1, -1)):
        other_mask = np.roll(mask, (dy, dx), axis=(0, 1))
        other_depth = np.roll(depth, (dy, dx), axis=(0, 1))
        jump = (mask != other_mask) | (mask & other_mask & (np.abs(depth - other_depth) > DEPTH_JUMP_MM))
        crease = mask & other_mask & ((normal_image * np.roll(normal_image, (dy, dx), axis=(0, 1))).sum(axis=2) < 0.55)
        hit = jump | crease
        edges |= hit & (depth >= other_depth)
        edges |= np.roll(hit & (depth < other_depth), (-dy, -dx), axis=(0, 1))
    return edges


def _downsample(rgb: np.ndarray, alpha: np.ndarray, ss: int) -> np.ndarray:
    """Average ss x ss blocks (alpha-weighted) into an RGBA uint8 image."""
    h, w = alpha.shape[0] // ss, alpha.shape[1] // ss
    rgb = rgb[: h * ss, : w * ss] * alpha[: h * ss, : w * ss, None]
    alpha = alpha[: h * ss, : w * ss]
    rgb_sum = rgb.reshape(h, ss, w, ss, 3).sum(axis=(1, 3))
    alpha_sum = alpha.reshape(h, ss, w, ss).sum(axis=(1, 3))
    out = np.zeros((h, w, 4), dtype=np.uint8)
    covered = alpha_sum > 0
    out[..., :3][covered] = np.clip(rgb_sum[covered] / alpha_sum[covered][:, None] * 255 + 0.5, 0, 255).astype(np.uint8)
    out[..., 3] = np.clip(alpha_sum / (ss * ss) * 255 + 0.5, 0, 255).astype(np.uint8)
    return out


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / np.linalg.norm(vector)
