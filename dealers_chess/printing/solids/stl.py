"""Binary STL files of 3D pieces, written atomically and validated as written (float32).

A file is only renamed into place after the float32 triangles read back from it form closed,
consistently wound, positive-volume solids (one body per piece); otherwise StlError, and no file.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from stl import mesh as stl_mesh

from dealers_chess.pieces.errors import DealerError
from dealers_chess.pieces.model3d.model import PieceModel
from dealers_chess.printing.files import write_atomic
from dealers_chess.printing.solids.mesh_check import MeshCheck, check_mesh, check_triangles, triangles_of


class StlError(DealerError):
    """A mesh that would not make a valid, printable STL file."""


def write_stl(path: str | Path, triangles: np.ndarray, name: str, expected_bodies: int = 1) -> MeshCheck:
    """Write a binary STL atomically; validate the written file first and raise StlError if it is not a valid solid."""
    return _write(Path(path), triangles, name, expected_bodies)


def write_mesh_stl(
    path: str | Path, vertices: np.ndarray, faces: np.ndarray, name: str, expected_bodies: int = 1,
) -> MeshCheck:
    """write_stl of an indexed mesh's triangles: once the file is read back holding exactly those, the check
    runs on the mesh itself (check_mesh: the same verdict as on the triangles, a third faster)."""
    return _write(Path(path), triangles_of(vertices, faces), name, expected_bodies, (vertices, faces))


def _write(
    path: Path, triangles: np.ndarray, name: str, expected_bodies: int,
    mesh: tuple[np.ndarray, np.ndarray] | None = None,
) -> MeshCheck:
    data = np.zeros(len(triangles), dtype=stl_mesh.Mesh.dtype)
    data["vectors"] = triangles
    data["normals"] = unit_normals(triangles)
    solid = stl_mesh.Mesh(data, calculate_normals=False, remove_empty_areas=False)
    buffer = io.BytesIO()
    solid.save(path.name, fh=buffer, mode=_binary_mode(), update_normals=False)
    checks: list[MeshCheck] = []

    def validate(written_path: Path) -> None:
        written = stl_mesh.Mesh.from_file(str(written_path), calculate_normals=False, remove_empty_areas=False)
        read = np.asarray(written.vectors, dtype=np.float32)
        meant = mesh is not None and np.array_equal(read, data["vectors"])
        check = check_mesh(*mesh) if meant and mesh is not None else check_triangles(read)
        problems = check.problems(expected_bodies)
        if problems:
            raise StlError(f"{path}: {name}: not a valid solid after writing: {'; '.join(problems)}")
        checks.append(check)

    write_atomic(path, buffer.getvalue(), check=validate)
    return checks[0]


def unit_normals(triangles: np.ndarray) -> np.ndarray:
    """Each triangle's outward unit normal by the right-hand rule, as the STL format asks (numpy-stl's own
    normals are as long as twice the triangle's area); (0, 0, 0) for a triangle of no area. The cross product
    written out: np.cross's own sums (the same normals), a quarter faster."""
    corners = np.asarray(triangles, dtype=np.float64)
    (ux, uy, uz), (vx, vy, vz) = (corners[:, 1] - corners[:, 0]).T, (corners[:, 2] - corners[:, 0]).T
    cross = np.stack([uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx], axis=1)
    length = np.linalg.norm(cross, axis=1, keepdims=True)
    return np.divide(cross, length, out=np.zeros_like(cross), where=length > 0).astype(np.float32)


def _binary_mode():
    from stl import Mode

    return Mode.BINARY


def write_piece_stl(path: str | Path, model: PieceModel) -> MeshCheck:
    """Write one built piece as a validated STL."""
    vertices, faces = model.mesh()
    return write_mesh_stl(path, vertices, faces, model.piece_id)
