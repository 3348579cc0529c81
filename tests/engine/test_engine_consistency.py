"""Self-consistency over the whole starter catalogue (what no oracle plays): random deals on 8x8,
10x10 and 12x12 with every piece and pawn type, checked ply by ply.

- legal_moves (with its fast path for moves that cannot expose a royal) equals the brute-force
  filter that makes every pseudo-legal move and tests every royal;
- the attack tables agree with the kernel's generic walker (`destinations`) for every piece, and so
  do the moves generated from prebuilt walks (PieceType.walks) and the fast-path entries;
- push/pop and FEN keep the position exactly.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dealers_chess.engine.attacks import Mobility, mobility
from dealers_chess.engine.kernel import Reach, compile_movement, destinations
from dealers_chess.engine.move import Kind
from dealers_chess.engine.notation import format_fen, parse_fen
from dealers_chess.engine.rules import _safe_after, is_attacked, legal_moves, pseudo_moves
from tests.positions import random_deal


def check_attacks_against_the_kernel(pos):
    """is_attacked == some enemy piece's generic `destinations` reach the square as a capture (first-move
    captures included while the piece is unmoved)."""
    board = pos.board
    for by in (0, 1):
        targets = list(pos.squares[1 - by])[:6]
        for target in targets:
            expected = False
            for sq in pos.squares[by]:
                piece = pos.types[pos.piece[sq]].piece
                if piece.rank_captures:
                    continue
                rays = compile_movement(piece.movement, board, by == 1)[sq]
                if destinations(rays, pos.occ, by, not pos.moved[sq]).get(target) is Reach.CAPTURE:
                    expected = True
                    break
            if not any(pos.types[pos.piece[s]].piece.rank_captures for s in pos.squares[by]):
                assert is_attacked(pos, target, by) == expected, (format_fen(pos), board.name(target))


def check_moves_against_the_kernel(pos):
    """Each piece's destinations in pseudo_moves == the generic walker's over the piece's own rays."""
    side = pos.turn
    moves = pseudo_moves(pos, side)
    victim = pos.ep_victim
    ep_ok = victim >= 0 and pos.occ[victim] == 1 - side and victim not in pos.shielded
    for sq in pos.squares[side]:
        kind = pos.types[pos.piece[sq]]
        piece = kind.piece
        if piece.rank_captures or piece.rule_moves or kind.teleport is not None:
            continue
        if mobility(pos, sq) is not Mobility.FREE:
            continue
        rays = compile_movement(piece.movement, pos.board, side == 1)[sq]
        reached = destinations(rays, pos.occ, side, not pos.moved[sq], frozenset(pos.ep))
        expected = {
            to for to, how in reached.items()
            if how is Reach.MOVE
            or (how is Reach.EN_PASSANT and ep_ok)
            or (how is Reach.CAPTURE and not pos.types[pos.piece[to]].uncapturable and to not in pos.shielded)
        }
        got = {m.to for m in moves if m.frm == sq and m.kind in (Kind.NORMAL, Kind.EN_PASSANT)}
        assert got == expected, (format_fen(pos), piece.id, pos.board.name(sq))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9), files=st.sampled_from([8, 10, 12]))
def test_legal_moves_equal_the_brute_force_filter_on_random_full_catalogue_deals(seed, files):
    rng = random.Random(seed)
    pos = random_deal(rng, files)
    start = format_fen(pos)
    for _ in range(40):
        legal = legal_moves(pos)
        brute = [m for m in pseudo_moves(pos, pos.turn) if _safe_after(pos, m, pos.turn)]
        if pos.must_move:
            forced = [m for m in brute if m.frm in pos.must_move]
            brute = forced or brute
        assert sorted(legal) == sorted(brute), format_fen(pos)
        check_attacks_against_the_kernel(pos)
        check_moves_against_the_kernel(pos)
        if not legal:
            break
        pos.push(rng.choice(legal))
        assert format_fen(parse_fen(format_fen(pos), pos.game)) == format_fen(pos)
    while pos.stack:
        pos.pop()
    assert format_fen(pos) == start


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**9),
       game_id=st.sampled_from(["spinal-tap", "consuls", "consuls-arena", "constable-spiel", "wad-chess"]))
def test_legal_moves_equal_the_brute_force_filter_in_the_other_games(seed, game_id):
    from dealers_chess.engine.game import load_game

    rng = random.Random(seed)
    game = load_game(game_id)
    pos = parse_fen(game.start, game)
    for _ in range(60):
        legal = legal_moves(pos)
        brute = [m for m in pseudo_moves(pos, pos.turn) if _safe_after(pos, m, pos.turn)]
        if pos.must_move:
            brute = [m for m in brute if m.frm in pos.must_move] or brute
        assert sorted(legal) == sorted(brute), format_fen(pos)
        if not legal:
            break
        pos.push(rng.choice(legal))
