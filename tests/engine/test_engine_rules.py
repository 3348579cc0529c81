"""Hand-built positions for the rules no other engine plays: castling geometries, hands, special pawns."""

from __future__ import annotations

import pytest

from dealers_chess.engine.attacks import in_check
from dealers_chess.engine.errors import IllegalMoveError, NotationError
from dealers_chess.engine.game import load_game
from dealers_chess.engine.notation import format_fen, format_move, format_san, parse_fen, parse_move
from dealers_chess.engine.rules import Result, battle_move, legal_moves, outcome
from dealers_chess.engine.setup import start_position


def pos_of(fen, game="dealers-8x8"):
    return parse_fen(fen, load_game(game))


def moves_from(pos, square):
    sq = pos.board.parse_square(square)
    return {format_move(pos, m) for m in legal_moves(pos) if m.frm == sq}


def play(pos, *texts):
    for text in texts:
        pos.push(parse_move(pos, text))
    return pos


# --- castling -------------------------------------------------------------------------------


@pytest.mark.parametrize("game,fen,king_side,queen_side", [
    ("dealers-8x8", "(wa)3(sg)2(ca)/8/8/8/8/8/8/(GU)3(RX)2(NR) w KQkq - 0 1",
     ("e1g1", "g1", "f1"), ("e1c1", "c1", "d1")),
    ("dealers-10x10", "(wa)3(sg)4(ca)/10/10/10/10/10/10/10/10/(GU)3(RX)4(NR) w KQkq - 0 1",
     ("e1i1", "i1", "h1"), ("e1c1", "c1", "d1")),
    ("dealers-12x12", "(wa)5(sg)4(ca)/12/12/12/12/12/12/12/12/12/12/(GU)5(RX)4(NR) w KQkq - 0 1",
     ("g1k1", "k1", "j1"), ("g1c1", "c1", "d1")),
])
def test_dealers_castling_with_any_corner_piece_lands_as_in_chess_counted_from_the_corner(game, fen, king_side,
                                                                                          queen_side):
    for text, royal_to, partner_to in (king_side, queen_side):
        pos = pos_of(fen, game)
        assert text in moves_from(pos, text[:2])
        royal = pos.piece[pos.board.parse_square(text[:2])]
        partner_from = "a1" if royal_to == "c1" else pos.board.name(pos.board.files - 1)
        partner = pos.piece[pos.board.parse_square(partner_from)]
        play(pos, text)
        assert pos.piece[pos.board.parse_square(royal_to)] == royal
        assert pos.piece[pos.board.parse_square(partner_to)] == partner
        assert not any(sq < pos.board.files for sq in pos.castling)


def test_castling_is_refused_through_an_attacked_square_out_of_check_or_over_pieces():
    attacked = pos_of("4(sg)1r1/8/8/8/8/8/8/R3(PR)2(NR) w KQ - 0 1")  # rook g8 hits g1
    assert {m.extra for m in legal_moves(attacked) if m.kind == 2} == {0}
    assert any(m.kind == 2 for m in legal_moves(pos_of("4(sg)3/8/8/8/8/8/8/R3(PR)2(NR) w KQ - 0 1")))
    in_check = pos_of("4(sg)3/8/8/8/8/8/8/R3(PR)1r(NR) w KQ - 0 1")
    assert not any(m.kind == 2 for m in legal_moves(in_check))
    blocked = pos_of("4(sg)3/8/8/8/8/8/8/RN2(PR)2(NR) w KQ - 0 1")
    assert not any(m.kind == 2 and m.extra == 0 for m in legal_moves(blocked))


def test_a_president_castling_and_sliding_to_the_same_square_are_told_apart():
    pos = pos_of("4(sg)3/8/8/8/8/8/8/4(PR)2(NR) w K - 0 1")
    texts = moves_from(pos, "e1")
    assert {"e1g1", "e1g1/h1"} <= texts
    assert parse_move(pos, "e1g1/h1").kind == 2 and parse_move(pos, "e1g1").kind == 0
    assert parse_move(pos, "O-O").kind == 2


def test_free_castling_leaps_to_any_empty_unattacked_square_between():
    pos = pos_of("4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", "constable-spiel")
    castles = {format_move(pos, m) for m in legal_moves(pos) if m.kind == 2}
    assert castles == {"e1b1", "e1c1", "e1d1/a1", "e1f1/h1"}
    play(pos, "e1c1")
    assert pos.piece_at(pos.board.parse_square("e1"))[0] == "rook"
    assert pos.piece_at(pos.board.parse_square("a1")) is None


