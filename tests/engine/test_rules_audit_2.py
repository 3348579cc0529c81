"""Every command of the second rules audit (../shared/findings/rules-audit-2.md) and of the differential
fuzz (engine-differential-fuzz.md), run as a user runs it, with the answer the seed asks for or the
ruling docs/rulings.md documents (issue 20). Numbers are the audit's findings."""

from __future__ import annotations

import json

import chess
import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.engine.game import game_files, read_game_file
from dealers_chess.engine.notation import parse_fen
from dealers_chess.engine.rules import legal_moves


def dealer(*args, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def listed(game, fen=None, moves=None):
    """`dealer moves GAME [--fen FEN] [--moves M] --json` as a dict."""
    args = ["moves", game, "--json"] + (["--fen", fen] if fen else []) + (["--moves", moves] if moves else [])
    result = dealer(*args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def refused(game, fen, moves=None):
    """The one-line error of `dealer moves GAME --fen FEN [--moves M]`."""
    result = dealer("moves", game, "--fen", fen, *(["--moves", moves] if moves else []))
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1, result.output
    return result.output.strip()


def texts(data):
    return {row["move"] for row in data["moves"]}


# --- 1: the Patient Pawn's opening capture is an attack -------------------------------------------

def test_1_a_royal_may_not_step_into_the_patient_pawns_opening_capture(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # dealer play saves its record under build/games here, not in the repository
    fen = "8/8/8/8/8/2k5/4(PP)3/4K3 b - - 0 1"
    assert "c3d4" not in texts(listed("dealers-8x8", fen))
    played = dealer("play", "dealers-8x8", "--fen", fen, stdin="c3d4\ne2d4\n")
    assert "royal lost" not in played.output and played.output.strip().endswith("result: * (unfinished)")
    assert "it would leave Black's royal piece attacked" in refused("dealers-8x8", fen, "c3d4")
    assert "it would leave White's royal piece attacked" in refused("dealers-8x8", "4k3/2(pp)5/8/8/4K3/8/8/8 w - - 0 1",
                                                                    "e4d5")


def test_1_the_opening_capture_gives_check_and_the_fen_reader_sees_it():
    assert listed("dealers-8x8", "8/8/8/8/3k4/8/4(PP)3/4K3 b - - 0 1")["check"]
    assert "black, not to move, is in check" in refused("dealers-8x8", "8/8/8/8/3k4/8/4(PP)3/4K3 w - - 0 1")
    assert listed("dealers-12x12", "12/12/12/12/12/12/12/4k7/12/5(PP)6/12/6K5 b - - 0 1")["check"]
    discovered = listed("dealers-8x8", "8/8/8/8/3k4/4N3/4(PP)3/4K3 w - - 0 1", "e3g2")
    assert discovered["check"]
    before = listed("dealers-8x8", "8/8/8/8/3k4/4N3/4(PP)3/4K3 w - - 0 1")
    assert {"move": "e3g2", "san": "Ng2+"} in before["moves"]


def test_1_a_chicken_pawn_attacked_by_the_opening_capture_may_retreat():
    attacked = texts(listed("dealers-8x8", "k7/8/8/8/3(cp)4/8/4(PP)3/K7 b - - 0 1"))
    control = texts(listed("dealers-8x8", "k7/8/8/8/3(cp)4/4P3/8/K7 b - - 0 1"))
    retreats = {"d4d5", "d4d6", "d4d7", "d4d8", "d4e5", "d4f6", "d4g7", "d4h8", "d4c5", "d4b6", "d4a7"}
    assert retreats <= attacked and retreats <= control


# --- 2: identical shared extras ----------------------------------------------------------------

TWO_ROOKS = "11k/3PP7/12/12/12/12/12/12/12/12/12/K11 w - - 0 1 hand=RR(ab)rr shared=RR"


def test_2_identical_shared_extras_are_taken_one_copy_at_a_time():
    dealt = json.loads(dealer("deal", "--seed", "143", "--board", "12x12", "--json").output)
    assert dealt["shared"] == ["rook", "rook"]
    once = listed("dealers-12x12", TWO_ROOKS, "d11d12=R")["fen"]
    assert once.endswith("b - - 0 1 hand=R(ab)r shared=R")
    twice = listed("dealers-12x12", TWO_ROOKS, "d11d12=R,l12l11,e11e12=R")["fen"]
    assert twice.endswith("hand=(ab)")  # black has no Rook left to promote to
    own_copy = listed("dealers-12x12", TWO_ROOKS.replace("hand=RR", "hand=RRR"), "d11d12=R")["fen"]
    assert own_copy.endswith("hand=RR(ab)rr shared=RR")  # a captured copy is used first


def test_2_the_session_labels_each_copy_as_it_is_used(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # dealer play saves its record under build/games here, not in the repository
    played = dealer("play", "dealers-12x12", "--fen", TWO_ROOKS.replace("RR(ab)", "RRR(AB)"),
                    stdin="d11d12\nR\nl12l11\ne11e12\nR\n")
    out = played.output
    assert "R = Rook (from White's hand)" in out and "Rook (the shared extra)" in out.split("2. e12=R")[1]
    assert "R = Rook (shared extra: the other side loses it too)" in out
    assert "Black loses one copy of it too" in out


# --- 3: repetition counts e.p. squares only when a capture is legal --------------------------------

def test_3_threefold_and_fivefold_come_as_in_python_chess():
    cycle = ["g8f6", "g1f3", "f6g8", "f3g1"]
    moves = ["e2e4"] + cycle * 2
    assert listed("chess", moves=",".join(moves))["claimable"] == "threefold repetition"
    board = chess.Board()
    for m in moves:
        board.push_uci(m)
    assert board.can_claim_threefold_repetition() and board.is_repetition(3)
    assert listed("chess", moves=",".join(["e2e4"] + cycle * 4))["outcome"]["reason"] == "fivefold repetition"
    claimable = listed("dealers-8x8", "4k1n1/8/8/8/8/8/4P3/4K1N1 w - - 0 1", ",".join(moves))["claimable"]
    assert claimable == "threefold repetition"
    fuzz = "g1f3,d7d5,f3g1,g8f6,g1f3,f6g8,f3g1,g8f6,g1f3,f6g8"  # engine-differential-fuzz.md, mismatch 1
    assert listed("chess", moves=fuzz)["claimable"] == "threefold repetition"


# --- 4: dead positions ---------------------------------------------------------------------------

def test_4_dead_positions_end_the_game_drawn():
    for game, fen in [("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"), ("dealers-8x8", "4k3/8/8/8/8/8/8/3(FE)K3 w - - 0 1"),
                      ("chess", "8/8/8/4k3/8/8/8/4K3 w - - 0 1"), ("chess", "8/8/8/4k3/8/8/8/3BK3 w - - 0 1")]:
        assert listed(game, fen)["outcome"] == {"result": "1/2-1/2", "reason": "dead position"}
    assert "the game is over: 1/2-1/2 (dead position)" in refused("chess", "4k3/8/8/8/8/8/8/4K3 w - - 149 80", "e1e2")


# --- 5: the Dazzler's shield of its own royal -----------------------------------------------------

DAZZLER = "k10/11/8(vi)2/11/11/5K5/5(DZ)5/11/11/11/11 w - - 0 1"


def test_5_a_dazzler_may_shield_its_own_royal_for_one_turn_as_ruled():
    assert "f5f7" in texts(listed("spinal-tap", DAZZLER))
    after = listed("spinal-tap", DAZZLER, "f5f7")
    assert after["fen"].endswith("b - - 1 1 shielded=f6") and not after["check"]
    assert "e4e2" in texts(listed("spinal-tap", "k10/11/11/11/11/11/11/4(DZ)6/r3K6/11/11 w - - 0 1"))


def test_5_the_other_reading_is_one_game_file_key_away(tmp_path):
    text = next(path for path in game_files() if path.name == "spinal-tap.toml").read_text()
    assert "shield_royals = true" in text
    strict = tmp_path / "strict-tap.toml"
    strict.write_text(text.replace("shield_royals = true", "shield_royals = false")
                      .replace('id = "spinal-tap"', 'id = "strict-tap"'))
    game = read_game_file(strict)
    moves = {(m.frm, m.to) for m in legal_moves(parse_fen(DAZZLER, game))}
    f5, f7 = game.board.parse_square("f5"), game.board.parse_square("f7")
    assert (f5, f7) not in moves and moves


# --- 6: the Zabel Pawn with an empty hand ---------------------------------------------------------

def test_6_the_zabel_double_step_is_a_promotion_only():
    empty = "7k/8/4(ZP)3/8/8/8/8/K7 w - - 0 1"
    assert texts(listed("dealers-8x8", empty)) == {"a1a2", "a1b1", "a1b2", "e6e7"}
    assert "cannot move to e8" in refused("dealers-8x8", empty, "e6e8")
    assert "cannot move to e10" in refused("dealers-10x10", "9k/10/4(ZP)5/10/10/10/10/10/10/K9 w - - 0 1", "e8e10")
    with_hand = listed("dealers-8x8", empty + " hand=Q", "e6e8=Q")["fen"]
    assert with_hand.startswith("4Q2k/") and " - 0 1" in with_hand  # promoted, no e.p. square


# --- 7: FENs no game reaches ---------------------------------------------------------------------

@pytest.mark.parametrize("game, fen, words", [
    ("dealers-8x8", "7k/8/8/3(zo)P3/8/8/8/K7 w - d6 0 1", "the Zombie Pawn on d5 has no move from d7"),
    ("dealers-8x8", "7k/8/8/3(gp)P3/8/8/8/K7 w - d6 0 1", "the Gold Pawn on d5 has no move from d7"),
    ("chess", "4k3/8/8/8/k7/8/8/4K3 w - - 0 1", "black has 2 royal pieces; in Chess a side has at most 1"),
    ("spinal-tap", "k9k/11/11/11/11/11/11/11/11/11/5K5 w - - 0 1", "black has 2 royal pieces"),
])
def test_7_impossible_fens_are_refused(game, fen, words):
    assert words in refused(game, fen)


def test_7_possible_ones_are_still_read():
    assert listed("dealers-8x8", "7k/8/8/8/3(mo)4/8/8/K7 w - d6d5 0 1")["turn"] == "white"  # Mongolian three squares
    assert listed("dealers-8x8", "7k/8/8/3(pg)4/8/8/8/K7 w - c6@d5 0 1")["turn"] == "white"  # Piglet's leap
    assert listed("consuls", "3kk3/8/8/8/8/8/2P5/3KK3 w - - 0 1")["turn"] == "white"  # two kings a side


# --- the fuzz's export finding: the Piglet's opening leap in FSF ------------------------------------

def test_export_fsf_lists_a_pawn_whose_first_move_fsf_would_allow_again(tmp_path):
    deal = tmp_path / "s.json"
    assert dealer("deal", "--board", "simplified", "--seed", "279", "--save", str(deal)).exit_code == 0
    out = tmp_path / "s.ini"
    assert dealer("export", "fsf", "--deal", str(deal), "--out", str(out)).exit_code == 0
    text = out.read_text()
    assert "#   Piglet Pawn (PG): FSF allows its first moves (ifmA) again whenever it is back on its start rank" in text
