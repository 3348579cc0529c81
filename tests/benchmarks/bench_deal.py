"""Benchmark: `dealer deal` as a user runs it (a fresh process): targets 0.25 s for 8x8, 0.6 s for 12x12.

Peers in the same run: the Python interpreter starting and exiting (the floor any command pays), and with
--against DEALER another install's `dealer` (a previous release; tests/benchmarks/against.py says how to
make one), run turn about with this tree's so that both see the same load.
Run: .venv/bin/python tests/benchmarks/bench_deal.py [--against /tmp/dealer-prev/.venv/bin/dealer]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from against import USER_ENV, dealers, load_average, run_timed

TARGETS = {"deal": 0.25, "deal --board 12x12": 0.6}
COMMANDS = (["deal", "--seed", "1"], ["deal", "--board", "12x12"], ["deal", "--max-imbalance", "1"])


def floor_seconds(runs: int) -> float:
    """Median wall seconds of an empty interpreter."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True, env=USER_ENV)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    installs, runs = dealers(__doc__.splitlines()[0], runs=7)
    print(f"{load_average()}; medians of {runs} runs; empty interpreter {floor_seconds(runs):.3f} s")
    for args in COMMANDS:
        per_install = [type(timings)(timings.label, timings.dealer) for timings in installs]
        for _ in range(runs):
            for timings in per_install:
                run_timed(timings, args)
        name = " ".join(arg for arg in args if arg not in ("--seed", "1"))
        target = TARGETS.get(name)
        for timings in per_install:
            wall, cpu = timings.median()
            verdict = "" if target is None else "OK" if wall < target else f"over the {target} s target"
            print(f"dealer {' '.join(args):26} {wall:.3f} s wall {cpu:.3f} s CPU  {timings.label}  {verdict}")
        if len(per_install) == 2:
            print(f"{'':33} this tree / the other: {per_install[0].median()[0] / per_install[1].median()[0]:.2f} "
                  f"wall, {per_install[0].median()[1] / per_install[1].median()[1]:.2f} CPU")


if __name__ == "__main__":
    main()