def test_consuls_each_king_castles_with_the_rook_on_its_side_as_if_king_side():
    pos = pos_of("r2kk2r/8/8/8/8/8/8/R2KK2R w KQkq - 0 1", "consuls")
    castles = {format_move(pos, m) for m in legal_moves(pos) if m.kind == 2}
    assert castles == {"d1b1", "e1g1"}
    play(pos, "d1b1")
    assert pos.piece_at(pos.board.parse_square("c1"))[0] == "rook"


def test_spinal_tap_castles_with_rook_or_squire():
    game = load_game("spinal-tap")
    pos = parse_fen("5k5/11/11/11/11/11/11/11/11/11/R(SQR)3K3(SQR)R w KQBJ - 0 1", game)
    castles = {format_move(pos, m) for m in legal_moves(pos) if m.kind == 2}
    assert castles == {"f1c1", "f1i1"}  # squires; the rooks are blocked by them
    pos = parse_fen("5k5/11/11/11/11/11/11/11/11/11/R4K4R w KQ - 0 1", game)
    assert {format_move(pos, m) for m in legal_moves(pos) if m.kind == 2} == {"f1b1", "f1j1"}


# --- two royals -----------------------------------------------------------------------------


def test_consuls_fork_and_skewer_are_mate():
    fork = pos_of("6kk/8/8/8/8/1n6/8/K1K5 w - - 0 1", "consuls")  # the knight forks a1 and c1
    assert in_check(fork, fork.turn)
    assert outcome(fork).reason == "checkmate" and outcome(fork).result is Result.BLACK_WINS
    skewer = pos_of("6kk/8/8/8/8/8/8/K1K4r w - - 0 1", "consuls")  # the rook skewers c1 and a1
    assert in_check(skewer, skewer.turn) and outcome(skewer).reason == "checkmate"
    blocked = pos_of("6kk/8/8/8/8/4B3/8/K1K4r w - - 0 1", "consuls")
    assert outcome(blocked) is None and {format_move(blocked, m) for m in legal_moves(blocked)} == {"e3g1"}


# --- promotion, hands and decks ------------------------------------------------------------


def test_dealers_pawn_promotes_to_a_piece_in_hand_and_captures_go_to_hand():
    pos = pos_of("(sg)6n/4P3/8/8/8/8/8/4(PR)3 w - - 0 1 hand=Q(CH)")
    assert moves_from(pos, "e7") == {"e7e8=Q", "e7e8=CH"}
    play(pos, "e7e8=CH")
    assert pos.hands[0] == ("queen",)
    pos.pop()
    pos = pos_of("(sg)6n/8/8/8/8/8/5P2/4(PR)1N1 b - - 0 1")
    play(pos, "h8g6", "f2f3", "g6e5", "f3f4", "e5f3", "g1f3")
    assert pos.hands[0] == ("knight",)


def test_a_pawn_with_an_empty_hand_stays_a_pawn_on_the_last_rank():
    pos = pos_of("(sg)7/4P3/8/8/8/8/8/4(PR)3 w - - 0 1")
    assert moves_from(pos, "e7") == {"e7e8"}


def test_promoting_to_a_shared_extra_takes_it_from_the_other_hand():
    pos = pos_of("(sg)7/4P3/8/8/8/8/8/4(PR)3 w - - 0 1 hand=(MI)(PX)(mi)(px) shared=(MI)(PX)")
    play(pos, "e7e8=MI")
    assert pos.hands == [("phoenix",), ("phoenix",)] and pos.shared == ("phoenix",)
    assert "shared=(PX)" in format_fen(pos)


def test_big_deck_draws_three_discards_two_and_reshuffles():
    pos = start_position("dealers-8x8", {"e1": ("president", "white"), "a8": ("shogun", "black"),
                                         "e7": ("standard-pawn", "white")},
                         draw_stack=["queen", "knight", "gnu", "camel", "zebra"], deck_seed=5)
    choices = {m.promotion for m in legal_moves(pos) if m.promotion}
    assert choices == {"queen", "knight", "gnu"}
    play(pos, "e7e8=N")
    assert pos.deck.shuffles == 1 and sorted(pos.deck.draw) == ["camel", "gnu", "queen", "zebra"]
    again = parse_fen(format_fen(pos), pos.game)
    assert again.deck == pos.deck


