"""The renderer's scan conversion: triangles in screen space (pixels, depth growing towards the camera) to a
z-buffer of the nearest triangle at each pixel centre, its barycentric weights and its depth.

numpy throughout, over every (triangle, row) and every covered pixel at once: each triangle's edges and
planes are worked out once, and each row's span and each pixel's weights come from them by steps.
"""

from __future__ import annotations

import numpy as np

CHUNK_PIXELS = 3_000_000  # candidate pixels rasterized at once


def rasterize(screen: np.ndarray, faces: np.ndarray, shape: tuple[int, int]):
    """Z-buffer: per pixel the nearest triangle index (-1 = none), its barycentrics and depth."""
    a, b, c = screen[faces[:, 0]], screen[faces[:, 1]], screen[faces[:, 2]]
    area = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (b[:, 1] - a[:, 1])
    keep = np.nonzero(area < -1e-12)[0]  # image y points down: front faces turn clockwise
    a, b, c, area = a[keep], b[keep], c[keep], area[keep]
    height, width = shape
    zbuf = np.full(height * width, -np.inf)
    tri_of = np.full(height * width, -1, dtype=np.int32)
    bary = np.zeros((height * width, 2), dtype=np.float32)
    low, high = np.minimum(np.minimum(a, b), c), np.maximum(np.maximum(a, b), c)
    row_lo = np.clip(np.ceil(low[:, 1] - 0.5), 0, height).astype(np.int64)
    row_hi = np.clip(np.floor(high[:, 1] - 0.5) + 1, 0, height).astype(np.int64)
    rows = np.maximum(row_hi - row_lo, 0)
    pixels = rows * np.clip(np.ceil(high[:, 0] - low[:, 0]) + 1, 1, width).astype(np.int64)  # at most: chunk sizes
    budget = np.cumsum(pixels)
    start = 0
    while start < len(keep):
        stop = int(np.searchsorted(budget, budget[start] - pixels[start] + CHUNK_PIXELS)) + 1
        part = slice(start, min(stop, len(keep)))
        spans = _row_spans(a[part], b[part], c[part], row_lo[part], rows[part], width)
        _fill(spans, _planes(a[part], b[part], c[part], area[part]), keep[part], width, zbuf, tri_of, bary)
        start = part.stop
    return tri_of.reshape(shape), bary.reshape(shape + (2,)), zbuf.reshape(shape)


def _row_spans(a, b, c, row_lo, rows, width: int):
    """Every (triangle, row) pair with pixels: its triangle (an index into a, b, c), the row's centre y and
    its first pixel and pixel count. A row's ends lie on the long edge (top to bottom corner) and on the
    upper or lower short edge, whichever spans the row's height."""
    owner = np.repeat(np.arange(len(rows)), rows)
    y = row_lo[owner] + (np.arange(len(owner)) - np.repeat(np.cumsum(rows) - rows, rows)) + 0.5
    xs, ys = np.stack([a[:, 0], b[:, 0], c[:, 0]], axis=1), np.stack([a[:, 1], b[:, 1], c[:, 1]], axis=1)
    order = np.argsort(ys, axis=1)  # the corners from the top down
    (top_x, middle_x, bottom_x), (top_y, middle_y, bottom_y) = (
        np.take_along_axis(values, order, axis=1).T.copy() for values in (xs, ys))
    long_slope, upper_slope, lower_slope = (
        (x1 - x0) / np.where(y1 == y0, 1.0, y1 - y0)
        for x0, y0, x1, y1 in ((top_x, top_y, bottom_x, bottom_y), (top_x, top_y, middle_x, middle_y),
                               (middle_x, middle_y, bottom_x, bottom_y)))
    down, start_x = y - top_y[owner], top_x[owner]
    x_long = start_x + down * long_slope[owner]
    middle_y = middle_y[owner]
    x_short = np.where(y < middle_y, start_x + down * upper_slope[owner],
                       middle_x[owner] + (y - middle_y) * lower_slope[owner])
    first = np.clip(np.ceil(np.minimum(x_long, x_short) - 0.5), 0, width).astype(np.int64)
    last = np.clip(np.floor(np.maximum(x_long, x_short) - 0.5) + 1, 0, width).astype(np.int64)
    drawn = np.nonzero(last > first)[0]
    return owner[drawn], y[drawn], first[drawn], (last - first)[drawn]


def _planes(a, b, c, area) -> np.ndarray:
    """Per triangle, its third corner (x, y, depth) and how its first two barycentric weights and its depth
    change along x and along y: w0 = A0 (x - cx) + B0 (y - cy), and so on."""
    a0, b0 = (b[:, 1] - c[:, 1]) / area, (c[:, 0] - b[:, 0]) / area
    a1, b1 = (c[:, 1] - a[:, 1]) / area, (a[:, 0] - c[:, 0]) / area
    dz0, dz1 = a[:, 2] - c[:, 2], b[:, 2] - c[:, 2]
    return np.stack([c[:, 0], c[:, 1], c[:, 2], a0, b0, a1, b1, a0 * dz0 + a1 * dz1, b0 * dz0 + b1 * dz1])


def _fill(spans, planes: np.ndarray, tri_ids: np.ndarray, width: int, zbuf, tri_of, bary) -> None:
    """Each span's pixels: weights and depth at the first pixel's centre, then steps along x; the nearest kept."""
    owner, y, first, span = spans
    cx, cy, cz, a0, b0, a1, b1, az, bz = (np.take(column, owner) for column in planes)
    across, down = first + 0.5 - cx, y - cy
    step = np.arange(int(span.sum())) - np.repeat(np.cumsum(span) - span, span)
    w0 = np.repeat(a0 * across + b0 * down, span) + step * np.repeat(a0, span)
    w1 = np.repeat(a1 * across + b1 * down, span) + step * np.repeat(a1, span)
    z = np.repeat(cz + az * across + bz * down, span) + step * np.repeat(az, span)
    pid = np.repeat((y - 0.5).astype(np.int64) * width + first, span) + step
    _keep_nearest(pid, z, w0, w1, np.repeat(tri_ids[owner], span), zbuf, tri_of, bary)


def _keep_nearest(pid, z, w0, w1, tri, zbuf, tri_of, bary) -> None:
    """Per pixel, the nearest of the new fragments replaces the buffer's entry if it is nearer (a tie: either)."""
    np.maximum.at(zbuf, pid, z)
    nearest = z == zbuf[pid]
    pid = pid[nearest]
    tri_of[pid] = tri[nearest]
    bary[pid, 0] = w0[nearest]
    bary[pid, 1] = w1[nearest]
