"""Where a single-nozzle printer changes filament for a two-colour piece: the first whole layer above its top
face (to the accent, for the diagram) and, under a horse head, the first whole layer above the diagram (back to
the body's colour); layers counted as in assets/printer/fdm.toml (the first layer as thick as the rest)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from dealers_chess.pieces.model3d.model import PieceModel
from dealers_chess.printing.solids.fdm import load_fdm_settings


@dataclass(frozen=True, slots=True)
class ColourSwap:
    """One filament change: the surface the old filament ends at and the layer the new one starts at."""

    surface_mm: float  # the top face the diagram stands on, or the diagram's top where a horse head rises
    layer: int  # counted from 1, every layer layer_mm thick
    z_mm: float  # the top of that layer: the height slicers show for it
    layer_mm: float


def colour_swap(surface_mm: float, layer_mm: float | None = None) -> ColourSwap:
    """The first layer lying wholly above surface_mm."""
    layer_mm = layer_mm or load_fdm_settings().layer_mm
    below = math.ceil(surface_mm / layer_mm - 1e-6)  # whole layers up to the surface (one more if it falls mid-layer)
    return ColourSwap(surface_mm, below + 1, round((below + 1) * layer_mm, 4), layer_mm)


def piece_colour_changes(model: PieceModel) -> tuple[ColourSwap, ...]:
    """Every filament change of a built piece, bottom up: to the accent at its top face and, for a piece
    whose body continues above its relief in the body's colour (a horse head), back at the relief's top;
    none in one colour."""
    return tuple(colour_swap(z_mm) for z_mm in model.colour_changes_mm)


def change_layers(changes: Sequence[ColourSwap]) -> tuple[int, ...]:
    """The layers a piece changes filament before: pieces with the same layers can share a plate."""
    return tuple(change.layer for change in changes)
