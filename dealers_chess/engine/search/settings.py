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
    royal_danger: Weight
    royal_danger_cap: Weight
    passed_pawn_base: Weight
    passed_pawn_mg: Weight
    passed_pawn_eg: Weight
    isolated_pawn: Weight
    doubled_pawn: Weight
    deck_card_factor: Fraction
    phase_material: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]


class SearchTuning(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    hash_entries_per_mb: Count
    aspiration_window: Weight
    null_move_reduction: Annotated[int, msgspec.Meta(ge=1, le=6)]
    null_move_min_depth: Annotated[int, msgspec.Meta(ge=1, le=20)]
    null_move_material: Weight
    futility_margin: Weight
    futility_depth: Annotated[int, msgspec.Meta(ge=0, le=20)]
    reverse_futility_margin: Weight
    reverse_futility_depth: Annotated[int, msgspec.Meta(ge=0, le=20)]
    razor_margin: Weight
    lmr_min_depth: Annotated[int, msgspec.Meta(ge=1, le=20)]
    lmr_min_moves: Annotated[int, msgspec.Meta(ge=1, le=100)]
    lmr_base: Annotated[float, msgspec.Meta(ge=0.0, le=5.0)]
    lmr_divisor: Annotated[float, msgspec.Meta(ge=0.5, le=10.0)]
    lmp_base: Annotated[int, msgspec.Meta(ge=1, le=100)]
    lmp_depth: Annotated[int, msgspec.Meta(ge=0, le=20)]
    see_capture_margin: Weight
    see_depth: Annotated[int, msgspec.Meta(ge=0, le=20)]
    delta_margin: Weight
    time_next_iteration: Fraction
    time_instability: Annotated[float, msgspec.Meta(ge=0.0, le=5.0)]
    time_fail_low: Annotated[float, msgspec.Meta(ge=0.0, le=5.0)]
    check_every_nodes: Annotated[int, msgspec.Meta(ge=1, le=4096)]
    max_battle_moves: Count


class Level(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    depth: Annotated[int, msgspec.Meta(ge=2, le=64)]  # 2 at least: a level sees the reply, so no mate in one
    noise: Weight
    blunder: Fraction = 0.0


class Settings(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    evaluation: Evaluation
    search: SearchTuning
    level: Annotated[tuple[Level, ...], msgspec.Meta(min_length=8, max_length=8)]


@lru_cache(maxsize=1)
def settings() -> Settings:
    """The engine's settings (assets/search/engine.toml)."""
    path = resources.files("dealers_chess.assets") / "search" / "engine.toml"
    return read_toml(str(path), "engine settings", EngineSettingsError, Settings)
