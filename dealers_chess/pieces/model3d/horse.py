"""The horse head of (1,2) leapers: a Staunton knight, head, neck and chest carved as one mass.

Drawn for 50 mm squares standing on the top face (z = 0) and facing forward (+y), from the drawing in
`assets/sculpture/knight.toml`: a side outline (chest, throat, jaw, chin, mouth, nose, the face line
falling about 30 degrees to the muzzle, forehead, poll, the arched crest) smoothed by a spline, cut
through horizontal sections as wide as the head seen from the front (a raised mane ridge at the back,
the muzzle tapering at the front), lofted. The chest flares from its seat on the top plate along a
40-degree cone; leaf ears fused at the base stand on the poll; an eye socket, a nostril and a mouth
line are carved. Every face that looks down leans at most 40 degrees from vertical.
"""

from __future__ import annotations

import functools
import math
import tomllib
from importlib import resources

import numpy as np
from manifold3d import CrossSection, Manifold, Mesh, OpType

from dealers_chess.pieces.model3d.profile import MAX_FLARE

SLICE_MM = 0.6  # the loft's sections this far apart
SINK_MM = 0.5  # the seat starts this far inside the top plate (no shared faces)
SPLINE_STEPS = 6  # outline points between two drawn points
CHEST_FLARE = math.tan(math.radians(38))  # the chest's flare: under 40 degrees, with room for the facets


