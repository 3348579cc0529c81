"""3MF files of 3D pieces for multi-colour printing: one object per piece made of its parts (body,
relief, code) as separate meshes, in millimetres, written with trimesh and validated as read back.
"""

from __future__ import annotations

import io
from pathlib import Path

import trimesh

from pieces.errors import DealerError
from pieces.model import PieceModel, mesh_arrays
from printing.files import write_atomic
from printing.stl import MeshCheck, check_triangles, triangles_of


class ThreemfError(DealerError):
    """A piece's parts that would not make a valid, printable 3MF file."""


def write_piece_3mf(path: str | Path, model: PieceModel) -> dict[str, MeshCheck]:
    """Write one piece as a 3MF atomically; validate every part as read back, raise ThreemfError if one is not a solid."""
    path = Path(path)
    meshes = {part.value: trimesh.Trimesh(*mesh_arrays(solid), process=False) for part, solid in model.parts.items()}
    bodies = {part.value: len(solid.decompose()) for part, solid in model.parts.items()}
    checks: dict[str, MeshCheck] = {}

    def validate(written_path: Path) -> None:
        checks.clear()
        checks.update(_read_back(written_path, f"{path}: {model.piece_id}", bodies))

    write_atomic(path, _scene(model.piece_id, meshes).export(file_type="3mf"), check=validate)
    return checks


def _scene(piece_id: str, meshes: dict[str, trimesh.Trimesh]) -> trimesh.Scene:
    """One build item, the piece, whose components are the part meshes (a slicer's multi-part object)."""
    scene = trimesh.Scene()
    # trimesh numbers objects by name: the piece's node must not be called like a part or the scene's root
    node = piece_id if piece_id not in {*meshes, scene.graph.base_frame} else f"{piece_id}-piece"
    scene.graph.update(frame_from=scene.graph.base_frame, frame_to=node)
    for name, mesh in meshes.items():
        scene.add_geometry(mesh, geom_name=name, node_name=f"{node}-{name}", parent_node_name=node)
    return scene


def _read_back(path: Path, what: str, bodies: dict[str, int]) -> dict[str, MeshCheck]:
    """Load the 3MF as a slicer would and check each part is a closed solid with the bodies expected."""
    scene = trimesh.load(io.BytesIO(path.read_bytes()), file_type="3mf", process=False)
    if sorted(scene.geometry) != sorted(bodies):
        raise ThreemfError(f"{what}: parts {sorted(scene.geometry)} read back where {sorted(bodies)} written")
    checks = {}
    for name, mesh in scene.geometry.items():
        check = check_triangles(triangles_of(mesh.vertices, mesh.faces))
        problems = check.problems(bodies[name])
        if problems:
            raise ThreemfError(f"{what}: part {name!r} is not a valid solid after writing: {'; '.join(problems)}")
        checks[name] = check
    return checks


__all__ = ["ThreemfError", "write_piece_3mf"]
