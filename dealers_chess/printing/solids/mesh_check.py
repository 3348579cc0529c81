"""Checks a slicer would make of a triangle soup: closed edges, consistent winding, volume, bodies."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


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
    corners = np.ascontiguousarray(triangles, dtype=np.float32).reshape(-1, 3) + np.float32(0.0)  # -0.0 is 0.0
    if len(corners) == 0:
        return MeshCheck(0, 0, 0, 0.0, 0, 0)
    faces, vertices = _merged(corners)
    edges = faces[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    n = np.int64(len(vertices))
    undirected = np.minimum(edges[:, 0], edges[:, 1]) * n + np.maximum(edges[:, 0], edges[:, 1])
    directed = edges[:, 0] * n + edges[:, 1]
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    cross = np.cross(b - a, c - a)
    return MeshCheck(
        triangles=len(faces), open_edges=int((_counts(undirected) != 2).sum()),
        misoriented_edges=int((_counts(directed) != 1).sum()),
        volume_mm3=float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0),
        bodies=_bodies(faces, len(vertices)), degenerate=int((~cross.any(axis=1)).sum()),
    )


def _merged(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(faces as int64 indices, float64 vertices): equal float32 corners merged into one vertex."""
    bits = corners.view(np.uint32)
    order = np.lexsort((bits[:, 2], bits[:, 1], bits[:, 0]))
    ordered = bits[order]
    new = np.empty(len(ordered), dtype=bool)
    new[0] = True
    new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    ids = np.cumsum(new) - 1
    index = np.empty(len(corners), dtype=np.int64)
    index[order] = ids
    return index.reshape(-1, 3), corners[order[new]].astype(np.float64)


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
        low, high = np.minimum(pu[joins], pv[joins]), np.maximum(pu[joins], pv[joins])
        parent[high] = low  # roots only (every pointer is a root after the jumps), each under a smaller one
        while True:
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped
    return int(len(np.unique(parent[np.unique(faces)])))


def triangles_of(vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """The M x 3 x 3 float32 triangle array of an indexed mesh."""
    return np.asarray(vertices, dtype=np.float64)[faces].astype(np.float32)
