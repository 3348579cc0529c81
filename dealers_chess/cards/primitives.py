"""Frozen drawing primitives in points (origin bottom-left, y up): what every card drawing is made of.

The printing backends (PDF, SVG, PNG) turn these into files; nothing here knows about any of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

Color = tuple[float, float, float]  # RGB, each 0..1
Point = tuple[float, float]

BLACK: Color = (0.0, 0.0, 0.0)
WHITE: Color = (1.0, 1.0, 1.0)


def hex_color(text: str) -> Color:
    """'#FFC000' -> (1.0, 0.75, 0.0)."""
    text = text.lstrip("#")
    red, green, blue = (int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (red, green, blue)


class Font(Enum):
    """The card fonts: Bitstream Vera, shipped in the reportlab wheel and embedded in every PDF."""

    REGULAR = "Vera"
    BOLD = "VeraBd"
    ITALIC = "VeraIt"
    BOLD_ITALIC = "VeraBI"

    @property
    def file_name(self) -> str:
        return f"{self.value}.ttf"


class Align(Enum):
    """Where a text's x coordinate sits on the text."""

    LEFT = "start"
    CENTRE = "middle"
    RIGHT = "end"


@dataclass(frozen=True, slots=True)
class Style:
    """Paint of a shape: fill and stroke colours (None = none), line width and dash pattern."""

    fill: Color | None = None
    stroke: Color | None = BLACK
    width_pt: float = 0.5
    dash_pt: tuple[float, ...] = ()
    round_caps: bool = False


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    style: Style = Style()


@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style = Style()


@dataclass(frozen=True, slots=True)
class Poly:
    """A polyline, or a polygon when closed."""

    points: tuple[Point, ...]
    style: Style = Style()
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text; y is the baseline."""

    x: float
    y: float
    text: str
    size_pt: float
    font: Font = Font.REGULAR
    color: Color = BLACK
    align: Align = Align.LEFT


@dataclass(frozen=True, slots=True)
class Picture:
    """A slot for a raster picture of a piece; backends draw `fallback` when they have no picture."""

    x: float
    y: float
    width: float
    height: float
    piece_id: str
    fallback: Group


@dataclass(frozen=True, slots=True)
class Group:
    """Items moved by (dx, dy) and scaled; a `key` marks art drawn once and reused (a PDF form)."""

    items: tuple[Item, ...]
    dx: float = 0.0
    dy: float = 0.0
    scale: float = 1.0
    key: str | None = None
    clip: tuple[float, float, float, float] | None = None  # x, y, width, height in local units


Item = Rect | Circle | Poly | Text | Picture | Group


@dataclass(frozen=True, slots=True)
class Drawing:
    """A finished drawing: its size in points and its items."""

    width_pt: float
    height_pt: float
    items: tuple[Item, ...] = field(default=())


def moved(item: Item, dx: float, dy: float) -> Group:
    """An item placed at (dx, dy)."""
    return Group((item,), dx, dy)


def walk_texts(items: tuple[Item, ...], dx: float = 0.0, dy: float = 0.0, scale: float = 1.0):
    """Every Text with its absolute baseline position and size (for layout checks in tests)."""
    for item in items:
        if isinstance(item, Text):
            yield item, dx + item.x * scale, dy + item.y * scale, item.size_pt * scale
        elif isinstance(item, Group):
            yield from walk_texts(item.items, dx + item.dx * scale, dy + item.dy * scale, scale * item.scale)
        elif isinstance(item, Picture):
            yield from walk_texts((item.fallback,), dx, dy, scale)
