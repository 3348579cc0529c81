"""Dead positions end the game drawn (issue 20, audit 2 finding 4): decided from the movement, by a
search for any checkmate position once per kind of material; the orthodox cases agree with python-chess."""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealers_chess.engine.dead import MateQuestion, dead_position, mate_exists
from dealers_chess.engine.errors import NotationError
from dealers_chess.engine.notation import parse_fen, parse_move
from dealers_chess.engine.rules import Result, checkmated, outcome
from dealers_chess.engine.setup import start_position

DEAD = [
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),  # K v K
    ("chess", "4k3/8/8/8/8/8/8/3NK3 w - - 0 1"),  # K+N v K
    ("chess", "4k3/8/8/8/8/8/8/3BK3 b - - 0 1"),  # K+B v K
    ("chess", "2b1k3/8/8/8/8/8/8/3BK3 w - - 0 1"),  # K+B v K+B, both bishops on light squares
    ("chess", "4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1"),  # K+B+B v K, both on dark squares
    ("dealers-8x8", "4k3/8/8/8/8/8/8/3(FE)K3 w - - 0 1"),  # K+Ferz v K
    ("dealers-8x8", "4k3/8/8/8/8/8/8/3(WA)K3 w - - 0 1"),  # K+Wazir v K
    ("dealers-12x12", "6k5/12/12/12/12/12/12/12/12/12/12/5(FE)K5 w - - 0 1"),
    ("dealers-10x10", "4k5/10/10/10/10/10/10/10/10/3(WA)K5 b - - 0 1"),
    ("consuls", "3kk3/8/8/8/8/8/8/3KK3 w - - 0 1"),  # two kings a side can never give check
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/11/11/5K5 w - - 0 1"),
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/11/11/4BK5 w - - 0 1 hand=(DZ)(hy)"),  # Hyena, Dazzler only in hand
    ("spinal-tap", "5kb4/11/11/11/11/11/11/11/11/11/4BK5 w - - 0 1 hand=(DZ)(hy)"),
]
ALIVE = [
    ("chess", "4k3/8/8/8/8/8/8/3RK3 w - - 0 1"),  # K+R v K
    ("chess", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"),  # K+Q v K
    ("chess", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1"),  # K+P v K
    ("chess", "3bk3/8/8/8/8/8/8/3BK3 w - - 0 1"),  # bishops on different colours: a helpmate exists
    ("chess", "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1"),  # K+N+N v K (python-chess: not insufficient)
    ("chess", "4k3/8/8/8/8/8/8/2NBK3 w - - 0 1"),
    ("dealers-8x8", "4k3/8/8/8/8/8/8/3(GU)K3 w - - 0 1"),  # K+Guard v K: the Guard mates
    ("dealers-8x8", "4k3/8/8/8/8/8/8/3(PR)4 w - - 0 1"),  # the President is mated by a lone king (a1 / b2)
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/11/11/4(HY)K5 w - - 0 1"),  # a Hyena freezes the king: mate
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/11/11/4(DZ)K5 w - - 0 1"),  # a Dazzler: not searched
]


@pytest.mark.parametrize("game, fen", DEAD)
def test_material_that_can_never_mate_ends_the_game_drawn(game, fen):
    found = outcome(parse_fen(fen, game))
    assert found is not None and found.result is Result.DRAW and found.reason == "dead position"


@pytest.mark.parametrize("game, fen", ALIVE)
def test_material_that_can_mate_plays_on(game, fen):
    assert outcome(parse_fen(fen, game)) is None


def test_a_dead_position_is_reached_by_a_capture_and_needs_no_claim():
    pos = parse_fen("4k3/8/8/8/8/8/3r4/3NK3 w - - 0 1")
    assert outcome(pos) is None
    pos.push(parse_move(pos, "Kxd2"))
    assert outcome(pos).reason == "dead position"


def test_stalemate_with_dead_material_is_a_dead_position_as_in_python_chess():
    fen = "k7/2K5/1B6/8/8/8/8/8 b - - 0 1"  # stalemate, and K+B v K
    assert outcome(parse_fen(fen)).reason == "dead position"
    assert chess.Board(fen).outcome().termination is chess.Termination.INSUFFICIENT_MATERIAL


def test_the_search_finds_the_mate_of_a_guard_and_none_of_a_ferz():
    like = start_position("dealers-8x8")
    guard = MateQuestion(like.board, 0, "king", "king", "guard", True, frozenset(range(64)))
    ferz = MateQuestion(like.board, 0, "king", "king", "ferz", True, frozenset(range(64)))
    assert mate_exists(guard, like, checkmated)
    assert not mate_exists(ferz, like, checkmated)


def test_ordinary_positions_are_not_dead():
    for game in ("chess", "dealers-8x8", "dealers-12x12", "spinal-tap", "consuls"):
        assert not dead_position(start_position(game), checkmated)


PIECES = "NBRQP"


def random_small_position(rng: random.Random) -> str | None:
    """A legal-looking orthodox FEN: two kings and up to three pieces (pawns off the first and last rank)."""
    squares = rng.sample(range(64), 5)
    board = chess.Board(None)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for sq in squares[2:2 + rng.randint(0, 3)]:
        letter = rng.choice(PIECES)
        if letter == "P" and chess.square_rank(sq) in (0, 7):
            continue
        board.set_piece_at(sq, chess.Piece.from_symbol(letter if rng.random() < 0.5 else letter.lower()))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board.fen() if board.is_valid() else None


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_dead_positions_in_chess_are_python_chess_insufficient_material(seed):
    fen = random_small_position(random.Random(seed))
    if fen is None:
        return
    try:
        pos = parse_fen(fen)
    except NotationError:
        return
    board = chess.Board(fen)
    ours = outcome(pos)
    theirs = board.outcome()
    assert (ours and ours.reason) == (theirs and {
        chess.Termination.CHECKMATE: "checkmate", chess.Termination.STALEMATE: "stalemate",
        chess.Termination.INSUFFICIENT_MATERIAL: "dead position",
    }[theirs.termination]), fen
