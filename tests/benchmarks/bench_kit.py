"""Benchmark: `dealer kit` as a new user runs it (a fresh process, an empty build folder, no render cache).

Target: under 20 s on 2 cores. The peer measured in the same run is `dealer cards` for the same deck
(the PDF part alone), so the ratio shows what the 3D pictures, STLs, plates and PNGs add.
Run: .venv/bin/python tests/benchmarks/bench_kit.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEALER = Path(sys.executable).with_name("dealer")
# As on a user's machine, Python keeps compiled modules (__pycache__); a PYTHONDONTWRITEBYTECODE=1 left in
# the environment would make every run compile the toolkit's source again.
USER_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
TARGET_S = 20.0


def timed(args: list[str]) -> float:
    """Wall seconds of one `dealer ARGS` run in a fresh empty folder."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run([str(DEALER), *args], cwd=folder, check=True, capture_output=True, env=USER_ENV)
        return time.perf_counter() - start


def main() -> None:
    cards = timed(["cards", "--pictures", "silhouette"])
    kit = timed(["kit"])
    verdict = "OK" if kit < TARGET_S else f"over the {TARGET_S:.0f} s target"
    print(f"dealer kit (cold cache)          {kit:6.2f} s  {kit / TARGET_S:.2f}x the {TARGET_S:.0f} s target  "
          f"{verdict}")
    print(f"dealer cards, silhouettes (peer) {cards:6.2f} s  kit = {kit / cards:.1f}x the cards alone")


if __name__ == "__main__":
    main()
