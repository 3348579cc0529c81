"""How many print jobs an army takes in two colours on one nozzle, read back from plates.txt and the plate
projects: a chess army three plates a colour, a dealt 8x8 army five a side, the starter kit at most twelve a
colour on a 220 x 220 mm bed; each plate holds pieces of one set of filament changes (to the accent at the top
faces, and back to the body filament under horse heads), or pieces printed whole before a plate's further
change (plain leapers beside a horse-headed royal); its project makes exactly those changes; no plate holds a
lone piece; every plate centred with 10 mm clear of each edge."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d.model import ModelOptions, build_piece
from dealers_chess.printing.solids.built import build_for_print
from dealers_chess.printing.solids.colour_swap import ColourSwap, piece_colour_changes
from dealers_chess.printing.solids.plate_project import accent_hex, body_hex, read_plate_project
from dealers_chess.printing.solids.plates import EDGE_MM, Plate, plan_built, plan_by_changes
from tests.printing.plates_listing import ListedPlate, read_plates

BED_MM = 220.0
CATALOGUE = load_catalogue()


@cache
def _changes_and_height(piece_id: str) -> tuple[tuple[ColourSwap, ...], float]:
    """A piece's own filament changes at 50 mm squares, from its model, and its height."""
    model = build_piece(CATALOGUE.get(piece_id), ModelOptions(50.0))
    return piece_colour_changes(model), float(model.mesh()[0][:, 2].max())


def _check_may_share(own: tuple[ColourSwap, ...], height_mm: float, plate: tuple) -> None:
    """A piece's changes begin the plate's, and any further change starts after its highest point (in the
    layers as the slicer prints them: the change's layer starts at z - layer)."""
    assert [(c.layer, c.z_mm) for c in own] == [(c.layer, c.z_mm) for c in plate[:len(own)]], (own, plate)
    if len(plate) > len(own):
        further = plate[len(own)]
        assert height_mm <= further.z_mm * (further.layer - 1) / further.layer + 1e-3, (height_mm, further)


def _check_centred_with_margins(bases: list[tuple[float, float, float]]) -> None:
    low_x, high_x = min(x - d / 2 for x, _, d in bases), max(x + d / 2 for x, _, d in bases)
    low_y, high_y = min(y - d / 2 for _, y, d in bases), max(y + d / 2 for _, y, d in bases)
    assert min(low_x, low_y, BED_MM - high_x, BED_MM - high_y) >= EDGE_MM - 0.05  # plates.txt rounds to 0.1 mm
    assert (low_x + high_x) / 2 == pytest.approx(BED_MM / 2, abs=0.1)
    assert (low_y + high_y) / 2 == pytest.approx(BED_MM / 2, abs=0.1)


def _check_no_lone_piece(counts: list[int]) -> None:
    assert sum(counts) == 1 or min(counts) > 1, counts


def _check_side(folder: Path, side: str, most: int) -> list[ListedPlate]:
    """Every plate of a side: a few, centred, its pieces of one set of changes, its project's M600s those changes
    in the side's colours, as plates.txt names them."""
    plates = list(read_plates(folder).values())
    assert 1 <= len(plates) <= most
    _check_no_lone_piece([plate.count for plate in plates])
    colours = {"accent": accent_hex(side), "body": body_hex(side)}
    for plate in plates:
        assert len(plate.pieces) == plate.count
        _check_centred_with_margins([(x, y, d) for _, x, y, d in plate.pieces])
        for piece_id, *_ in plate.pieces:  # every piece on it is coloured by the plate's changes as by its own
            _check_may_share(*_changes_and_height(piece_id), plate.changes)
        project = read_plate_project(folder / f"{plate.stem}.3mf")
        assert project.colour_changes_mm == tuple(change.z_mm for change in plate.changes)
        assert project.change_colours == tuple(colours[change.filament] for change in plate.changes)
        assert [change.filament for change in plate.changes] == ["accent", "body"][:len(plate.changes)]
        placed = [coordinate for _, x, y in project.pieces for coordinate in (x, y)]
        assert placed == pytest.approx([coordinate for _, x, y, _ in plate.pieces for coordinate in (x, y)], abs=0.05)
    assert "filament changes (M600) at z" in (folder / "plates.txt").read_text()
    return plates


