"""3MF files of 3D pieces for multi-colour printing: one object per piece made of its parts (body,
relief, code) as separate meshes, in millimetres, written with trimesh and validated as read back.

Two layouts of the same parts:
- `write_piece_3mf`: the 3MF core specification's way, an object whose components are the part
  meshes (trimesh, Cura and most readers see one object of three parts; PrusaSlicer loads three
  objects and offers to join them, asking first whether the small code part is in inches);
- `write_piece_prusa_3mf`: PrusaSlicer's own way, one mesh whose triangle ranges are named parts in
  `Metadata/Slic3r_PE_model.config`, with the relief and code on extruder 2: PrusaSlicer loads one
  object of three parts, ready for a two-colour print, without asking.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import trimesh

from dealers_chess.pieces.errors import DealerError
from dealers_chess.pieces.model3d.model import PieceModel, mesh_arrays
from dealers_chess.printing.files import write_atomic
from dealers_chess.printing.solids.mesh_check import MeshCheck, check_mesh


class ThreemfError(DealerError):
    """A piece's parts that would not make a valid, printable 3MF file."""


def write_piece_3mf(path: str | Path, model: PieceModel) -> dict[str, MeshCheck]:
    """Write one piece as a 3MF atomically; validate every part as read back, raise ThreemfError if one is not
    a solid."""
    meshes = {part.value: trimesh.Trimesh(*mesh_arrays(solid), process=False) for part, solid in model.parts.items()}
    return _write_checked(Path(path), model, _scene(model.piece_id, meshes).export(file_type="3mf"), _read_back)


def _write_checked(path: Path, model: PieceModel, data: bytes, read_back) -> dict[str, MeshCheck]:
    """Write a piece's 3MF bytes atomically, keeping the file only if `read_back` finds every part a valid solid."""
    bodies = {part.value: len(solid.decompose()) for part, solid in model.parts.items()}
    checks: dict[str, MeshCheck] = {}

    def validate(written_path: Path) -> None:
        checks.clear()
        checks.update(read_back(written_path, f"{path}: {model.piece_id}", bodies))

    write_atomic(path, data, check=validate)
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


PRUSA_MODEL_CONFIG = "Metadata/Slic3r_PE_model.config"  # PrusaSlicer's per-object and per-part settings
PART_EXTRUDERS = {"body": 1, "relief": 2, "code": 2}  # the diagram and the code in the second colour
_CORE = "{http://schemas.microsoft.com/3dmanufacturing/core/2015/02}"


def write_piece_prusa_3mf(path: str | Path, model: PieceModel) -> dict[str, MeshCheck]:
    """Write one piece as a PrusaSlicer multi-part object atomically; validate every part as read back."""
    parts = {part.value: mesh_arrays(solid) for part, solid in model.parts.items()}
    vertices, faces, ranges, first_vertex, first_face = [], [], {}, 0, 0
    for name, (part_vertices, part_faces) in parts.items():  # one mesh: the parts' triangles one after another
        ranges[name] = (first_face, first_face + len(part_faces) - 1)
        vertices.append(part_vertices)
        faces.append(np.asarray(part_faces) + first_vertex)
        first_vertex, first_face = first_vertex + len(part_vertices), first_face + len(part_faces)
    mesh = trimesh.Trimesh(np.vstack(vertices), np.vstack(faces), process=False)
    exported = mesh.export(file_type="3mf")
    assert isinstance(exported, bytes), "trimesh exports a 3MF as the bytes of its zip archive"
    data = _with_prusa_config(exported, model.piece_id, ranges)
    return _write_checked(Path(path), model, data, _read_back_prusa)


def _mesh_object_id(archive: zipfile.ZipFile) -> str:
    """The id of the one mesh object in the archive's model file."""
    root = ElementTree.fromstring(archive.read("3D/3dmodel.model"))
    ids = [_attribute(obj, "id") for obj in root.iter(f"{_CORE}object") if obj.find(f"{_CORE}mesh") is not None]
    if len(ids) != 1:
        raise ThreemfError(f"expected one mesh object in the 3MF, found {len(ids)}")
    return ids[0]


