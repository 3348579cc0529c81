"""Benchmark: perft of the orthodox start to depth 4, this engine against python-chess in one run,
and the median time of one legal-move list in a 12x12 Dealer's middlegame.

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
RUNS = 5  # each side's best of five, so a busy moment of the machine does not decide the ratio


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
    started = time.perf_counter()
    nodes = function(*args)
    return nodes, time.perf_counter() - started


def best_of(runs: int, function, make_start) -> tuple[int, float]:
    """The count and the fastest of `runs` timings, each from a fresh start (the first warms caches)."""
    results = [timed(function, make_start(), DEPTH) for _ in range(runs)]
    return results[0][0], min(seconds for _, seconds in results)


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
    ours, ours_s = best_of(RUNS, perft, lambda: parse_fen(START))
    made, made_s = best_of(RUNS, chess_perft_made, lambda: chess.Board(START))
    bulk, bulk_s = best_of(RUNS, chess_perft_bulk, lambda: chess.Board(START))
    assert ours == made == bulk == 197281
    rate, rate_made, rate_bulk = ours / ours_s, made / made_s, bulk / bulk_s
    print(f"perft({DEPTH}) of the orthodox start: {ours} leaves (best of {RUNS} runs each)")
    print(f"  this engine (last ply bulk-counted):  {ours_s:6.2f} s  {rate:10,.0f} leaves/s")
    print(f"  python-chess, make/unmake every node: {made_s:6.2f} s  {rate_made:10,.0f} leaves/s  "
          f"ratio {rate / rate_made:.2f}")
    verdict = "OK" if rate >= rate_bulk else "below the target"
    print(f"  python-chess, last ply bulk-counted:  {bulk_s:6.2f} s  {rate_bulk:10,.0f} leaves/s  "
          f"ratio {rate / rate_bulk:.2f}  (target 1.00: {verdict})")
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
