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
    """Validate a float32 triangle soup (M x 3 x 3) the way a slicer sees it."""
    corners = np.ascontiguousarray(triangles.reshape(-1, 3).astype(np.float32))
    _, index = np.unique(corners.view(np.dtype((np.void, 12))), return_inverse=True)
    faces = index.reshape(-1, 3).astype(np.int64)
    directed = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    n = int(faces.max()) + 1 if len(faces) else 1
    undirected, counts = np.unique(np.sort(directed, axis=1) @ np.array([n, 1]), return_counts=True)
    directed_codes, directed_counts = np.unique(directed @ np.array([n, 1]), return_counts=True)
    tri64 = triangles.astype(np.float64)
    cross = np.cross(tri64[:, 1] - tri64[:, 0], tri64[:, 2] - tri64[:, 0])
    volume = float(np.einsum("ij,ij->", tri64[:, 0], cross) / 6.0)
    return MeshCheck(
        triangles=len(faces), open_edges=int((counts != 2).sum()),
        misoriented_edges=int((directed_counts != 1).sum()), volume_mm3=volume,
        bodies=_bodies(faces, n), degenerate=int((np.linalg.norm(cross, axis=1) == 0).sum()),
    )


def _bodies(faces: np.ndarray, vertex_count: int) -> int:
    """Connected components of the triangles (shared vertices connect), by label propagation."""
    if len(faces) == 0:
        return 0
    labels = np.arange(vertex_count)
    while True:
        lowest = labels[faces].min(axis=1)
        new = labels.copy()
        for k in range(3):
            np.minimum.at(new, faces[:, k], lowest)
        new = new[new]
        if np.array_equal(new, labels):
            break
        labels = new
    return int(len(np.unique(labels[np.unique(faces)])))


def triangles_of(vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """The M x 3 x 3 float32 triangle array of an indexed mesh."""
    return np.asarray(vertices, dtype=np.float64)[faces].astype(np.float32)