def test_a_chess_army_prints_on_three_plates_a_colour(tmp_path):
    result = CliRunner().invoke(cli, ["plate", "--army", "chess", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for side in ("white", "black"):
        plates = _check_side(tmp_path / "plates-50mm" / "army-chess" / side, side, most=3)
        # King and Queen; Bishops, Rooks and Pawns; Knights, back to the body filament for the horse heads
        assert [[(c.layer, c.z_mm) for c in plate.changes] for plate in plates] == [
            [(375, 75.0)], [(259, 51.8)], [(139, 27.8), (143, 28.6)]]
        assert [plate.count for plate in plates] == [2, 12, 2]  # was 6 plates


def test_a_dealt_army_prints_on_at_most_five_plates_a_side(tmp_path):
    deal = tmp_path / "d.json"
    assert CliRunner().invoke(cli, ["deal", "--seed", "42", "--save", str(deal)]).exit_code == 0
    result = CliRunner().invoke(cli, ["plate", "--deal", str(deal), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for side in ("white", "black"):  # 33 pieces a side, with the other side's doppelgangers (was 18 plates)
        plates = _check_side(tmp_path / "plates-50mm" / "d" / side, side, most=5)
        # crown, leaper, middle, horse; the Impala, a horse head on the middle level, with the pawns of its level
        # that are printed whole before its second change (it stood alone)
        assert [plate.count for plate in plates] == [2, 13, 5, 6, 7]
        assert "impala" in [piece_id for piece_id, *_ in plates[2].pieces] and len(plates[2].changes) == 2


def test_the_starter_kit_prints_on_at_most_twelve_plates_a_colour_on_a_220_mm_bed():
    starter = CATALOGUE.select(sets=["starter"])
    built = build_for_print(starter, ModelOptions())
    items = [(piece.id, piece.code, built[piece.id].diameter_mm) for piece in starter]
    plates: list[Plate] = plan_built(items, built)
    assert len(plates) <= 12  # was 24, 12 of one piece
    _check_no_lone_piece([len(plate.placements) for plate in plates])
    assert sum(len(plate.placements) for plate in plates) == len(starter)
    for plate in plates:
        _check_centred_with_margins([(p.x_mm, p.y_mm, p.diameter_mm) for p in plate.placements])
        for p in plate.placements:
            _check_may_share(built[p.piece_id].changes, built[p.piece_id].height_mm, plate.changes)


def test_a_piece_joins_a_plate_with_a_further_change_only_when_printed_whole_before_it():
    accent, back = ColourSwap(57.6, 289, 57.8, 0.2), ColourSwap(58.4, 293, 58.6, 0.2)
    changes = {"rex": (accent, back), "zebra": (accent,), "tall": (accent,)}
    heights = {"rex": 92.6, "zebra": 58.4, "tall": 58.6}
    items = [("rex", "X", 40.0)] + [("zebra", "Z", 36.0)] * 9 + [("tall", "T", 36.0)] * 3
    plates = plan_by_changes(items, changes, (220.0, 220.0), 6.0, 8, heights)
    assert [[p.piece_id for p in plate.placements].count("zebra") for plate in plates] == [5, 4]  # 6 and 7
    assert [plate.changes for plate in plates] == [(accent, back), (accent,)]
    assert all(p.piece_id != "tall" for p in plates[0].placements)  # it would print its top in the body colour
    alone = plan_by_changes(items, changes, (220.0, 220.0), 6.0, 8)  # without heights: nothing joins
    assert [len(plate.placements) for plate in alone] == [1, 6, 6]
