"""What the command benchmarks share: the `dealer` of this tree and, with --against, another install's (a
previous release), each run as a user runs it (a fresh process) and timed in the same run, turn about.

A previous release to compare with, in its own folder and venv (d72e9e2 is 0.1.0 as reviewed):
    git worktree add /tmp/dealer-prev d72e9e2 && cd /tmp/dealer-prev && python3 -m venv .venv
    .venv/bin/pip install -q -e .
then: .venv/bin/python tests/benchmarks/bench_deal.py --against /tmp/dealer-prev/.venv/bin/dealer
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

THIS_DEALER = Path(sys.executable).with_name("dealer")
# As on a user's machine, Python keeps compiled modules (__pycache__); a PYTHONDONTWRITEBYTECODE=1 left in
# the environment would make every run compile the toolkit's source again.
USER_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


@dataclass
class Timings:
    """Wall and CPU seconds (the process and all it started: user + system) of each run of one `dealer`."""

    label: str
    dealer: Path
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def median(self) -> tuple[float, float]:
        return statistics.median(self.wall), statistics.median(self.cpu)


def dealers(description: str, runs: int) -> tuple[list[Timings], int]:
    """This tree's `dealer` and, if --against names one, the other; and how many runs each (--runs)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--against", type=Path, help="another install's dealer executable (a previous release)")
    parser.add_argument("--runs", type=int, default=runs, help=f"runs of each command per dealer (default {runs})")
    args = parser.parse_args()
    _adopt_descendants()
    found = [Timings("this tree", THIS_DEALER)]
    if args.against is not None:
        found.append(Timings(f"against {args.against}", args.against))
    return found, args.runs


def run_timed(timings: Timings, args: list[str], cwd: str | None = None) -> None:
    """One run of `dealer ARGS`, its wall and CPU seconds added to timings."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = os.times().elapsed
    subprocess.run([str(timings.dealer), *args], cwd=cwd, check=True, capture_output=True, env=USER_ENV)
    wall = os.times().elapsed - start
    _reap_descendants()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    timings.wall.append(wall)
    timings.cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def _adopt_descendants() -> None:
    """On Linux, become the parent of the processes a run leaves behind (a pool's fork server and its workers
    are not the run's own children, so their CPU would not count): a child subreaper (prctl)."""
    try:
        ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, TypeError, AttributeError):  # not Linux: their CPU goes uncounted
        pass


def _reap_descendants() -> None:
    """Wait for the processes the last run left behind (adopted), so that their CPU counts in RUSAGE_CHILDREN."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return



def load_average() -> str:
    """The 1-minute load average and the cores, to read the timings by (a busy machine slows every figure)."""
    return f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
