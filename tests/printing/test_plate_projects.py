"""Plate projects: beside each plate-NN.stl, plate-NN.3mf is a PrusaSlicer project of the same pieces at the
same places with a filament change (M600) at each of the plate's change layers (to the accent, and back to the
body filament under horse heads), read back here as a zip of XML; and, where PrusaSlicer is installed, sliced
to G-code that stops for each change at its layer."""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from xml.etree import ElementTree

import numpy as np
import pytest
import trimesh
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d.model import ModelOptions, build_piece
from dealers_chess.printing.kit import how_to_print
from dealers_chess.printing.solids.plate_project import (
    PlateProjectError,
    ProjectPiece,
    accent_hex,
    body_hex,
    read_plate_project,
    write_plate_project,
)
from tests.built_once import shares_every_built_piece
from tests.printing.plates_listing import ListedPlate, read_plates

CATALOGUE = load_catalogue()
CORE = "{http://schemas.microsoft.com/3dmanufacturing/core/2015/02}"
CUSTOM_GCODE = "Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml"
RED, GOLD = "#9E1F1A", "#EDCC66"  # PALETTES' accents in pieces/model3d/render.py: White's pieces, Black's
IVORY, CHARCOAL = "#EDE6D4", "#2B2B30"  # PALETTES' bodies: White's pieces, Black's
COLOURS = {"white": {"accent": RED, "body": IVORY}, "black": {"accent": GOLD, "body": CHARCOAL}}


def _expected_custom_gcode(plate: ListedPlate, side: str) -> str:
    """The custom G-code file PrusaSlicer 2.5 writes (Format/3mf.cpp) for the changes plates.txt names."""
    codes = "".join(f'<code print_z="{change.z_mm:g}" type="0" extruder="1" color="{COLOURS[side][change.filament]}" '
                    'extra="" gcode="M600"/>\n' for change in plate.changes)
    return ('<?xml version="1.0" encoding="utf-8"?>\n<custom_gcodes_per_print_z>\n'
            f'{codes}<mode value="SingleExtruder"/>\n</custom_gcodes_per_print_z>')


