"""Benchmark: loading the full catalogue in a fresh interpreter (target under 0.2 s).

Run: .venv/bin/python tests/benchmarks/bench_catalogue.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys

CODE = (
    "import time; t = time.perf_counter(); from pieces.catalogue import load_catalogue; "
    "c = load_catalogue(); print(time.perf_counter() - t, len(c))"
)
PEER = "import time; t = time.perf_counter(); import tomllib, json; print(time.perf_counter() - t, 0)"


def timed(code: str, runs: int = 7) -> tuple[float, int]:
    """Median seconds over fresh interpreters, and the piece count."""
    results = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
               for _ in range(runs)]
    return statistics.median(float(r[0]) for r in results), int(results[0][1])


def main() -> None:
    seconds, count = timed(CODE)
    baseline, _ = timed(PEER)
    print(f"catalogue load (import + parse + validate, {count} pieces): {seconds * 1000:.1f} ms median of 7")
    print(f"peer: importing tomllib and json alone: {baseline * 1000:.1f} ms; "
          f"ratio {seconds / max(baseline, 1e-9):.0f}x")
    print("target: under 200 ms -> " + ("OK" if seconds < 0.2 else "TOO SLOW"))


if __name__ == "__main__":
    main()
