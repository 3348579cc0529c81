"""Plates grouped by their filament changes, --max-per-plate, the weight pocket by default and the weights
HOW-TO-PRINT.txt states, all read back from the files written."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import trimesh
from click.testing import CliRunner
from manifold3d import Manifold, Mesh

from dealers_chess.cli import cli
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d.model import ModelOptions, build_piece
from dealers_chess.printing.kit import how_to_print
from dealers_chess.printing.solids.colour_swap import colour_swap, piece_colour_changes
from dealers_chess.printing.solids.fdm import load_fdm_settings
from dealers_chess.printing.solids.mesh_check import check_triangles
from dealers_chess.printing.solids.plates import PlateError, plan_by_changes, plan_plates, plate_listing
from dealers_chess.printing.solids.weight import piece_weight, shell_mm3, washer_for, washer_grams
from tests.built_once import shares_every_built_piece
from tests.printing.plates_listing import read_listing, read_plates

CATALOGUE = load_catalogue()
SETTINGS = load_fdm_settings()


def _loaded(path) -> Manifold:
    mesh = trimesh.load(path, file_type="stl")
    return Manifold(Mesh(np.asarray(mesh.vertices, np.float32), np.asarray(mesh.faces, np.uint32)))


def _bodies(path) -> list[Manifold]:
    return _loaded(path).decompose()


def test_plates_hold_one_top_face_height_each_and_name_the_layers_that_change_colour(tmp_path):
    result = CliRunner().invoke(cli, ["plate", "--game", "chess", "--square-mm", "40", "--copies", "2",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "plates-40mm"
    plates = read_plates(folder)
    # the six shapes' top faces stand on three levels: King and Queen; Bishop, Rook and Pawn; Knight
    assert [plate.count for plate in plates.values()] == [4, 6, 2]
    tops = [plate.top_faces_mm for plate in plates.values()]
    assert all(low == high for low, high in tops) and tops == sorted(tops, reverse=True)
    for stem, plate in plates.items():
        (top, _), (layer, z) = plate.top_faces_mm, (plate.changes[0].layer, plate.changes[0].z_mm)
        assert len(plate.pieces) == plate.count
        assert z == pytest.approx(layer * 0.2) and top <= z - 0.2 + 1e-6 < top + 0.2  # the first whole layer above
        bodies = _bodies(folder / f"{stem}.stl")
        assert len(bodies) == plate.count
        for body in bodies:  # read back from the STL: each body is its full width just under the swap, a diagram above
            below, above = body.slice(z - 0.2 - 0.05).area(), body.slice(z - 0.2 + 0.05).area()
            assert below > 1.6 * above > 0, (stem, below, above)  # a tower's battlements and diagram: half of it
            assert body.slice(top - 0.05).area() == pytest.approx(below, rel=0.02)
    knights = plates["plate-03"]  # a second change, back to the body filament: the first whole layer above the relief
    first, back = knights.changes
    assert [c.filament for c in knights.changes] == ["accent", "body"] and back.layer == first.layer + 4  # 0.8 mm
    for body in _bodies(folder / "plate-03.stl"):  # the relief ends below the change back; the chest rises on
        relief, chest = body.slice(back.z_mm - 0.2 - 0.05).area(), body.slice(back.z_mm - 0.2 + 0.05).area()
        assert relief > 1.15 * chest > 0, (relief, chest)  # 124 and 98 mm2 at 40 mm squares


def test_one_colour_plates_hold_pieces_of_every_height_together(tmp_path):
    result = CliRunner().invoke(cli, ["plate", "--army", "chess", "--one-colour", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    listing = (tmp_path / "plates-50mm-one-colour" / "army-chess" / "white" / "plates.txt").read_text()
    assert listing.count("plate-01.stl: 16 pieces") == 1 and "plate-02" not in listing
    assert "filament (M600)" not in listing and "--one-colour" in listing
    assert len(_bodies(tmp_path / "plates-50mm-one-colour" / "army-chess" / "white" / "plate-01.stl")) == 16


@shares_every_built_piece
def test_a_plate_folder_holds_just_the_plates_its_listing_names(tmp_path):
    runner = CliRunner()
    single = ["plate", "--army", "chess", "--max-per-plate", "1", "--out", str(tmp_path)]
    assert runner.invoke(cli, single).exit_code == 0
    white = tmp_path / "plates-50mm" / "army-chess" / "white"
    assert len(list(white.glob("plate-*.stl"))) == 16
    (white / "notes.txt").write_text("mine")  # a file of the user's is not ours to delete
    assert runner.invoke(cli, ["plate", "--army", "chess", "--out", str(tmp_path)]).exit_code == 0
    listed = set(re.findall(r"^(plate-\d\d\.stl):", (white / "plates.txt").read_text(), re.M))
    assert {p.name for p in white.glob("plate-*.stl")} == listed and len(listed) < 16
    assert (white / "notes.txt").read_text() == "mine"


def test_the_colour_swap_is_the_first_whole_layer_above_the_top_face():
    assert (colour_swap(62.5, 0.2).layer, colour_swap(62.5, 0.2).z_mm) == (314, 62.8)  # mid-layer: the next one
    assert (colour_swap(85.0, 0.2).layer, colour_swap(85.0, 0.2).z_mm) == (426, 85.2)
    knight = build_piece(CATALOGUE.get("knight"), ModelOptions(50.0))
    # under the horse head: the plate on its collar
    assert piece_colour_changes(knight)[0].surface_mm == pytest.approx(knight.top_mm, abs=1e-3) == 27.6


def test_a_horse_head_prints_in_the_body_colour_after_a_second_change_at_the_reliefs_top():
    knight = build_piece(CATALOGUE.get("knight"), ModelOptions(50.0))
    assert knight.colour_changes_mm == (27.6, 28.4)  # to the accent for the diagram, back for the horse
    first, second = piece_colour_changes(knight)
    assert (first.layer, first.z_mm) == (139, 27.8) and (second.layer, second.z_mm) == (143, 28.6)
    rook = build_piece(CATALOGUE.get("rook"), ModelOptions(50.0))
    assert rook.colour_changes_mm == (rook.top_mm,)  # its crenellations print with the diagram
    one_colour = build_piece(CATALOGUE.get("knight"), ModelOptions(50.0, one_colour=True))
    assert one_colour.colour_changes_mm == () and piece_colour_changes(one_colour) == ()


def test_pieces_that_change_filament_at_the_same_layers_share_plates_and_the_listing_names_them():
    changes = {"a": (colour_swap(62.3, 0.2),), "b": (colour_swap(62.4, 0.2),), "c": (colour_swap(62.5, 0.2),),
               "d": (colour_swap(45.1, 0.2),), "e": (colour_swap(45.1, 0.2), colour_swap(45.9, 0.2)),
               "f": (colour_swap(45.12, 0.2), colour_swap(45.92, 0.2))}
    items = [(piece_id, piece_id.upper(), 30.0) for piece_id in "abcdef"]
    plates = plan_by_changes(items, changes, (220.0, 220.0), 6.0)
    # d shares its first change with e and f, but not their change back: never on their plate
    assert [sorted(p.piece_id for p in plate.placements) for plate in plates] == [["c"], ["a", "b"], ["e", "f"], ["d"]]
    assert [plate.changes for plate in plates] == [changes["c"], changes["a"], changes["e"], changes["d"]]
    tops = {piece_id: swaps[0].surface_mm for piece_id, swaps in changes.items()}
    listing = plate_listing(plates, ModelOptions(50.0), (220.0, 220.0), 6.0, top_faces_mm=tops)
    assert "plate-02.stl: 2 pieces, top faces at 62.3-62.4 mm: change to the accent filament (M600) before layer 313 " \
        "(z 62.6 mm)\n" in listing
    assert "plate-01.stl: 1 piece, top faces at 62.5 mm: change to the accent filament (M600) before layer 314 " \
        "(z 62.8 mm)\n" in listing
    assert "plate-03.stl: 2 pieces, top faces at 45.1 mm: change to the accent filament (M600) before layer 227 " \
        "(z 45.4 mm), and back to the body filament (M600) before layer 231 (z 46.2 mm)\n" in listing
    assert "4 print job(s) a colour; filament changes (M600) at z 62.8; 62.6; 45.4 and back at 46.2; 45.4 mm." \
        in listing
    listed = read_listing(listing)
    assert [[(c.filament, c.layer, c.z_mm) for c in plate.changes] for plate in listed.values()] == [
        [("accent", 314, 62.8)], [("accent", 313, 62.6)], [("accent", 227, 45.4), ("body", 231, 46.2)],
        [("accent", 227, 45.4)]]


def test_max_per_plate_splits_jobs_and_every_plate_holds_what_its_listing_says(tmp_path):
    result = CliRunner().invoke(cli, ["plate", "--game", "chess", "--square-mm", "40", "--copies", "3",
                                      "--max-per-plate", "4", "--no-weight-pocket", "--one-colour",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "plates-40mm-no-pocket-one-colour"
    plates = dict(re.findall(r"^(plate-\d\d\.stl): (\d+) pieces?$", (folder / "plates.txt").read_text(), re.M))
    assert [int(count) for count in plates.values()] == [4, 4, 4, 4, 2]  # 18 pieces of every height, four a plate
    for name, count in plates.items():
        count = int(count)
        triangles = np.asarray(trimesh.load(folder / name, file_type="stl").triangles, np.float32)
        assert check_triangles(triangles).bodies == count


def test_bad_max_per_plate_is_refused_in_one_line(tmp_path):
    for value, says in (("0", "0 is not in the range 1<=x<=200"), ("201", "201 is not in the range 1<=x<=200"),
                        ("x", "'x' is not a valid integer")):
        result = CliRunner().invoke(cli, ["plate", "--game", "chess", "--max-per-plate", value, "--out", str(tmp_path)])
        assert result.exit_code == 2 and result.output.startswith(f"error: --max-per-plate: {says}"), result.output
        assert result.output.count("\n") == 1
    assert not list(tmp_path.iterdir())  # refused before any work
    with pytest.raises(PlateError, match="max per plate 0 is not allowed; use 1 to 200"):
        plan_plates([("king", "K", 38.0)], max_per_plate=0)


def test_the_weight_pocket_is_on_by_default_and_can_be_left_out(tmp_path):
    runner = CliRunner()
    for flags in ([], ["--weight-pocket"], ["--no-weight-pocket"]):
        result = runner.invoke(cli, ["pieces", "--piece", "king", *flags, "--out", str(tmp_path)])
        assert result.exit_code == 0, result.output
    pocketed = trimesh.load(tmp_path / "pieces-50mm" / "king.stl", file_type="stl")
    plain = trimesh.load(tmp_path / "pieces-50mm-no-pocket" / "king.stl", file_type="stl")
    assert 2400 < plain.volume - pocketed.volume < 3000  # the pocket for two M10 washers and its cone roof
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pieces-50mm", "pieces-50mm-no-pocket"]


def test_washers_are_the_widest_that_lie_flat_in_the_pocket():
    assert washer_for(10.2, SETTINGS).size == "M10"
    assert washer_for(9.91, SETTINGS).size == "M8"  # 19.8 mm across: a 20 mm washer does not go in
    assert washer_for(2.0, SETTINGS) is None
    m10 = washer_for(10.2, SETTINGS)
    # two stacked washers, 3.57 g each
    assert washer_grams(m10, SETTINGS) == pytest.approx(2 * 7.85 * math.pi / 4 * (20**2 - 10.5**2) * 2 / 1000)


@pytest.mark.parametrize("piece_id", ["king", "knight", "standard-pawn"])
def test_how_to_print_states_each_pieces_weight_from_the_volume_of_its_stl(tmp_path, piece_id):
    note = how_to_print(CATALOGUE)
    stated = float(re.search(rf"[ ,]{piece_id} ([\d.]+)[,\n]", note)[1])
    result = CliRunner().invoke(cli, ["pieces", "--piece", piece_id, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    mesh = trimesh.load(tmp_path / "pieces-50mm" / f"{piece_id}.stl", file_type="stl")
    volume = mesh.volume
    shell = shell_mm3(np.asarray(mesh.vertices), np.asarray(mesh.faces), SETTINGS)
    assert 0 < shell < volume
    expected = SETTINGS.density_g_cm3 * (shell + 0.15 * (volume - shell)) / 1000
    assert stated == pytest.approx(expected, abs=0.06)
    assert 0.15 * 1.24 * volume / 1000 < stated < 1.24 * volume / 1000
    model = piece_weight(build_piece(CATALOGUE.get(piece_id)))
    group = CATALOGUE.get(piece_id).group.value
    line = next(line for line in note.splitlines() if line.strip().startswith(f"{group}s:") and "washer" in line)
    assert f"2 {model.washer.size}" in line or f"/{model.washer.size} washers" in line  # the washers its pieces take
    assert f"{model.washer_g:.1f}" in line.split("washers (")[1].split(")")[0]
    assert "2 perimeters of 0.45 mm, 15 % infill" in note and "PLA (1.24 g/cm3)" in note


def test_the_print_settings_file_is_read_strictly(tmp_path):
    from dealers_chess.printing.solids.fdm import FdmError, settings_path

    text = settings_path().read_text()
    assert load_fdm_settings(settings_path()).layer_mm == 0.2
    bad = tmp_path / "fdm.toml"
    bad.write_text(text.replace("infill_percent = 15", "infill_percent = 150"))
    with pytest.raises(FdmError, match=r"fdm.toml: .*infill_percent.*"):
        load_fdm_settings(bad)
    bad.write_text(text.replace("perimeters = 2", "perimeters = 2\nwalls = 3"))
    with pytest.raises(FdmError, match=r"fdm.toml: .*walls"):
        load_fdm_settings(bad)
