"""Where a single-nozzle printer changes filament for a two-colour diagram: the first whole layer above
a piece's top face, counted in the layers of assets/printer/fdm.toml (the first layer as thick as the rest)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from pieces.model3d.model import Part, PieceModel, mesh_arrays
from printing.solids.fdm import load_fdm_settings

LEVEL_MM = 1e-4  # horizontal faces within this of each other are one level
FLAT = 0.9999  # |normal z| of a horizontal face


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
    """z of the face the diagram stands on, measured on the built solid: its largest upward flat face at a
    height the raised diagram's part spans (the solid's top without a diagram)."""
    vertices, faces = model.mesh()
    relief = model.parts.get(Part.RELIEF)
    if relief is None:
        return float(vertices[:, 2].max())
    relief_z = mesh_arrays(relief)[0][:, 2]
    levels = _upward_levels(vertices, faces)
    inside = {z: area for z, area in levels.items() if relief_z.min() - LEVEL_MM <= z < relief_z.max() - LEVEL_MM}
    return max(inside, key=inside.get) if inside else float(relief_z.min())


def _upward_levels(vertices: np.ndarray, faces: np.ndarray) -> dict[float, float]:
    """Area (mm2) of upward horizontal faces by their height (rounded to LEVEL_MM)."""
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    cross = np.cross(b - a, c - a)
    area = np.linalg.norm(cross, axis=1) / 2
    up = cross[:, 2] > FLAT * np.maximum(2 * area, 1e-12)
    levels: dict[float, float] = {}
    for z, face_area in zip(np.round(a[up, 2] / LEVEL_MM) * LEVEL_MM, area[up]):
        levels[float(z)] = levels.get(float(z), 0.0) + float(face_area)
    return levels


def colour_swap(top_mm: float, layer_mm: float | None = None) -> ColourSwap:
    """The first layer lying wholly above top_mm."""
    layer_mm = layer_mm or load_fdm_settings().layer_mm
    below = math.ceil(top_mm / layer_mm - 1e-6)  # whole layers up to the top face (one more if it falls mid-layer)
    return ColourSwap(top_mm, below + 1, round((below + 1) * layer_mm, 4), layer_mm)


def piece_colour_swap(model: PieceModel) -> ColourSwap:
    """The colour swap of a built piece."""
    return colour_swap(top_face_mm(model))