def _archive(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _objects(files: dict[str, bytes]) -> list[tuple[str, np.ndarray, tuple[float, float, float]]]:
    """Each build item: the name the model config gives its object, the object's vertices and the item's move."""
    model = ElementTree.fromstring(files["3D/3dmodel.model"])
    config = ElementTree.fromstring(files["Metadata/Slic3r_PE_model.config"])
    names = {o.get("id"): o.find("metadata[@key='name']").get("value") for o in config.iter("object")}
    meshes = {
        o.get("id"): np.array([[float(v.get(a)) for a in "xyz"] for v in o.iter(f"{CORE}vertex")])
        for o in model.iter(f"{CORE}object")
    }
    found = []
    for item in model.iter(f"{CORE}item"):
        matrix = [float(v) for v in item.get("transform").split()]
        assert matrix[:9] == [1, 0, 0, 0, 1, 0, 0, 0, 1]  # moved, never turned or scaled
        found.append((names[item.get("objectid")], meshes[item.get("objectid")], tuple(matrix[9:])))
    return found


@shares_every_built_piece
def test_each_plate_comes_as_a_prusaslicer_project_with_an_m600_at_each_of_its_change_layers(tmp_path):
    result = CliRunner().invoke(cli, ["plate", "--game", "chess", "--square-mm", "40", "--copies", "2",
                                      "--bed", "200x180", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "3 plate STL files, their PrusaSlicer projects (3MF) and plates.txt" in result.output
    folder = tmp_path / "plates-40mm"
    plates = read_plates(folder)
    assert len(plates) == 3 and {p.name for p in folder.iterdir()} == {
        "plates.txt", "HOW-TO-PRINT.txt", *(f"{stem}.stl" for stem in plates), *(f"{stem}.3mf" for stem in plates)}
    # King and Queen; Bishops, Rooks and Pawns: to the accent at the top faces; the Knights' plate back to the body
    assert [[change.filament for change in plate.changes] for plate in plates.values()] == [
        ["accent"], ["accent"], ["accent", "body"]]
    for stem, plate in plates.items():
        files = _archive(folder / f"{stem}.3mf")
        assert {"[Content_Types].xml", "_rels/.rels", "3D/3dmodel.model", "Metadata/Slic3r_PE_model.config",
                "Metadata/Slic3r_PE.config", CUSTOM_GCODE} == set(files)
        # as PrusaSlicer 2.5 writes it (Format/3mf.cpp); `dealer plate --game` previews White's colours
        assert files[CUSTOM_GCODE].decode() == _expected_custom_gcode(plate, "white")
        codes = list(ElementTree.fromstring(files[CUSTOM_GCODE]).iter("code"))
        assert [float(code.get("print_z")) for code in codes] == [change.z_mm for change in plate.changes]
        objects = _objects(files)
        assert [name for name, _, _ in objects] == [piece_id for piece_id, *_ in plate.pieces]
        swap_z = plate.changes[0].z_mm
        for (_, x, y, diameter), (_, vertices, move) in zip(plate.pieces, objects, strict=True):
            assert move == pytest.approx((x, y, 0.0), abs=0.05)  # where plates.txt says, to its 0.1 mm
            placed = vertices + np.array(move)
            low, high = placed.min(axis=0), placed.max(axis=0)
            assert (low[:2] + high[:2]) / 2 == pytest.approx((x, y), abs=0.05)
            assert high[0] - low[0] == pytest.approx(diameter, abs=0.05) and low[2] == pytest.approx(0.0, abs=1e-6)
            assert 10 <= low[0] and 10 <= low[1] and high[0] <= 190 and high[1] <= 170  # 10 mm clear of the edges
            assert high[2] > swap_z - 0.2  # the accent layer runs through every piece on the plate


def test_the_project_sets_the_layers_plates_txt_counts_and_prusaslicer_reads_every_setting(tmp_path):
    result = CliRunner().invoke(cli, ["plate", "--piece", "wazir", "--bed", "250x210", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    config = _archive(tmp_path / "plates-50mm" / "plate-01.3mf")["Metadata/Slic3r_PE.config"].decode()
    first, *rest = config.rstrip("\n").split("\n")
    assert first.startswith("; generated by") and " = " not in first
    settings = dict(line[2:].split(" = ") for line in rest if line)
    # PrusaSlicer reads these lines from the end up and stops at the first that is not '; key = value' of
    # at least 10 characters: every setting must be one
    assert all(re.fullmatch(r"; [a-z][a-z0-9_]{2,} = \S.*", line) and len(line) >= 10 for line in rest if line)
    assert settings["layer_height"] == settings["first_layer_height"] == "0.2"
    assert settings["bed_shape"] == "0x0,250x0,250x210,0x210" and settings["support_material"] == "0"
    assert settings["nozzle_diameter"] == "0.4" and settings["color_change_gcode"] == "M600"  # one nozzle: M600
    assert settings["avoid_crossing_perimeters"] == "1"
    assert read_plate_project(tmp_path / "plates-50mm" / "plate-01.3mf").settings == settings


def test_one_colour_projects_change_no_filament_and_side_projects_preview_their_sides_accent(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["plate", "--army", "chess", "--one-colour", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "2 plate STL files and their PrusaSlicer projects (3MF), white/ and black/" in result.output
    white = tmp_path / "plates-50mm-one-colour" / "army-chess" / "white"
    files = _archive(white / "plate-01.3mf")
    assert CUSTOM_GCODE not in files and len(_objects(files)) == 16
    assert "PrusaSlicer project, plate-NN.3mf" in (white / "plates.txt").read_text()
    result = runner.invoke(cli, ["plate", "--army", "chess", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for side in ("white", "black"):
        folder = tmp_path / "plates-50mm" / "army-chess" / side
        for stem, plate in read_plates(folder).items():
            project = read_plate_project(folder / f"{stem}.3mf")
            assert project.colour_changes_mm == tuple(change.z_mm for change in plate.changes)
            assert project.change_colours == tuple(COLOURS[side][change.filament] for change in plate.changes)
        assert "the printer stops for each filament change by itself" in (folder / "plates.txt").read_text()


@shares_every_built_piece
def test_a_rerun_leaves_only_the_projects_of_its_own_plates(tmp_path):
    runner = CliRunner()
    assert runner.invoke(cli, ["plate", "--game", "chess", "--out", str(tmp_path)]).exit_code == 0
    folder = tmp_path / "plates-50mm"
    assert len(list(folder.glob("plate-*.3mf"))) == 3
    first = (folder / "plate-01.3mf").read_bytes()
    assert runner.invoke(cli, ["plate", "--game", "chess", "--out", str(tmp_path)]).exit_code == 0
    assert (folder / "plate-01.3mf").read_bytes() == first  # the same plate, the same bytes
    rerun = ["plate", "--game", "chess", "--max-per-plate", "2", "--out", str(tmp_path)]
    assert runner.invoke(cli, rerun).exit_code == 0
    assert len(list(folder.glob("plate-*.3mf"))) == len(list(folder.glob("plate-*.stl"))) == 4  # B and R, P alone
    assert runner.invoke(cli, ["plate", "--piece", "king", "--out", str(tmp_path)]).exit_code == 0
    assert sorted(p.name for p in folder.iterdir()) == [
        "HOW-TO-PRINT.txt", "plate-01.3mf", "plate-01.stl", "plates.txt"]


def test_a_piece_that_is_not_a_solid_leaves_no_project(tmp_path):
    vertices, faces = build_piece(CATALOGUE.get("wazir"), ModelOptions(40.0)).mesh()
    (tmp_path / "plate-01.3mf").write_bytes(b"old")
    holed = ProjectPiece("wazir", vertices, faces[1:], 30.0, 30.0)
    with pytest.raises(PlateProjectError, match="piece 'wazir' is not a valid solid as written: 3 edges"):
        write_plate_project(tmp_path / "plate-01.3mf", [holed], (20.0,), (220.0, 220.0))
    assert [p.name for p in tmp_path.iterdir()] == ["plate-01.3mf"]
    assert (tmp_path / "plate-01.3mf").read_bytes() == b"old"
    whole = ProjectPiece("wazir", vertices, faces, 30.0, 30.0)
    with pytest.raises(PlateProjectError, match=r"colour changes at z \(20.8, 20.0\) mm do not rise one above the"):
        write_plate_project(tmp_path / "plate-01.3mf", [whole], (20.8, 20.0), (220.0, 220.0))
    assert (tmp_path / "plate-01.3mf").read_bytes() == b"old"
    contents = write_plate_project(tmp_path / "plate-01.3mf", [whole], (20.0, 20.8), (220.0, 220.0), side="black")
    assert contents.pieces == (("wazir", 30.0, 30.0),) and contents.colour_changes_mm == (20.0, 20.8)
    assert contents.change_colours == (GOLD, CHARCOAL) == (accent_hex("black"), body_hex("black"))
    assert read_plate_project(tmp_path / "plate-01.3mf") == contents
    mesh = trimesh.load(tmp_path / "plate-01.3mf", force="mesh")  # any 3MF reader takes it
    assert mesh.is_watertight and mesh.bounds[0][0] == pytest.approx(30.0 - np.ptp(vertices[:, 0]) / 2, abs=1e-3)


def test_how_to_print_names_the_projects_the_accent_colours_and_settings_against_strings():
    note = " ".join(how_to_print(CATALOGUE).split())
    assert "PrusaSlicer project with its changes built in, plate-NN.3mf" in note
    assert "the printer stops for each filament change by itself" in note
    assert "red on White's pieces, gold on Black's" in note and "the other side's colour" in note
    for advice in ("avoid crossing perimeters on", "retraction 0.8-1 mm on a direct-drive extruder",
                   "a minimum layer time of 15-20 s", *FOR_A_REAL_PRINTER):
        assert advice in note
    assert (accent_hex("white"), accent_hex("black")) == (RED, GOLD)  # the colours the projects preview
    assert (body_hex("white"), body_hex("black")) == (IVORY, CHARCOAL)
    jobs = re.search(r"The whole kit: (\d+) print jobs a colour, (\d+) filament changes \(M600\), about ([\d.]+) h "
                     r"and (\d+) g \((\d+) cm3\) of PLA", note)
    assert jobs and 5 <= int(jobs[1]) <= 12 and 40 < float(jobs[3]) < 150 and 400 < int(jobs[4]) < 1000
    assert int(jobs[1]) < int(jobs[2]) <= 2 * int(jobs[1])  # one change a plate, two on the horse-headed plates


FOR_A_REAL_PRINTER = (
    "ADVANCED_PAUSE_FEATURE", "Klipper needs an M600 macro", "prints on in one colour", "(M601, Prusa firmware)",
    "with M0", "PAUSE (Klipper; RESUME goes on)", '"pause at height"', "Purge at every change", "50-100 mm",
    "Z seam: the projects put it at the rear", "choose your printer, filament and print profiles",
    "look at the preview's layer slider",
)


def test_dealer_plate_writes_how_to_print_with_its_jobs_time_filament_and_the_printer_advice(tmp_path):
    result = CliRunner().invoke(cli, ["plate", "--game", "chess", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "HOW-TO-PRINT.txt beside plates.txt" in result.output
    folder = tmp_path / "plates-50mm"
    note = " ".join((folder / "HOW-TO-PRINT.txt").read_text().split())
    assert all(advice in note for advice in FOR_A_REAL_PRINTER)
    # one change a plate, and the Knight's plate changes back to the body filament
    jobs = re.search(r"3 print jobs a colour, 4 filament changes \(M600\), about ([\d.]+) h and (\d+) g", note)
    assert jobs and 5 < float(jobs[1]) < 12 and 55 < int(jobs[2]) < 120  # one of each: about 7.6 h and 64 g
    assert jobs[0] in " ".join((folder / "plates.txt").read_text().split())
    assert read_plate_project(folder / "plate-01.3mf").settings["seam_position"] == "rear"


def _slice(tmp_path, project) -> str:
    """PrusaSlicer's G-code for a project, the pieces left where the project puts them (--dont-arrange)."""
    gcode = tmp_path / "plate.gcode"
    run = subprocess.run(
        ["prusa-slicer", "--loglevel", "1", "--dont-arrange", "--export-gcode", "--output", str(gcode), str(project)],
        capture_output=True, text=True, timeout=300, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return gcode.read_text()


# the pieces of a plate project to slice, and how many pieces and filament changes its one plate has
SLICED_PLATES = {
    "one change": (["--piece", "standard-pawn", "--piece", "bishop", "--piece", "rook"], 3, 1),  # one level
    "and back": (["--piece", "knight", "--piece", "nightrider"], 2, 2),  # horse heads: back to the body filament
    "one colour": (["--piece", "standard-pawn", "--piece", "wazir", "--one-colour"], 2, 0),  # two levels together
}


@pytest.mark.slow  # 3-4 s a plate on a shared 2-core machine
@pytest.mark.skipif(shutil.which("prusa-slicer") is None,
                    reason="PrusaSlicer is not installed (apt-get install prusa-slicer)")
@pytest.mark.parametrize("case", SLICED_PLATES)
def test_prusaslicer_slices_a_plate_project_to_an_m600_at_each_layer_plates_txt_names(tmp_path, case):
    flags, count, change_count = SLICED_PLATES[case]
    result = CliRunner().invoke(cli, ["plate", *flags, "--square-mm", "40", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / ("plates-40mm-one-colour" if "--one-colour" in flags else "plates-40mm")
    (plate,) = read_plates(folder).values()
    assert len(plate.pieces) == count and len(plate.changes) == change_count
    gcode = _slice(tmp_path, folder / f"{plate.stem}.3mf")
    lines = gcode.splitlines()
    layers = [float(z) for z in re.findall(r"^;Z:([\d.]+)$", gcode, re.M)]
    assert layers[:3] == [0.2, 0.4, 0.6]  # the project's 0.2 mm layers, the first one too
    assert ";TYPE:Support material" not in gcode and "; support_material = 0" in gcode
    hours = re.search(r"^; estimated printing time \(normal mode\) = (?:(\d+)h )?(\d+)m", gcode, re.M)
    estimated = re.search(r"about ([\d.]+) h", (folder / "HOW-TO-PRINT.txt").read_text())
    assert float(estimated[1]) == pytest.approx(int(hours[1] or 0) + int(hours[2]) / 60, rel=0.15, abs=0.1)
    changes = [i for i, line in enumerate(lines) if line.split(";")[0].strip() == "M600"]
    assert len(changes) == len(plate.changes)
    for line_number, named in zip(changes, plate.changes, strict=True):
        before = lines[:line_number]
        layer_z = float(next(line for line in reversed(before) if line.startswith(";Z:"))[3:])
        move_z = float(re.search(r"Z([\d.]+)", next(line for line in reversed(before) if re.match(r"G1 Z", line)))[1])
        assert layer_z == move_z == named.z_mm  # the M600 comes after the move up to its layer, before printing it
        assert layers.index(named.z_mm) + 1 == named.layer  # the layer plates.txt counts, the first layer too
        # PrusaSlicer's note of the change names the filament it loads: the accent, then the body's again
        assert before[-1] == f";COLOR_CHANGE,T0,{COLOURS['white'][named.filament]}"
    extrusions = np.array([(float(m[1]), float(m[2])) for m in re.finditer(r"^G1 X([\d.]+) Y([\d.]+) E", gcode, re.M)])
    low, high = extrusions.min(axis=0), extrusions.max(axis=0)
    assert low.min() > 0 and high.max() < 220  # the skirt too stays on the bed
    reach = [(x - d / 2, y - d / 2, x + d / 2, y + d / 2) for _, x, y, d in plate.pieces]
    assert low[0] < min(r[0] for r in reach) and high[0] > max(r[2] for r in reach)  # printed where placed
