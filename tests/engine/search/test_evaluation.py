"""The static evaluation's terms: hands as promotions to come, pawn bonuses weighed by what a promotion
gains, passed pawns and royal danger (White's view throughout)."""

from __future__ import annotations

import msgspec

from dealers_chess.engine.notation import parse_fen, parse_move
from dealers_chess.engine.search.evaluation import Evaluator, evaluator_for
from dealers_chess.engine.search.settings import settings


def white_view(fen: str, game: str, moves: tuple[str, ...] = ()) -> int:
    pos = parse_fen(fen, game)
    for text in moves:
        pos.push(parse_move(pos, text))
    score = evaluator_for(pos.types).evaluate(pos)
    return score if pos.turn == 0 else -score


def test_a_hand_is_worth_something_only_with_pawns_to_promote():
    bare = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert white_view(bare + " hand=Q", "dealers-8x8") == white_view(bare, "dealers-8x8")
    pawn = "4k3/8/8/8/8/8/P7/4K3 w - - 0 1"
    fraction = settings().evaluation.hand_fraction
    # one pawn: the best piece counts (the Rook does not); the pawn's passed bonus now counts as well
    assert white_view(pawn + " hand=QR", "dealers-8x8") - white_view(pawn, "dealers-8x8") >= round(fraction * 900)
    assert white_view(pawn + " hand=QR", "dealers-8x8") < white_view(pawn, "dealers-8x8") + round(fraction * 1300)


def test_promoting_from_the_hand_is_a_gain():
    before = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 hand=Q"
    after = white_view(before, "dealers-8x8", ("b7b8=Q",))
    assert after > white_view(before, "dealers-8x8") + 300


def test_a_pawns_advance_counts_by_what_its_promotion_gains():
    near, far = "4k3/8/1P6/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/1P6/8/4K3 w - - 0 1"
    # a hand with a Queen: the passed pawn near its zone is worth much more
    assert white_view(near + " hand=Q", "dealers-8x8") > white_view(far + " hand=Q", "dealers-8x8") + 40
    # an empty hand: a pawn on the last rank stays a pawn, so coming closer gains nothing
    assert white_view(near, "dealers-8x8") == white_view(far, "dealers-8x8")
    # chess promotes to a Queen from a list: as with the Queen in hand
    assert white_view(near, "chess") - white_view(far, "chess") == \
        white_view(near + " hand=Q", "dealers-8x8") - white_view(far + " hand=Q", "dealers-8x8")


def test_a_passed_pawn_is_worth_more_than_a_blocked_one():
    passed = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1"
    blocked = "4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1"
    free_black = "4k3/p7/8/3P4/8/8/8/4K3 w - - 0 1"  # the same black pawn on a file far away
    assert white_view(passed, "chess") > white_view(blocked, "chess")
    assert white_view(free_black, "chess") > white_view(blocked, "chess")


def test_pieces_attacking_around_the_royal_are_danger():
    # Queen (h5: f7, h7) and Knight (g5: f7, h7) reach the squares around Black's King, with the pieces on
    pos = parse_fen("r1bq1rk1/pppp1ppp/2n2n2/2b1p1NQ/2B1P3/2NP4/PPP2PPP/R1B2RK1 w - - 0 1", "chess")
    weights = settings().evaluation
    without = Evaluator(pos.types, msgspec.structs.replace(weights, royal_danger=0)).evaluate(pos)
    assert Evaluator(pos.types, weights).evaluate(pos) > without + 20
    quiet = parse_fen("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 1", "chess")
    assert Evaluator(quiet.types, weights).evaluate(quiet) == \
        Evaluator(quiet.types, msgspec.structs.replace(weights, royal_danger=0)).evaluate(quiet)
