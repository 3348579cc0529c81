"""The few heights a top face may stand at (assets/printer/top_levels.toml), so that pieces of many
kinds share a plate and its filament changes: each power band's level, and the next level up for a
body that needs more room."""

from __future__ import annotations

from enum import Enum
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated

import msgspec

from dealers_chess.pieces.catalogue import Group
from dealers_chess.pieces.datafile import Id, read_toml
from dealers_chess.pieces.errors import DealerError
from dealers_chess.pieces.model3d.shape import Finial, Head, ShapeSpec

LAYER_MM = 0.2


class LevelError(DealerError):
    """A top-level file that is missing or does not give every power band one level."""


class Band(Enum):
    """What decides a body's height: its group and what stands on its top face."""

    ROYAL = "royal"  # a crown, with the King's cross or alone
    ROYAL_HORSE = "royal-horse"  # a horse head in a crown (Rex)
    BALL = "ball"  # riders both ways (Queen)
    MITRE = "mitre"  # diagonal riders (Bishop)
    TOWER = "tower"  # orthogonal riders (Rook)
    LEAPER = "leaper"  # every other piece
    HORSE = "horse"  # (1,2) leapers under a horse head (Knight)
    PAWN = "pawn"
    SPEAR = "spear"


class Level(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One height top faces share, in squares, and the bands that stand on it."""

    name: Id
    squares: Annotated[float, msgspec.Meta(gt=0.1, le=2.0)]
    bands: list[Band]


class LevelFile(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    level: Annotated[list[Level], msgspec.Meta(min_length=1, max_length=20)]


def band_of(group: Group, spec: ShapeSpec) -> Band:
    """A body's power band."""
    if group is Group.ROYAL:
        return Band.ROYAL_HORSE if spec.finial is Finial.HORSE else Band.ROYAL
    if group in (Group.PAWN, Group.SPEAR):
        return Band.PAWN if group is Group.PAWN else Band.SPEAR
    by_finial = {Finial.HORSE: Band.HORSE, Finial.BALL: Band.BALL, Finial.MITRE: Band.MITRE}
    return by_finial.get(spec.finial) or (Band.TOWER if spec.head is Head.TOWER else Band.LEAPER)


def levels_path() -> Path:
    """The built-in file of levels."""
    return Path(str(resources.files("dealers_chess.assets") / "printer" / "top_levels.toml"))


@lru_cache(maxsize=4)
def load_levels(path: str | Path | None = None) -> tuple[Level, ...]:
    """The levels, low to high; every band on exactly one."""
    path = path or levels_path()
    levels = tuple(read_toml(path, "top levels", LevelError, LevelFile).level)
    if [level.squares for level in levels] != sorted({level.squares for level in levels}):
        raise LevelError(f"{path}: level: list the levels from low to high, each at its own height")
    for band in Band:
        owners = [level.name for level in levels if band in level.bands]
        if len(owners) != 1:
            raise LevelError(f"{path}: band {band.value!r} stands on {len(owners)} levels "
                             f"({', '.join(owners) or 'none'}); give it exactly one")
    return levels


def on_layer(z_mm: float) -> float:
    """A height rounded to the nearest 0.2 mm layer boundary."""
    return round(round(z_mm / LAYER_MM) * LAYER_MM, 6)


def level_heights_mm(square_mm: float) -> list[float]:
    """Every level's height at this square size, low to high, on layers."""
    return [on_layer(level.squares * square_mm) for level in load_levels()]


def top_face_mm(band: Band, needed_mm: float, square_mm: float) -> float:
    """The top face's height: the band's level, or the first level above it that leaves the body the
    room it needs; a body taller than every level stands at its own height (on a layer)."""
    levels = load_levels()
    own = next(index for index, level in enumerate(levels) if band in level.bands)
    needed = on_layer(needed_mm)
    for height in level_heights_mm(square_mm)[own:]:
        if height >= needed - 1e-9:
            return height
    return needed