def _with_prusa_config(data: bytes, name: str, ranges: dict[str, tuple[int, int]]) -> bytes:
    """The 3MF archive with PrusaSlicer's model config added: the object's name, and per part its
    triangle range, name, type and extruder."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        config = ElementTree.Element("config")
        obj = ElementTree.SubElement(config, "object", id=_mesh_object_id(archive), instances_count="1")
        ElementTree.SubElement(obj, "metadata", type="object", key="name", value=name)
        for part, (first, last) in ranges.items():
            volume = ElementTree.SubElement(obj, "volume", firstid=str(first), lastid=str(last))
            for key, value in (("name", part), ("volume_type", "ModelPart"), ("extruder", str(PART_EXTRUDERS[part]))):
                ElementTree.SubElement(volume, "metadata", type="volume", key=key, value=value)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
            for item in archive.infolist():
                copy.writestr(item, archive.read(item.filename))
            copy.writestr(PRUSA_MODEL_CONFIG, ElementTree.tostring(config, encoding="UTF-8", xml_declaration=True))
    return out.getvalue()


def prusa_part_ranges(path: str | Path) -> dict[str, tuple[int, int, int]]:
    """Per part named in a PrusaSlicer 3MF's model config: (first triangle, last triangle, extruder)."""
    with zipfile.ZipFile(path) as archive:
        config = ElementTree.fromstring(archive.read(PRUSA_MODEL_CONFIG))
    found = {}
    for volume in config.iter("volume"):
        meta = {_attribute(m, "key"): _attribute(m, "value") for m in volume.iter("metadata")}
        first, last = int(_attribute(volume, "firstid")), int(_attribute(volume, "lastid"))
        found[meta["name"]] = (first, last, int(meta["extruder"]))
    return found


def _attribute(element: ElementTree.Element, name: str) -> str:
    """An attribute the 3MF's XML always gives this element; ThreemfError if it is missing."""
    value = element.get(name)
    if value is None:
        raise ThreemfError(f"a <{element.tag}> element in the 3MF has no {name!r} attribute")
    return value


def _read_back_prusa(path: Path, what: str, bodies: dict[str, int]) -> dict[str, MeshCheck]:
    """Load the mesh as any 3MF reader would, cut it at the config's triangle ranges and check each part."""
    mesh = trimesh.load(io.BytesIO(path.read_bytes()), file_type="3mf", process=False, force="mesh")
    assert isinstance(mesh, trimesh.Trimesh), "force='mesh' loads the 3MF as one mesh"
    ranges = prusa_part_ranges(path)
    if sorted(ranges) != sorted(bodies):
        raise ThreemfError(f"{what}: parts {sorted(ranges)} read back where {sorted(bodies)} written")
    spans = sorted((first, last) for first, last, _ in ranges.values())
    if (spans[0][0] != 0 or spans[-1][1] != len(mesh.faces) - 1
            or any(a[1] + 1 != b[0] for a, b in zip(spans, spans[1:], strict=False))):
        raise ThreemfError(f"{what}: part ranges {spans} do not cover the {len(mesh.faces)} triangles once each")
    checks = {}
    for name, (first, last, _) in ranges.items():
        check = check_mesh(mesh.vertices, mesh.faces[first:last + 1])
        problems = check.problems(bodies[name])
        if problems:
            raise ThreemfError(f"{what}: part {name!r} is not a valid solid after writing: {'; '.join(problems)}")
        checks[name] = check
    return checks


def _read_back(path: Path, what: str, bodies: dict[str, int]) -> dict[str, MeshCheck]:
    """Load the 3MF as a slicer would and check each part is a closed solid with the bodies expected."""
    scene = trimesh.load(io.BytesIO(path.read_bytes()), file_type="3mf", process=False)
    assert isinstance(scene, trimesh.Scene), "trimesh loads a 3MF as a scene"
    if sorted(scene.geometry) != sorted(bodies):
        raise ThreemfError(f"{what}: parts {sorted(scene.geometry)} read back where {sorted(bodies)} written")
    checks = {}
    for name, mesh in scene.geometry.items():
        check = check_mesh(mesh.vertices, mesh.faces)
        problems = check.problems(bodies[name])
        if problems:
            raise ThreemfError(f"{what}: part {name!r} is not a valid solid after writing: {'; '.join(problems)}")
        checks[name] = check
    return checks


__all__ = ["PART_EXTRUDERS", "ThreemfError", "prusa_part_ranges", "write_piece_3mf", "write_piece_prusa_3mf"]
