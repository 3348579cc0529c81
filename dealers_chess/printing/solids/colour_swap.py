"""Where a single-nozzle printer changes filament for a two-colour diagram: the first whole layer above
a piece's top face, counted in the layers of assets/printer/fdm.toml (the first layer as thick as the rest)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from dealers_chess.pieces.model3d.model import PieceModel
from dealers_chess.printing.solids.fdm import load_fdm_settings


@dataclass(frozen=True, slots=True)
class ColourSwap:
    """The top face a diagram stands on and the layer to start the second colour at."""

    top_face_mm: float
    layer: int  # counted from 1, every layer layer_mm thick
    z_mm: float  # the top of that layer: the height slicers show for it
    layer_mm: float

    @property
    def key(self) -> int:
        """Pieces with the same swap layer share one filament change."""
        return self.layer


def top_face_mm(model: PieceModel) -> float:
    """z of the face the diagram stands on (the plate tests read it back from the written STLs, and the
    slow PrusaSlicer test finds it where the slicer stops printing the top face)."""
    return model.top_mm


def colour_swap(top_mm: float, layer_mm: float | None = None) -> ColourSwap:
    """The first layer lying wholly above top_mm."""
    layer_mm = layer_mm or load_fdm_settings().layer_mm
    below = math.ceil(top_mm / layer_mm - 1e-6)  # whole layers up to the top face (one more if it falls mid-layer)
    return ColourSwap(top_mm, below + 1, round((below + 1) * layer_mm, 4), layer_mm)


def piece_colour_swap(model: PieceModel) -> ColourSwap:
    """The colour swap of a built piece."""
    return colour_swap(top_face_mm(model))


def piece_colour_changes(model: PieceModel) -> tuple[ColourSwap, ...]:
    """Every filament change of a built piece, bottom up: to the accent at its top face and, for a piece
    whose body continues above its relief in the body's colour (a horse head), back at the relief's top."""
    return tuple(colour_swap(z_mm) for z_mm in model.colour_changes_mm)
