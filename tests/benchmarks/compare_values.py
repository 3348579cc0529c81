"""Our measured values against the published ones (tests/data/published-values.toml), as a Markdown table.

For each check it gives our figure (a value or the gap between two values) with its 95 % interval,
taken from the bootstrap of the results file (the gap's interval from the same bootstrap runs, so
the pieces' shared yardsticks are counted once), and says whether the published range and ours agree:
'agrees' when our interval overlaps it, 'differs' when it does not.

    .venv/bin/python tests/benchmarks/compare_values.py dealers_chess/assets/values/results-8x8.jsonl.gz
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import numpy as np

from dealers_chess.engine.selfplay.estimate import BOOTSTRAP_SEED, bootstrap_values
from dealers_chess.engine.selfplay.results import read_results

CHECKS = Path(__file__).resolve().parents[1] / "data" / "published-values.toml"


def main(path: str) -> None:
    results = read_results(path)
    point, runs = bootstrap_values(results, np.random.default_rng(BOOTSTRAP_SEED))
    print("| published | ours (95 % interval) | games | verdict | source |")
    print("|---|---|---|---|---|")
    for check in tomllib.loads(CHECKS.read_text())["check"]:
        pieces = check["pieces"]
        if any(p not in point for p in pieces):
            print(f"| {check['what']} | not measured | | | {check['source']} |")
            continue
        if check["kind"] == "value":
            ours, spread = point[pieces[0]][0], runs[pieces[0]]
            label = f"{ours:.2f}"
        else:
            ours, spread = point[pieces[0]][0] - point[pieces[1]][0], runs[pieces[0]] - runs[pieces[1]]
            label = f"{pieces[0]} - {pieces[1]} = {ours:.2f}"
        spread = spread[np.isfinite(spread)]
        low, high = np.quantile(spread, [0.025, 0.975])
        agrees = high >= check["low"] and low <= check["high"]
        games = sum(len(results.games.get(m.id, {})) for m in results.matchups.values() if m.target in pieces)
        print(f"| {check['what']} | {label} [{low:.2f}, {high:.2f}] | {games} | "
              f"{'agrees' if agrees else 'differs'} | {check['source']} |")


if __name__ == "__main__":
    main(sys.argv[1])
