"""Benchmark: how the computer opponent spends a fixed time per move (the review's "at 5 s a move about 60 %
of the time goes into a last iteration that is cut off and counts for nothing").

For each position (chess middlegames from common openings), one search of --seconds (default 5) through the
search's own API, as `go movetime` asks it: the time up to the end of the last iteration that finished, the
time of the iteration the clock cut short, and whether that cut iteration counted: whether its best move
had been searched in full (then the search answers with it and reports that depth), and whether it
changed the move. Prints each position and the totals.

Run: .venv/bin/python tests/benchmarks/bench_time.py [--seconds 5] [--positions 10]
"""

from __future__ import annotations

import argparse
import os
import time

from dealers_chess.engine.game import load_game
from dealers_chess.engine.notation import format_move, parse_fen, parse_move
from dealers_chess.engine.search import Info, Limits, Searcher

OPENINGS = [  # chess middlegames after ten or so plies of common openings
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6",
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6 g1f3 e8g8",
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6 c1g5 f8e7 e4e5 f6d7",
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3 d7d5 c4d5 f6d5",
    "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5 e4g3 f5g6",
    "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6 e1g1 f8e7 d2d3 e8g8",
    "e2e4 e7e5 f1c4 g8f6 d2d3 b8c6 g1f3 f8c5 e1g1 d7d6",
    "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6 g1f3 f8e7 e1g1 e8g8",
]


def measure(searcher: Searcher, opening: str, seconds: float) -> dict:
    pos = parse_fen(load_game("chess").start, "chess")
    for text in opening.split():
        pos.push(parse_move(pos, text))
    searcher.new_game()
    searcher.prepare(pos)
    seen: list[tuple[float, Info]] = []
    started = time.perf_counter()
    result = searcher.search(pos, Limits(seconds=seconds), on_info=lambda info: seen.append(
        (time.perf_counter() - started, info)))
    total = time.perf_counter() - started
    # Infos come once per finished iteration; one more, at the end, when the clock cut an iteration whose
    # best move had been searched in full (the search then answers with it).
    finished = [(at, info) for at, info in seen if at < seconds - 0.02]
    last_at = finished[-1][0] if finished else 0.0
    last = finished[-1][1] if finished else None
    counted = len(seen) > len(finished) and seen[-1][1].depth > (last.depth if last else 0)
    changed = counted and last is not None and seen[-1][1].pv[:1] != last.pv[:1]
    return {"total": total, "finished_at": last_at, "cut": total - last_at, "counted": counted, "changed": changed,
            "depth": last.depth if last else 0, "move": format_move(pos, result.move)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--positions", type=int, default=len(OPENINGS))
    args = parser.parse_args()
    print(f"{args.seconds:g} s a move; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    searcher = Searcher()
    rows = [measure(searcher, opening, args.seconds) for opening in OPENINGS[:args.positions]]
    for opening, row in zip(OPENINGS, rows, strict=False):
        print(f"  {opening[:30]:30}  last finished iteration: depth {row['depth']} at {row['finished_at']:.2f} s; "
              f"cut iteration {row['cut']:.2f} s, " + ("counted" + (" (changed the move)" if row["changed"] else "")
                                                       if row["counted"] else "did not count"))
    total = sum(row["total"] for row in rows)
    cut = sum(row["cut"] for row in rows)
    wasted = sum(row["cut"] for row in rows if not row["counted"])
    print(f"{len(rows)} searches: {100 * cut / total:.0f} % of the time in the iteration the clock cut; it counted in "
          f"{sum(row['counted'] for row in rows)} of {len(rows)} ({sum(row['changed'] for row in rows)} changed the "
          f"move); time in cut iterations that counted for nothing: {100 * wasted / total:.0f} %")


if __name__ == "__main__":
    main()
