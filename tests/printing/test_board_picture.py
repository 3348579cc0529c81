"""`dealer render --board`: a set-up standing on its board, checked on the PNG written (size, the squares'
colours, both palettes, perspective from the chair, a square board from the top), the renderer's board
scene (pieces built once, Black turned to face White, every board size in the picture) and the errors."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from dealers_chess.cli import cli
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d import render
from dealers_chess.pieces.model3d.render import BOARD_PALETTES, Placement, render_board
from dealers_chess.printing.solids.board_picture import BACKDROP

CATALOGUE = load_catalogue()
WIDTH = 400


def _render(tmp_path, *args: str, width: int = WIDTH) -> np.ndarray:
    out = tmp_path / "board.png"
    result = CliRunner().invoke(cli, ["render", "--board", *args, "--width", str(width), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(out)
    with Image.open(out) as image:
        assert image.mode == "RGB" and image.width == width
        return np.asarray(image).astype(int)


def _white_body(image: np.ndarray) -> np.ndarray:
    """Pixels of the white palette's body: light and nearly grey (a light square is far yellower)."""
    red, blue = image[..., 0], image[..., 2]
    return (red > 120) & (blue <= red) & (blue >= 0.8 * red)


def _black_body(image: np.ndarray) -> np.ndarray:
    """Pixels of the black palette's body: dark grey with a touch of blue (the outlines are neutral)."""
    red, green, blue = (image[..., k] for k in range(3))
    return (blue >= red + 2) & (np.abs(red - green) <= 1) & (blue < 60)


def _box(mask: np.ndarray) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) of a mask's pixels."""
    rows, cols = np.nonzero(mask)
    return int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max())


def _square_colours(image: np.ndarray) -> None:
    """The two commonest colours besides the backdrop are the light and dark squares' wood, shaded alike."""
    colours, counts = np.unique(image.reshape(-1, 3), axis=0, return_counts=True)
    common = [colours[i] for i in np.argsort(-counts) if tuple(colours[i]) != BACKDROP][:2]
    assert all(counts[np.all(colours == c, axis=1)][0] > 0.05 * image.shape[0] * image.shape[1] for c in common)
    light, dark = sorted(common, key=lambda c: -int(c.sum()))
    for colour, name in ((light, "light"), (dark, "dark")):
        ratios = colour / (np.array(BOARD_PALETTES[name].body) * 255)
        assert np.ptp(ratios) < 0.03, (name, colour)


def test_chess_from_white_s_chair_shows_the_near_army_larger(tmp_path):
    image = _render(tmp_path, "--game", "chess")
    assert image.shape[0] < image.shape[1]  # a board seen at 45 degrees is wider than tall
    _square_colours(image)
    white, black = _white_body(image), _black_body(image)
    assert white.sum() > 0.02 * white.size and black.sum() > 0.01 * black.size
    w_top, w_bottom, w_left, w_right = _box(white)
    b_top, b_bottom, b_left, b_right = _box(black)
    assert b_bottom < w_top  # Black's army stands beyond White's
    assert w_right - w_left > 1.3 * (b_right - b_left)  # nearer, so wider ...
    assert w_bottom - w_top > 1.05 * (b_bottom - b_top)  # ... and taller
    red, green, blue = (image[..., k] for k in range(3))
    assert ((red > green + 80) & (red > blue + 80)).sum() > 100  # White's diagrams in the accent colour


def test_chess_from_the_top_is_a_square_board_in_the_middle(tmp_path):
    image = _render(tmp_path, "--game", "chess", "--view", "top")
    height, width = image.shape[:2]
    assert height == width
    _square_colours(image)
    top, bottom, left, right = _box(np.any(image != BACKDROP, axis=2))
    assert abs((bottom - top) - (right - left)) <= 2
    assert abs((top + bottom) - (height - 1)) <= 2 and abs((left + right) - (width - 1)) <= 2
    assert right - left > 0.9 * width
    white, black = _box(_white_body(image)), _box(_black_body(image))
    assert white[3] - white[2] == pytest.approx(black[3] - black[2], abs=3)  # no perspective: rows alike
    assert black[1] < height / 2 < white[0]  # White at the bottom


