"""Multi-colour pieces: the 3MF of a piece holds its body, relief and code as separate closed parts of
one object, which do not overlap and together make exactly the STL's solid; the PrusaSlicer layout
holds the same parts as named triangle ranges of one mesh, and PrusaSlicer (where installed) loads
it as one object of three parts."""

from __future__ import annotations

import dataclasses
import itertools
import shutil
import subprocess
import zipfile
from xml.etree import ElementTree

import numpy as np
import pytest
import trimesh
from click.testing import CliRunner
from manifold3d import Manifold, Mesh

from dealers_chess.cli import cli
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d.model import Part, build_piece
from dealers_chess.printing.solids.piece_files import PieceFormat, write_piece_files
from dealers_chess.printing.solids.threemf import (
    PART_EXTRUDERS,
    ThreemfError,
    prusa_part_ranges,
    write_piece_3mf,
    write_piece_prusa_3mf,
)
from tests.built_once import shares_every_built_piece

CATALOGUE = load_catalogue()
KINDS = ["knight", "rook", "king", "standard-pawn"]  # a leaper, a rider, a royal, a pawn
PART_NAMES = {part.value for part in Part}
CORE = "{http://schemas.microsoft.com/3dmanufacturing/core/2015/02}"


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, tuple[trimesh.Scene, trimesh.Trimesh, str]]:
    """Each piece of KINDS written as 3MF and STL, and read back: {id: (3MF scene, STL mesh, 3MF path)}."""
    folder = tmp_path_factory.mktemp("pieces")
    pieces = [CATALOGUE.get(piece_id) for piece_id in KINDS]
    threemfs = write_piece_files(pieces, folder, file_format=PieceFormat.THREEMF)
    stls = write_piece_files(pieces, folder, file_format=PieceFormat.STL)
    return {
        piece.id: (trimesh.load(threemf), trimesh.load(stl), str(threemf))
        for piece, threemf, stl in zip(pieces, threemfs, stls, strict=True)
    }


def _manifold(mesh: trimesh.Trimesh) -> Manifold:
    return Manifold(Mesh(np.asarray(mesh.vertices, dtype=np.float32), np.asarray(mesh.faces, dtype=np.uint32)))


@pytest.mark.parametrize("piece_id", KINDS)
def test_the_3mf_is_one_object_whose_components_are_the_named_parts(written, piece_id):
    scene, _, path = written[piece_id]
    assert isinstance(scene, trimesh.Scene) and scene.units == "millimeter"
    assert set(scene.geometry) == PART_NAMES
    assert _object_parts(path) == (piece_id, sorted(PART_NAMES))


def _object_parts(path) -> tuple[str, list[str]]:
    """The name of the 3MF's one build item and the names of its components' objects."""
    with zipfile.ZipFile(path) as archive:
        model = ElementTree.fromstring(archive.read("3D/3dmodel.model"))
    objects = {o.get("id"): o for o in model.iter(f"{CORE}object")}
    (item,) = model.iter(f"{CORE}item")
    piece = objects[item.get("objectid")]
    return piece.get("name"), sorted(objects[c.get("objectid")].get("name") for c in piece.iter(f"{CORE}component"))


@pytest.mark.parametrize("piece_id", KINDS)
def test_parts_are_closed_disjoint_and_union_to_the_stl_solid(written, piece_id):
    scene, stl, _ = written[piece_id]
    parts = scene.geometry
    assert all(mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume for mesh in parts.values())
    assert sum(mesh.volume for mesh in parts.values()) == pytest.approx(stl.volume, rel=1e-6)
    solids = {name: _manifold(mesh) for name, mesh in parts.items()}
    for a, b in itertools.combinations(solids, 2):
        assert (solids[a] ^ solids[b]).volume() < 1e-3, (piece_id, a, b)  # they touch, never overlap
    union = Manifold.batch_boolean(list(solids.values()), _add())
    stl_solid = _manifold(stl)
    assert (union - stl_solid).volume() + (stl_solid - union).volume() < 1e-2
    low, high = np.array(union.bounding_box()).reshape(2, 3)
    assert np.allclose(low, stl.bounds[0], atol=1e-4) and np.allclose(high, stl.bounds[1], atol=1e-4)


def test_the_relief_stands_on_the_top_face_and_the_code_floor_under_the_base(written):
    scene, stl, _ = written["rook"]
    relief, code = scene.geometry["relief"], scene.geometry["code"]
    top = build_piece(CATALOGUE.get("rook")).relief_top_mm  # the tower's crenellations stand higher
    assert relief.bounds[1][2] == pytest.approx(top, abs=1e-4) and stl.bounds[1][2] > top
    assert relief.bounds[0][2] > top - 1.2
    assert code.bounds[0][2] == pytest.approx(0.6, abs=1e-4) and code.bounds[1][2] == pytest.approx(1.2, abs=1e-4)


@shares_every_built_piece
def test_every_catalogue_piece_splits_into_parts_that_add_up_to_its_solid():
    for piece in CATALOGUE:
        model = build_piece(piece)
        assert set(model.parts) == set(Part), piece.id
        total = sum(solid.volume() for solid in model.parts.values())
        assert total == pytest.approx(model.solid.volume(), rel=1e-9), piece.id


