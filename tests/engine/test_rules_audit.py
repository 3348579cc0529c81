"""Every command of the rules audit (../shared/findings/rules-audit.md), run as a user runs it, with
the answer the seed asks for or the ruling docs/rulings.md documents. Numbers are the findings'."""

from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli


def dealer(*args):
    return CliRunner().invoke(cli, list(args))


def listed(game, fen, moves=None, battle=False):
    """`dealer moves GAME --fen FEN [--moves M] [--battle] --json` as a dict."""
    args = (["moves", game, "--fen", fen, "--json"] + (["--moves", moves] if moves else [])
            + (["--battle"] if battle else []))
    result = dealer(*args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def refused(game, fen, moves):
    """The one-line error of `dealer moves GAME --fen FEN --moves M`."""
    result = dealer("moves", game, "--fen", fen, "--moves", moves)
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1, result.output
    return result.output.strip()


def texts(data):
    return {row["move"] for row in data["moves"]}


# --- 1, 5, 7, 13: the battle move ---------------------------------------------------------------

DOUBLE_CHECK = "10k/11/11/9b1/11/11/4(STP)(STP)1(STP)3/r4K5/2(STP)2(STP)(STP)4/11/11 w - - 0 1"


def test_1_a_battle_move_that_interposes_both_checks_means_no_checkmate():
    data = listed("spinal-tap", DOUBLE_CHECK)
    assert data["check"] and data["moves"] == [] and data["outcome"] is None
    after = listed("spinal-tap", DOUBLE_CHECK, "c3c4&h5h6")
    assert after["turn"] == "black" and after["fen"].endswith("battle=w")
    assert dealer("perft", "spinal-tap", "--fen", DOUBLE_CHECK, "--depth", "1").output.split()[-1] == "0"
    with_battle = dealer("perft", "spinal-tap", "--fen", DOUBLE_CHECK, "--depth", "1", "--battle")
    assert with_battle.output.split()[-1] == "8"
    assert "c3c4&h5h6" in texts(listed("spinal-tap", DOUBLE_CHECK, battle=True))


def test_5_in_check_a_battle_move_must_interpose_capturing_the_checker_is_an_ordinary_move():
    fen = "5k5/11/11/11/11/11/11/4n6/(STP)2(STP)7/5K5/11 w - - 0 1"
    assert "interpose" in refused("spinal-tap", fen, "d3e4&a3a4")
    data = listed("spinal-tap", fen, battle=True)
    assert "d3e4" in texts(data) and not any("&" in m for m in texts(data))


def test_7_battle_moves_are_listed_and_counted_on_request():
    start = listed("spinal-tap", "r(sqr)(wz)(vi)qk(mn)(wz)(vi)(sqr)r/(ya)(te)(ck)(hy)3(ck)(dz)(te)(ya)/"
                                 "(stp)(stp)(stp)(stp)(cr)(cr)(cr)(stp)(stp)(stp)(stp)/11/11/11/11/11/"
                                 "(STP)(STP)(STP)(STP)(CR)(CR)(CR)(STP)(STP)(STP)(STP)/(YA)(TE)(CK)(HY)3(CK)(DZ)(TE)(YA)/"
                                 "R(SQR)(WZ)(VI)QK(MN)(WZ)(VI)(SQR)R w KQBJkqbj - 0 1")
    assert len(start["moves"]) == 147 and not any("&" in m for m in texts(start))
    assert dealer("perft", "spinal-tap", "--depth", "2").output.split()[-1] == "21017"
    with_battle = dealer("perft", "spinal-tap", "--depth", "1", "--battle").output.split()[-1]
    assert int(with_battle) == 147 + start_battle_moves()


def start_battle_moves() -> int:
    """Battle moves of the Spinal Tap start counted by hand: eight pawns step straight, the crabs on
    e3, f3, g3 straight or diagonally; two or more steps, no two onto one square."""
    steps = [["a"], ["b"], ["c"], ["d"], ["h"], ["i"], ["j"], ["k"], ["e", "d", "f"], ["f", "e", "g"], ["g", "f", "h"]]
    count = 0
    for choice in itertools.product(*[[None] + s for s in steps]):
        landing = [c for c in choice if c]
        count += len(landing) >= 2 and len(set(landing)) == len(landing)
    return count  # 8430


def test_13_a_battle_step_may_take_en_passant_and_a_chain_is_refused():
    fen = "5k5/11/11/11/11/11/3(STP)(stp)6/11/(STP)10/11/5K5 w - e8e7e6 0 1"
    assert {"move": "d5e6", "san": "dxe6"} in listed("spinal-tap", fen)["moves"]
    after = listed("spinal-tap", fen, "d5e6&a3a4")
    assert after["fen"].startswith("5k5/11/11/11/11/4(STP)6/11/(STP)10/11/11/5K5 b")  # the e5 pawn is gone
    assert "a3a4&d5e6" in texts(listed("spinal-tap", fen, battle=True))
    chain = "5k5/11/11/11/11/11/11/4(STP)6/4(STP)6/11/5K5 w - - 0 1"
    assert "not onto another's start" in refused("spinal-tap", chain, "e4e5&e3e4")


# --- 2, 3, 4, 8: who may move ---------------------------------------------------------------------

ROOKS_AND_SQUIRES = "R(SQR)3K3(SQR)R"


def test_2_a_frozen_or_dazzled_king_or_partner_cannot_castle():
    frozen_king = f"5k5/11/11/11/11/11/4(hy)6/11/11/11/{ROOKS_AND_SQUIRES} b KQBJ - 0 1"
    data = listed("spinal-tap", frozen_king, "e5e2")
    assert not any(m.startswith("f1") for m in texts(data))
    assert "frozen by the enemy Hyena on e2" in refused("spinal-tap", frozen_king, "e5e2,f1e1")
    frozen_partner = f"5k5/11/11/11/11/11/11/11/11/8(hy)2/{ROOKS_AND_SQUIRES} w KQBJ - 0 1"
    assert ("f1i1" not in texts(listed("spinal-tap", frozen_partner))
            and "f1c1" in texts(listed("spinal-tap", frozen_partner)))
    # a black Dazzler on a11 (dazzled pieces are those the enemy Dazzler jumped: rules audit 4, F3)
    dazzled_king = f"(dz)4k5/11/11/11/11/11/11/11/11/11/{ROOKS_AND_SQUIRES} w KQBJ - 0 1 dazzled=f1"
    assert not any(m.startswith("f1") for m in texts(listed("spinal-tap", dazzled_king)))
    dazzled_partner = f"(dz)4k5/11/11/11/11/11/11/11/11/11/{ROOKS_AND_SQUIRES} w KQBJ - 0 1 dazzled=j1"
    assert "f1i1" not in texts(listed("spinal-tap", dazzled_partner))
    assert "Squire on j1 was jumped" in refused("spinal-tap", dazzled_partner, "O-O")


def test_3_a_hyena_locked_by_a_hyena_and_jumped_by_the_dazzler_must_move():
    data = listed("spinal-tap", "k10/11/11/4(dz)6/11/3(hy)7/4(HY)6/11/4N6/11/10K b - - 0 1", "e8e3")
    assert data["moves"] and all(row["move"].startswith("e5") for row in data["moves"])
    control = listed("spinal-tap", "k10/11/11/4(dz)6/11/11/4(HY)6/11/4N6/11/10K b - - 0 1", "e8e3")
    assert len(control["moves"]) == 22 and all(row["move"].startswith("e5") for row in control["moves"])


def test_4_the_must_move_obligation_binds_battle_moves_and_is_named():
    fen = "k10/11/11/4(dz)6/11/11/4(HY)6/11/(STP)(STP)2N6/11/10K b - - 0 1"
    assert listed("spinal-tap", fen, "e8e3")["fen"].endswith("mustmove=e5")
    reason = "the Hyena on e5 was jumped by the enemy Dazzler and must move"
    assert reason in refused("spinal-tap", fen, "e8e3,a3a4&b3b4")
    assert reason in refused("spinal-tap", fen, "e8e3,a3a4")
    assert not any("&" in m for m in texts(listed("spinal-tap", fen, "e8e3", battle=True)))


def test_8_two_hyenas_locked_together_freeze_every_piece_around_them():
    fen = "k10/11/11/11/4n6/4(hy)6/4(HY)6/4N6/11/11/10K {} - - 0 1"
    assert texts(listed("spinal-tap", fen.format("w"))) == {"k1j1", "k1j2", "k1k2"}
    assert texts(listed("spinal-tap", fen.format("b"))) == {"a11a10", "a11b10", "a11b11"}
    assert "the Hyena on e5 is locked with an enemy Hyena" in refused("spinal-tap", fen.format("w"), "e4c3")


# --- 6, 10, 11, 12, 16, 18: pawns, promotion and royals ---------------------------------------------

ZOMBIE = "3(zo)3k/4P3/8/8/8/8/8/K7 w - - 0 1"


@pytest.mark.parametrize("extra,after", [
    ("hand=QR", "hand=QR"),
    ("hand=(MI)(mi) shared=(MI)", "hand=(MI)(mi) shared=(MI)"),
    ("draw=QRBN discard= deck=7.0", "draw=QRBN discard= deck=7.0"),
])
def test_6_a_pawn_taking_a_zombie_on_the_last_rank_becomes_one_and_spends_no_promotion(extra, after):
    data = listed("dealers-8x8", f"{ZOMBIE} {extra}")
    assert {row["move"]: row["san"] for row in data["moves"] if row["move"].startswith("e7d8")} == {"e7d8": "exd8"}
    played = listed("dealers-8x8", f"{ZOMBIE} {extra}", "e7d8")
    assert played["fen"] == f"3(ZO)3k/8/8/8/8/8/8/K7 b - - 0 1 {after}"
    assert "cannot promote to Q" in refused("dealers-8x8", f"{ZOMBIE} {extra}", "e7d8=Q")


def test_10_a_royal_may_not_take_a_zombie():
    fen = "k7/8/8/8/8/8/1(zo)6/K7 w - - 0 1"
    assert "a1b2" not in texts(listed("dealers-8x8", fen))
    assert "it would leave White without a royal piece" in refused("dealers-8x8", fen, "a1b2")


def test_11_a_retreat_or_a_sideways_move_sets_no_en_passant_square():
    after = listed("dealers-8x8", "k7/3n4/8/4(CP)3/3p4/8/8/K7 w - - 0 1", "e5e2")
    assert after["fen"].split()[3] == "-" and "d4e3" not in texts(after)
    arrow = listed("dealers-8x8", "k7/8/8/8/8/8/2(AP)5/K7 w - - 0 1", "c2e2")
    assert arrow["fen"].split()[3] == "-"
    forward = listed("dealers-8x8", "k7/8/8/8/8/8/2(AP)5/K7 w - - 0 1", "c2c4")
    assert forward["fen"].split()[3] == "c3"


def test_12_a_short_draw_stack_is_reshuffled_before_a_draw():
    data = listed("dealers-8x8", "k7/4P3/8/8/8/8/8/K7 w - - 0 1 draw=(CH)(AR) discard=(LI)(GU)(ZE) deck=42.0")
    promotions = {m for m in texts(data) if m.startswith("e7e8=")}
    assert len(promotions) == 3 and promotions <= {f"e7e8={c}" for c in ("CH", "AR", "LI", "GU", "ZE")}
    two = listed("dealers-8x8", "k7/4P3/8/8/8/8/8/K7 w - - 0 1 draw= discard=(LI)(CH) deck=42.0")
    assert {m for m in texts(two) if m.startswith("e7e8")} == {"e7e8=LI", "e7e8=CH"}


def test_16_a_yanzee_on_the_last_rank_does_not_promote_by_stepping_along_it():
    data = listed("spinal-tap", "(YA)4k5/11/11/11/11/11/11/11/11/11/5K5 w - - 0 1")
    assert {m for m in texts(data) if m.startswith("a11")} == {"a11a10", "a11b10", "a11b11"}
    arriving = listed("spinal-tap", "5k5/(YA)10/11/11/11/11/11/11/11/11/5K5 w - - 0 1")
    assert {"a10a11", "a10a11=Q", "a10a11=R", "a10a11=B", "a10a11=N"} <= texts(arriving)


@pytest.mark.parametrize("pawn", ["KP", "IP", "GP", "SV", "BP"])
def test_18_pawns_that_capture_straight_forward_take_en_passant(pawn):
    data = listed("dealers-8x8", f"k7/3(bp)4/8/2({pawn})5/8/8/8/K7 b - - 0 1", "d7b5")
    assert "c5c6/b5" in texts(data) or (pawn == "BP" and "c5c6" in texts(data))
    taken = "c5c6" if pawn == "BP" else "c5c6/b5"
    after = listed("dealers-8x8", f"k7/3(bp)4/8/2({pawn})5/8/8/8/K7 b - - 0 1", f"d7b5,{taken}")
    assert after["fen"].startswith(f"k7/8/2({pawn})5/8/8/8/8/K7 b")
    if pawn != "BP":  # the plain step forward stays a move of its own
        stepped = listed("dealers-8x8", f"k7/3(bp)4/8/2({pawn})5/8/8/8/K7 b - - 0 1", "d7b5,c5c6")
        assert stepped["fen"].startswith(f"k7/8/2({pawn})5/1(bp)6/8/8/8/K7 b")


# --- 9, 15, 19, 20: promotion, draws, impossible FENs, square colours -------------------------------


def test_9_spinal_tap_pawns_may_decline_promotion_like_the_yanzee():
    data = listed("spinal-tap", "k10/3(STP)7/11/11/11/11/11/11/11/11/10K w - - 0 1 hand=Q(DZ)")
    assert {m for m in texts(data) if m.startswith("d10")} == {"d10d11", "d10d11=Q", "d10d11=DZ"}
    yanzee = listed("spinal-tap", "5k5/(YA)10/11/11/11/11/11/11/11/11/5K5 w - - 0 1")
    assert {"a10a11", "a10a11=Q"} <= texts(yanzee)
    dealers = listed("dealers-8x8", "k7/4P3/8/8/8/8/8/K7 w - - 0 1 hand=Q")  # 004 keeps compulsory promotion
    assert {m for m in texts(dealers) if m.startswith("e7")} == {"e7e8=Q"}


def test_15_threefold_and_fifty_are_claims_as_in_standard_chess():
    shuffle = listed("constable-spiel", load_start("constable-spiel"), "a2a4,a7a5,a4a2,a5a7,a2a4,a7a5,a4a2,a5a7")
    assert shuffle["outcome"] is None and shuffle["claimable"] == "threefold repetition"
    fifty = listed("constable-spiel", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "a1a2")
    assert fifty["outcome"] is None and fifty["claimable"] == "fifty-move rule"
    text = dealer("moves", "constable-spiel", "--fen", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "--moves", "a1a2").output
    assert "may claim a draw (fifty-move rule)" in text


def load_start(game_id):
    from dealers_chess.engine.game import load_game

    return load_game(game_id).start


@pytest.mark.parametrize("game,fen,words", [
    ("consuls", "n2(CSP)2kn/8/8/8/8/8/3n4/K7 w - - 0 1", "black, not to move, is in check"),
    ("spinal-tap", "5k5/11/11/11/11/11/4(YA)r5/2n8/11/11/5K5 b - - 0 1", "white, not to move, is in check"),
    ("chess", "R3k3/8/8/8/8/8/8/4K2r w - - 0 1", "black, not to move, is in check"),
    ("chess", "8/8/8/3kK3/8/8/8/8 w - - 0 1", "black, not to move, is in check"),
    ("chess", "rnbqkbnr/pppp1ppp/8/4nP2/8/8/PPPPP1PP/RNBQKBNR w KQkq e6 0 3",
     "no enemy pawn that can be taken en passant"),
    ("chess", "rnbqk1nr/ppppbppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 3", "do not lie on a forward move"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", "no white royal stands inward of h1"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBRN w K - 0 1", "the Knight on h1 does not castle"),
    ("dealers-8x8", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 hand=Kk", "'K' is a royal piece"),
    ("dealers-8x8", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 draw=K discard= deck=1.0", "'K' is a royal piece"),
    ("chess", "8/8/8/8/8/8/8/K7 b - - 0 1", "black has no royal piece"),
])
def test_19_impossible_fens_are_refused_in_one_line(game, fen, words):
    result = dealer("moves", game, "--fen", fen)
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1
    assert words in result.output and fen[:20] in result.output


def test_20_square_colours_are_a_game_property():
    from dealers_chess.engine.game import load_game

    spinal, chess = load_game("spinal-tap"), load_game("chess")
    a1, b1 = 0, 1
    assert spinal.is_light(a1) and not spinal.is_light(b1)  # the seed's diagram marks b1, a2, ...
    assert not chess.is_light(a1) and chess.is_light(b1)
    teleports = listed("spinal-tap", "10k/11/11/11/11/11/11/11/11/11/(TE)4K5 w - - 0 1")
    assert len([m for m in texts(teleports) if m.startswith("a1")]) == 59  # relative: unchanged


# --- 14, 17: set-ups the seeds do not draw ------------------------------------------------------------


def test_14_constable_spiel_is_played_on_8x8_with_three_rows_a_side():
    start = listed("constable-spiel", load_start("constable-spiel"))
    assert start["fen"].startswith("rnbqkbnr/(wr)(ki)(px)(ff)(ff)(px)(ki)(wr)/pppppppp/8/8/PPPPPPPP/")
    assert {"a3a4", "a3a5"} <= texts(start)  # the pawns on rank 3 keep their double step


def test_17_four_symmetric_wad_arrays_protect_every_pawn_and_the_toolkits_is_one():
    from dealers_chess.engine.attacks import is_attacked
    from dealers_chess.engine.notation import parse_fen

    protecting = set()
    for left in set(itertools.permutations("CNB")):
        for middle in ("QK", "KQ"):
            row = "R" + "".join(left) + middle + "".join(reversed(left)) + "R"
            rank1 = "".join("(WAD)" if c == "C" else c for c in row)
            pos = parse_fen(f"k9/10/10/10/10/10/PPPPPPPPPP/{rank1} w - - 0 1", "wad-chess")
            if all(is_attacked(pos, pos.board.square(f, 1), 0) for f in range(10)):
                protecting.add(row)
    assert protecting == {"RCNBQKBNCR", "RCNBKQBNCR", "RBCNQKNCBR", "RBCNKQNCBR"}
    assert load_start("wad-chess").split("/")[-1].startswith("R(WAD)NBQKBN(WAD)R")
