"""Sheet profiles (assets/profiles/*.toml or a user's file) and where each card goes on a page.

Coordinates are PDF points, origin at the page's bottom-left. Backs are placed mirrored for the
duplex flip and shifted by the user's measured front/back offset.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Annotated

import msgspec

from dealers_chess.pieces.datafile import Text, read_toml
from dealers_chess.pieces.errors import DealerError

MM_PT = 72 / 25.4
DEFAULT_PROFILE = "letter-2x4-perforated"
CROP_OFFSET_PT, CROP_LENGTH_PT = 3.0, 9.0
Points = Annotated[float, msgspec.Meta(ge=0, le=14_400)]  # PDF pages are at most 200 in (14,400 pt)
Count = Annotated[int, msgspec.Meta(ge=1, le=20)]


class ProfileError(DealerError):
    """A sheet profile that is missing or impossible."""


class Duplex(Enum):
    """Which edge the paper turns over when printing two-sided."""

    LONG = "long"
    SHORT = "short"


class ProfileFile(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The declared shape of a profile file: every key but the description is required."""

    page_width_pt: Points
    page_height_pt: Points
    columns: Count
    rows: Count
    card_width_pt: Points
    card_height_pt: Points
    left_pt: Points
    top_pt: Points
    gap_x_pt: Points
    gap_y_pt: Points
    bleed_pt: Points
    crop_marks: bool
    trim_box: bool
    description: Text = ""


@dataclass(frozen=True, slots=True)
class Profile:
    """Sheet geometry: page, grid of card slots, gaps, bleed and marks."""

    name: str
    description: str
    page_width_pt: float
    page_height_pt: float
    columns: int
    rows: int
    card_width_pt: float
    card_height_pt: float
    left_pt: float
    top_pt: float
    gap_x_pt: float
    gap_y_pt: float
    bleed_pt: float
    crop_marks: bool
    trim_box: bool

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def slot(self, index: int) -> tuple[float, float]:
        """Bottom-left corner of the trim of slot index (row by row from the top-left)."""
        row, column = divmod(index % self.per_page, self.columns)
        x = self.left_pt + column * (self.card_width_pt + self.gap_x_pt)
        top = self.page_height_pt - self.top_pt - row * (self.card_height_pt + self.gap_y_pt)
        return (x, top - self.card_height_pt)

    def back_slot(self, index: int, duplex: Duplex, offset_mm: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
        """Where the back of slot index goes on the back page: mirrored for the flip, then offset."""
        x, y = self.slot(index)
        portrait = self.page_width_pt <= self.page_height_pt
        if (duplex is Duplex.LONG) == portrait:
            x = self.page_width_pt - x - self.card_width_pt
        else:
            y = self.page_height_pt - y - self.card_height_pt
        return (x + offset_mm[0] * MM_PT, y + offset_mm[1] * MM_PT)

    def crop_marks_at(self, index: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """Short lines at each corner of a slot, outside the trim (in the gutter or margin)."""
        x, y = self.slot(index)
        w, h = self.card_width_pt, self.card_height_pt
        room = min(self.gap_x_pt or 2 * CROP_LENGTH_PT, self.gap_y_pt or 2 * CROP_LENGTH_PT) / 2
        length = max(2.0, min(CROP_LENGTH_PT, room - CROP_OFFSET_PT - 0.5))
        a, b = CROP_OFFSET_PT, CROP_OFFSET_PT + length
        marks = []
        for cx, sx in ((x, -1), (x + w, 1)):
            for cy, sy in ((y, -1), (y + h, 1)):
                marks.append(((cx + sx * a, cy), (cx + sx * b, cy)))
                marks.append(((cx, cy + sy * a), (cx, cy + sy * b)))
        return marks


def profile_names() -> list[str]:
    """The built-in profiles."""
    folder = resources.files("dealers_chess.assets") / "profiles"
    return sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".toml"))


def load_profile(name_or_path: str) -> Profile:
    """A built-in profile by name, or a profile TOML file of the user's; ProfileError if impossible."""
    path = Path(name_or_path)
    if not name_or_path.endswith(".toml"):
        if name_or_path not in profile_names():
            raise ProfileError(
                f"unknown profile {name_or_path!r}; built-in: {', '.join(profile_names())} (or a .toml file)"
            )
        path = Path(str(resources.files("dealers_chess.assets") / "profiles" / f"{name_or_path}.toml"))
    data = read_toml(path, "sheet profile", ProfileError, ProfileFile)
    name = path.name[:-5] if path.name.endswith(".toml") else path.name
    return _check(Profile(name=name, **msgspec.structs.asdict(data)))


def _check(profile: Profile) -> Profile:
    """Refuse a profile whose cards leave the page or are too small for the card design."""
    where = f"profile {profile.name!r}"
    if profile.card_width_pt < 306 - 0.01 or profile.card_height_pt < 198 - 0.01:
        raise ProfileError(f"{where}: cards must be at least 306 x 198 pt (4.25 x 2.75 in)")
    right = profile.left_pt + profile.columns * profile.card_width_pt + (profile.columns - 1) * profile.gap_x_pt
    bottom = profile.top_pt + profile.rows * profile.card_height_pt + (profile.rows - 1) * profile.gap_y_pt
    if right > profile.page_width_pt + 0.01 or bottom > profile.page_height_pt + 0.01:
        raise ProfileError(
            f"{where}: {profile.columns} x {profile.rows} cards need {right:.1f} x {bottom:.1f} pt "
            f"but the page is {profile.page_width_pt:g} x {profile.page_height_pt:g} pt"
        )
    if profile.bleed_pt > min(profile.left_pt, profile.top_pt) + 0.01 and profile.trim_box:
        raise ProfileError(f"{where}: a bleed of {profile.bleed_pt:g} pt needs that much margin round the cards")
    return profile
