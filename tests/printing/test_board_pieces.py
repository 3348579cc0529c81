"""The board page's pictures of the printed pieces: one square canvas, one scale for every piece, a side's own
pieces seen from behind and the other side's from the front, made once and cached."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.board_pieces import (
    BOARD_PIECE_PX,
    BoardPiece,
    board_piece_cache,
    board_piece_path,
    board_piece_png,
    cached_board_piece,
)

CATALOGUE = load_catalogue()


def _alpha(wanted: BoardPiece) -> np.ndarray:
    with Image.open(io.BytesIO(board_piece_png(wanted))) as image:
        assert image.size == (BOARD_PIECE_PX, BOARD_PIECE_PX) and image.mode == "RGBA"
        return np.asarray(image)[:, :, 3]


def _extent(alpha: np.ndarray) -> tuple[int, int, int]:
    """(height, width, bottom row + 1) of what the picture covers."""
    rows, columns = np.nonzero(alpha > 0)
    return int(rows.max() - rows.min() + 1), int(columns.max() - columns.min() + 1), int(rows.max() + 1)


def test_every_piece_stands_on_the_canvas_s_floor_at_one_scale():
    king, pawn = (_extent(_alpha(BoardPiece(CATALOGUE.get(i), "white"))) for i in ("king", "standard-pawn"))
    assert king[2] == pawn[2] == BOARD_PIECE_PX  # both stand on the bottom edge
    assert king[0] > 0.8 * BOARD_PIECE_PX  # the King nearly fills the square's height ...
    assert pawn[0] < 0.75 * king[0]  # ... and a Pawn stands well below it, as on the table


def test_a_side_s_own_knight_is_seen_from_behind_and_the_other_side_s_from_the_front():
    knight = CATALOGUE.get("knight")
    own, other = (_alpha(BoardPiece(knight, "white", chair)) for chair in ("white", "black"))
    assert not np.array_equal(own, other)  # the horse head looks the other way
    assert np.array_equal(_alpha(BoardPiece(knight, "black", "black")) > 0, own > 0)  # one shape, either colour


def test_a_picture_is_made_once_then_read_from_the_cache(tmp_path):
    wanted = BoardPiece(CATALOGUE.get("rook"), "black", "white")
    cache = board_piece_cache(tmp_path)
    assert cache == tmp_path / "render-cache" and cached_board_piece(wanted, cache) is None
    path, made_s = board_piece_path(wanted, cache)
    assert made_s > 0 and path.parent == cache and path.name.startswith("board-rook-black-from-white-")
    assert board_piece_path(wanted, cache) == (path, 0.0) and cached_board_piece(wanted, cache) == path
    other_chair = BoardPiece(wanted.piece, "black", "black")
    assert other_chair.file_name() != wanted.file_name()


@pytest.mark.parametrize("colour, chair", [("red", "white"), ("white", "north")])
def test_a_colour_or_chair_that_is_not_a_side_is_refused(colour, chair):
    with pytest.raises(DealerError, match="is not a side; use white or black"):
        BoardPiece(CATALOGUE.get("king"), colour, chair)