def test_spinal_tap_promotes_only_to_pieces_its_side_has_lost():
    game = load_game("spinal-tap")
    pos = parse_fen("5k5/1(STP)9/11/11/11/11/11/11/5K5/1q9/1(VI)9 b - - 0 1", game)
    play(pos, "b2b1")  # the queen takes the viceroy: White may now promote to it
    assert pos.hands[0] == ("viceroy",)
    assert moves_from(pos, "b10") == {"b10b11", "b10b11=VI"}  # promoting is optional ("may")


def test_yanzee_may_promote_to_queen_rook_bishop_or_knight_and_is_uncapturable():
    game = load_game("spinal-tap")
    pos = parse_fen("k10/5(YA)5/11/11/11/11/11/11/11/11/5K5 w - - 0 1", game)
    assert {"f10f11", "f10f11=Q", "f10f11=R", "f10f11=B", "f10f11=N"} <= moves_from(pos, "f10")
    pos = parse_fen("k10/11/11/11/11/11/11/11/11/5K5/(YA)9r b - - 0 1", game)
    assert "k1a1" not in moves_from(pos, "k1")


def test_mecklenbeck_promotes_on_the_opponents_pawn_row():
    pos = pos_of("(sg)7/8/4(MP)3/8/8/8/8/4(PR)3 w - - 0 1 hand=Q")
    assert moves_from(pos, "e6") == {"e6e7=Q"}


def test_zabel_double_step_only_onto_the_last_rank():
    pos = pos_of("(sg)7/8/4(ZP)3/8/8/8/3(ZP)4/4(PR)3 w - - 0 1 hand=Q")
    assert moves_from(pos, "d2") == {"d2d3"}
    assert moves_from(pos, "e6") == {"e6e7", "e6e8=Q"}


# --- en passant ------------------------------------------------------------------------------


def test_mongolian_triple_step_can_be_taken_on_either_square_passed():
    pos = pos_of("(sg)7/8/8/8/1p6/8/(MO)7/4(PR)3 w - - 0 1")
    play(pos, "a2a5")
    assert format_fen(pos).split()[3] == "a3a4"
    pos = pos_of("(sg)7/8/8/8/1p6/8/(MO)7/4(PR)3 w - - 0 1")
    play(pos, "a2a4")
    assert "b4a3" in moves_from(pos, "b4")
    play(pos, "b4a3")
    assert pos.piece_at(pos.board.parse_square("a4")) is None


def test_torpedo_two_step_is_taken_en_passant_any_time_but_horse_pawns_never():
    pos = pos_of("(sg)7/8/8/8/1p6/8/(TP)7/4(PR)3 w - - 0 1 moved=a2")
    play(pos, "a2a4")
    assert "b4a3" in moves_from(pos, "b4")
    pos = pos_of("(sg)7/8/8/8/1p6/(TP)7/8/4(PR)3 w - - 0 1")
    play(pos, "a3a5")
    assert format_fen(pos).split()[3] == "a4"
    horse = pos_of("(sg)7/8/8/8/8/8/8/(HP)3(PR)3 w - - 0 1")
    play(horse, "a1b3")
    assert horse.ep == ()
    pos = pos_of("(sg)7/8/8/8/8/8/1(TP)6/4(PR)3 w - - 0 1 moved=b2")
    play(pos, "b2b4")
    assert format_fen(pos).split()[3] == "b3"


def test_berolina_diagonal_double_step_names_its_pawn_in_the_fen():
    pos = pos_of("(sg)7/8/8/8/2p5/8/2(BP)5/4(PR)3 w - - 0 1")
    play(pos, "c2e4")
    assert format_fen(pos).split()[3] == "d3@e4"
    assert format_fen(parse_fen(format_fen(pos), pos.game)) == format_fen(pos)


# --- special pawns and pieces ----------------------------------------------------------------


