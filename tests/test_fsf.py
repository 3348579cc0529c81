"""Differential tests against Fairy-Stockfish (pyffish): random Dealer's start arrays and playouts.

Only pieces FSF can express take part (../shared/reference/engines.md, xbetza.md section 8); the
rest are covered by hand-built positions in test_engine_rules.py. Both royals are the same type
here, since FSF castles only with one king type. Pawn moves onto the last rank are left out of the
comparison and never played: FSF gives a pawn no such move while the hand is empty.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from engine.game import load_game
from engine.move import Kind
from engine.notation import format_fen, parse_fen
from engine.perft import perft
from engine.rules import legal_moves
from engine.setup import start_position

sf = pytest.importorskip("pyffish")

ROYALS = ["king", "chef", "pharaoh", "pope", "president", "rex", "shogun"]
PIECES = [
    "alfil", "alibaba", "archbishop", "bishop", "bison", "buffalo", "camel", "cannon", "chancellor",
    "cheetah", "dabbaba", "ferz", "gnu", "guard", "guardian", "kirin", "knight", "lion", "mastodon",
    "minister", "nightrider", "phoenix", "queen", "rook", "squirrel", "steward", "threeleaper",
    "turtle", "unicorn", "vao", "wazir", "zebra",
]
# Pawns whose first-move-only moves FSF grants by rank: only those that never return to rank 2.
PAWNS = [
    "standard-pawn", "berolina-pawn", "japanese-pawn", "mongolian-pawn", "scorpion-pawn", "horse-pawn",
    "lance-pawn", "iron-pawn", "gold-pawn", "silver-pawn", "korean-pawn",
]
LETTERS = "acdefghijlmnopqrstuvwxyz"
_counter = itertools.count()


def betza_for_fsf(movement) -> str:
    """The catalogue's canonical XBetza: every piece listed above is in FSF's supported subset."""
    return movement.betza


def make_deal(rng: random.Random, files: int, black_royal: str | None = None):
    """A random Dealer's start array from FSF-expressible pieces: (placement, royal id, piece ids, pawn ids)."""
    royal = rng.choice(ROYALS)
    kinds = rng.sample(PIECES, 8)
    pawns = rng.sample(PAWNS, 3)
    royal_file = 4
    placement = {}
    for side, (back, front) in (("white", (1, 2)), ("black", (files, files - 1))):
        for file in range(files):
            name = "abcdefghij"[file]
            own_royal = black_royal if side == "black" and black_royal else royal
            placement[f"{name}{back}"] = (own_royal if file == royal_file else rng.choice(kinds), side)
            placement[f"{name}{front}"] = (rng.choice(pawns), side)
    return placement, royal, kinds, pawns


def fsf_variant(pos, royal: str, black_royal: str | None = None) -> tuple[str, dict[str, str]]:
    """Load a fresh FSF variant for the position's piece types; (name, piece id -> letter).

    With a different royal per side, FSF plays both as extinction pseudo-royals and cannot castle.
    """
    board = pos.board
    two = black_royal is not None and black_royal != royal
    ids = sorted({pos.types.id_of(pos.piece[sq]) for sq in range(board.size) if pos.piece[sq] >= 0} - ({royal} if not two else set()))
    letters = dict(zip(ids, LETTERS))
    if not two:
        letters[royal] = "k"
    catalogue = pos.catalogue
    pawn_letters = "".join(letters[i] for i in ids if catalogue.get(i).group.value == "pawn")
    corners = {pos.types.id_of(pos.piece[sq]) for sq in pos.castling}
    name = f"dealersdiff{next(_counter)}x{random.getrandbits(24)}"
    last = "abcdefghijkl"[board.files - 1]
    lines = [
        f"[{name}]", f"maxFile = {last}", f"maxRank = {board.ranks}",
        "pawn = -", "knight = -", "bishop = -", "rook = -", "queen = -",
        f"king = k:{betza_for_fsf(catalogue.get(royal).movement)}" if not two else "king = -",
    ]
    lines += [f"customPiece{n} = {letters[i]}:{betza_for_fsf(catalogue.get(i).movement)}" for n, i in enumerate(ids, 1)]
    lines += [
        f"pawnTypes = {pawn_letters}", f"promotionPawnTypes = {pawn_letters}", f"enPassantTypes = {pawn_letters}",
        "doubleStepRegionWhite = *2", f"doubleStepRegionBlack = *{board.ranks - 1}",
        *(("castling = false", f"extinctionPieceTypes = {letters[royal]}{letters[black_royal]}",
           "extinctionValue = loss", "extinctionPseudoRoyal = true") if two else (
          "castling = true", f"castlingRookPieces = {''.join(sorted(letters[i] for i in corners))}",
          f"castlingKingsideFile = {'abcdefghijkl'[board.files - 2]}", "castlingQueensideFile = c")),
        "promotionPieceTypes = -", f"promotionRegionWhite = *{board.ranks}", "promotionRegionBlack = *1",
        f"startFen = {fsf_fen(pos, letters)}",
    ]
    sf.load_variant_config("\n".join(lines) + "\n")
    assert name in sf.variants(), "FSF refused the variant"
    return name, letters


