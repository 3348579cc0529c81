"""`dealer render --lineup`: armies standing in a row, checked on the PNG written (size, one silhouette
per piece, at one scale) and the command's errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from dealers_chess.cli import cli
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d.model import ModelOptions, build_piece
from dealers_chess.printing.solids.lineup import BACKDROP, deal_board_pieces, lineup_order

CATALOGUE = load_catalogue()
SQUARE_PX = 60  # --width: pixels per 50 mm square
PX_PER_MM = SQUARE_PX / 50


def _silhouettes(band: np.ndarray, backdrop: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """(first column, width, height) of each run of columns that shows something other than the backdrop."""
    drawn = np.abs(band.astype(int) - np.array(backdrop)).sum(axis=2) > 30
    columns = drawn.any(axis=0)
    runs, start = [], None
    for x, on in enumerate([*columns, False]):
        if on and start is None:
            start = x
        elif not on and start is not None:
            rows = np.nonzero(drawn[:, start:x].any(axis=1))[0]
            runs.append((start, x - start, int(rows.max() - rows.min() + 1)))
            start = None
    return runs


def _render(tmp_path, *args: str) -> np.ndarray:
    out = tmp_path / "lineup.png"
    result = CliRunner().invoke(cli, ["render", "--lineup", *args, "--width", str(SQUARE_PX), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(out)
    with Image.open(out) as image:
        assert image.mode == "RGB"
        return np.asarray(image)


def _diameter_mm(piece_id: str) -> float:
    vertices, _ = build_piece(CATALOGUE.get(piece_id), ModelOptions(50.0, weight_pocket=False)).mesh()
    return float(np.ptp(vertices[:, 0]))


def test_the_orthodox_six_stand_in_a_row_king_tallest_pawn_shortest(tmp_path):
    image = _render(tmp_path, "--game", "chess")
    runs = _silhouettes(image, BACKDROP["white"])
    order = ["king", "queen", "rook", "bishop", "knight", "standard-pawn"]
    assert len(runs) == 6
    for (_, width, _), piece_id in zip(runs, order, strict=True):  # one scale: each silhouette as wide as its piece
        assert width == pytest.approx(_diameter_mm(piece_id) * PX_PER_MM, abs=3)
    heights = [height for _, _, height in runs]
    assert heights[0] == max(heights) and heights[-1] == min(heights) and heights[-1] < 0.75 * heights[0]
    gaps = [b[0] - (a[0] + a[1]) for a, b in zip(runs, runs[1:], strict=False)]
    assert min(gaps) >= 0.3 * 50 * PX_PER_MM - 3
    assert image.shape[1] == pytest.approx(runs[-1][0] + runs[-1][1] + runs[0][0], abs=2)  # centred
    red, green, blue = (image[..., k].astype(int) for k in range(3))
    accent = (red > green + 50) & (red > blue + 50)
    assert accent.sum() > 50  # the diagrams on top, in the second colour


def test_both_colours_are_two_rows_at_one_scale(tmp_path):
    image = _render(tmp_path, "--game", "chess", "--colour", "both")
    white_bg, black_bg = np.array(BACKDROP["white"]), np.array(BACKDROP["black"])
    split = int(np.nonzero((image[:, 0] == black_bg).all(axis=1))[0].min())
    assert (image[:split, 0] == white_bg).all() and (image[split:, 0] == black_bg).all()
    white, black = _silhouettes(image[:split], BACKDROP["white"]), _silhouettes(image[split:], BACKDROP["black"])
    assert len(white) == len(black) == 6
    assert [w for _, w, _ in white] == pytest.approx([w for _, w, _ in black], abs=2)


def test_pieces_named_keep_their_order_and_a_deal_shows_each_piece_a_side_starts_with(tmp_path):
    runs = _silhouettes(_render(tmp_path, "--piece", "standard-pawn", "--piece", "king"), BACKDROP["white"])
    assert len(runs) == 2 and runs[0][2] < runs[1][2] and runs[0][1] < runs[1][1]
    deal = tmp_path / "deal.json"
    assert CliRunner().invoke(cli, ["deal", "--seed", "3", "--save", str(deal)]).exit_code == 0
    board = deal_board_pieces(deal, CATALOGUE)["black"]
    data = json.loads(deal.read_text())["black"]
    assert {p.id for p in board} == {data["royal"], *data["back_rank"], *data["pawns"]}
    runs = _silhouettes(_render(tmp_path, "--deal", str(deal), "--colour", "black"), BACKDROP["black"])
    assert len(runs) == len(lineup_order(board))


@pytest.mark.parametrize("args, message", [
    (["--lineup"], "a line-up takes its pieces from one of --game GAME, --deal FILE or --piece ID"),
    (["--lineup", "--game", "chess", "--piece", "king"], "a line-up takes its pieces from one of"),
    (["--game", "chess"], "--game, --deal and --piece choose the pieces of a line-up; add --lineup"),
    ([], "render needs a PIECE_ID, or --lineup"),
    (["--lineup", "--piece", "kingg"], "unknown piece 'kingg'"),
    (["--lineup", "--deal", "missing.json"], "missing.json: no such deal file"),
])
def test_a_lineup_asked_for_wrongly_is_refused_in_one_line(tmp_path, args, message):
    result = CliRunner().invoke(cli, ["render", *args, "--out", str(tmp_path / "x.png")])
    assert result.exit_code == 1 and result.output.startswith(f"error: {message}"), result.output
    assert result.output.count("\n") == 1 and not (tmp_path / "x.png").exists()
