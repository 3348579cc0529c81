"""A stroke font for the code debossed under each 3D piece: A-Z as polylines on a 4 x 6 grid.

The table is data: each letter is polylines separated by '|', points 'x,y' separated by spaces.
"""

from __future__ import annotations

import math

from manifold3d import CrossSection

GLYPHS: dict[str, str] = {
    "A": "0,0 0,4 2,6 4,4 4,0|0,3 4,3",
    "B": "0,3 3,3 4,2 4,1 3,0 0,0 0,6 3,6 4,5 4,4 3,3",
    "C": "4,5 3,6 1,6 0,5 0,1 1,0 3,0 4,1",
    "D": "0,0 0,6 2,6 4,4 4,2 2,0 0,0",
    "E": "4,6 0,6 0,0 4,0|0,3 3,3",
    "F": "4,6 0,6 0,0|0,3 3,3",
    "G": "4,5 3,6 1,6 0,5 0,1 1,0 3,0 4,1 4,3 2,3",
    "H": "0,0 0,6|4,0 4,6|0,3 4,3",
    "I": "1,6 3,6|2,6 2,0|1,0 3,0",
    "J": "4,6 4,1 3,0 1,0 0,1",
    "K": "0,0 0,6|4,6 0,2|1.5,3.5 4,0",
    "L": "0,6 0,0 4,0",
    "M": "0,0 0,6 2,3 4,6 4,0",
    "N": "0,0 0,6 4,0 4,6",
    "O": "1,0 0,1 0,5 1,6 3,6 4,5 4,1 3,0 1,0",
    "P": "0,0 0,6 3,6 4,5 4,4 3,3 0,3",
    "Q": "1,0 0,1 0,5 1,6 3,6 4,5 4,1 3,0 1,0|2.5,2 4,0",
    "R": "0,0 0,6 3,6 4,5 4,4 3,3 0,3|2,3 4,0",
    "S": "4,5 3,6 1,6 0,5 0,4 1,3 3,3 4,2 4,1 3,0 1,0 0,1",
    "T": "0,6 4,6|2,6 2,0",
    "U": "0,6 0,1 1,0 3,0 4,1 4,6",
    "V": "0,6 2,0 4,6",
    "W": "0,6 1,0 2,3 3,0 4,6",
    "X": "0,0 4,6|0,6 4,0",
    "Y": "0,6 2,3 4,6|2,3 2,0",
    "Z": "0,6 4,6 0,0 4,0",
}
GRID_WIDTH, GRID_HEIGHT = 4.0, 6.0
ADVANCE = 1.3  # letter pitch as a fraction of the letter's width


def glyph_polylines(letter: str) -> list[list[tuple[float, float]]]:
    """The polylines of one capital letter in grid units (x 0..4, y 0..6)."""
    return [[_grid_point(point) for point in line.split()] for line in GLYPHS[letter].split("|")]


def _grid_point(text: str) -> tuple[float, float]:
    """'x,y' as a point."""
    x, y = text.split(",")
    return (float(x), float(y))


def text_width_mm(text: str, height_mm: float, stroke_mm: float) -> float:
    """The width of a line of text in mm, strokes included."""
    width = _letter_width(height_mm, stroke_mm)
    return width * ADVANCE * (len(text) - 1) + width


def text_section(text: str, height_mm: float, stroke_mm: float, mirrored: bool = True) -> CrossSection:
    """The text as a 2D region centred on the origin, reading upward (+y), mirrored if asked."""
    width = _letter_width(height_mm, stroke_mm)
    total = text_width_mm(text, height_mm, stroke_mm)
    scale = (height_mm - stroke_mm) / GRID_HEIGHT
    polygons = []
    for index, letter in enumerate(text):
        left = -total / 2 + index * width * ADVANCE + stroke_mm / 2
        for line in glyph_polylines(letter):
            points = [(left + x * scale, -height_mm / 2 + stroke_mm / 2 + y * scale) for x, y in line]
            if mirrored:
                points = [(-x, y) for x, y in points]
            polygons.extend(stroke_polygons(points, stroke_mm))
    return CrossSection(polygons)


def stroke_polygons(points: list[tuple[float, float]], width_mm: float) -> list[list[tuple[float, float]]]:
    """A polyline as rectangles with octagonal joints, each polygon counter-clockwise."""
    half = width_mm / 2
    polygons = [octagon(x, y, half) for x, y in points]
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            continue
        nx, ny = -(y1 - y0) / length * half, (x1 - x0) / length * half
        polygons.append([(x0 - nx, y0 - ny), (x1 - nx, y1 - ny), (x1 + nx, y1 + ny), (x0 + nx, y0 + ny)])
    return polygons


def octagon(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    """A regular octagon around (x, y) with corners on the circle of the radius, counter-clockwise."""
    return [(x + radius * math.cos(a), y + radius * math.sin(a))
            for a in (math.pi / 8 + k * math.pi / 4 for k in range(8))]


def _letter_width(height_mm: float, stroke_mm: float) -> float:
    return (height_mm - stroke_mm) * GRID_WIDTH / GRID_HEIGHT + stroke_mm