def test_a_saved_deal_stands_on_its_board_named_after_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli, ["deal", "--seed", "42", "--save", "deal-42.json"]).exit_code == 0
    result = runner.invoke(cli, ["render", "--board", "--deal", "deal-42.json", "--width", "300"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "build/renders/board-deal-42-chair.png"
    with Image.open(tmp_path / "build/renders/board-deal-42-chair.png") as picture:
        image = np.asarray(picture).astype(int)
    assert image.shape[1] == 300
    assert _white_body(image).sum() > 200 and _black_body(image).sum() > 100


def test_each_piece_is_built_once_and_black_faces_white(monkeypatch):
    built = []
    model = render._model
    monkeypatch.setattr(render, "_model", lambda piece, square_mm: built.append(piece.id) or model(piece, square_mm))
    pawn = CATALOGUE.get("standard-pawn")
    placements = [Placement(pawn, 3, 3, "white"), Placement(pawn, 1, 3, "white"), Placement(pawn, 4, 5, "black")]
    image = render_board(placements, 8, 8, view="top", width_px=300).astype(int)
    assert built == ["standard-pawn"]
    red, green, blue = (image[..., k] for k in range(3))
    red_accent = (red > green + 80) & (red > blue + 80)
    gold_accent = (red > 120) & (green > 0.78 * red) & (blue < 0.52 * red)
    centre_row = {side: np.nonzero(mask)[0].mean() for side, mask in
                  (("white", _white_body(image)), ("black", _black_body(image)))}
    assert np.nonzero(red_accent)[0].mean() < centre_row["white"]  # a pawn's moves point forward: up the picture
    assert np.nonzero(gold_accent)[0].mean() > centre_row["black"]  # Black's point down it, towards White


@pytest.mark.parametrize("files, ranks", [(8, 8), (10, 10), (12, 12), (6, 9)])
@pytest.mark.parametrize("view", ["chair", "top"])
def test_every_board_size_fits_the_picture_with_a_margin(files, ranks, view):
    image = render_board([], files, ranks, view=view, width_px=200)
    drawn = image[..., 3] > 0
    top, bottom, left, right = _box(drawn)
    assert min(top, left) >= 2 and bottom <= image.shape[0] - 3 and right <= image.shape[1] - 3
    assert drawn.mean() > 0.4


@pytest.mark.parametrize("args, message, status", [
    ([], "a board takes its set-up from one of --game GAME or --deal FILE", 1),
    (["--game", "chess", "--deal", "deal.json"], "a board takes its set-up from one of", 1),
    (["--game", "chesss"], "unknown game 'chesss'", 1),
    (["--deal", "missing.json"], "missing.json: no such deal file", 1),
    (["--deal", "broken.json"], "broken.json: not valid JSON", 1),
    (["--game", "chess", "--view", "side"], "--view: 'side' is not one of 'chair', 'top'", 2),
    (["knight", "--game", "chess"], "--board draws a whole set-up in both colours: give it no PIECE_ID", 1),
    (["--lineup", "--game", "chess"], "--board draws a whole set-up in both colours", 1),
    (["--game", "chess", "--colour", "black"], "--board draws a whole set-up in both colours", 1),
    (["--game", "chess", "--square-mm", "0"], "a board's squares must be some mm across", 1),
])
def test_a_board_asked_for_wrongly_is_refused_in_one_line(tmp_path, monkeypatch, args, message, status):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.json").write_text("{oops")
    result = CliRunner().invoke(cli, ["render", "--board", *args, "--out", "x.png"])
    assert result.exit_code == status and result.output.startswith(f"error: {message}"), result.output
    assert result.output.count("\n") == 1 and not (tmp_path / "x.png").exists()


def test_view_without_board_is_refused():
    result = CliRunner().invoke(cli, ["render", "knight", "--view", "top"])
    assert result.exit_code == 1 and result.output == "error: --view chooses how a board is seen; add --board\n"
