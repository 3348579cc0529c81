"""Benchmark: the toolkit's computer opponent (`dealer uci`) in a short chess match against sunfish, and
for information against Fairy-Stockfish held to a fixed depth.

Both opponents are driven over UCI by python-chess's chess.engine, in the same run and on the same
machine: the score and each engine's nodes per second (from its own info lines: nodes over time,
summed over its moves) are printed, so the figures compare like with like. Each opening of a small
fixed list is played twice, the engines swapping colours; a game still going after MAX_PLIES plies is
scored a draw. The issue's target: at least 50 % against sunfish at 0.3 s per move.

Run: .venv/bin/python tests/benchmarks/bench_search.py [--games 16] [--movetime 0.3] [--fsf-depths 1,2,3]
Needs sunfish in the same environment: `.venv/bin/pip install --no-deps sunfish` (its `sunfish-uci`;
--no-deps because it pins chess==1.9.4, older than the test extra's, and its UCI part does not import
chess), so it is not in pyproject.toml. For the second part, Debian's
`fairy-stockfish` (/usr/games/fairy-stockfish). WAD Chess is not measured against it: Debian's build
(Fairy-Stockfish 11.1) loads `dealer export fsf wad-chess` but gives its custom pieces no moves
("bestmove (none)" at the start).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.engine

OURS = [sys.executable, "-m", "dealers_chess", "uci"]
SUNFISH = str(Path(sys.executable).with_name("sunfish-uci"))
FAIRY_STOCKFISH = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
# Short, common openings (UCI moves); each is played once with each engine as White.
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6",
    "d2d4 d7d5 c2c4 e7e6",
    "e2e4 c7c5 g1f3 d7d6",
    "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e6 d2d4 d7d5",
    "c2c4 e7e5 b1c3 g8f6",
    "e2e4 c7c6 d2d4 d7d5",
    "g1f3 d7d5 g2g3 g8f6",
    "e2e4 e7e5 f1c4 g8f6",
    "d2d4 f7f5 g2g3 g8f6",
]
MAX_PLIES = 240
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


@dataclass
class Effort:
    """One engine's work over a match: nodes and seconds from its own info lines, moves answered."""

    nodes: int = 0
    seconds: float = 0.0
    moves: int = 0
    slowest: float = 0.0

    def add(self, info: dict, wall: float) -> None:
        self.nodes += int(info.get("nodes", 0))
        self.seconds += float(info.get("time", 0.0))
        self.moves += 1
        self.slowest = max(self.slowest, wall)

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds else 0.0


@dataclass
class Match:
    name: str
    points: float = 0.0  # ours
    games: int = 0
    results: list[str] = field(default_factory=list)
    ours: Effort = field(default_factory=Effort)
    theirs: Effort = field(default_factory=Effort)


def play_game(ours, theirs, opening: str, ours_white: bool, our_limit, their_limit, match: Match) -> str:
    """One game from the opening; the result ('1-0', '0-1', '1/2-1/2'), a draw after MAX_PLIES plies."""
    board = chess.Board()
    game = object()  # python-chess sends ucinewgame when this changes
    for move in opening.split():
        board.push_uci(move)
    while not board.is_game_over(claim_draw=True) and len(board.move_stack) < MAX_PLIES:
        our_turn = (board.turn == chess.WHITE) == ours_white
        engine, limit, effort = (ours, our_limit, match.ours) if our_turn else (theirs, their_limit, match.theirs)
        started = time.perf_counter()
        result = engine.play(board, limit, info=chess.engine.INFO_BASIC, game=game)
        effort.add(result.info, time.perf_counter() - started)
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    return outcome.result() if outcome is not None else "1/2-1/2"


def run_match(name: str, their_command: list[str], games: int, our_limit, their_limit) -> Match:
    match = Match(name)
    with (chess.engine.SimpleEngine.popen_uci(OURS) as ours,
          chess.engine.SimpleEngine.popen_uci(their_command) as theirs):
        for index in range(games):
            opening, ours_white = OPENINGS[(index // 2) % len(OPENINGS)], index % 2 == 0
            result = play_game(ours, theirs, opening, ours_white, our_limit, their_limit, match)
            white, black = POINTS[result]
            match.points += white if ours_white else black
            match.games += 1
            match.results.append(result)
            side = "White" if ours_white else "Black"
            print(f"  {name} game {index + 1}: ours {side}, opening {opening}: {result}  "
                  f"(ours {match.points:g}/{match.games})", flush=True)
    return match


def report(match: Match) -> None:
    share = 100 * match.points / match.games
    print(f"{match.name}: ours scored {match.points:g}/{match.games} ({share:.0f} %); "
          f"nodes/s ours {match.ours.nps:,.0f}, theirs {match.theirs.nps:,.0f} "
          f"(theirs/ours {match.theirs.nps / max(match.ours.nps, 1):.1f}x); slowest answer ours "
          f"{match.ours.slowest * 1000:.0f} ms, theirs {match.theirs.slowest * 1000:.0f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16, help="games against sunfish (even: both colours)")
    parser.add_argument("--movetime", type=float, default=0.3, help="seconds per move, both engines")
    parser.add_argument("--fsf-depths", default="1,2,3", help="Fairy-Stockfish's fixed depths ('' to skip)")
    parser.add_argument("--fsf-games", type=int, default=4, help="games per depth against Fairy-Stockfish")
    args = parser.parse_args()
    if not Path(SUNFISH).exists():
        sys.exit(f"no {SUNFISH}: install sunfish with {Path(sys.executable).with_name('pip')} "
                 "install --no-deps sunfish")
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    started = time.perf_counter()
    limit = chess.engine.Limit(time=args.movetime)
    sunfish = run_match(f"sunfish at {args.movetime:g} s/move", [SUNFISH], args.games, limit, limit)
    matches = [sunfish]
    depths = [int(d) for d in args.fsf_depths.split(",") if d.strip()]
    if depths and not Path(FAIRY_STOCKFISH).exists():
        print(f"Fairy-Stockfish not found at {FAIRY_STOCKFISH}: apt-get install fairy-stockfish")
        depths = []
    for depth in depths:
        matches.append(run_match(f"Fairy-Stockfish depth {depth}", [FAIRY_STOCKFISH], args.fsf_games, limit,
                                 chess.engine.Limit(depth=depth)))
    print()
    for match in matches:
        report(match)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
