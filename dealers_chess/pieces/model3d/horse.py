"""The horse head of (1,2) leapers: a carved head, as a turner's knight is carved.

Drawn for 50 mm squares standing on the top face (z = 0) and facing forward (+y). Its side outline
(the neck, the throat under the jaw, the chin, the mouth, the nose, the face, the forehead and the
mane's teeth down the back) cut through a body whose width follows the head seen from the front: a
neck 7.4 mm across at its foot, cheeks 14.6 mm across, the muzzle tapering to 8.4 mm, the mane a
crest. Two ears on the poll. Every face that looks down leans at most 40 degrees from vertical.
"""

from __future__ import annotations

import math

import numpy as np
from manifold3d import CrossSection, Manifold, Mesh, OpType

from dealers_chess.pieces.model3d.profile import MAX_FLARE

# the side outline (y forward, z up), counter-clockwise seen from the head's left: from the neck's foot
# at the front, up the throat, the jaw, the mouth and the nose, down the face's line is up to the
# forehead and the poll, then down the mane's teeth to the neck's foot at the back
OUTLINE = [
    (2.8, 0.0), (2.7, 4.0), (3.0, 7.0),  # the neck's front, the throat
    (4.6, 9.0), (7.0, 12.0), (9.2, 14.8), (10.5, 16.5),  # the jowl's underside, the chin
    (9.4, 17.2), (10.8, 19.0), (12.0, 20.6), (12.5, 22.0), (12.0, 23.0),  # the mouth, the upper lip, the nose
    (9.6, 25.4), (7.0, 27.8), (4.8, 29.6), (2.4, 30.9),  # the face, the forehead
    (0.0, 31.4), (-2.6, 30.9),  # the poll
    (-4.3, 29.8), (-4.0, 29.1), (-5.8, 27.4), (-5.5, 26.7), (-7.1, 24.6), (-6.8, 23.9),  # the mane's locks
    (-8.1, 21.4), (-7.8, 20.7), (-8.6, 17.4),
    (-8.2, 12.5), (-6.6, 7.4), (-4.6, 3.2), (-2.8, 0.0),  # the back of the neck
]
HALF_WIDTH = 7.5  # the outline's extrusion, wider than the head
# the head's half width (mm) by height (rows) across its depth from the mane (t = 0) to the front (t = 1)
WIDTH_T = (0.0, 0.15, 0.30, 0.55, 0.66, 0.78, 1.0)
WIDTH_Z = (0.0, 4.0, 7.0, 11.0, 15.0, 20.0, 24.5, 28.0, 32.0)
WIDTH = np.array([
    (1.8, 3.2, 3.6, 3.7, 3.6, 3.4, 3.0),  # z 0: the neck's foot, 7.4 mm across
    (1.8, 3.4, 4.4, 4.6, 4.4, 4.0, 3.2),
    (1.8, 3.8, 5.4, 5.8, 5.4, 4.6, 3.6),  # z 9: the throat
    (1.8, 4.4, 6.6, 7.0, 6.6, 5.0, 4.0),  # z 13: the jowls
    (1.8, 4.8, 7.2, 7.3, 7.1, 4.6, 4.0),  # z 17: the cheeks, 14.6 mm across, and the jaw's edge
    (1.8, 4.8, 7.1, 7.2, 6.6, 4.3, 4.0),  # z 21: the muzzle, 8 mm across
    (1.7, 4.6, 6.6, 6.6, 5.8, 4.4, 3.8),  # z 25: the eyes
    (1.5, 4.0, 5.4, 5.4, 4.8, 3.8, 3.2),
    (1.2, 2.8, 3.6, 3.6, 3.2, 2.6, 2.2),  # z 32: over the poll
])
EYE = (1.6, 25.0, 1.25)  # y, z and radius of the eyes, on the cheeks' planes
FRONT_ROUND_MM, BACK_ROUND_MM = 2.8, 1.2  # how the head rounds into its front and its mane
SLICE_MM = 0.7
SINK_MM = 0.5  # the neck's foot starts this far inside the top plate (no shared faces)
EARS = ((-2.6, -0.6), (2.6, -0.6))  # x, y of the ears' feet on the poll
EAR_RADIUS_MM, EAR_TIP_MM, EAR_HEIGHT_MM, EAR_FOOT_Z = 1.9, 0.8, 5.0, 30.0
HEIGHT_MM = EAR_FOOT_Z + EAR_HEIGHT_MM  # over all, at 50 mm squares
THICKNESS_MM = 2 * float(WIDTH.max())  # across the cheeks
FOOT_RADIUS_MM = max(abs(OUTLINE[0][0]), abs(OUTLINE[-1][0]), float(WIDTH[0].max()))  # the neck's foot's reach
# the head looks to its owner's left: both players see it in profile, as it reads best (forward, +y, is
# still the notch's)
FACING_DEG = 90.0
MITRE_ON_POLL = (0.8, 0.0, 30.5)  # where a mitre stands on the poll (Archbishop, Unicorn), head turned


