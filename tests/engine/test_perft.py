"""Perft of orthodox chess against the published tables (../shared/reference/engines.md)."""

from __future__ import annotations

import pytest

from dealers_chess.engine.notation import format_fen, parse_fen
from dealers_chess.engine.perft import divide, perft

TABLES = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", (20, 400, 8902, 197281)),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", (48, 2039, 97862, 4085603)),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", (14, 191, 2812, 43238)),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", (6, 264, 9467, 422333)),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", (44, 1486, 62379, 2103487)),
    # The sixth table's numbers belong to the standard "position 6", whose FEN the reference
    # misprints (it drops a3/Nc3/Qe2). This is the standard FEN; the misprint is tested below.
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", (46, 2079, 89890, 3894594)),
]


@pytest.mark.parametrize("fen,counts", TABLES, ids=[f"pos{i + 1}" for i in range(len(TABLES))])
def test_perft_to_depth_3_matches_the_published_tables(fen, counts):
    position = parse_fen(fen)
    assert [perft(position, depth) for depth in (1, 2, 3)] == list(counts[:3])
    assert format_fen(position) == fen  # push/pop left nothing behind


@pytest.mark.slow
@pytest.mark.parametrize("fen,counts", TABLES, ids=[f"pos{i + 1}" for i in range(len(TABLES))])
def test_perft_depth_4(fen, counts):
    assert perft(parse_fen(fen), 4) == counts[3]


def test_the_references_misprinted_sixth_fen_agrees_with_python_chess():
    chess = pytest.importorskip("chess")
    fen = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/3P1N2/PPP1NPPP/R4RK1 w - - 0 10"
    board = chess.Board(fen)

    def reference(depth):
        if depth == 1:
            return board.legal_moves.count()
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += reference(depth - 1)
            board.pop()
        return total

    position = parse_fen(fen)
    assert [perft(position, d) for d in (1, 2)] == [reference(1), reference(2)] == [41, 1851]


def test_divide_sums_to_perft_and_names_moves():
    position = parse_fen(TABLES[1][0])
    rows = divide(position, 2)
    assert sum(n for _, n in rows) == 2039
    assert ("e1g1", 43) in rows and ("e1c1", 43) in rows
