"""How to print plates on a real single-nozzle printer: the jobs, filament and time a colour (estimated), and
the advice `dealer plate` (HOW-TO-PRINT.txt beside plates.txt) and `dealer kit` (its HOW-TO-PRINT.txt) give:
M600 and its fallbacks, purging, the Z seam, your own printer profile."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dealers_chess.printing.solids.built import BuiltPiece
from dealers_chess.printing.solids.fdm import FdmSettings, load_fdm_settings


@dataclass(frozen=True, slots=True)
class PrintEstimate:
    """What printing a set of plates in one colour takes."""

    jobs: int
    changes: int  # filament changes (M600) over all plates: one a two-colour plate, two under horse heads
    filament_cm3: float
    filament_g: float
    hours: float

    def sentence(self) -> str:
        """'3 print jobs a colour, 4 filament changes, about 9.5 h and 190 g of PLA (estimated)'."""
        fdm = load_fdm_settings()
        jobs = f"{self.jobs} print job{'' if self.jobs == 1 else 's'} a colour"
        changes = f", {self.changes} filament change{'' if self.changes == 1 else 's'} (M600)" if self.changes else ""
        return (f"{jobs}{changes}, about {self.hours:.1f} h and {self.filament_g:.0f} g ({self.filament_cm3:.0f} cm3) "
                f"of {fdm.material} (estimated: PrusaSlicer shows its own figures once a plate is sliced)")


def plate_hours(filament_cm3: float, tallest_mm: float, settings: FdmSettings | None = None) -> float:
    """A plate's print time: a time per layer of its tallest piece (the minimum layer time rules the narrow
    tops) and a time per cm3 of filament, as fitted to PrusaSlicer's estimates (assets/printer/fdm.toml)."""
    settings = settings or load_fdm_settings()
    layers = tallest_mm / settings.layer_mm
    return (settings.seconds_per_layer * layers + settings.seconds_per_cm3 * filament_cm3) / 3600


def estimate(plates: Sequence[Sequence[str]], built: Mapping[str, BuiltPiece], changes: int) -> PrintEstimate:
    """Jobs, filament and time for plates given as the piece ids on each, with their filament changes in all."""
    settings = load_fdm_settings()
    cm3 = hours = 0.0
    for ids in plates:
        volume = sum(built[piece_id].weight.printed_cm3 for piece_id in ids)
        tallest = max(float(built[piece_id].vertices[:, 2].max()) for piece_id in ids)
        cm3 += volume
        hours += plate_hours(volume, tallest, settings)
    return PrintEstimate(len(plates), changes, cm3, cm3 * settings.density_g_cm3, hours)


ADVICE = """\
Does your printer stop for M600? The projects change filament with M600, a pause that parks the head
and waits for you. Marlin obeys it when built with ADVANCED_PAUSE_FEATURE (Prusa's firmware and many
recent printers' do: send M600 from a terminal to try); Klipper needs an M600 macro (one that calls
PAUSE, as in Klipper's sample macros); firmware without it skips the line and prints on in one colour.
If yours does not, put another stop at each such height in PrusaSlicer's layer slider (the + at a z
plates.txt names, or right-click it): "Add pause print" (M601, Prusa firmware), "Add custom G-code"
with M0 (plain Marlin: park the head first, e.g. G91 / G1 Z10 / G90 / G1 X0 Y200, then M0), or PAUSE
(Klipper; RESUME goes on); or your printer's own "pause at height" at each z.

Purge at every change: the first layers after it are the diagram itself (or, after the change back to
the body filament, the foot of a horse head), and a single nozzle has no wipe tower to take the mixed
filament. Push 50-100 mm of the new colour through (the M600 dialogue's "purge more", or by hand with
the nozzle hot) until it runs clean, more into a lighter colour (black to gold, red back to white), and
wipe the nozzle before it goes on.

Z seam: the projects put it at the rear (the side each piece's forward notch faces, which its owner
never sees); in your own profile keep "rear" or "aligned", never "random" on these turned bodies.

Your own printer: the projects bring a generic printer with the bed the plates were laid out for
(220 x 220 mm unless --bed said otherwise) and PrusaSlicer's default start G-code: no bed mesh, no
purge line. Open plate-NN.3mf, choose your printer, filament and print profiles (keep 0.2 mm layers
and first layer), slice, and look at the preview's layer slider: each colour change must sit at a z
plates.txt names for the plate (one, or two under horse heads), and the legend shows them.
"""


def advice(width: int = 100, indent: str = "  ") -> str:
    """The printer advice, wrapped, one paragraph after another."""
    paragraphs = [" ".join(paragraph.split()) for paragraph in ADVICE.split("\n\n")]
    return "\n\n".join(textwrap.fill(p, width, initial_indent=indent, subsequent_indent=indent) for p in paragraphs)