def test_chicken_retreats_only_while_attacked():
    calm = pos_of("(sg)7/8/8/3(CP)4/8/8/8/4(PR)3 w - - 0 1")
    assert moves_from(calm, "d5") == {"d5d6"}
    attacked = pos_of("(sg)7/8/4p3/3(CP)4/8/8/8/4(PR)3 w - - 0 1")
    got = moves_from(attacked, "d5")
    assert {"d5d6", "d5e6", "d5d4", "d5d1", "d5c4", "d5a2", "d5f3"} <= got and "d5b3" in got


def test_linebacker_pushes_instead_of_capturing():
    pos = pos_of("(sg)7/8/8/4n3/3(LB)4/8/8/4(PR)3 w - - 0 1")
    assert "d4e5" in moves_from(pos, "d4")
    play(pos, "d4e5")
    assert pos.piece_at(pos.board.parse_square("f6")) == ("knight", 1)
    assert pos.hands == [(), ()]
    wall = pos_of("(sg)7/8/5n2/4n3/3(LB)4/8/8/4(PR)3 w - - 0 1")
    assert "d4e5" not in moves_from(wall, "d4")


def test_zombie_turns_its_captor_into_a_zombie_pawn_and_a_royal_may_not_take_it():
    pos = pos_of("(sg)7/8/8/8/8/3(zo)4/8/2N1(PR)3 w - - 0 1")
    play(pos, "c1d3")
    assert pos.piece_at(pos.board.parse_square("d3")) == ("zombie-pawn", 0)
    # rulings.md: a move that leaves its side without a royal is illegal, like moving into check
    royal = pos_of("(sg)7/8/8/8/8/8/4(zo)3/4(PR)3 w - - 0 1")
    assert "e1e2" not in moves_from(royal, "e1")
    with pytest.raises(IllegalMoveError, match="without a royal piece"):
        play(royal, "e1e2")


def test_left_end_pawn_bends_right_and_black_mirrors():
    white = pos_of("(sg)7/8/8/8/8/8/3(LE)4/4(PR)3 w - - 0 1 moved=d2")
    assert moves_from(white, "d2") == {"d2d3", "d2e4", "d2f3"}
    black = pos_of("(sg)7/4(le)3/8/8/8/8/8/4(PR)3 b - - 0 1 moved=e7")
    assert moves_from(black, "e7") == {"e7e6", "e7d5", "e7c6"}


def test_patient_pawn_opening_capture_and_piglet_retreat():
    patient = pos_of("(sg)7/8/8/8/2p5/8/3(PP)4/4(PR)3 w - - 0 1")
    assert {"d2c4", "d2d3", "d2d4"} <= moves_from(patient, "d2")
    piglet = pos_of("(sg)7/8/8/3(PG)4/8/8/8/4(PR)3 w - - 0 1")
    got = moves_from(piglet, "d5")
    assert got == {"d5c6", "d5e6", "d5c4", "d5d4", "d5e4"}


def test_twelve_by_twelve_long_leapers_and_bent_riders():
    game = "dealers-12x12"
    pos = pos_of("(sg)11/12/12/12/12/12/5(GI)6/12/12/12/12/5(RX)6 w - - 0 1", game)
    got = {t[2:] for t in moves_from(pos, "f6")}
    assert got == {"e10", "g10", "e2", "g2", "b5", "b7", "j5", "j7"}
    antelope = pos_of("(sg)11/12/12/12/12/12/5(AN)6/12/12/12/12/5(RX)6 w - - 0 1", game)
    got = {t[2:] for t in moves_from(antelope, "f6")}
    assert got == {"c2", "i2", "c10", "i10", "b3", "j3", "b9", "j9"}
    gryffon = pos_of("(sg)11/12/12/12/12/12/12/12/12/12/12/(GR)4(RX)6 w - - 0 1", game)
    got = {t[2:] for t in moves_from(gryffon, "a1")}
    assert got == {f"b{r}" for r in range(2, 13)} | {c + "2" for c in "cdefghijkl"}
    blocked = pos_of("(sg)11/12/12/12/12/12/12/12/12/12/2n9/(GR)4(RX)6 w - - 0 1", game)
    assert {t[2:] for t in moves_from(blocked, "a1")} == {f"b{r}" for r in range(2, 13)} | {"c2"}


def test_hyena_freezes_adjacent_enemies_and_cannot_be_taken():
    game = load_game("spinal-tap")
    pos = parse_fen("5k5/11/11/11/11/11/4n6/3(HY)7/11/11/5K5 b - - 0 1", game)
    assert moves_from(pos, "e5") == set()
    pos = parse_fen("5k5/11/11/11/11/11/11/3(HY)7/5K5/11/3r7 b - - 0 1", game)
    assert "d1d4" not in moves_from(pos, "d1")


