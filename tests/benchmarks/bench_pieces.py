"""Benchmark: build every catalogue piece (cold, no cache) and print build time and triangle figures.

Targets (issue 30): all pieces at 50 mm built, written and validated in under 10 s on 2 cores, as
`dealer pieces` does it (one process per core); the one-process pass below gives each piece's figures.
Triangles: 96 meridians a turn (issue 30) make a median about 13.5k (round stems); printed for information.
Run: .venv/bin/python tests/benchmarks/bench_pieces.py [--square-mm 50] [--weight-pocket]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d.model import ModelOptions, _build_cached, build_piece
from dealers_chess.pieces.model3d.render import render_piece
from dealers_chess.printing.parallel import usable_cores
from dealers_chess.printing.solids.mesh_check import triangles_of
from dealers_chess.printing.solids.piece_files import write_piece_files
from dealers_chess.printing.solids.stl import write_stl


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--square-mm", type=float, default=50.0)
    parser.add_argument("--weight-pocket", action="store_true")
    parser.add_argument("--renders", type=int, default=5, help="pictures to time (300 px)")
    args = parser.parse_args()
    options = ModelOptions(args.square_mm, args.weight_pocket)
    catalogue = list(load_catalogue())
    _build_cached.cache_clear()
    builds, writes, triangles, sizes = [], [], [], []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for piece in catalogue:
            t0 = time.perf_counter()
            model = build_piece(piece, options)
            vertices, faces = model.mesh()
            t1 = time.perf_counter()
            path = Path(folder) / f"{piece.id}.stl"
            write_stl(path, triangles_of(vertices, faces), piece.id)
            t2 = time.perf_counter()
            builds.append(t1 - t0)
            writes.append(t2 - t1)
            triangles.append(len(faces))
            sizes.append(path.stat().st_size)
    total = time.perf_counter() - started
    print(f"{len(catalogue)} pieces at {args.square_mm:g} mm{' with weight pockets' if args.weight_pocket else ''}")
    _row("build (ms)", [b * 1000 for b in builds])
    _row("write+validate (ms)", [w * 1000 for w in writes])
    _row("triangles", triangles)
    _row("STL size (KiB)", [s / 1024 for s in sizes])
    print(f"one process: build + write + validate {total:.2f} s")
    print(f"median triangles: {statistics.median(triangles):.0f}")
    slowest = sorted(zip(builds, (p.id for p in catalogue), strict=True), reverse=True)[:3]
    print("slowest builds: " + ", ".join(f"{name} {t * 1000:.0f} ms" for t, name in slowest))
    renders = []
    for piece in catalogue[: args.renders]:
        t0 = time.perf_counter()
        render_piece(piece, 300, "white", args.square_mm)
        renders.append(time.perf_counter() - t0)
    if renders:
        _row("render 300 px (ms)", [r * 1000 for r in renders])
    _build_cached.cache_clear()
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        write_piece_files(catalogue, folder, options)
        every_core = time.perf_counter() - started
    print(f"as dealer pieces, {usable_cores()} cores: {len(catalogue)} STLs in {every_core:.2f} s "
          "(target < 10 s on 2 cores)")
    return 0 if every_core < 10 else 1


def _row(label: str, values) -> None:
    values = np.asarray(values, dtype=float)
    print(f"{label:22} min {values.min():9.1f}  median {np.median(values):9.1f}  max {values.max():9.1f}")


if __name__ == "__main__":
    sys.exit(main())
