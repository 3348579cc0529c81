"""Checks a slicer would make of a triangle soup: closed edges, consistent winding, volume, bodies."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

KEY_MIX = 0x9E3779B97F4A7C15  # odd: spreads a point's x and y bits over the whole of its sort key


@dataclass(frozen=True, slots=True)
class MeshCheck:
    """What validation found in a triangle soup after merging identical vertices."""

    triangles: int
    open_edges: int  # edges not shared by exactly two triangles
    misoriented_edges: int  # edges walked the same way by both triangles
    volume_mm3: float
    bodies: int
    degenerate: int  # triangles of zero area

    def problems(self, expected_bodies: int = 1) -> list[str]:
        """Human-readable reasons the mesh is not a valid solid (empty when it is)."""
        found = []
        if self.triangles == 0:
            found.append("no triangles")
        if self.open_edges:
            found.append(f"{self.open_edges} edges not shared by exactly two triangles")
        if self.misoriented_edges:
            found.append(f"{self.misoriented_edges} edges with inconsistent winding")
        if self.volume_mm3 <= 0:
            found.append(f"volume {self.volume_mm3:.1f} mm3 is not positive")
        if self.bodies != expected_bodies:
            found.append(f"{self.bodies} separate bodies where {expected_bodies} expected")
        return found


def check_triangles(triangles: np.ndarray) -> MeshCheck:
    """Validate a float32 triangle soup (M x 3 x 3) the way a slicer sees it: corners that are the same
    float32 point are one vertex; every edge must be shared by exactly two triangles, walked once each
    way; the volume positive; the bodies counted.

    Plain numpy on sorted keys (trimesh's processing did the same at a fifth of the speed; the tests
    hold the two to the same verdicts on every catalogue piece and on broken meshes).
    """
    corners = np.asarray(triangles, dtype=np.float32).reshape(-1, 3)
    if len(corners) == 0:
        return MeshCheck(0, 0, 0, 0.0, 0, 0)
    index, vertices = _merged(corners)
    return _checked(index.reshape(-1, 3), vertices)


def check_mesh(vertices: np.ndarray, faces: np.ndarray) -> MeshCheck:
    """check_triangles of vertices[faces] (float32), from the indexed mesh: its vertices merged where they are
    the same float32 point, a sort of the vertices instead of every corner."""
    faces = np.asarray(faces, dtype=np.int64).reshape(-1, 3)
    if len(faces) == 0:
        return MeshCheck(0, 0, 0, 0.0, 0, 0)
    index, merged = _merged(np.asarray(vertices, dtype=np.float32).reshape(-1, 3))
    return _checked(index[faces], merged)


def _checked(faces: np.ndarray, vertices: np.ndarray) -> MeshCheck:
    """The checks on faces (M x 3) indexing distinct vertices."""
    edges = faces[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    n = np.int64(len(vertices))
    undirected = np.minimum(edges[:, 0], edges[:, 1]) * n + np.maximum(edges[:, 0], edges[:, 1])
    directed = edges[:, 0] * n + edges[:, 1]
    corners = [faces[:, k] for k in range(3)]
    (ax, bx, cx), (ay, by, cy), (az, bz, cz) = ([np.take(column, k) for k in corners] for column in vertices.T)
    volume = ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)  # a . (b x c), as np.cross
    ux, uy, uz, vx, vy, vz = bx - ax, by - ay, bz - az, cx - ax, cy - ay, cz - az
    degenerate = (uy * vz == uz * vy) & (uz * vx == ux * vz) & (ux * vy == uy * vx)  # (b - a) x (c - a) is 0
    return MeshCheck(
        triangles=len(faces), open_edges=int((_counts(undirected) != 2).sum()),
        misoriented_edges=int((_counts(directed) != 1).sum()), volume_mm3=float(volume.sum() / 6.0),
        bodies=_bodies(faces, len(vertices)), degenerate=int(degenerate.sum()),
    )


def _merged(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index of each point's vertex, float64 vertices): points that are the same float32 point merged.

    Sorted on one 64-bit key mixed from the coordinates' bits (x and y read as one 64-bit number in place),
    so equal points lie side by side; should two different points share a key (a run of equal keys holding
    different points), sorted on the coordinates themselves."""
    bits = np.ascontiguousarray(points + np.float32(0.0), dtype=np.float32).view(np.uint32)  # -0.0 is 0.0
    xy, z = np.ndarray((len(bits),), dtype=np.uint64, buffer=bits, strides=(12,)), bits[:, 2]
    key = xy * np.uint64(KEY_MIX) ^ z
    order = np.argsort(key)
    same = _same_as_before(xy[order], z[order])
    keys = key[order]
    if ((keys[1:] == keys[:-1]) & ~same).any():
        order = np.lexsort((z, xy))
        same = _same_as_before(xy[order], z[order])
    new = np.concatenate(([True], ~same))
    index = np.empty(len(points), dtype=np.int64)
    index[order] = np.cumsum(new) - 1
    return index, bits[order[new]].view(np.float32).astype(np.float64)


def _same_as_before(xy: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Whether each point (but the first) is the one before it."""
    return (xy[1:] == xy[:-1]) & (z[1:] == z[:-1])


def _counts(keys: np.ndarray) -> np.ndarray:
    """How often each distinct key occurs."""
    ordered = np.sort(keys)
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    return np.diff(np.append(starts, len(ordered)))


def _bodies(faces: np.ndarray, vertex_count: int) -> int:
    """Connected components of the triangles (shared vertices connect): every root hooks under the smallest
    root an edge leads to, then pointers jump to their roots, until no edge joins two roots."""
    if len(faces) == 0:
        return 0
    parent = np.arange(vertex_count)
    u, v = faces[:, [0, 1]].ravel(), faces[:, [1, 2]].ravel()
    while True:
        pu, pv = parent[u], parent[v]
        joins = pu != pv
        if not joins.any():
            break
        u, v = u[joins], v[joins]  # an edge within one tree stays so: only the others are looked at again
        low, high = np.minimum(pu[joins], pv[joins]), np.maximum(pu[joins], pv[joins])
        parent[high] = low  # roots only (every pointer is a root after the jumps), each under a smaller one
        while True:
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped
    used = np.zeros(vertex_count, dtype=bool)
    used[faces.ravel()] = True
    return int((used & (parent == np.arange(vertex_count))).sum())  # a tree's root is one of its vertices


def triangles_of(vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """The M x 3 x 3 float32 triangle array of an indexed mesh."""
    return np.asarray(vertices, dtype=np.float64)[faces].astype(np.float32)
