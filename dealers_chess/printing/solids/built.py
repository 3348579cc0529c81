"""Pieces built for printing, one process per core: what writing a piece's file and laying it on a
plate need of it, as plain arrays and figures that travel between processes (a kernel solid does not).

Building is most of the work of `dealer plate` and the kit; the kit builds each piece once, for its
STL and card picture (both made by the process that built it), its plates and HOW-TO-PRINT's weights.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from dealers_chess.pieces.catalogue import PieceDef
from dealers_chess.pieces.model3d.model import ModelOptions, PieceModel, build_piece
from dealers_chess.printing.parallel import each_on_every_core
from dealers_chess.printing.solids.colour_swap import ColourSwap, piece_colour_changes
from dealers_chess.printing.solids.weight import PieceWeight, piece_weight


@dataclass(frozen=True, slots=True)
class BuiltPiece:
    """A built piece as plates and listings use it: its mesh, foot, filament changes and weight."""

    piece_id: str
    code: str
    vertices: np.ndarray  # N x 3 float32 (the kernel's own numbers), mm, centred on the origin, base at z 0
    faces: np.ndarray  # M x 3 int32 vertex indices, counter-clockwise seen from outside
    diameter_mm: float  # of the foot
    top_mm: float  # the top face's height
    height_mm: float  # its highest point
    changes: tuple[ColourSwap, ...]  # bottom up: to the accent, and back under a horse head; none in one colour
    weight: PieceWeight


# what else to make of a piece while its solid is at hand (in the worker process): a module-level function
Also = Callable[[PieceDef, PieceModel], None]


def build_for_print(
    pieces: Sequence[PieceDef], options: ModelOptions, advance: Callable[[int], None] | None = None,
    also: Also | None = None,
) -> dict[str, BuiltPiece]:
    """Every distinct piece built, one process per core, and also(piece, model) done with each there (the
    kit renders its card pictures so); by piece id. advance(1) after each."""
    distinct = list({piece.id: piece for piece in pieces}.values())
    built = each_on_every_core(partial(_build_one, options=options, also=also), distinct, advance)
    return {piece.piece_id: piece for piece in built}


def _build_one(piece: PieceDef, options: ModelOptions, also: Also | None) -> BuiltPiece:
    model = build_piece(piece, options)
    if also is not None:
        also(piece, model)
    vertices, faces = model.mesh()  # half the bytes to send between processes as float32 and int32:
    vertices, faces = vertices.astype(np.float32), faces.astype(np.int32)  # mesh() widened them exactly
    return BuiltPiece(piece.id, piece.code, vertices, faces, 2 * model.size.base_radius, model.top_mm,
                      float(vertices[:, 2].max()), piece_colour_changes(model), piece_weight(model))


__all__ = ["Also", "BuiltPiece", "build_for_print"]
