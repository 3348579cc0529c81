"""Repetition as FIDE counts it (9.2.3): en-passant squares make a position different only when an
en-passant capture is legal. Checked move by move against python-chess on random orthodox games
that keep moving back and forth (issue 20, audit 2 finding 3)."""

from __future__ import annotations

import random

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from dealers_chess.engine.notation import format_fen, format_move, parse_fen, parse_move
from dealers_chess.engine.rules import claimable_draw, legal_moves, outcome, repetitions
from dealers_chess.engine.setup import start_position

REASONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "dead position",
    chess.Termination.SEVENTYFIVE_MOVES: "seventy-five-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
}


def played(moves: str, fen: str | None = None, game: str = "chess"):
    pos = parse_fen(fen, game) if fen else start_position(game)
    for text in moves.split(","):
        pos.push(parse_move(pos, text))
    return pos


def test_a_double_step_that_no_pawn_can_take_does_not_make_a_new_position():
    knights = "g8f6,g1f3,f6g8,f3g1"
    pos = played("e2e4," + knights + "," + knights)
    assert repetitions(pos) == 3 and claimable_draw(pos) == "threefold repetition"
    pos = played("g1f3,d7d5,f3g1,g8f6,g1f3,f6g8,f3g1,g8f6,g1f3,f6g8")
    assert claimable_draw(pos) == "threefold repetition"
    pos = played("e2e4," + ",".join([knights] * 4))
    assert outcome(pos).reason == "fivefold repetition"
    dealers = played("e2e4," + knights + "," + knights, "4k1n1/8/8/8/8/8/4P3/4K1N1 w - - 0 1", "dealers-8x8")
    assert claimable_draw(dealers) == "threefold repetition"


def test_a_legal_en_passant_capture_makes_the_position_different():
    # 1. c4 with a black pawn on d4: dxc3 e.p. is legal, so the position after c4 never recurs.
    fen = "4k1n1/8/8/8/3p4/8/2P5/4K1N1 w - - 0 1"
    knights = "g8f6,g1f3,f6g8,f3g1"
    pos = played("c2c4," + knights + "," + knights, fen)
    assert repetitions(pos) == 2 and claimable_draw(pos) is None
    assert claimable_draw(played("c2c4," + ",".join([knights] * 3), fen)) == "threefold repetition"


def test_an_en_passant_capture_that_would_expose_the_royal_does_not_count():
    # The d4 pawn is pinned to its king on d8 by the rook on d1: dxc3 e.p. is not legal.
    fen = "3k2n1/8/8/8/3p4/8/2P5/3RK1N1 w - - 0 1"
    knights = "g8f6,g1f3,f6g8,f3g1"
    pos = played("c2c4," + knights + "," + knights, fen)
    assert not any(format_move(pos, m) == "d4c3" for m in legal_moves(played("c2c4", fen)))
    assert repetitions(pos) == 3 and claimable_draw(pos) == "threefold repetition"


def random_game_checked(rng: random.Random, plies: int) -> None:
    """Play a random game that often undoes its side's last move, comparing every ply with python-chess."""
    pos, board = start_position("chess"), chess.Board()
    back = rng.uniform(0.5, 0.95)  # how often a side moves its last-moved piece straight back
    for _ in range(plies):
        ended = board.outcome()
        ours = outcome(pos)
        assert (ours and ours.reason) == (ended and REASONS[ended.termination]), (format_fen(pos), board.fen())
        if ended is not None:
            return
        assert (claimable_draw(pos) == "threefold repetition") == board.is_repetition(3), board.fen()
        legal = {format_move(pos, m).replace("=", "").lower(): m for m in legal_moves(pos)}
        assert set(legal) == {m.uci() for m in board.legal_moves}, board.fen()
        undo = _move_back(board) if rng.random() < back else None
        text = undo if undo in legal else rng.choice(sorted(legal))
        pos.push(legal[text])
        board.push_uci(text)


def _move_back(board: chess.Board) -> str | None:
    """The move that takes back the side to move's last move (its piece straight back), if there is one."""
    if len(board.move_stack) < 2:
        return None
    last = board.move_stack[-2]
    return chess.Move(last.to_square, last.from_square).uci()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_threefold_claims_and_fivefold_ends_agree_with_python_chess_on_random_games(seed):
    random_game_checked(random.Random(seed), 160)
