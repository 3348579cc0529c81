"""The piece-value model: orthodox calibration and sensible orderings."""

from __future__ import annotations

import pytest

from dealers_chess.engine.board import board_of
from dealers_chess.engine.measure.values import is_colour_bound, model_piece_value, piece_value
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.movement import parse_movement

CATALOGUE = load_catalogue()


def value(piece_id, size=8):
    return model_piece_value(CATALOGUE.get(piece_id), board_of(size, size))  # the model (the table: test_table_use)


@pytest.mark.parametrize(
    "piece_id, low, high",
    [("standard-pawn", 0.95, 1.05), ("knight", 2.95, 3.05), ("bishop", 3.0, 3.5), ("rook", 4.5, 5.5),
     ("queen", 8.9, 9.1)],
)
def test_orthodox_pieces_land_near_their_usual_values(piece_id, low, high):
    assert low <= value(piece_id) <= high


def test_compounds_are_worth_more_than_their_parts():
    assert value("chancellor") > value("rook") + value("knight") * 0.9
    assert value("archbishop") > value("bishop") and value("archbishop") < value("queen")
    assert value("lion") > value("squirrel") > value("dabbaba")


def test_long_range_pieces_gain_on_bigger_boards():
    assert value("queen", 12) > value("queen", 8) + 2
    assert value("nightrider", 12) - value("nightrider", 8) > value("knight", 12) - value("knight", 8)


def test_colour_binding():
    assert is_colour_bound(parse_movement("B")) and is_colour_bound(parse_movement("FA"))
    assert not is_colour_bound(parse_movement("WA")) and not is_colour_bound(parse_movement("N"))


def test_fixed_values_override_the_model():
    cannon = CATALOGUE.get("cannon")
    assert cannon.value == 3.5 and piece_value(cannon) == 3.5 and cannon.value_note


def test_every_piece_has_a_positive_value_on_every_dealers_board():
    for size in (8, 10, 12):
        assert all(piece_value(p, board_of(size, size)) > 0 for p in CATALOGUE)


def _mobility_on_every_square(movement, board) -> float:
    """The model's mobility computed square by square, without using the movement's symmetries."""
    from dealers_chess.engine.kernel import compile_movement
    from dealers_chess.engine.measure.values import _ray_worth

    total = 0.0
    for rays in compile_movement(movement, board):
        best: dict[int, float] = {}
        for ray in rays:
            if not ray.initial:
                for square, worth in _ray_worth(ray):
                    best[square] = max(best.get(square, 0.0), worth)
        total += sum(best.values())
    return total / board.size


@pytest.mark.parametrize("size", [(8, 8), (11, 11), (12, 12), (12, 10)])
def test_mobility_from_symmetric_squares_equals_every_square(size):
    """mobility() computes one square per set its symmetries join; the sum over all squares agrees."""
    from dealers_chess.engine.measure.values import mobility

    board = board_of(*size)
    for piece in CATALOGUE:
        expected = pytest.approx(_mobility_on_every_square(piece.movement, board), abs=1e-9)
        assert mobility(piece.movement, board) == expected, piece.id
