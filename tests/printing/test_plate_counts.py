"""How many print jobs an army takes in two colours on one nozzle, read back from plates.txt and the plate
projects: a chess army three plates a colour, a dealt 8x8 army five a side, the starter kit at most twelve a
colour on a 220 x 220 mm bed; each plate holds pieces of one set of filament changes (to the accent at the top
faces, and back to the body filament under horse heads), its project makes exactly those changes, and a plate
holds a lone piece only where no other piece shares its changes; every plate centred with 10 mm clear of each
edge."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d.model import ModelOptions, build_piece
from dealers_chess.printing.solids.built import build_for_print
from dealers_chess.printing.solids.colour_swap import ColourSwap, change_layers, piece_colour_changes
from dealers_chess.printing.solids.plate_project import accent_hex, body_hex, read_plate_project
from dealers_chess.printing.solids.plates import EDGE_MM, Plate, plan_by_changes
from tests.printing.plates_listing import ListedPlate, read_plates

BED_MM = 220.0
CATALOGUE = load_catalogue()


@cache
def _changes_of(piece_id: str) -> tuple[ColourSwap, ...]:
    """A piece's own filament changes at 50 mm squares, from its model."""
    return piece_colour_changes(build_piece(CATALOGUE.get(piece_id), ModelOptions(50.0)))


def _check_centred_with_margins(bases: list[tuple[float, float, float]]) -> None:
    low_x, high_x = min(x - d / 2 for x, _, d in bases), max(x + d / 2 for x, _, d in bases)
    low_y, high_y = min(y - d / 2 for _, y, d in bases), max(y + d / 2 for _, y, d in bases)
    assert min(low_x, low_y, BED_MM - high_x, BED_MM - high_y) >= EDGE_MM - 0.05  # plates.txt rounds to 0.1 mm
    assert (low_x + high_x) / 2 == pytest.approx(BED_MM / 2, abs=0.1)
    assert (low_y + high_y) / 2 == pytest.approx(BED_MM / 2, abs=0.1)


def _check_lone_pieces(plates: list[list[tuple[ColourSwap, ...]]]) -> None:
    """A plate holds a lone piece only where no other piece shares its changes (given each plate's pieces' changes)."""
    sharing = Counter(change_layers(changes) for plate in plates for changes in plate)
    assert all(sharing[change_layers(plate[0])] == 1 for plate in plates if len(plate) == 1), plates


def _check_side(folder: Path, side: str, most: int) -> list[ListedPlate]:
    """Every plate of a side: a few, centred, its pieces of one set of changes, its project's M600s those changes
    in the side's colours, as plates.txt names them."""
    plates = list(read_plates(folder).values())
    assert 1 <= len(plates) <= most
    _check_lone_pieces([[_changes_of(piece_id) for piece_id, *_ in plate.pieces] for plate in plates])
    colours = {"accent": accent_hex(side), "body": body_hex(side)}
    for plate in plates:
        assert len(plate.pieces) == plate.count
        _check_centred_with_margins([(x, y, d) for _, x, y, d in plate.pieces])
        for piece_id, *_ in plate.pieces:  # every piece on it changes filament at just the plate's layers
            assert [(c.layer, c.z_mm) for c in _changes_of(piece_id)] == [(c.layer, c.z_mm) for c in plate.changes]
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
        # crown, leaper, middle, horse; and the Impala, a horse head on the middle level, alone with its two changes
        assert [plate.count for plate in plates] == [2, 13, 1, 10, 7]
        assert plates[2].pieces[0][0] == "impala" and len(plates[2].changes) == 2


def test_the_starter_kit_prints_on_at_most_twelve_plates_a_colour_on_a_220_mm_bed():
    starter = CATALOGUE.select(sets=["starter"])
    built = build_for_print(starter, ModelOptions())
    items = [(piece.id, piece.code, built[piece.id].diameter_mm) for piece in starter]
    plates: list[Plate] = plan_by_changes(items, {piece_id: b.changes for piece_id, b in built.items()})
    assert len(plates) <= 12  # was 24, 12 of one piece
    _check_lone_pieces([[built[p.piece_id].changes for p in plate.placements] for plate in plates])
    assert sum(len(plate.placements) for plate in plates) == len(starter)
    for plate in plates:
        _check_centred_with_margins([(p.x_mm, p.y_mm, p.diameter_mm) for p in plate.placements])
        assert {built[p.piece_id].changes for p in plate.placements} == {plate.changes}
