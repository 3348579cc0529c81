"""Plates grouped by colour-swap layer, --max-per-plate, the weight pocket by default and the weights
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
from dealers_chess.printing.solids.colour_swap import colour_swap, piece_colour_changes, piece_colour_swap
from dealers_chess.printing.solids.fdm import load_fdm_settings
from dealers_chess.printing.solids.mesh_check import check_triangles
from dealers_chess.printing.solids.plates import PlateError, plan_by_swap, plan_plates, plate_listing
from dealers_chess.printing.solids.weight import piece_weight, shell_mm3, washer_for, washer_grams
from tests.built_once import shares_every_built_piece

CATALOGUE = load_catalogue()
SETTINGS = load_fdm_settings()
PLATE_LINE = re.compile(r"^(plate-\d\d\.stl): (\d+) pieces?, top faces at ([\d.]+) mm: "
                        r"change filament \(M600\) before layer (\d+) \(z ([\d.]+) mm\)$")


def _plates(listing: str) -> dict[str, tuple[int, float, int, float, list[str]]]:
    """plates.txt read back: file -> (count, top face, layer, z, piece ids)."""
    plates, current = {}, None
    for line in listing.splitlines():
        if match := PLATE_LINE.match(line):
            current = match[1]
            plates[current] = (int(match[2]), float(match[3]), int(match[4]), float(match[5]), [])
        elif line.startswith("  ") and current:
            plates[current][4].append(line.split()[0])
    return plates


def _loaded(path) -> Manifold:
    mesh = trimesh.load(path, file_type="stl")
    return Manifold(Mesh(np.asarray(mesh.vertices, np.float32), np.asarray(mesh.faces, np.uint32)))


def _bodies(path) -> list[Manifold]:
    return _loaded(path).decompose()


def test_plates_hold_one_top_face_height_each_and_name_the_layer_that_starts_the_second_colour(tmp_path):
    result = CliRunner().invoke(cli, ["plate", "--game", "chess", "--square-mm", "40", "--copies", "2",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "plates-40mm"
    plates = _plates((folder / "plates.txt").read_text())
    # the six shapes' top faces stand on three levels: King and Queen; Bishop, Rook and Pawn; Knight
    assert sum(p[0] for p in plates.values()) == 12 and [p[0] for p in plates.values()] == [4, 6, 2]
    assert [p[1] for p in plates.values()] == sorted((p[1] for p in plates.values()), reverse=True)
    for name, (count, top, layer, z, ids) in plates.items():
        assert len(ids) == count
        assert z == pytest.approx(layer * 0.2) and top <= z - 0.2 + 1e-6 < top + 0.2  # the first whole layer above
        bodies = _bodies(folder / name)
        assert len(bodies) == count
        for body in bodies:  # read back from the STL: each body is its full width just under the swap, a diagram above
            below, above = body.slice(z - 0.2 - 0.05).area(), body.slice(z - 0.2 + 0.05).area()
            assert below > 1.6 * above > 0, (name, below, above)  # a tower's battlements and diagram: half of it
            assert body.slice(top - 0.05).area() == pytest.approx(below, rel=0.02)


def test_one_colour_plates_hold_pieces_of_every_height_together(tmp_path):
    result = CliRunner().invoke(cli, ["plate", "--army", "chess", "--one-colour", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    listing = (tmp_path / "plates-50mm-one-colour" / "army-chess" / "white" / "plates.txt").read_text()
    assert listing.count("plate-01.stl: 16 pieces") == 1 and "plate-02" not in listing
    assert "change filament" not in listing and "--one-colour" in listing
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
    assert piece_colour_swap(knight).top_face_mm == pytest.approx(knight.top_mm, abs=1e-3) == 27.6


def test_a_horse_head_prints_in_the_body_colour_after_a_second_change_at_the_reliefs_top():
    knight = build_piece(CATALOGUE.get("knight"), ModelOptions(50.0))
    assert knight.colour_changes_mm == (27.6, 28.4)  # to the accent for the diagram, back for the horse
    first, second = piece_colour_changes(knight)
    assert (first.layer, first.z_mm) == (139, 27.8) and (second.layer, second.z_mm) == (143, 28.6)
    assert first == piece_colour_swap(knight)
    rook = build_piece(CATALOGUE.get("rook"), ModelOptions(50.0))
    assert rook.colour_changes_mm == (rook.top_mm,)  # its crenellations print with the diagram
    assert build_piece(CATALOGUE.get("knight"), ModelOptions(50.0, one_colour=True)).colour_changes_mm == ()


def test_pieces_whose_top_faces_share_a_layer_share_plates_and_the_listing_gives_their_range():
    swaps = {"a": colour_swap(62.3, 0.2), "b": colour_swap(62.4, 0.2), "c": colour_swap(62.5, 0.2),
             "d": colour_swap(45.0, 0.2)}
    items = [(piece_id, piece_id.upper(), 30.0) for piece_id in "abcd"]
    plates = plan_by_swap(items, swaps, (220.0, 220.0), 6.0)
    assert [sorted(p.piece_id for p in plate.placements) for plate in plates] == [["c"], ["a", "b"], ["d"]]
    listing = plate_listing(plates, ModelOptions(50.0), (220.0, 220.0), 6.0, swaps=swaps)
    assert "plate-02.stl: 2 pieces, top faces at 62.3-62.4 mm: change filament (M600) before layer 313 (z 62.6 mm)" \
        in listing
    assert "plate-01.stl: 1 piece, top faces at 62.5 mm: change filament (M600) before layer 314 (z 62.8 mm)" in listing
    assert "3 print job(s) a colour, one filament change (M600) each, at z 62.8, 62.6, 45.2 mm." in listing


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
