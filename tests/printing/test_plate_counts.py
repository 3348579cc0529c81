"""How many print jobs an army takes in two colours on one nozzle, read back from plates.txt and the plate
projects: a chess army three plates a colour, a dealt 8x8 army five a side, the starter kit at most twelve a
colour on a 220 x 220 mm bed, no plate a lone piece, every plate centred with 10 mm clear of each edge."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d.model import ModelOptions
from dealers_chess.printing.solids.built import build_for_print
from dealers_chess.printing.solids.plate_project import read_plate_project
from dealers_chess.printing.solids.plates import EDGE_MM, Plate, plan_by_swap

BED_MM = 220.0
PLATE = re.compile(r"^(plate-\d\d)\.stl: (\d+) pieces?, top faces at [\d.-]+ mm: "
                   r"change filament \(M600\) before layer \d+ \(z ([\d.]+) mm\)$", re.M)
PIECE = re.compile(r"^  (\S+)\s+\S+\s+at x\s+([\d.]+)\s+y\s+([\d.]+)\s+\(([\d.]+) mm base", re.M)


def _plates(folder: Path) -> list[tuple[str, int, float, list[tuple[float, float, float]]]]:
    """plates.txt read back: (stem, pieces, M600 z, [(x, y, base diameter)]) per plate."""
    listing = (folder / "plates.txt").read_text()
    blocks = listing.split("\n\n")
    plates = []
    for block in blocks:
        if match := PLATE.search(block):
            bases = [(float(x), float(y), float(d)) for _, x, y, d in PIECE.findall(block)]
            plates.append((match[1], int(match[2]), float(match[3]), bases))
    return plates


def _check_centred_with_margins(bases: list[tuple[float, float, float]]) -> None:
    low_x, high_x = min(x - d / 2 for x, _, d in bases), max(x + d / 2 for x, _, d in bases)
    low_y, high_y = min(y - d / 2 for _, y, d in bases), max(y + d / 2 for _, y, d in bases)
    assert min(low_x, low_y, BED_MM - high_x, BED_MM - high_y) >= EDGE_MM - 0.05  # plates.txt rounds to 0.1 mm
    assert (low_x + high_x) / 2 == pytest.approx(BED_MM / 2, abs=0.1)
    assert (low_y + high_y) / 2 == pytest.approx(BED_MM / 2, abs=0.1)


def _check_side(folder: Path, most: int) -> list[float]:
    """Every plate of a side: a few, none a lone piece, centred, its project's M600 where plates.txt says."""
    plates = _plates(folder)
    assert 1 <= len(plates) <= most and all(count >= 2 for _, count, _, _ in plates), plates
    for stem, count, z_mm, bases in plates:
        assert len(bases) == count
        _check_centred_with_margins(bases)
        project = read_plate_project(folder / f"{stem}.3mf")
        assert project.colour_changes_mm == (z_mm,)
        placed = [coordinate for _, x, y in project.pieces for coordinate in (x, y)]
        assert placed == pytest.approx([coordinate for x, y, _ in bases for coordinate in (x, y)], abs=0.05)
    assert "one filament change (M600) each, at z" in (folder / "plates.txt").read_text()
    return [z_mm for _, _, z_mm, _ in plates]


def test_a_chess_army_prints_on_three_plates_a_colour(tmp_path):
    result = CliRunner().invoke(cli, ["plate", "--army", "chess", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for side in ("white", "black"):
        changes = _check_side(tmp_path / "plates-50mm" / "army-chess" / side, most=3)
        assert changes == [75.0, 51.8, 27.8]  # King and Queen; Bishops, Rooks and Pawns; Knights (was 6 plates)


def test_a_dealt_army_prints_on_at_most_five_plates_a_side(tmp_path):
    deal = tmp_path / "d.json"
    assert CliRunner().invoke(cli, ["deal", "--seed", "42", "--save", str(deal)]).exit_code == 0
    result = CliRunner().invoke(cli, ["plate", "--deal", str(deal), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for side in ("white", "black"):  # 33 pieces a side, with the other side's doppelgangers (was 18 plates)
        assert len(_check_side(tmp_path / "plates-50mm" / "d" / side, most=5)) == 4  # crown, leaper, middle, horse


def test_the_starter_kit_prints_on_at_most_twelve_plates_a_colour_on_a_220_mm_bed():
    starter = load_catalogue().select(sets=["starter"])
    built = build_for_print(starter, ModelOptions())
    items = [(piece.id, piece.code, built[piece.id].diameter_mm) for piece in starter]
    plates: list[Plate] = plan_by_swap(items, {piece_id: b.swap for piece_id, b in built.items()})
    assert len(plates) <= 12 and min(len(plate.placements) for plate in plates) >= 2  # was 24, 12 of one piece
    assert sum(len(plate.placements) for plate in plates) == len(starter)
    for plate in plates:
        _check_centred_with_margins([(p.x_mm, p.y_mm, p.diameter_mm) for p in plate.placements])
        assert {built[p.piece_id].swap.z_mm for p in plate.placements} == {plate.swap.z_mm}
