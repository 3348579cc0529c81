"""Checks a slicer would make of a triangle soup: closed edges, consistent winding, volume, bodies."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import trimesh


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
    """Validate a float32 triangle soup (M x 3 x 3) the way a slicer sees it.

    trimesh merges the corners that are the same float32 point, as a slicer does, and says whether the
    surface is closed and consistently wound and what it holds; the counts behind a failure are taken
    only then. Bodies are counted here: trimesh's count needs SciPy, a large dependency for one number.
    """
    corners = triangles.reshape(-1, 3).astype(np.float64)
    mesh = trimesh.Trimesh(vertices=corners, faces=np.arange(len(corners)).reshape(-1, 3), process=True)
    faces = np.asarray(mesh.faces, dtype=np.int64)
    open_edges = 0 if mesh.is_watertight else int((_edge_counts(mesh.edges_sorted) != 2).sum())
    misoriented = 0 if mesh.is_winding_consistent else int((_edge_counts(mesh.edges) != 1).sum())
    return MeshCheck(
        triangles=len(faces), open_edges=open_edges, misoriented_edges=misoriented,
        volume_mm3=float(mesh.volume) if len(faces) else 0.0, bodies=_bodies(faces, len(mesh.vertices)),
        degenerate=int((mesh.area_faces == 0).sum()),
    )


def _edge_counts(edges: np.ndarray) -> np.ndarray:
    """How often each distinct edge occurs."""
    return np.unique(edges, axis=0, return_counts=True)[1]


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
