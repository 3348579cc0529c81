"""Attacks are captures: for every catalogue piece on 8x8, 10x10 and 12x12, the squares
`engine.attacks.attacks` reports are the squares where `legal_moves` lets it capture, first-move
captures included (issue 20, audit 2 finding 1); and `is_attacked` is the union of `attacks`.
The attack lines of one square, found without compiling a type, are the compiled table's, and
`may_be_in_check` (which reads them) is never False where `in_check` is True."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealers_chess.engine.attacks import attacks, in_check, is_attacked, may_be_in_check
from dealers_chess.engine.game import default_catalogue, load_game, square_attack_lines
from dealers_chess.engine.kernel import EMPTY
from dealers_chess.engine.move import Kind
from dealers_chess.engine.notation import format_fen, parse_fen
from dealers_chess.engine.position import Position
from dealers_chess.engine.rules import legal_moves
from tests.positions import random_deal, spinal_lines, spinal_melee

CATALOGUE = default_catalogue()
PIECES = [piece.id for piece in CATALOGUE]
GAMES = {8: "dealers-8x8", 10: "dealers-10x10", 12: "dealers-12x12"}
ENEMY = "standard-pawn"  # its attacks are leaps: it pins nothing, so a capture is legal exactly when it is safe


def piece_among_pawns(piece_id: str, files: int, rng: random.Random) -> tuple[Position, int] | None:
    """The piece (either side, moved or not) among random enemy pawns, a few of its own pawns as
    screens and both royals; its own royal unattacked. None when no safe royal square was found."""
    game = load_game(GAMES[files])
    pos = Position(game, CATALOGUE, game.pawn_rank)
    board, side = game.board, rng.randrange(2)
    free = list(range(board.size))
    rng.shuffle(free)
    tested = pos.types.index(piece_id)
    sq = free.pop()
    pos.set_square(sq, tested, side, rng.random() < 0.5)
    density = rng.uniform(0.05, 0.4)
    for _ in range(int(board.size * density)):
        pos.set_square(free.pop(), pos.types.index(ENEMY), 1 - side, True)
    for _ in range(rng.randrange(4)):
        pos.set_square(free.pop(), pos.types.index(ENEMY), side, True)
    pos.set_square(free.pop(), pos.types.index("king"), 1 - side, True)
    if not pos.types[tested].royal:
        safe = [s for s in free if not is_attacked(pos, s, 1 - side)]
        if not safe:
            return None
        pos.set_square(rng.choice(safe), pos.types.index("king"), side, True)
    pos.turn = side
    pos.reset_history()
    return pos, sq


def capture_targets(pos: Position, sq: int) -> set[int]:
    """The squares where the legal moves of the piece on sq capture an enemy piece."""
    enemy = 1 - pos.occ[sq]
    return {m.to for m in legal_moves(pos) if m.frm == sq and m.kind == Kind.NORMAL and pos.occ[m.to] == enemy}


def check_piece(piece_id: str, files: int, rng: random.Random) -> None:
    made = piece_among_pawns(piece_id, files, rng)
    if made is None:
        return
    pos, sq = made
    side = pos.occ[sq]
    enemies = pos.squares[1 - side]
    expected = attacks(pos, sq) & enemies
    if pos.types[pos.piece[sq]].royal:
        expected = {t for t in expected if not is_attacked(pos, t, 1 - side)}  # a royal takes only what is unguarded
    else:
        assert not in_check(pos, side), format_fen(pos)
    assert capture_targets(pos, sq) == expected, (piece_id, format_fen(pos), pos.board.name(sq))
    union = set().union(*(attacks(pos, e) for e in pos.squares[side]))  # each piece's attacks once, not per target
    for target in range(pos.board.size):
        assert is_attacked(pos, target, side) == (target in union), (piece_id, format_fen(pos), pos.board.name(target))


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**9), files=st.sampled_from(sorted(GAMES)))
def test_attacks_are_the_legal_capture_squares_of_every_catalogue_piece(seed, files):
    rng = random.Random(seed)
    for piece_id in PIECES:
        for _ in range(4):
            check_piece(piece_id, files, rng)


@pytest.mark.parametrize("moved, expected", [(False, {"d3", "f3", "d4", "f4"}), (True, {"d3", "f3"})])
def test_the_patient_pawns_opening_capture_is_an_attack_only_while_it_is_unmoved(moved, expected):
    game = load_game("dealers-8x8")
    pos = Position(game, CATALOGUE, game.pawn_rank)
    e2 = pos.board.parse_square("e2")
    pos.set_square(e2, pos.types.index("patient-pawn"), 0, moved)
    assert {pos.board.name(s) for s in attacks(pos, e2)} == expected
    pos.set_square(pos.board.parse_square("e3"), pos.types.index(ENEMY), 1, True)
    assert {pos.board.name(s) for s in attacks(pos, e2)} == {"d3", "f3"}  # the first step must be empty


def test_an_empty_board_square_is_attacked_as_the_kernel_says():
    game = load_game("dealers-8x8")
    pos = Position(game, CATALOGUE, game.pawn_rank)
    d4 = pos.board.parse_square("d4")
    pos.set_square(d4, pos.types.index("cannon"), 0, True)
    assert attacks(pos, d4) == frozenset()  # a cannon attacks nothing without a screen
    pos.set_square(pos.board.parse_square("d6"), pos.types.index(ENEMY), 1, True)
    assert {pos.board.name(s) for s in attacks(pos, d4)} == {"d7", "d8"}
    assert pos.occ[pos.board.parse_square("d7")] == EMPTY


def test_one_squares_attack_lines_are_the_compiled_tables():
    game = load_game("dealers-8x8")
    pos = Position(game, CATALOGUE, game.pawn_rank)
    for piece in CATALOGUE:
        compiled = pos.types.compiled(pos.types.index(piece.id))
        for side in (0, 1):
            for sq in range(game.board.size):
                lines = square_attack_lines(piece, game.board, side, sq)
                assert lines.keys() == compiled.attacks[side][sq].keys(), (piece.id, side, sq)
                if side == 0 or compiled.attacks[1] is not compiled.attacks[0]:  # Black's may be White's, shared
                    assert lines == compiled.attacks[side][sq], (piece.id, side, sq)


STARTS = {
    "deal 8x8": lambda rng: random_deal(rng, 8),
    "deal 12x12": lambda rng: random_deal(rng, 12),
    "spinal melee": spinal_melee,
    "spinal lines": spinal_lines,
}


@pytest.mark.parametrize("kind", sorted(STARTS))
def test_a_side_in_check_may_be_in_check_read_from_a_fen_before_any_type_is_compiled(kind):
    rng, checks = random.Random(kind), 0
    for _ in range(4):
        pos = STARTS[kind](rng)
        for _ in range(30):  # every position of a random game
            fresh = parse_fen(format_fen(pos), pos.game)  # its types are compiled only as far as the reader needs
            may = [may_be_in_check(fresh, side) for side in (0, 1)]
            for side in (0, 1):
                checks += in_check(pos, side)
                assert may[side] or not in_check(pos, side), format_fen(pos)
            moves = legal_moves(pos)
            if not moves:
                break
            pos.push(rng.choice(moves))
    assert checks, "some of the positions should have a side in check"
