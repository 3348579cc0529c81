"""Benchmark: `dealer kit` as a new user runs it (a fresh process, an empty build folder, no render cache).

Target: under 10 s on 2 cores. The peers measured in the same run are `dealer cards` for the same deck
(the PDF part alone), so the ratio shows what the 3D pictures, STLs, plates and PNGs add, and with
--against DEALER another install's `dealer kit` (a previous release; tests/benchmarks/against.py says how to
make one), run turn about with this tree's so that both see the same load.
Run: .venv/bin/python tests/benchmarks/bench_kit.py [--against /tmp/dealer-prev/.venv/bin/dealer] [--runs N]
"""

from __future__ import annotations

import tempfile

from against import Timings, dealers, load_average, run_timed

TARGET_S = 10.0


def timed_in_a_fresh_folder(timings: Timings, args: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        run_timed(timings, args, cwd=folder)


def main() -> None:
    installs, runs = dealers(__doc__.splitlines()[0], runs=1)
    print(f"{load_average()} at the start; medians of {runs} run(s)")
    cards = Timings("this tree", installs[0].dealer)
    for _ in range(runs):
        timed_in_a_fresh_folder(cards, ["cards", "--pictures", "silhouette"])
        for timings in installs:
            timed_in_a_fresh_folder(timings, ["kit"])
    for timings in installs:
        wall, cpu = timings.median()
        verdict = "OK" if wall < TARGET_S else f"over the {TARGET_S:.0f} s target"
        print(f"dealer kit (cold cache)          {wall:6.2f} s wall {cpu:6.2f} s CPU  {timings.label}  {verdict}")
    print(f"dealer cards, silhouettes (peer) {cards.median()[0]:6.2f} s wall {cards.median()[1]:6.2f} s CPU  "
          f"kit = {installs[0].median()[0] / cards.median()[0]:.1f}x the cards alone")
    if len(installs) == 2:
        print(f"this tree / the other: {installs[0].median()[0] / installs[1].median()[0]:.2f} wall, "
              f"{installs[0].median()[1] / installs[1].median()[1]:.2f} CPU; {load_average()} at the end")


if __name__ == "__main__":
    main()
