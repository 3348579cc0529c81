"""Benchmark: `dealer deal` as a user runs it (a fresh process): targets 0.3 s for 8x8, 0.6 s for 12x12.

Peer in the same run: the Python interpreter starting and exiting (the floor any command pays).
Run: .venv/bin/python tests/benchmarks/bench_deal.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

DEALER = Path(sys.executable).with_name("dealer")
# As on a user's machine, Python keeps compiled modules (__pycache__); a PYTHONDONTWRITEBYTECODE=1 left in
# the environment would make every run compile the toolkit's source again.
USER_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def wall(command: list[str], runs: int = 7) -> float:
    """Median wall-clock seconds of a command."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=USER_ENV)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    floor = wall([sys.executable, "-c", "pass"])
    targets = {"deal": 0.3, "deal --board 12x12": 0.6}
    for args in (["deal"], ["deal", "--board", "12x12"], ["deal", "--max-imbalance", "1"]):
        seconds = wall([str(DEALER), *args])
        target = targets.get(" ".join(args))
        verdict = "" if target is None else "OK" if seconds < target else f"over the {target} s target"
        print(f"dealer {' '.join(args):28} {seconds:.3f} s median of 7 ({seconds / floor:.1f}x an empty interpreter, "
              f"{floor:.3f} s)  {verdict}")


if __name__ == "__main__":
    main()
