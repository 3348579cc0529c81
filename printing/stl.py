"""Binary STL files of 3D pieces, written atomically and validated as written (float32).

A file is only renamed into place after the float32 triangles read back from it form closed,
consistently wound, positive-volume solids (one body per piece); otherwise StlError, and no file.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Callable, Iterable

import numpy as np
from stl import mesh as stl_mesh

from pieces.catalogue import PieceDef
from pieces.errors import DealerError
from pieces.model3d.model import ModelOptions, PieceModel, build_piece
from printing.files import out_path, write_atomic


class StlError(DealerError):
    """A mesh that would not make a valid, printable STL file."""


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


def write_stl(path: str | Path, triangles: np.ndarray, name: str, expected_bodies: int = 1) -> MeshCheck:
    """Write a binary STL atomically; validate the written file first and raise StlError if it is not a valid solid."""
    path = Path(path)
    data = np.zeros(len(triangles), dtype=stl_mesh.Mesh.dtype)
    data["vectors"] = triangles
    solid = stl_mesh.Mesh(data, remove_empty_areas=False)
    solid.update_normals()
    buffer = io.BytesIO()
    solid.save(path.name, fh=buffer, mode=_binary_mode())
    checks: list[MeshCheck] = []

    def validate(written_path: Path) -> None:
        written = stl_mesh.Mesh.from_file(str(written_path), remove_empty_areas=False)
        check = check_triangles(np.asarray(written.vectors, dtype=np.float32))
        problems = check.problems(expected_bodies)
        if problems:
            raise StlError(f"{path}: {name}: not a valid solid after writing: {'; '.join(problems)}")
        checks.append(check)

    write_atomic(path, buffer.getvalue(), check=validate)
    return checks[0]


def _binary_mode():
    from stl import Mode

    return Mode.BINARY


class PieceFormat(Enum):
    """What `dealer pieces` writes: one solid per STL, or a 3MF with the parts for multi-colour printing
    (the 3MF standard's components, or PrusaSlicer's own multi-part object)."""

    STL = "stl"
    THREEMF = "3mf"
    PRUSA_3MF = "3mf-prusa"

    @property
    def suffix(self) -> str:
        """The file name extension."""
        return "stl" if self is PieceFormat.STL else "3mf"


def write_piece_stl(path: str | Path, model: PieceModel) -> MeshCheck:
    """Write one built piece as a validated STL."""
    vertices, faces = model.mesh()
    return write_stl(path, triangles_of(vertices, faces), model.piece_id)


def write_piece_files(
    pieces: Iterable[PieceDef], out_dir: str | Path, options: ModelOptions = ModelOptions(),
    file_format: PieceFormat = PieceFormat.STL, progress: Callable[[PieceDef], None] | None = None,
) -> list[Path]:
    """Build and write one file per piece, named by id, in the format given into out_dir; return the paths."""
    write = write_piece_stl
    if file_format is PieceFormat.THREEMF:
        from printing.threemf import write_piece_3mf as write  # trimesh and lxml load only for a 3MF
    elif file_format is PieceFormat.PRUSA_3MF:
        from printing.threemf import write_piece_prusa_3mf as write

    paths = []
    for piece in pieces:
        path = out_path(out_dir, f"{piece.id}.{file_format.suffix}")
        write(path, build_piece(piece, options))
        paths.append(path)
        if progress is not None:
            progress(piece)
    return paths


def write_piece_stls(
    pieces: Iterable[PieceDef], out_dir: str | Path, options: ModelOptions = ModelOptions(),
    progress: Callable[[PieceDef], None] | None = None,
) -> list[Path]:
    """Build and write one STL per piece, named by id, into out_dir; return the paths."""
    return write_piece_files(pieces, out_dir, options, PieceFormat.STL, progress)


def pieces_folder(out_dir: str | Path, options: ModelOptions) -> Path:
    """Where `dealer pieces` puts its files: one folder per square size (and pocket choice)."""
    pocket = "-weighted" if options.weight_pocket else ""
    return out_path(out_dir, f"pieces-{options.square_mm:g}mm{pocket}")
