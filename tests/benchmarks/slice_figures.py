"""Measure the print figures docs/pieces3d.md quotes with PrusaSlicer: each piece's time and filament at the
settings of assets/printer/fdm.toml, and each plate project's time, filament, colour changes and supports.

Run: .venv/bin/python tests/benchmarks/slice_figures.py pieces king queen knight ... [--out DIR]
     .venv/bin/python tests/benchmarks/slice_figures.py plates DIR/plate-01.3mf ...
Slicing is slow (a 12-piece plate takes minutes on a busy 2-core machine); every G-code is kept in --out.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d.model import ModelOptions
from dealers_chess.printing.solids.fdm import load_fdm_settings
from dealers_chess.printing.solids.piece_files import write_piece_stls


def fdm_flags() -> list[str]:
    """PrusaSlicer's command-line settings for fdm.toml's print (what the weights are estimated for)."""
    s = load_fdm_settings()
    return ["--layer-height", f"{s.layer_mm:g}", "--first-layer-height", f"{s.layer_mm:g}", "--perimeters",
            str(s.perimeters), "--fill-density", f"{s.infill_percent:g}%", "--top-solid-layers", str(s.top_layers),
            "--bottom-solid-layers", str(s.bottom_layers), "--nozzle-diameter", "0.4", "--center", "110,110"]


def sliced(source: Path, gcode: Path, flags: list[str]) -> str:
    """The G-code PrusaSlicer writes for an STL or project (kept at gcode; sliced again only if missing)."""
    if not gcode.exists():
        home = gcode.parent / "home"  # no user profile of this machine's leaks in
        home.mkdir(exist_ok=True)
        command = ["prusa-slicer", "--loglevel", "1", *flags, "--export-gcode", "--output", str(gcode), str(source)]
        run = subprocess.run(command, capture_output=True, text=True, env={"HOME": str(home), "PATH": "/usr/bin:/bin"})
        if run.returncode:
            raise SystemExit(f"{source}: PrusaSlicer failed: {run.stderr.strip()[-400:]}")
    return gcode.read_text()


def figures(gcode: str) -> dict[str, str]:
    """Time (normal mode), filament in cm3, colour changes (the layer z before each M600), supports."""
    time = re.search(r"^; estimated printing time \(normal mode\) = (.+)$", gcode, re.M)[1]
    cm3 = re.search(r"^; filament used \[cm3\] = ([\d.]+)$", gcode, re.M)[1]
    changes, z = [], ""
    for line in gcode.splitlines():
        if line.startswith(";Z:"):
            z = line[3:]
        elif line.split(";")[0].strip() == "M600":
            changes.append(z)
    support = ";TYPE:Support material" in gcode
    return {"time": time, "cm3": cm3, "M600 at z": ", ".join(changes) or "none", "support": "yes" if support else "no"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=["pieces", "plates"])
    parser.add_argument("names", nargs="+", help="piece ids, or plate projects (.3mf)")
    parser.add_argument("--out", type=Path, default=Path("build/slice-figures"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    catalogue = load_catalogue()
    for name in args.names:
        if args.what == "pieces":
            (stl,) = write_piece_stls([catalogue.get(name)], args.out, ModelOptions(50.0))
            gcode = sliced(stl, args.out / f"{stl.stem}.gcode", fdm_flags())
        else:
            project = Path(name)
            gcode = sliced(project, args.out / f"{project.parent.name}-{project.stem}.gcode", ["--dont-arrange"])
        print(name, "  ".join(f"{key} {value}" for key, value in figures(gcode).items()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