@functools.cache
def drawing() -> dict:
    """The knight as drawn (mm at 50 mm squares), read once from the package's TOML."""
    text = resources.files("dealers_chess.assets").joinpath("sculpture/knight.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _figure(name: str) -> float:
    return float(drawing()["figures"][name])


FOOT_RADIUS_MM = _figure("seat_min_mm")  # the smallest seat a horse stands on (a diagram's room decides)
MAX_SEAT_MM = _figure("seat_max_mm")  # the widest seat: the chest's own width
HEIGHT_MM = _figure("ear_tip_z")  # over all, at 50 mm squares
# the head looks to its owner's left: both players see it in profile, as it reads best (forward, +y, is
# still the notch's)
FACING_DEG = 90.0
MITRE_ON_POLL = tuple(drawing()["figures"]["mitre_on_poll"])  # where a mitre stands (Archbishop, Unicorn), turned


@functools.cache
def outline() -> list[tuple[float, float]]:
    """The side outline (y forward, z up), counter-clockwise from the seat's front: the drawn points joined
    by a closed Catmull-Rom spline, the seat's two corners kept sharp on z = 0."""
    drawn = [(float(y), float(z)) for y, z in drawing()["outline"]["points"]]
    return _printable(_spline(drawn))


def _printable(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The outline with every run that would face down more than 40 degrees pulled in to 39 (where the
    spline swings out past its drawn points): the front going up, the back going down."""
    top = max(range(len(points)), key=lambda index: points[index][1])
    slope = math.tan(math.radians(39))
    out = list(points)
    for index in range(1, top + 1):  # the front, bottom up: not forward faster than the slope
        (y0, z0), (y, z) = out[index - 1], out[index]
        out[index] = (min(y, y0 + slope * max(0.0, z - z0)), z)
    for index in range(len(out) - 2, top, -1):  # the back, bottom up: not backward faster than the slope
        (y0, z0), (y, z) = out[index + 1], out[index]
        out[index] = (max(y, y0 - slope * max(0.0, z - z0)), z)
    return out


def _spline(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """An open Catmull-Rom spline through the points (ends repeated), sampled SPLINE_STEPS a span."""
    padded = np.array([points[0], *points, points[-1]])
    out = [points[0]]
    for i in range(1, len(padded) - 2):
        p0, p1, p2, p3 = padded[i - 1], padded[i], padded[i + 1], padded[i + 2]
        for t in np.linspace(0.0, 1.0, SPLINE_STEPS + 1)[1:]:
            point = 0.5 * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t**2
                           + (3 * p1 - p0 - 3 * p2 + p3) * t**3)
            out.append((float(point[0]), float(point[1])))
    return out


def horse_head(scale: float = 1.0, seat_mm: float | None = None) -> Manifold:
    """The head at the scale's size on a seat of radius seat_mm (at 50 mm squares; the widest by default),
    centred on the origin of the top face."""
    return _drawn_head(round(min(MAX_SEAT_MM, seat_mm or MAX_SEAT_MM), 1)).scale((scale, scale, scale))


@functools.cache
def _drawn_head(seat_mm: float) -> Manifold:
    """The head as drawn, made once a seat (solids are never changed in place)."""
    return Manifold.batch_boolean([_carved(), _chest(seat_mm)], OpType.Intersect).rotate((0, 0, FACING_DEG))


@functools.cache
def _carved() -> Manifold:
    """The lofted mass with its ears, its details carved, before its chest is fitted to a seat (made once)."""
    head = Manifold.batch_boolean([_lofted_mass(), *_ears()], OpType.Add)
    cuts = [*_eye_sockets(), *_nostrils(), *_mouth_line(), *_mane_locks()]
    return Manifold.batch_boolean([head, *cuts], OpType.Subtract)


def _chest(seat_mm: float) -> Manifold:
    """Where the chest may reach: straight up from its seat past the diagram's relief (its symbols keep
    their clearance to the seat all the way up), then flaring 38 degrees from vertical."""
    top = HEIGHT_MM + 1.0  # over the ears' tips
    flare_z = _figure("flare_from_z")
    profile = [(0.0, -SINK_MM), (seat_mm, -SINK_MM), (seat_mm, flare_z),
               (seat_mm + (top - flare_z) * CHEST_FLARE, top), (0.0, top)]
    return CrossSection([profile]).revolve(96)


@functools.cache  # a section's 41 widths each ask for its height's span and row: worked out once a height
def _span(z: float) -> tuple[float, float]:
    """The outline's back and front at height z."""
    found = []
    points = outline() + outline()[:1]
    for (y0, z0), (y1, z1) in zip(points, points[1:], strict=False):
        if min(z0, z1) <= z <= max(z0, z1) and z0 != z1:
            found.append(y0 + (y1 - y0) * (z - z0) / (z1 - z0))
    return min(found), max(found)


@functools.cache
def _table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    widths = drawing()["widths"]
    return np.array(widths["across"], float), np.array(widths["heights"], float), np.array(widths["half_mm"], float)


@functools.cache
def _row(z: float) -> np.ndarray:
    """The half widths across the section's depth at height z, between the table's rows."""
    across, heights, half = _table()
    return np.array([np.interp(z, heights, half[:, column]) for column in range(len(across))])


def half_width(y: float, z: float) -> float:
    """How far the lofted mass reaches either side of its middle plane at (y, z)."""
    back, front = _span(z)
    depth = front - back
    if not back < y < front:
        return 0.0
    across = _table()[0]
    width = float(np.interp((y - back) / depth, across, _row(z)))
    return width * float(_edge(np.array((front - y) / _figure("front_round_mm")))
                         * _edge(np.array((y - back) / _figure("back_round_mm"))))


def _lofted_mass() -> Manifold:
    """Horizontal sections as deep as the outline and as wide as the table says, rounding into the front
    and the mane, lofted from under the seat to above the poll."""
    top = max(z for _, z in outline())
    heights = np.linspace(0.0, top - 0.3, max(3, math.ceil(top / SLICE_MM) + 1))
    sections = []
    for z in [-SINK_MM, *heights[1:]]:
        level = max(0.0, float(z))
        back, front = _span(level)
        ys = back + (front - back) * (0.5 - 0.5 * np.cos(np.linspace(0.0, math.pi, 41)))  # closer at the ends
        widths = np.array([half_width(float(y), level) for y in ys])
        widths = np.maximum(widths, 0.05)
        widths[0] = widths[-1] = 0.0  # the section's two ends on the head's middle plane
        right = np.column_stack([widths, ys, np.full(len(ys), z)])
        left = np.column_stack([-widths[::-1], ys[::-1], np.full(len(ys), z)])
        sections.append(np.concatenate([right, left[1:-1]]))
    return _loft(sections)


def _edge(u: np.ndarray) -> np.ndarray:
    """A quarter circle's rise: 0 at the edge (u = 0), 1 from u = 1 in."""
    u = np.clip(u, 0.0, 1.0)
    return np.sqrt(1.0 - (1.0 - u) ** 2)


def _loft(sections: list[np.ndarray]) -> Manifold:
    """A closed solid through equal-sized sections, bottom to top, capped flat at both ends."""
    n = len(sections[0])
    vertices = np.concatenate([sections[0].mean(axis=0)[None, :], *sections, sections[-1].mean(axis=0)[None, :]])
    k = np.arange(n)
    k1 = (k + 1) % n
    triangles = [np.column_stack([np.zeros(n, dtype=np.int64), 1 + k1, 1 + k])]
    for ring in range(len(sections) - 1):
        a, b = 1 + ring * n, 1 + (ring + 1) * n
        triangles += [np.column_stack([a + k, a + k1, b + k1]), np.column_stack([a + k, b + k1, b + k])]
    top, last = 1 + (len(sections) - 1) * n, len(vertices) - 1
    triangles.append(np.column_stack([np.full(n, last), top + k, top + k1]))
    faces = np.concatenate(triangles)
    solid = Manifold(Mesh(vert_properties=vertices.astype(np.float32), tri_verts=faces.astype(np.uint32)))
    if solid.volume() < 0:  # the sections ran clockwise: turn it inside out
        solid = Manifold(Mesh(vert_properties=vertices.astype(np.float32), tri_verts=faces[:, ::-1].astype(np.uint32)))
    return solid


def _ellipse(x: float, y: float, z: float, half_x: float, half_y: float, n: int = 16) -> list[tuple]:
    angles = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    return [(x + half_x * math.cos(a), y + half_y * math.sin(a), z) for a in angles]


def _ears() -> list[Manifold]:
    """Two leaf ears on the poll, fused at the base: each the hull of its foot, its widest leaf and its tip
    (1.2 x 1.6 mm: a sharper tip leaves the slicer an empty layer), leaning back a little."""
    ear = drawing()["ears"]
    out = []
    for side in (-1, 1):
        points = []
        for x, y, z, half_x, half_y in ear["sections"]:
            points += _ellipse(side * x, y, z, half_x, half_y)
        out.append(Manifold.hull_points(np.array(points)))
    return out


def _cone_topped(centre: tuple[float, float, float], radii: tuple[float, float, float]) -> Manifold:
    """An ellipsoid with a 40-degree cone over it: cut away, it leaves no ceiling steeper than 40 degrees."""
    cx, cy, cz = centre
    rx, ry, rz = radii
    points = [(cx + rx * math.cos(a) * math.cos(b), cy + ry * math.sin(a) * math.cos(b), cz + rz * math.sin(b))
              for a in np.linspace(0, 2 * math.pi, 16, endpoint=False) for b in np.linspace(-math.pi / 2, 0, 5)]
    apex = (cx, cy, cz + max(rx, ry) / MAX_FLARE + 0.05)
    return Manifold.hull_points(np.array([*points, apex]))


def _eye_sockets() -> list[Manifold]:
    """A socket on each cheek, sunk into the surface."""
    y, z, radius, depth = drawing()["details"]["eye"]
    return [_cone_topped((side * (half_width(y, z) + radius - depth), y, z), (radius, 1.2 * radius, radius))
            for side in (-1, 1)]


def _nostrils() -> list[Manifold]:
    """A nostril either side of the nose."""
    y, z, radius, depth = drawing()["details"]["nostril"]
    return [_cone_topped((side * (half_width(y, z) + radius - depth), y, z), (radius, radius, radius))
            for side in (-1, 1)]


def _mouth_line() -> list[Manifold]:
    """The mouth: a groove from the lips back along each side; its floor flat, its ceiling rising 40 degrees
    from vertical out of the surface."""
    mouth = drawing()["details"]["mouth"]
    return _grooves([(float(y), float(z)) for y, z in mouth["path"]], float(mouth["depth_mm"]))


def _mane_locks() -> list[Manifold]:
    """The mane's locks: short grooves from the crest forward and down across each side of the neck."""
    mane = drawing()["details"]["mane"]
    forward, down = (float(v) for v in mane["stroke"])
    out = []
    for height in mane["heights"]:
        z = float(height)
        back = _span(z)[0]
        path = [(back - 0.4, z), (back + 0.5 * forward, z + 0.5 * down), (back + forward, z + down)]
        out += _grooves(path, float(mane["depth_mm"]))
    return out


def _grooves(path: list[tuple[float, float]], depth: float) -> list[Manifold]:
    """A groove along a (y, z) path on each side of the head, as hulls of its sections."""
    out = []
    for side in (-1, 1):
        prisms = [_groove_section(side, y, z, depth) for y, z in path]
        out += [Manifold.hull_points(np.array(a + b)) for a, b in zip(prisms, prisms[1:], strict=False)]
    return out


def _groove_section(side: int, y: float, z: float, depth: float) -> list[tuple]:
    """A groove's section at (y, z): from depth inside the surface out past it."""
    inner = max(0.0, half_width(y, z) - depth)
    outer = inner + depth + 2.0
    rise = (outer - inner) / MAX_FLARE
    return [(side * inner, y, z), (side * outer, y, z), (side * outer, y, z + rise)]


def outline_problems() -> list[str]:
    """The runs of the side outline that face down more than 40 degrees from vertical."""
    problems = []
    points = outline() + outline()[:1]
    poll = max(z for _, z in points) - 0.1
    for a, b in zip(points, points[1:], strict=False):
        low, high = sorted((a, b), key=lambda point: point[1])
        if low[1] <= 0 or low[1] >= poll:
            continue  # on the top face, or over the poll (above the loft's last section)
        outward = high[0] - low[0] if (a[0] + b[0]) > 0 else low[0] - high[0]  # forward at the front, back behind
        if outward > MAX_FLARE * (high[1] - low[1]) + 1e-9:
            problems.append(f"{a} to {b}")
    return problems


def seat_area_and_narrowest(seat_mm: float = MAX_SEAT_MM, step_mm: float = 0.5) -> tuple[float, float, float]:
    """The seat's area on the top face, the narrowest horizontal section above it (mm2) and its height."""
    head = _drawn_head(round(seat_mm, 1))
    seat = head.slice(0.05).area()
    top = _figure("neck_top_z")
    areas = [(head.slice(float(z)).area(), float(z)) for z in np.arange(step_mm, top, step_mm)]
    narrowest, at = min(areas)
    return seat, narrowest, at


__all__ = ["FOOT_RADIUS_MM", "HEIGHT_MM", "MAX_SEAT_MM", "MITRE_ON_POLL", "half_width", "horse_head",
           "outline_problems", "seat_area_and_narrowest"]
