"""Benchmark: perft of the orthodox start to depth 4, this engine against python-chess in one run (and,
for information, two more of the standard perft positions to depth 3), and the median time of one
legal-move list in a 12x12 Dealer's middlegame.

Both count the last ply in bulk (the moves listed, not made). Times are CPU time (time.process_time),
the best of RUNS runs, the two engines taking turns run by run, so a busy moment of the shared machine
weighs on both alike. The issue's target: this engine at least twice as fast as python-chess.

Run: .venv/bin/python tests/benchmarks/bench_perft.py
"""

from __future__ import annotations

import random
import statistics
import time

import chess

from dealers_chess.engine.game import load_game
from dealers_chess.engine.notation import format_fen, parse_fen
from dealers_chess.engine.perft import perft
from dealers_chess.engine.rules import legal_moves

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
DEPTH = 4
RUNS = 7  # each side's best of seven, so a busy moment of the machine does not decide the ratio
TARGET = 2.0  # this engine's leaves per second over python-chess's, both bulk-counting (issue 32)
MORE = [  # (name, FEN, depth): standard perft positions, for information
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("a quiet middlegame", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3),
]


def chess_perft_made(board: chess.Board, depth: int) -> int:
    """python-chess, making and unmaking every move down to the leaves."""
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft_made(board, depth - 1)
        board.pop()
    return total


def chess_perft_bulk(board: chess.Board, depth: int) -> int:
    """python-chess, counting the last ply without making it (as this engine does)."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft_bulk(board, depth - 1)
        board.pop()
    return total


def timed(function, *args) -> tuple[int, float]:
    started = time.process_time()
    nodes = function(*args)
    return nodes, time.process_time() - started


def race(fen: str, depth: int, runs: int = RUNS) -> dict[str, tuple[int, float]]:
    """Per contestant (this engine, python-chess making every move, python-chess bulk-counting): the count
    and the fastest of `runs` timings, each from a fresh start, the three taking turns run by run."""
    contestants = {
        "ours": (perft, lambda: parse_fen(fen)),
        "made": (chess_perft_made, lambda: chess.Board(fen)),
        "bulk": (chess_perft_bulk, lambda: chess.Board(fen)),
    }
    best: dict[str, tuple[int, float]] = {}
    for _ in range(runs):
        for name, (function, make_start) in contestants.items():
            nodes, seconds = timed(function, make_start(), depth)
            if name not in best or seconds < best[name][1]:
                best[name] = (nodes, seconds)
    return best


def middlegame_12x12(plies: int = 40, seed: int = 3):
    """The 12x12 sample deal after `plies` random legal moves (a busy middlegame)."""
    game = load_game("dealers-12x12")
    pos = parse_fen(game.start, game)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = legal_moves(pos)
        captures = [m for m in moves if pos.occ[m.to] != -1]
        pos.push(rng.choice(captures if captures and rng.random() < 0.3 else moves))
    return parse_fen(format_fen(pos), game)


def main() -> None:
    best = race(START, DEPTH)
    (ours, ours_s), (made, made_s), (bulk, bulk_s) = best["ours"], best["made"], best["bulk"]
    assert ours == made == bulk == 197281
    rate, rate_made, rate_bulk = ours / ours_s, made / made_s, bulk / bulk_s
    print(f"perft({DEPTH}) of the orthodox start: {ours} leaves (CPU time, best of {RUNS} runs each, in turns)")
    print(f"  this engine (last ply bulk-counted):  {ours_s:6.2f} s  {rate:10,.0f} leaves/s")
    print(f"  python-chess, make/unmake every node: {made_s:6.2f} s  {rate_made:10,.0f} leaves/s  "
          f"ratio {rate / rate_made:.2f}")
    verdict = "OK" if rate >= TARGET * rate_bulk else "below the target"
    print(f"  python-chess, last ply bulk-counted:  {bulk_s:6.2f} s  {rate_bulk:10,.0f} leaves/s  "
          f"ratio {rate / rate_bulk:.2f}  (target {TARGET:.2f}: {verdict})")
    for name, fen, depth in MORE:
        found = race(fen, depth, 3)
        (ours, ours_s), (bulk, bulk_s) = found["ours"], found["bulk"]
        assert ours == bulk
        print(f"perft({depth}) of {name}: {ours} leaves; this engine {ours_s:.3f} s, python-chess bulk-counting "
              f"{bulk_s:.3f} s: ratio {bulk_s / ours_s:.2f}")
    pos = middlegame_12x12()
    times = []
    for _ in range(300):
        started = time.perf_counter()
        moves = legal_moves(pos)
        times.append(time.perf_counter() - started)
    print(f"12x12 Dealer's middlegame ({len(moves)} legal moves, {len(pos.squares[0]) + len(pos.squares[1])} pieces):")
    print(f"  {format_fen(pos)}")
    print(f"  median legal-move list: {statistics.median(times) * 1000:.2f} ms (aim < 2 ms)")


if __name__ == "__main__":
    main()