def fsf_fen(pos, letters: dict[str, str]) -> str:
    board = pos.board
    rows = []
    for rank in range(board.ranks - 1, -1, -1):
        row, empty = "", 0
        for file in range(board.files):
            sq = board.square(file, rank)
            if pos.piece[sq] < 0:
                empty += 1
                continue
            letter = letters[pos.types.id_of(pos.piece[sq])]
            row += (str(empty) if empty else "") + (letter.upper() if pos.occ[sq] == 0 else letter)
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w KQkq - 0 1" if pos.castling else " w - - 0 1")


def to_last_rank(pos, m) -> bool:
    kind = pos.types[pos.piece[m.frm]]
    rank = pos.board.rank_of(m.to)
    return kind.promotes and rank == (pos.board.ranks - 1 if pos.turn == 0 else 0)


def ours(pos) -> set[str]:
    """Our legal moves in FSF's UCI: a castling move that shares its squares with an ordinary
    royal move is written royal-takes-partner (e8a8), as FSF does."""
    board = pos.board
    found = set()
    for m in legal_moves(pos):
        if not to_last_rank(pos, m):
            to = m.extra if m.kind == Kind.CASTLE and _ambiguous(pos, m) else m.to
            found.add(board.name(m.frm) + board.name(to))
    return found


UCI = re.compile(r"^([a-l]\d+)([a-l]\d+)([a-z]?)$")


def theirs(pos, name: str, start: str, played: list[str]) -> set[str]:
    board = pos.board
    found = set()
    for text in sf.legal_moves(name, start, played):
        frm, to, _ = UCI.match(text).groups()
        m_from, m_to = board.parse_square(frm), board.parse_square(to)
        kind = pos.types[pos.piece[m_from]]
        if kind.promotes and board.rank_of(m_to) == (board.ranks - 1 if pos.turn == 0 else 0):
            continue
        found.add(frm + to)
    return found


def compare_playout(seed: int, files: int, plies: int, two_royals: bool = False) -> int:
    rng = random.Random(seed)
    black_royal = rng.choice(ROYALS) if two_royals else None
    placement, royal, _, _ = make_deal(rng, files, black_royal)
    pos = start_position(f"dealers-{files}x{files}", placement)
    if two_royals:
        pos = parse_fen(format_fen(pos).replace(" KQkq ", " - "), pos.game)
    name, _ = fsf_variant(pos, royal, black_royal)
    start = sf.start_fen(name)
    played: list[str] = []
    for ply in range(plies):
        mine, fsf = ours(pos), theirs(pos, name, start, played)
        assert mine == fsf, (
            f"seed {seed}, ply {ply}, {format_fen(pos)}\nonly ours: {sorted(mine - fsf)}\nonly FSF: {sorted(fsf - mine)}"
        )
        choices = [m for m in legal_moves(pos) if not to_last_rank(pos, m) and not _ambiguous(pos, m)]
        if not choices:
            break
        m = rng.choice(choices)
        played.append(pos.board.name(m.frm) + pos.board.name(m.to))
        pos.push(m)
    return ply


def _ambiguous(pos, m) -> bool:
    """A castling move with the same squares as an ordinary move cannot be named in UCI alone."""
    return any(o.frm == m.frm and o.to == m.to and o.kind != m.kind for o in legal_moves(pos))


@pytest.mark.parametrize("seed", range(12))
def test_random_8x8_playouts_agree_with_fairy_stockfish(seed):
    compare_playout(1000 + seed, 8, 50)


@pytest.mark.parametrize("seed", range(8))
def test_random_10x10_playouts_agree_with_fairy_stockfish(seed):
    compare_playout(2000 + seed, 10, 40)


@pytest.mark.parametrize("seed", range(8))
def test_a_different_royal_per_side_agrees_with_fsfs_pseudo_royals(seed):
    compare_playout(3000 + seed, 8 if seed % 2 else 10, 50, two_royals=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(60))
def test_many_more_playouts_agree_with_fairy_stockfish(seed):
    compare_playout(5000 + seed, 8 if seed % 2 else 10, 80)


def fsf_perft(name: str, start: str, played: list[str], depth: int) -> int:
    moves = sf.legal_moves(name, start, played)
    if depth == 1:
        return len(moves)
    return sum(fsf_perft(name, start, played + [m], depth - 1) for m in moves)


@pytest.mark.parametrize("seed,files", [(11, 8), (12, 10)])
def test_perft_of_dealt_start_arrays_agrees_with_fairy_stockfish(seed, files):
    rng = random.Random(seed)
    placement, royal, _, _ = make_deal(rng, files)
    pos = start_position(f"dealers-{files}x{files}", placement)
    name, _ = fsf_variant(pos, royal)
    assert [perft(pos, d) for d in (1, 2)] == [fsf_perft(name, sf.start_fen(name), [], d) for d in (1, 2)]
