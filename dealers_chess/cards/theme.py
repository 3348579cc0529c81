"""The look of each card group (band colour, back colours, words), read from assets/art/groups.toml."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from dealers_chess.cards.primitives import Color, hex_color
from dealers_chess.pieces.datafile import read_toml
from dealers_chess.pieces.errors import DealerError

NEUTRAL = "neutral"
KEYS = ("label", "plural", "band", "back", "back_motif", "ink")


class ThemeError(DealerError):
    """A card theme file that is not allowed."""


@dataclass(frozen=True, slots=True)
class GroupLook:
    """Colours and words of one card group."""

    name: str
    label: str
    plural: str
    band: Color
    back: Color
    back_motif: Color
    ink: Color


@cache
def group_look(group: str) -> GroupLook:
    """The look of a group ('royal', 'piece', 'pawn', 'spear' or 'neutral')."""
    looks = _looks()
    if group not in looks:
        raise ThemeError(f"card theme: no look for group {group!r}; have {', '.join(looks)}")
    return looks[group]


@cache
def _looks() -> dict[str, GroupLook]:
    path = Path(str(resources.files("dealers_chess.assets") / "art" / "groups.toml"))
    data = read_toml(path, "card theme", ThemeError)
    looks = {}
    for name, table in data.items():
        missing = [key for key in KEYS if key not in table]
        if missing:
            raise ThemeError(f"{path}: [{name}]: missing {', '.join(missing)}")
        try:
            colours = {key: hex_color(table[key]) for key in ("band", "back", "back_motif", "ink")}
        except (ValueError, TypeError):
            raise ThemeError(f"{path}: [{name}]: colours must be written like \"#1F4E79\"") from None
        looks[name] = GroupLook(name, table["label"], table["plural"], **colours)
    return looks