def test_teleporter_jumps_to_any_empty_square_of_the_other_colour():
    game = load_game("spinal-tap")
    pos = parse_fen("10k/11/11/11/11/11/11/11/11/11/(TE)4K5 w - - 0 1", game)
    got = moves_from(pos, "a1")
    assert len(got) == 59  # the 60 light squares but the king's
    assert all(pos.board.is_light(pos.board.parse_square(t[2:])) for t in got)


def test_dazzler_jump_freezes_the_enemy_and_shields_the_friend():
    game = load_game("spinal-tap")
    pos = parse_fen("10k/11/11/11/11/11/11/11/4n6/4(DZ)6/5K5 w - - 0 1", game)
    play(pos, "e2e4")
    assert pos.dazzled == {pos.board.parse_square("e3")}
    assert moves_from(pos, "e3") == set()
    assert format_fen(parse_fen(format_fen(pos), game)) == format_fen(pos)


def test_consuls_pawn_captures_by_rank_and_arena_kings():
    pos = pos_of("6kk/8/8/3(CSP)n3/8/8/8/K1K5 w - - 0 1", "consuls")
    assert "d5e5" in moves_from(pos, "d5")  # 5th rank: captures like a king, sideways
    arena = pos_of("(AK)2(ak)/3(ak)/4/(AK)3 b - - 0 1", "consuls-arena")
    assert in_check(arena, arena.turn)  # 4th rank: the a4 king captures like a rook, so it checks d4
    arena = pos_of("(AK)3/3(ak)/3(ak)/(AK)3 w - - 0 1", "consuls-arena")
    assert moves_from(arena, "a4") == {"a4a3", "a4b4"}  # a king step without capture; b3 is attacked by d2


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fen,words", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling right 'K'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "en-passant"),
    ("rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'X'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 colour=red", "unknown field"),
])
def test_a_malformed_fen_names_the_input_and_the_reason(fen, words):
    with pytest.raises(NotationError) as error:
        parse_fen(fen)
    assert fen in str(error.value) and words in str(error.value)


