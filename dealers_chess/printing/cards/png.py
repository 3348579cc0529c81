"""Card drawings as raster images with Pillow (300 dpi by default), for forums and print-on-demand."""

from __future__ import annotations

import io
import math
import struct
import zlib
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from dealers_chess.cards.primitives import (
    Align,
    Circle,
    Color,
    Drawing,
    Font,
    Group,
    Item,
    Picture,
    Poly,
    Rect,
    Style,
    Text,
)
from dealers_chess.cards.text import font_path
from dealers_chess.printing.pictures import PictureSource

ANCHORS = {Align.LEFT: "ls", Align.CENTRE: "ms", Align.RIGHT: "rs"}


@lru_cache(maxsize=256)
def _font(font: Font, size_px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_path(font), size_px)


def _rgb(color: Color) -> tuple[int, int, int]:
    red, green, blue = (round(c * 255) for c in color)
    return (red, green, blue)


class PngPainter:
    """Draws a Drawing into a Pillow image; (x, y) points become pixels with y flipped."""

    def __init__(self, drawing: Drawing, dpi: int, margin_pt: float, pictures: PictureSource | None) -> None:
        self.k = dpi / 72
        self.margin = margin_pt
        self.height_pt = drawing.height_pt + 2 * margin_pt
        width_px = round((drawing.width_pt + 2 * margin_pt) * self.k)
        self.image = Image.new("RGB", (width_px, round(self.height_pt * self.k)), (255, 255, 255))
        self.draw = ImageDraw.Draw(self.image)
        self.pictures = pictures

    def paint(self, items: tuple[Item, ...], dx: float, dy: float, s: float) -> None:
        for item in items:
            if isinstance(item, Group):
                self.paint(item.items, dx + item.dx * s, dy + item.dy * s, s * item.scale)
            elif isinstance(item, Picture):
                self._picture(item, dx, dy, s)
            else:
                self._shape(item, dx, dy, s)

    def _xy(self, x: float, y: float, dx: float, dy: float, s: float) -> tuple[float, float]:
        return ((self.margin + dx + x * s) * self.k, (self.height_pt - self.margin - dy - y * s) * self.k)

    def _shape(self, item: Item, dx: float, dy: float, s: float) -> None:
        if isinstance(item, Rect):
            x0, y1 = self._xy(item.x, item.y, dx, dy, s)
            x1, y0 = self._xy(item.x + item.width, item.y + item.height, dx, dy, s)
            self.draw.rectangle((x0, y0, x1, y1), **self._paint(item.style, s))
        elif isinstance(item, Circle):
            cx, cy = self._xy(item.cx, item.cy, dx, dy, s)
            r = item.r * s * self.k
            self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), **self._paint(item.style, s))
        elif isinstance(item, Poly):
            self._poly(item, [self._xy(x, y, dx, dy, s) for x, y in item.points], s)
        elif isinstance(item, Text):
            x, y = self._xy(item.x, item.y, dx, dy, s)
            font = _font(item.font, max(1, round(item.size_pt * s * self.k)))
            self.draw.text((x, y), item.text, fill=_rgb(item.color), font=font, anchor=ANCHORS[item.align])

    def _paint(self, style: Style, s: float) -> dict:
        return {
            "fill": _rgb(style.fill) if style.fill is not None else None,
            "outline": _rgb(style.stroke) if style.stroke is not None else None,
            "width": max(1, round(style.width_pt * s * self.k)) if style.stroke is not None else 0,
        }

    def _poly(self, poly: Poly, points: list[tuple[float, float]], s: float) -> None:
        style = poly.style
        if poly.closed:
            self.draw.polygon(points, **self._paint(style, s))
            return
        if style.stroke is None:
            return
        width = max(1, round(style.width_pt * s * self.k))
        if style.dash_pt and style.round_caps and style.dash_pt[0] < 0.1:
            self._dots(points, style.dash_pt[1] * s * self.k, width, _rgb(style.stroke))
            return
        self.draw.line(points, fill=_rgb(style.stroke), width=width, joint="curve")

    def _dots(self, points, gap_px: float, width: int, color) -> None:
        r = width / 2
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            length = math.hypot(x1 - x0, y1 - y0)
            for i in range(int(length / gap_px) + 1):
                t = i * gap_px / length if length else 0
                x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                self.draw.ellipse((x - r, y - r, x + r, y + r), fill=color)

    def _picture(self, picture: Picture, dx: float, dy: float, s: float) -> None:
        image = self.pictures(picture.piece_id) if self.pictures else None
        if image is None:
            self.paint((picture.fallback,), dx, dy, s)
            return
        x0, y1 = self._xy(picture.x, picture.y, dx, dy, s)
        x1, y0 = self._xy(picture.x + picture.width, picture.y + picture.height, dx, dy, s)
        box_w, box_h = round(x1 - x0), round(y1 - y0)
        scale = min(box_w / image.width, box_h / image.height)
        fitted_size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        fitted = image.convert("RGBA").resize(fitted_size, Image.Resampling.LANCZOS)
        at = (round(x0 + (box_w - fitted.width) / 2), round(y0 + (box_h - fitted.height) / 2))
        self.image.paste(fitted, at, fitted)


SUPERSAMPLE = 2  # Pillow draws without anti-aliasing: draw twice as fine, then scale down


def png_bytes(drawing: Drawing, dpi: int = 300, margin_pt: float = 0.0, pictures: PictureSource | None = None) -> bytes:
    """The drawing as PNG bytes at dpi, with margin_pt of white (or bleed art) round it."""
    painter = PngPainter(drawing, dpi * SUPERSAMPLE, margin_pt, pictures)
    painter.paint(drawing.items, 0.0, 0.0, 1.0)
    size = (round((drawing.width_pt + 2 * margin_pt) * dpi / 72),
            round((drawing.height_pt + 2 * margin_pt) * dpi / 72))
    drawn = painter.image
    if drawn.size == (SUPERSAMPLE * size[0], SUPERSAMPLE * size[1]):
        # the mean of each 2x2 block: the anti-aliasing, ten times faster than LANCZOS
        image = drawn.reduce(SUPERSAMPLE)
    else:
        image = drawn.resize(size, Image.Resampling.LANCZOS)
    if image.mode != "RGB":
        buffer = io.BytesIO()
        image.save(buffer, "PNG", dpi=(dpi, dpi), compress_level=1)
        return buffer.getvalue()
    return rgb_png(image, dpi)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def rgb_png(image: Image.Image, dpi: int) -> bytes:
    """An RGB image as PNG bytes, every row filtered "Up" (less the row above) and deflated at level 1: 2 % larger
    than Pillow's PNG at compress_level=1 (itself 14 % larger than at 6, in 60 % of the time), in half its time
    (Pillow tries five filters on every row: a print-on-demand card, 12 ms instead of 24)."""
    rows = np.asarray(image, dtype=np.uint8).reshape(image.height, -1)
    filtered = np.empty((image.height, rows.shape[1] + 1), dtype=np.uint8)
    filtered[:, 0] = 2  # the filter type of each row: Up
    filtered[0, 1:] = rows[0]
    np.subtract(rows[1:], rows[:-1], out=filtered[1:, 1:])  # modulo 256, as PNG reads it back
    per_metre = int(dpi / 0.0254 + 0.5)
    return b"".join([
        PNG_SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", image.width, image.height, 8, 2, 0, 0, 0)),
        _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
        _chunk(b"IDAT", zlib.compress(filtered.tobytes(), 1)), _chunk(b"IEND", b""),
    ])


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
