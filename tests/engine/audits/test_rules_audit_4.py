"""The referee items of the fourth rules audit (../shared/findings/rules-audit-4.md, issue 40 item A), with the
audit's move sequences and FENs: a Consuls king keeps its castling right when the other king passes between it
and its rook (F1), a right needs the partner the start puts on its square (F2), and special-state fields are
refused in games that cannot produce them (F3). The export's note on the fifty-move counter (F4) is tested with
the export in tests/engine/test_fsf.py."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.engine.errors import NotationError
from dealers_chess.engine.move import Kind
from dealers_chess.engine.notation import format_fen, parse_fen
from dealers_chess.engine.origins import castling_starts
from dealers_chess.engine.rules import legal_moves
from dealers_chess.engine.setup import start_position


def dealer_moves(game: str, *args: str) -> dict:
    result = CliRunner().invoke(cli, ["moves", game, "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def refused(game: str, fen: str) -> str:
    """The one-line error of `dealer moves GAME --fen FEN`, which names the FEN."""
    result = CliRunner().invoke(cli, ["moves", game, "--fen", fen])
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1, result.output
    assert fen in result.output
    return result.output.strip()


def castlings(data: dict) -> set[str]:
    return {row["san"] for row in data["moves"] if row["san"].startswith("O-O")}


# --- F1: The Consuls: the other king passing between a king and its rook takes no right -----------------------

PASSING = "e2e3,a7a6,f1d3,a6a5,d1e2,b7b6,e2f1"  # the d1 king walks to f1, between the e1 king and the h1 rook


def test_the_audit_king_passing_between_and_leaving_keeps_the_right():
    assert dealer_moves("consuls", "--moves", PASSING)["fen"].endswith("RNB1KKNR b Kkq - 1 4")
    left = dealer_moves("consuls", "--moves", PASSING + ",b6b5,f1e2")
    assert left["fen"].endswith("RNB1K1NR b Kkq - 1 5")
    ready = dealer_moves("consuls", "--moves", PASSING + ",b6b5,f1e2,b5b4,g1h3,a5a4")
    assert "O-O" in castlings(ready)


def test_the_audit_placement_castles_alike_from_the_game_and_from_its_fen():
    fen = ("rnbkkbnr/2(csp)(csp)(csp)(csp)(csp)(csp)/8/8/(csp)(csp)6/3B(CSP)2N/(CSP)(CSP)(CSP)(CSP)K(CSP)(CSP)(CSP)/"
           "RNB1K2R w Kkq - 2 7")
    played = dealer_moves("consuls", "--moves", PASSING + ",b6b5,f1e2,b5b4,g1h3,a5a4")
    assert played["fen"] == fen.replace(" 2 7", " 0 7")  # the audit's halfmove clock; a5a4 set it to 0
    assert castlings(dealer_moves("consuls", "--fen", fen)) == castlings(played) == {"O-O"}


def test_the_audit_mirror_case_keeps_the_d1_kings_right_with_a1():
    """The e1 king walks to d2, c1 and back to d2 (passing between the d1 king and a1): Q stays, K goes."""
    walked = "b2b3,a7a6,c1b2,a6a5,d2d3,b7b6,e1d2,b6b5,d2c1"
    assert dealer_moves("consuls", "--moves", walked)["fen"].endswith("RNKK1BNR b Qkq - 1 5")
    assert dealer_moves("consuls", "--moves", walked + ",h7h6,c1d2")["fen"].endswith("RN1K1BNR b Qkq - 1 6")


def test_a_king_leaving_its_own_start_square_still_loses_its_right():
    assert dealer_moves("consuls", "--moves", "e2e3,a7a6,e1e2")["fen"].endswith("RNBK1BNR b Qkq - 1 2")
    assert dealer_moves("consuls", "--moves", "d2d3,a7a6,d1d2")["fen"].endswith("RNB1KBNR b Kkq - 1 2")


@pytest.mark.parametrize("seed", range(12))
def test_consuls_rights_in_play_are_those_whose_rook_and_start_king_never_moved(seed):
    """Random games of The Consuls: after every move a right is kept exactly while neither its rook nor the king
    on the square where its king starts has moved (nor the rook been taken), FIDE 3.8.2 with two kings."""
    pos, rng = start_position("consuls"), random.Random(seed)
    starts = {**castling_starts(pos, 0), **castling_starts(pos, 1)}
    left: set[int] = set()  # squares a piece has left or been taken on
    for _ in range(120):
        moves = legal_moves(pos)
        if not moves:
            break
        castles = [m for m in moves if m.kind is Kind.CASTLE]
        move = rng.choice(castles if castles and rng.random() < 0.5 else moves)
        left |= {move.frm, move.to} | ({move.extra} if move.kind is Kind.CASTLE else set())
        pos.push(move)
        assert pos.castling == {p for p in starts if p not in left and starts[p] not in left}, format_fen(pos)


# --- F2: a castling right needs the partner the start puts on its square ----------------------------------------


def test_the_audit_squire_and_rook_on_each_others_squares_are_refused():
    message = refused("spinal-tap", "5k5/11/11/11/11/11/11/11/11/11/(SQR)R3K3R(SQR) w KQBJ - 0 1")
    assert "castling right 'K': Spinal Tap Chess starts white's Rook on k1, so the Squire there has moved" in message


@pytest.mark.parametrize("fen, ok", [
    ("5k5/11/11/11/11/11/11/11/11/11/R(SQR)3K3(SQR)R w KQBJ - 0 1", True),
    ("5k5/11/11/11/11/11/11/11/11/11/(SQR)R3K3R(SQR) w - - 0 1", True),  # no rights: any piece may stand there
    ("5k5/11/11/11/11/11/11/11/11/11/(SQR)R3K3(SQR)R w KJ - 0 1", True),
    ("5k5/11/11/11/11/11/11/11/11/11/(SQR)R3K3(SQR)R w Q - 0 1", False),  # a squire on a1
    ("5k5/11/11/11/11/11/11/11/11/11/(SQR)R3K3(SQR)R w B - 0 1", False),  # a rook on b1
    ("r(sqr)3k3r(sqr)/11/11/11/11/11/11/11/11/11/5K5 b j - 0 1", False),  # Black's rook on j11
])
def test_each_partner_castles_only_from_the_square_its_kind_starts_on(fen, ok):
    try:
        parse_fen(fen, "spinal-tap")
    except NotationError:
        assert not ok
    else:
        assert ok


def test_dealt_games_castle_with_any_corner_piece_still():
    assert parse_fen("4(sg)3/8/8/8/8/8/8/(CH)3(PR)2N w KQ - 0 1", "dealers-8x8").castling


# --- F3: special-state fields only where the game can produce them ---------------------------------------------


@pytest.mark.parametrize("game, fen, words", [
    # the audit's commands
    ("chess", "4k3/8/8/8/8/P7/8/4K3 w - - 0 1 pawnrank=3",
     "field 'pawnrank': only dealt games move the pawn row (an extra row of pieces), and Chess is not one; "
     "fields Chess allows: moved"),
    ("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 dazzled=a1e1", "field 'dazzled': only games with a Dazzler"),
    ("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 mustmove=e1", "field 'mustmove': only games with a Dazzler"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 hand=Q shared=Q draw=QQQ discard= deck=1.0 battle=w",
     "field 'hand': only games whose captures or promotions go through a hand"),
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/11/11/5K5 w - - 0 1 dazzled=d4 mustmove=f1",
     "the black Dazzler jumped on its last move, and black (who moved last) has no Dazzler"),
    # each field where it does not belong
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 deck=1.0", "field 'deck': only dealt games have the big deck"),
    ("consuls", "3kk3/8/8/8/8/8/8/3KK3 w - - 0 1 shared=Q", "field 'shared': only games with shared extras"),
    ("dealers-8x8", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 battle=w",
     "field 'battle': only games with a battle move record who made it, and Dealer's Chess 8x8 is not one; "
     "fields Dealer's Chess 8x8 allows: hand, shared, draw, discard, deck, pawnrank, moved, dazzled, shielded, "
     "mustmove"),
    ("wad-chess", "5k4/10/10/10/10/10/10/10/10/5K4 w - - 0 1 shielded=f1", "field 'shielded': only games with"),
    # Spinal Tap: the squares must be what the black Dazzler's last move left
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/11/5(dz)5/5K5 w - - 0 1 dazzled=d4",
     "dazzled d4: allowed are squares of white pieces other than Hyenas (jumped by the black Dazzler), "
     "and d4 holds nothing"),
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/11/5(dz)5/5K5 w - - 0 1 mustmove=f1",
     "mustmove f1: allowed are squares of white Hyenas (jumped by the black Dazzler), and f1 holds a white King"),
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/11/5(dz)5/5K5 w - - 0 1 shielded=f1",
     "shielded f1: allowed are squares of black pieces (jumped by the black Dazzler), and f1 holds a white King"),
    ("spinal-tap", "5k5/11/11/11/11/11/5(HY)5/11/11/5(dz)5/5K5 w - - 0 1 dazzled=f5", "f5 holds a white Hyena"),
])
def test_special_state_the_game_cannot_produce_is_refused_in_one_line(game, fen, words):
    assert words in refused(game, fen)


@pytest.mark.parametrize("game, fen", [
    ("chess", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1 moved=a2"),
    ("dealers-10x10", "4k5/10/10/10/10/4P5/10/10/10/4K5 b - e4 0 1 pawnrank=3"),
    ("dealers-8x8", "4k3/1P6/8/8/8/5p2/8/4K3 w - - 0 1 hand=Q(MI)(mi) shared=(MI) draw=QRBNN discard= deck=3.0"),
    ("spinal-tap", "5k5/11/11/11/11/11/5(HY)5/5(dz)5/5(YA)5/11/5K5 w - - 0 1 shielded=f4 mustmove=f5 battle=b"),
    ("spinal-tap", "5k5/11/11/11/11/11/5(TE)5/5(dz)5/11/11/5K5 w - - 0 1 hand=Q dazzled=f5"),
])
def test_special_state_the_game_can_produce_reads_back(game, fen):
    assert format_fen(parse_fen(fen, game)) == fen


def test_the_dazzle_state_left_by_a_dazzler_in_play_reads_back():
    """The rules audit's Hyena jumped by the Dazzler (e8e3 jumps e5): the FEN the game writes reads."""
    fen = "k10/11/11/4(dz)6/11/11/4(HY)6/11/(STP)(STP)2N6/11/10K b - - 0 1"
    played = dealer_moves("spinal-tap", "--fen", fen, "--moves", "e8e3")
    assert played["fen"].endswith("mustmove=e5")
    assert dealer_moves("spinal-tap", "--fen", played["fen"])["moves"] == played["moves"]
