"""The search's tunables, read once from assets/search/engine.toml (weights, table size, levels)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Annotated

import msgspec

from dealers_chess.engine.errors import GameError
from dealers_chess.pieces.datafile import read_toml

Weight = Annotated[int, msgspec.Meta(ge=0, le=10_000)]
Count = Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]
Fraction = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]


class EngineSettingsError(GameError):
    """The search's settings file cannot be used."""


class Evaluation(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    hand_fraction: Fraction
    tempo: Weight
    mobility: Weight
    pawn_advance: Weight
    pawn_centre: Weight
    royal_back_rank: Weight
    royal_centre: Weight
    royal_shield: Weight
    deck_card_factor: Fraction
    phase_material: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]


class SearchTuning(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    hash_entries_per_mb: Count
    null_move_reduction: Annotated[int, msgspec.Meta(ge=1, le=6)]
    null_move_min_depth: Annotated[int, msgspec.Meta(ge=1, le=20)]
    futility_margin: Weight
    reverse_futility_margin: Weight
    lmr_min_depth: Annotated[int, msgspec.Meta(ge=1, le=20)]
    lmr_min_moves: Annotated[int, msgspec.Meta(ge=1, le=100)]
    delta_margin: Weight
    soft_time_fraction: Fraction
    check_every_nodes: Annotated[int, msgspec.Meta(ge=1, le=4096)]
    max_battle_moves: Count


class Level(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    depth: Annotated[int, msgspec.Meta(ge=1, le=64)]
    noise: Weight


class Settings(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    evaluation: Evaluation
    search: SearchTuning
    level: Annotated[tuple[Level, ...], msgspec.Meta(min_length=8, max_length=8)]


@lru_cache(maxsize=1)
def settings() -> Settings:
    """The engine's settings (assets/search/engine.toml)."""
    path = resources.files("dealers_chess.assets") / "search" / "engine.toml"
    return read_toml(str(path), "engine settings", EngineSettingsError, Settings)
