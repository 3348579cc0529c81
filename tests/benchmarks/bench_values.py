"""Benchmark: measuring games a minute, one process and on Ray, and what the starter-kit table costs.

Plays the first games of the starter kit's plan at the documented settings (300 nodes a move) twice:
in this process, one after another, and on Ray with one player per core. It prints games a minute
per core, Ray's efficiency against the single process (same games, same run), and from those the
wall time of the starter-kit table on one machine like this and on N of them (Ray's scaling taken
as linear across machines, each with this machine's cores: an estimate, said as such).

    .venv/bin/python tests/benchmarks/bench_values.py [--games 16] [--nodes 300] [--machines 4]
"""

from __future__ import annotations

import argparse
import os
import time

from dealers_chess.compute.ray_games import Cluster, play_games, stop
from dealers_chess.engine.game import default_catalogue
from dealers_chess.engine.measure.values import model_piece_value
from dealers_chess.engine.search.search import Searcher
from dealers_chess.engine.selfplay.imbalance import base_for, matchups_for
from dealers_chess.engine.selfplay.play import play_game
from dealers_chess.engine.selfplay.results import Results, Settings, games_wanted, recorded, tasks_to_play


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=16, help="games played each way")
    parser.add_argument("--nodes", type=int, default=300)
    parser.add_argument("--per-piece", type=int, default=130, help="games a piece in the table costed")
    parser.add_argument("--machines", type=int, default=4)
    args = parser.parse_args()
    catalogue = default_catalogue()
    base = base_for("8x8")
    plan = [recorded(m, catalogue) for m in matchups_for(
        catalogue.select(sets=["starter"]), base, catalogue, lambda p: model_piece_value(catalogue.get(p)))]
    tasks = tasks_to_play(Results(settings=Settings("8x8", args.nodes, 1)), plan, 64)[:args.games]
    game = base.game_def()

    started = time.perf_counter()
    searcher = Searcher(hash_mb=4)
    plies = sum(play_game(task, game, catalogue, searcher).plies for task in tasks)
    one = time.perf_counter() - started

    cores = len(os.sched_getaffinity(0))
    done: list[dict] = []
    play_games(tasks[:2], catalogue, game, Cluster(), lambda line: None)  # Ray and its players warm
    started = time.perf_counter()
    play_games(tasks, catalogue, game, Cluster(), done.append)
    spread = time.perf_counter() - started
    stop()

    per_core = len(tasks) / one * 60
    on_ray = len(done) / spread * 60
    total = sum(games_wanted(m, args.per_piece) for m in plan)
    print(f"{len(tasks)} games of the starter plan at {args.nodes} nodes a move, {plies / len(tasks):.0f} plies each")
    print(f"one process: {per_core:.1f} games a minute (one core)")
    print(f"Ray, {cores} players: {on_ray:.1f} games a minute = {on_ray / cores:.1f} a core, "
          f"{on_ray / (per_core * cores):.0%} of {cores} single processes")
    hours = total / on_ray / 60
    print(f"the starter-kit table at {args.per_piece} games a piece ({total} games with the scale and the ladder): "
          f"{hours:.1f} h on this machine; about {hours / args.machines:.1f} h on {args.machines} like it "
          f"(linear scaling assumed)")


if __name__ == "__main__":
    main()