def horse_head(scale: float = 1.0) -> Manifold:
    """The head at the scale's size, its neck's foot centred on the origin of the top face."""
    # the neck's foot inside the plate, no vertex on its plane (where the plate's faces would meet it)
    sunk = [(OUTLINE[0][0], -SINK_MM), *OUTLINE[1:-1], (OUTLINE[-1][0], -SINK_MM)]
    side = Manifold.extrude(CrossSection([sunk]), 2 * HALF_WIDTH).translate((0, 0, -HALF_WIDTH))
    side = side.rotate((90, 0, 0)).rotate((0, 0, 90))  # the outline's (y, z) as the head's
    head = Manifold.batch_boolean([side, _rounded_body()], OpType.Intersect)
    ears = [_ear(x, y) for x, y in EARS]
    eyes = [_eye(side) for side in (-1, 1)]
    head = Manifold.batch_boolean([head, *ears, *eyes], OpType.Add)
    return head.rotate((0, 0, FACING_DEG)).scale((scale, scale, scale))


def _span(z: float) -> tuple[float, float]:
    """The outline's back and front at height z."""
    found = []
    points = OUTLINE + OUTLINE[:1]
    for (y0, z0), (y1, z1) in zip(points, points[1:], strict=False):
        if min(z0, z1) <= z <= max(z0, z1) and z0 != z1:
            found.append(y0 + (y1 - y0) * (z - z0) / (z1 - z0))
    return min(found), max(found)


def _rounded_body() -> Manifold:
    """The head's body: horizontal sections as deep as the outline, as wide as WIDTH says, rounding into
    the front and the mane, lofted (the outline then carves its mouth and the mane's teeth)."""
    top = max(z for _, z in OUTLINE) - 0.8  # the last section well under the poll, which the outline cuts
    heights = np.linspace(0.0, top, max(3, math.ceil(top / SLICE_MM) + 1))
    sections = []
    # no section on the top face's plane (no edge lying in it), and the last above the outline (which cuts it)
    for z in [-SINK_MM, *heights[1:], top + 2.0]:
        back, front = _span(min(top, max(0.0, float(z))))
        back, front = back - 0.25, front + 0.25  # past the outline, which then cuts a clean edge
        depth = front - back
        ys = back + depth * (0.5 - 0.5 * np.cos(np.linspace(0.0, math.pi, 31)))  # closer at the ends
        widths = np.array([np.interp((y - back) / depth, WIDTH_T, _row(min(top, max(0.0, float(z))))) for y in ys])
        widths *= _edge((front - ys) / FRONT_ROUND_MM) * _edge((ys - back) / BACK_ROUND_MM)
        widths = np.maximum(widths, 0.05)
        widths[0] = widths[-1] = 0.0  # the section's two ends on the head's middle plane
        right = np.column_stack([widths, ys, np.full(len(ys), z)])
        left = np.column_stack([-widths[::-1], ys[::-1], np.full(len(ys), z)])
        sections.append(np.concatenate([right, left[1:-1]]))
    return _loft(sections)


def _row(z: float) -> np.ndarray:
    """The half widths at height z, between the rows of WIDTH."""
    return np.array([np.interp(z, WIDTH_Z, WIDTH[:, column]) for column in range(len(WIDTH_T))])


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


def _ear(x: float, y: float) -> Manifold:
    """An ear: a flattened cone on the poll, pointing up, its tip blunt enough for a 0.4 mm nozzle to lay a
    line on (1.2 x 1.6 mm at 50 mm squares: a sharper tip leaves empty layers under it)."""
    cone = Manifold.cylinder(EAR_HEIGHT_MM + 0.6, EAR_RADIUS_MM, EAR_TIP_MM, 20).scale((0.75, 1.0, 1.0))
    return cone.translate((x, y, EAR_FOOT_Z - 0.6))


def _eye(side: int) -> Manifold:
    """An eye: a bulge on the cheek's plane, its underside a 40-degree cone into the head."""
    y, z, radius = EYE
    surface = float(np.interp((y - _span(z)[0]) / (_span(z)[1] - _span(z)[0]), WIDTH_T, _row(z)))
    centre = (side * (surface - 0.45 * radius), y, z)
    sphere = [(centre[0] + radius * math.cos(a) * math.cos(b), y + radius * math.sin(a) * math.cos(b),
               z + radius * math.sin(b)) for a in np.linspace(0, 2 * math.pi, 14, endpoint=False)
              for b in np.linspace(-math.pi / 2, math.pi / 2, 7)]
    apex = (centre[0], y, z - radius / math.sin(math.radians(40)) - 0.3)  # right below: a 40-degree cone
    return Manifold.hull_points(np.array([*sphere, apex]))


def outline_problems() -> list[str]:
    """The runs of the side outline that face down more than 40 degrees from vertical."""
    problems = []
    points = OUTLINE + OUTLINE[:1]
    for a, b in zip(points, points[1:], strict=False):
        low, high = sorted((a, b), key=lambda point: point[1])
        if low[1] <= 0:
            continue  # on the top face
        outward = high[0] - low[0] if (a[0] + b[0]) > 0 else low[0] - high[0]  # forward at the front, back behind
        if outward > MAX_FLARE * (high[1] - low[1]) + 1e-9:
            problems.append(f"{a} to {b}")
    return problems


__all__ = ["FOOT_RADIUS_MM", "HEIGHT_MM", "MITRE_ON_POLL", "THICKNESS_MM", "horse_head", "outline_problems"]
