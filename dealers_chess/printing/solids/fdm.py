"""The FDM print the toolkit assumes (assets/printer/fdm.toml): layer height, slicer settings, washers."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, TypeAlias

import msgspec

from dealers_chess.pieces.datafile import ONE_LINE, read_toml
from dealers_chess.pieces.errors import DealerError

Mm = Annotated[float, msgspec.Meta(gt=0, le=100)]
Density = Annotated[float, msgspec.Meta(gt=0, le=30)]
Name: TypeAlias = Annotated[str, msgspec.Meta(pattern=ONE_LINE, min_length=1, max_length=40)]


class FdmError(DealerError):
    """A print settings file that is missing or impossible."""


class Washer(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A flat washer: its nominal size name, inner and outer diameter and thickness."""

    size: Name
    inner_mm: Mm
    outer_mm: Mm
    thickness_mm: Mm


class FdmSettings(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Layer height and the slicer settings weights are estimated for; the washers the pocket takes."""

    material: Name
    density_g_cm3: Density
    layer_mm: Annotated[float, msgspec.Meta(ge=0.04, le=1.0)]
    perimeters: Annotated[int, msgspec.Meta(ge=1, le=20)]
    perimeter_width_mm: Annotated[float, msgspec.Meta(ge=0.1, le=2.0)]
    top_layers: Annotated[int, msgspec.Meta(ge=0, le=50)]
    bottom_layers: Annotated[int, msgspec.Meta(ge=0, le=50)]
    infill_percent: Annotated[float, msgspec.Meta(ge=0, le=100)]
    seconds_per_layer: Annotated[float, msgspec.Meta(ge=0, le=600)]
    seconds_per_cm3: Annotated[float, msgspec.Meta(ge=0, le=36000)]
    steel_density_g_cm3: Density
    washer: list[Washer]


def settings_path() -> Path:
    """The built-in settings file."""
    return Path(str(resources.files("dealers_chess.assets") / "printer" / "fdm.toml"))


@lru_cache(maxsize=4)
def load_fdm_settings(path: str | Path | None = None) -> FdmSettings:
    """The print settings from path (default: the built-in file)."""
    return read_toml(path or settings_path(), "print settings", FdmError, FdmSettings)
