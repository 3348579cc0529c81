"""plates.txt read back as a printer owner reads it: each plate's pieces and places, its top faces and the
filament changes it names (to the accent, and back to the body filament), in the words it names them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

PLATE = re.compile(r"^(plate-\d\d)\.stl: (\d+) pieces?(?:, top faces at ([\d.]+)(?:-([\d.]+))? mm: (.+))?$")
CHANGE = re.compile(r"^(change to the accent|back to the body) filament \(M600\) before layer (\d+) \(z ([\d.]+) mm\)$")
PIECE = re.compile(r"^  (\S+)\s+\S+\s+at x\s+([\d.]+)\s+y\s+([\d.]+)\s+\(([\d.]+) mm base")
FILAMENTS = {"change to the accent": "accent", "back to the body": "body"}


@dataclass(frozen=True)
class ListedChange:
    """A filament change a plate names: the filament it loads ('accent' or 'body'), its layer and z."""

    filament: str
    layer: int
    z_mm: float


@dataclass
class ListedPlate:
    """One plate of plates.txt: its stem, piece count, top faces (low, high), changes and pieces (id, x, y, base)."""

    stem: str
    count: int
    top_faces_mm: tuple[float, float] | None
    changes: tuple[ListedChange, ...]
    pieces: list[tuple[str, float, float, float]]


def read_listing(text: str) -> dict[str, ListedPlate]:
    """Every plate plates.txt lists, by stem (plate-01), in its order; a plate line it cannot read fails."""
    plates: dict[str, ListedPlate] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("plate-"):
            match = PLATE.match(line)
            assert match, f"plates.txt: unreadable plate line {line!r}"
            tops = None if match[3] is None else (float(match[3]), float(match[4] or match[3]))
            current = ListedPlate(match[1], int(match[2]), tops, _changes(match[5]), [])
            plates[current.stem] = current
        elif current and (piece := PIECE.match(line)):
            current.pieces.append((piece[1], float(piece[2]), float(piece[3]), float(piece[4])))
    return plates


def read_plates(folder: Path) -> dict[str, ListedPlate]:
    """The plates of folder/plates.txt."""
    return read_listing((folder / "plates.txt").read_text())


def _changes(text: str | None) -> tuple[ListedChange, ...]:
    if text is None:
        return ()
    changes = []
    for step in text.split(", and "):
        match = CHANGE.match(step)
        assert match, f"plates.txt: unreadable filament change {step!r}"
        changes.append(ListedChange(FILAMENTS[match[1]], int(match[2]), float(match[3])))
    return tuple(changes)