def test_a_malformed_or_illegal_move_names_the_move_and_the_reason():
    pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    with pytest.raises(NotationError, match="'z9z8'"):
        parse_move(pos, "z9z8")
    with pytest.raises(IllegalMoveError, match="'e7e5'.*not White's"):
        parse_move(pos, "e7e5")
    with pytest.raises(IllegalMoveError, match="cannot move to e5"):
        parse_move(pos, "e2e5")
    pinned = parse_fen("4k3/8/8/8/8/8/4r3/4BK2 w - - 0 1".replace("4BK2", "3KB3").replace("4r3", "8"))
    pinned = parse_fen("4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="royal piece attacked"):
        parse_move(pos := pinned, "e2d3")


def test_moves_are_read_forgivingly():
    pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert parse_move(pos, "E2-E4") == parse_move(pos, "e2 e4") == parse_move(pos, "e4")
    assert format_san(pos, parse_move(pos, "g1f3")) == "Nf3"


# --- Spinal Tap's battle move ---------------------------------------------------------------


def test_battle_move_steps_several_pawns_and_crabs_once_a_game():
    game = load_game("spinal-tap")
    pos = parse_fen(game.start, game)
    before = format_fen(pos)
    move = parse_move(pos, "d3d4&e3e4&f3g4&j3j4")
    assert move.kind == 4 and format_move(pos, move) == "d3d4&e3e4&f3g4&j3j4"
    pos.push(move)
    assert format_fen(pos).split()[0].split("/")[7] == "3(STP)(CR)1(CR)2(STP)1"
    assert "battle=w" in format_fen(pos) and format_fen(parse_fen(format_fen(pos), game)) == format_fen(pos)
    play(pos, "e9e8")
    with pytest.raises(IllegalMoveError, match="already made its battle move"):
        parse_move(pos, "a3a4&b3b4")
    pos.pop(), pos.pop()
    assert format_fen(pos) == before


def test_battle_move_rules_one_capture_two_pawns_forward_only():
    game = load_game("spinal-tap")
    pos = parse_fen("5k5/11/11/11/11/11/11/2p1p6/1(STP)(STP)(STP)(STP)6/11/5K5 w - - 0 1", game)
    move = parse_move(pos, "b3c4&d3d4")  # one capture, one step
    pos.push(move)
    assert pos.hands == [(), ()] and pos.piece_at(pos.board.parse_square("c4")) == ("spinal-pawn", 0)
    pos.pop()
    with pytest.raises(IllegalMoveError, match="at most one step may capture"):
        parse_move(pos, "b3c4&d3e4")
    with pytest.raises(IllegalMoveError, match="cannot make that step"):
        parse_move(pos, "e3e4&d3d4")
    with pytest.raises(IllegalMoveError, match="two or more"):
        battle_move(pos, [parse_move(pos, "b3b4")])
    with pytest.raises(IllegalMoveError, match="one square forward"):
        parse_move(pos, "b3b5&c3c4")
    with pytest.raises(IllegalMoveError, match="no battle move"):
        parse_move(parse_fen(load_game("chess").start), "a2a3&b2b3")


def test_fish_arrow_and_right_end_pawns():
    fish = pos_of("(sg)7/8/8/8/8/3(FP)4/8/4(PR)3 w - - 0 1")
    assert moves_from(fish, "d3") == {"d3d4", "d3d2"}  # off its rank 2 it has moved: no double step
    fresh = pos_of("(sg)7/8/8/8/8/8/3(FP)4/4(PR)3 w - - 0 1")
    assert moves_from(fresh, "d2") == {"d2d3", "d2d4", "d2d1"}
    arrow = pos_of("(sg)7/8/8/2p1p3/3(AP)4/2p1p3/8/4(PR)3 w - - 0 1")
    assert moves_from(arrow, "d4") == {
        "d4d5", "d4d6", "d4d3", "d4d2", "d4c4", "d4b4", "d4e4", "d4f4", "d4c5", "d4e5", "d4c3", "d4e3"}
    right = pos_of("(sg)7/8/8/8/8/8/3(RE)4/4(PR)3 w - - 0 1 moved=d2")
    assert moves_from(right, "d2") == {"d2d3", "d2c4", "d2b3"}


def test_ship_snake_and_rhinoceros_bend_as_ruled():
    ship = pos_of("(sg)7/8/8/8/3(SH)4/8/8/(PR)7 w - - 0 1")
    got = {t[2:] for t in moves_from(ship, "d4")}
    assert got == {"c5", "e5", "c3", "e3", "c6", "c7", "c8", "e6", "e7", "e8", "c2", "c1", "e2", "e1"}
    snake = pos_of("7(sg)/8/8/8/3(SN)4/8/8/(PR)7 w - - 0 1")
    got = {t[2:] for t in moves_from(snake, "d4")}
    assert got == {"d5", "d3", "c6", "b7", "a8", "e6", "f7", "g8", "c2", "b1", "e2", "f1"}
    rhino = pos_of("7(sg)/8/8/8/3(RH)4/8/8/(PR)7 w - - 0 1")
    got = {t[2:] for t in moves_from(rhino, "d4")}
    assert {"d5", "c6", "e6", "f7", "g8", "c4", "b5", "b3", "a2"} <= got and "d6" not in got


def test_promotion_on_a_ten_and_twelve_rank_board_is_written_and_read():
    pos = pos_of("(sg)9/4P5/10/10/10/10/10/10/10/4(PR)5 w - - 0 1 hand=Q(CH)", "dealers-10x10")
    assert moves_from(pos, "e9") == {"e9e10=Q", "e9e10=CH"}
    assert parse_move(pos, "E9-E10(ch)") == parse_move(pos, "e9e10=CH")
    assert format_san(pos, parse_move(pos, "e9e10q")) == "e10=Q+"


def test_a_battle_move_may_not_open_a_line_that_several_of_its_pawns_block():
    game = load_game("spinal-tap")
    pos = parse_fen("5k5/11/11/11/11/11/11/r1(STP)1(STP)1K4/11/11/11 w - - 0 1", game)  # rook a4, pawns c4 e4, king g4
    from dealers_chess.engine.rules import battle_moves

    assert list(battle_moves(pos)) == []
    with pytest.raises(IllegalMoveError, match="royal piece attacked"):
        parse_move(pos, "c4c5&e4e5")