def test_a_part_that_does_not_survive_writing_raises_and_leaves_no_file(tmp_path):
    model = build_piece(CATALOGUE.get("knight"))
    cube = Manifold.cube((1.0, 1.0, 1.0)).translate((0.0, 0.0, 70.0))
    pinched = cube + cube.translate((1.0, 1.0, 1.0))  # two bodies touching at a corner: one once read back
    broken = dataclasses.replace(model, parts={**model.parts, Part.RELIEF: pinched})
    (tmp_path / "knight.3mf").write_bytes(b"old")
    with pytest.raises(ThreemfError,
                       match="part 'relief' is not a valid solid after writing: 1 separate bodies where 2"):
        write_piece_3mf(tmp_path / "knight.3mf", broken)
    assert [p.name for p in tmp_path.iterdir()] == ["knight.3mf"]
    assert (tmp_path / "knight.3mf").read_bytes() == b"old"


@pytest.mark.parametrize("piece_id", ["body", "world"])
def test_a_piece_named_like_a_part_or_the_scene_root_still_makes_one_object_of_three_parts(tmp_path, piece_id):
    model = dataclasses.replace(build_piece(CATALOGUE.get("wazir")), piece_id=piece_id)
    write_piece_3mf(tmp_path / "odd.3mf", model)
    assert _object_parts(tmp_path / "odd.3mf") == (f"{piece_id}-piece", sorted(PART_NAMES))


def test_dealer_pieces_writes_3mf_on_request_and_stl_by_default(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["pieces", "--piece", "wazir", "--format", "3mf", "--square-mm", "40",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "pieces-40mm"
    assert f"1 3MF files in {folder}" in result.output
    assert set(trimesh.load(folder / "wazir.3mf").geometry) == PART_NAMES
    result = runner.invoke(cli, ["pieces", "--piece", "wazir", "--square-mm", "40", "--out", str(tmp_path)])
    assert result.exit_code == 0 and sorted(p.name for p in folder.iterdir()) == ["wazir.3mf", "wazir.stl"]
    result = runner.invoke(cli, ["pieces", "--piece", "wazir", "--format", "obj", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "'obj' is not one of 'stl', '3mf', '3mf-prusa'" in result.output


@pytest.mark.parametrize("piece_id", ["knight", "king"])
def test_the_prusaslicer_3mf_holds_the_same_parts_as_named_triangle_ranges_of_one_mesh(written, tmp_path, piece_id):
    scene, _, _ = written[piece_id]
    path = tmp_path / f"{piece_id}.3mf"
    checks = write_piece_prusa_3mf(path, build_piece(CATALOGUE.get(piece_id)))
    assert set(checks) == PART_NAMES
    mesh = trimesh.load(path, process=False, force="mesh")
    ranges = prusa_part_ranges(path)
    assert [ranges[name][2] for name in ("body", "relief", "code")] == [1, 2, 2] == list(PART_EXTRUDERS.values())
    assert sorted((first, last) for first, last, _ in ranges.values())[0][0] == 0
    assert sum(last - first + 1 for first, last, _ in ranges.values()) == len(mesh.faces)
    for name, (first, last, _) in ranges.items():
        part = trimesh.Trimesh(mesh.vertices, mesh.faces[first:last + 1], process=True)
        assert part.is_watertight and part.volume == pytest.approx(scene.geometry[name].volume, rel=1e-6), name


def test_dealer_pieces_writes_the_prusaslicer_layout_on_request(tmp_path):
    result = CliRunner().invoke(cli, ["pieces", "--piece", "wazir", "--format", "3mf-prusa", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    path = tmp_path / "pieces-50mm" / "wazir.prusa.3mf"
    assert "1 3MF files in" in result.output and set(prusa_part_ranges(path)) == PART_NAMES
    standard = CliRunner().invoke(cli, ["pieces", "--piece", "wazir", "--format", "3mf", "--out", str(tmp_path)])
    assert standard.exit_code == 0 and path.exists()  # the standard layout does not replace PrusaSlicer's
    assert {p.name for p in path.parent.iterdir()} == {"wazir.prusa.3mf", "wazir.3mf"}


@pytest.mark.skipif(shutil.which("prusa-slicer") is None,
                    reason="PrusaSlicer is not installed (apt-get install prusa-slicer)")
def test_prusaslicer_loads_the_prusa_layout_as_one_object_of_three_parts_and_the_standard_one_as_three_objects(
        tmp_path):
    """PrusaSlicer re-saves what it loaded as its own project: its model config shows objects and parts."""
    model = build_piece(CATALOGUE.get("wazir"))
    write_piece_prusa_3mf(tmp_path / "prusa.3mf", model)
    write_piece_3mf(tmp_path / "standard.3mf", model)
    loaded = {}
    for name in ("prusa", "standard"):
        resaved = tmp_path / f"{name}-resaved.3mf"
        subprocess.run(
            ["prusa-slicer", "--export-3mf", "--output", str(resaved), str(tmp_path / f"{name}.3mf")],
            check=True, capture_output=True, timeout=120, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        )
        with zipfile.ZipFile(resaved) as archive:
            config = ElementTree.fromstring(archive.read("Metadata/Slic3r_PE_model.config"))
        loaded[name] = [
            [{m.get("key"): m.get("value") for m in volume.iter("metadata")} for volume in obj.iter("volume")]
            for obj in config.iter("object")
        ]
    (prusa_object,) = loaded["prusa"]
    assert [(v["name"], v["extruder"]) for v in prusa_object] == [("body", "1"), ("relief", "2"), ("code", "2")]
    assert sorted(v["name"] for (v,) in loaded["standard"]) == sorted(PART_NAMES)


def _add():
    from manifold3d import OpType

    return OpType.Add
