"""The move kernel on boards with blockers: lame leapers, hoppers, bent riders, first moves."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dealers_chess.engine.board import Board, BoardError, board_of, parse_board_size
from dealers_chess.engine.game import NOT_COMPILED, builtin_games, square_code
from dealers_chess.engine.kernel import EMPTY, Reach, compile_movement, destinations
from dealers_chess.engine.rules import capture_moves, legal_moves, pseudo_moves
from dealers_chess.pieces.movement import parse_movement
from tests.positions import random_deal, random_walk, spinal_melee, start_of

BOARD = board_of(15, 15)
CENTRE = (7, 7)


def reach(betza, friends=(), enemies=(), unmoved=False, black=False, ep=()):
    occupancy = [EMPTY] * BOARD.size
    side = 1 if black else 0
    for dx, dy in friends:
        occupancy[BOARD.square(7 + dx, 7 + dy)] = side
    for dx, dy in enemies:
        occupancy[BOARD.square(7 + dx, 7 + dy)] = 1 - side
    rays = compile_movement(parse_movement(betza), BOARD, black)[BOARD.square(*CENTRE)]
    eps = frozenset(BOARD.square(7 + dx, 7 + dy) for dx, dy in ep)
    found = destinations(rays, occupancy, side, unmoved, eps)
    return {(BOARD.file_of(s) - 7, BOARD.rank_of(s) - 7): r for s, r in found.items()}


def test_rook_stops_at_first_piece_and_captures_only_enemies():
    got = reach("R", friends=[(0, 2)], enemies=[(3, 0)])
    assert (0, 1) in got and (0, 2) not in got and (0, 3) not in got
    assert got[(3, 0)] is Reach.CAPTURE and (4, 0) not in got


def test_lame_knight_is_blocked_by_the_orthogonal_neighbour_in_the_long_direction():
    assert (1, 2) in reach("nN")
    assert (1, 2) not in reach("nN", friends=[(0, 1)])
    assert (1, 2) in reach("nN", friends=[(1, 1)])  # the diagonal square does not block the Mao
    assert (2, 1) not in reach("nN", enemies=[(1, 0)])


def test_moo_is_blocked_only_when_both_paths_are():
    assert (1, 2) in reach("afsK", friends=[(0, 1)])
    assert (1, 2) in reach("afsK", friends=[(1, 1)])
    assert (1, 2) not in reach("afsK", friends=[(0, 1), (1, 1)])


def test_non_leaping_double_step_and_first_move_only():
    assert (0, 2) not in reach("fmWifmnD")
    assert reach("fmWifmnD", unmoved=True)[(0, 2)] is Reach.MOVE
    assert (0, 2) not in reach("fmWifmnD", unmoved=True, enemies=[(0, 1)])
    assert (0, 2) not in reach("fmWifmnD", unmoved=True, enemies=[(0, 2)])  # non-capturing


def test_cannon_needs_exactly_one_screen_to_capture():
    assert (0, 3) not in reach("mRcpR", enemies=[(0, 3)])
    got = reach("mRcpR", friends=[(0, 1)], enemies=[(0, 3)])
    assert got[(0, 3)] is Reach.CAPTURE and (0, 2) not in got
    assert (0, 5) not in reach("mRcpR", enemies=[(0, 1), (0, 3), (0, 5)])


def test_grasshopper_lands_directly_behind_the_screen():
    got = reach("gQ", friends=[(0, 3)])
    assert got == {(0, 4): Reach.MOVE}


def test_griffon_bends_only_through_an_empty_diagonal_square():
    assert {(1, 2), (1, 5), (2, 1), (6, 1)} <= set(reach("FyafsF"))
    blocked = reach("FyafsF", enemies=[(1, 1)])
    assert blocked[(1, 1)] is Reach.CAPTURE and (1, 2) not in blocked and (2, 1) not in blocked
    assert (1, 4) not in reach("FyafsF", friends=[(1, 3)])


def test_ship_continues_vertically_only():
    got = set(reach("FrfyaflFlfyafrFrbyafrFlbyaflF"))
    assert {(1, 2), (-1, 5), (1, -3), (-1, -6)} <= got
    assert (2, 1) not in got and (-3, 1) not in got


def test_bent_pawn_step_and_patient_capture():
    assert set(reach("rfafsmF")) == {(1, 2), (2, 1)}
    assert reach("rfafsmF", friends=[(1, 1)]) == {}
    assert set(reach("lfafsmF")) == {(-1, 2), (-2, 1)}
    assert reach("ifafscW", unmoved=True, enemies=[(1, 2)]) == {(1, 2): Reach.CAPTURE}
    assert reach("ifafscW", unmoved=True, enemies=[(1, 2), (0, 1)]) == {}


def test_black_moves_are_rotated():
    assert set(reach("fmWfceF", black=True)) == {(0, -1)}
    assert set(reach("rfafsmF", black=True)) == {(-1, -2), (-2, -1)}


def test_en_passant_square_is_a_capture_only_for_e_moves():
    assert reach("fmWfceF", ep=[(1, 1)])[(1, 1)] is Reach.EN_PASSANT
    assert (1, 1) not in reach("fmWfcF", ep=[(1, 1)])


def test_jumping_leaper_needs_an_occupied_midpoint():
    assert (0, 2) not in reach("jD")
    assert reach("jD", friends=[(0, 1)])[(0, 2)] is Reach.MOVE


def test_rays_stop_at_the_board_edge():
    small = board_of(3, 3)
    rays = compile_movement(parse_movement("R"), small)[0]
    squares = {s for ray in rays for s in ray.squares}
    assert squares == {1, 2, 3, 6}


def test_board_names_and_limits():
    board = board_of(16, 16)
    assert board.name(0) == "a1" and board.name(board.size - 1) == "p16"
    assert board.parse_square("P16") == board.size - 1
    assert parse_board_size("10x8").files == 10
    for bad in ("17x8", "0x8"):
        with pytest.raises(BoardError):
            parse_board_size(bad)
    with pytest.raises(BoardError, match="not on the 8x8 board"):
        board_of(8, 8).parse_square("i1")
    with pytest.raises(BoardError):
        Board(8, 8).parse_square("e")


# --- the compiled square code (engine.game.square_code) gives exactly the moves the rays give walked ---

def _walkable_kinds(pos) -> list:
    kinds = {id(k): k for k in (pos.types.compiled(pos.piece[sq]) for side in (0, 1) for sq in pos.squares[side])}
    return [k for k in kinds.values() if k.walks is not None]


def _moves(pos) -> tuple:
    side = pos.turn
    return Counter(pseudo_moves(pos, side)), Counter(capture_moves(pos, side)), Counter(legal_moves(pos)), \
        Counter(pseudo_moves(pos, 1 - side))


def walked_and_compiled(pos) -> tuple:
    """The moves with every square walked (nothing compiled), then with every square compiled."""
    kinds = _walkable_kinds(pos)
    saved = [(k, [[list(row) for row in part] for part in k.compiled], [[list(row) for row in part] for part in k.heat])
             for k in kinds]
    try:
        for k in kinds:
            for part in (0, 1):
                for side in (0, 1):
                    k.compiled[part][side][:] = [None] * len(k.compiled[part][side])
                    k.heat[part][side][:] = [NOT_COMPILED] * len(k.heat[part][side])
        walked = _moves(pos)
        for side in (0, 1):  # each piece's own square compiled (all that generation reads)
            for sq in pos.squares[side]:
                k = pos.types.compiled(pos.piece[sq])
                if k.walks is not None:
                    for part in (0, 1):
                        k.compiled[part][side][sq] = square_code(k, side, sq, bool(part))
        compiled = _moves(pos)
    finally:
        for k, compiled_rows, heat_rows in saved:
            for part in (0, 1):
                for side in (0, 1):
                    k.compiled[part][side][:] = compiled_rows[part][side]
                    k.heat[part][side][:] = heat_rows[part][side]
    return walked, compiled


@pytest.mark.parametrize("game_id", sorted(builtin_games()))
def test_compiled_moves_are_the_walked_moves_in_every_game(game_id):
    rng = random.Random(game_id)
    for _ in range(2):
        pos = random_walk(start_of(game_id), rng, rng.randint(0, 40))
        walked, compiled = walked_and_compiled(pos)
        assert walked == compiled


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(builtin_games()))
def test_compiled_moves_are_the_walked_moves_in_many_positions(game_id):
    rng = random.Random(game_id + "/many")
    for _ in range(25):
        pos = random_walk(start_of(game_id), rng, rng.randint(0, 120))
        walked, compiled = walked_and_compiled(pos)
        assert walked == compiled


def test_compiled_moves_are_the_walked_moves_in_deals_and_melees():
    rng = random.Random(11)
    for files in (8, 10, 12):
        pos = random_walk(random_deal(rng, files), rng, rng.randint(0, 40))
        walked, compiled = walked_and_compiled(pos)
        assert walked == compiled
    pos = random_walk(spinal_melee(rng), rng, 6)
    walked, compiled = walked_and_compiled(pos)
    assert walked == compiled


def test_square_code_reads_like_the_walk():
    # A knight on g1 (White): a leap to each of e2, f3 and h3, onto an empty or an enemy square.
    pos = start_of("chess")
    knight = pos.types.compiled(pos.piece[6])
    code = square_code(knight, 0, 6)
    found: list = []
    code(pos.occ, pos.moved, found.append)
    assert sorted((m.frm, m.to) for m in found) == [(6, 21), (6, 23)]  # f3, h3 (e2 holds a pawn)


def test_compiled_and_walked_moves_come_in_the_same_order():
    # The search's move ordering breaks ties by the generator's order: a square that turns hot between
    # two searches must not change what they find.
    rng = random.Random(4)
    for game_id in ("chess", "dealers-8x8", "wad-chess"):
        pos = random_walk(start_of(game_id), rng, 30)
        kinds = _walkable_kinds(pos)
        walked, compiled = walked_and_compiled(pos)
        assert kinds and walked == compiled
        side = pos.turn
        orders = []
        for compile_all in (False, True):
            saved = [(k, [[list(r) for r in part] for part in k.compiled]) for k in kinds]
            try:
                for k in kinds:
                    for part in (0, 1):
                        for s in (0, 1):
                            k.compiled[part][s][:] = [None] * len(k.compiled[part][s])
                if compile_all:
                    for s in (0, 1):
                        for sq in pos.squares[s]:
                            k = pos.types.compiled(pos.piece[sq])
                            if k.walks is not None:
                                for part in (0, 1):
                                    k.compiled[part][s][sq] = square_code(k, s, sq, bool(part))
                orders.append((pseudo_moves(pos, side), capture_moves(pos, side), legal_moves(pos)))
            finally:
                for k, rows in saved:
                    for part in (0, 1):
                        for s in (0, 1):
                            k.compiled[part][s][:] = rows[part][s]
        assert orders[0] == orders[1]
