"""Card drawings as SVG with svgwrite: vector art for forums and print-on-demand services."""

from __future__ import annotations

import base64
import io

import svgwrite

from dealers_chess.cards.primitives import Circle, Color, Drawing, Font, Group, Item, Picture, Poly, Rect, Style, Text
from dealers_chess.printing.pictures import PictureSource

FAMILY = "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, sans-serif"
WEIGHT = {Font.REGULAR: ("normal", "normal"), Font.BOLD: ("bold", "normal"),
          Font.ITALIC: ("normal", "italic"), Font.BOLD_ITALIC: ("bold", "italic")}


def _rgb(color: Color) -> str:
    red, green, blue = (round(c * 255) for c in color)
    return f"#{red:02x}{green:02x}{blue:02x}"


def _style(style: Style) -> dict:
    attrs = {"fill": _rgb(style.fill) if style.fill is not None else "none"}
    if style.stroke is not None and style.width_pt > 0:
        attrs.update(stroke=_rgb(style.stroke), stroke_width=f"{style.width_pt:.3g}")
        if style.dash_pt:
            attrs["stroke_dasharray"] = ",".join(f"{d:.3g}" for d in style.dash_pt)
        if style.round_caps:
            attrs["stroke_linecap"] = "round"
    return attrs


class SvgPainter:
    """Builds an SVG document; y is flipped once at the top so items keep PDF coordinates."""

    def __init__(self, drawing: Drawing, margin_pt: float, pictures: PictureSource | None) -> None:
        w, h = drawing.width_pt + 2 * margin_pt, drawing.height_pt + 2 * margin_pt
        self.doc = svgwrite.Drawing(size=(f"{w:g}pt", f"{h:g}pt"), viewBox=f"0 0 {w:g} {h:g}", profile="full")
        self.doc.add(self.doc.rect((0, 0), (w, h), fill="#ffffff"))
        self.root = self.doc.g(transform=f"translate({margin_pt:g},{h - margin_pt:g}) scale(1,-1)")
        self.doc.add(self.root)
        self.pictures = pictures
        self._clips = 0

    def paint(self, items: tuple[Item, ...], parent) -> None:
        d = self.doc
        for item in items:
            if isinstance(item, Group):
                self._group(item, parent)
            elif isinstance(item, Rect):
                parent.add(d.rect((item.x, item.y), (item.width, item.height), **_style(item.style)))
            elif isinstance(item, Circle):
                parent.add(d.circle((item.cx, item.cy), item.r, **_style(item.style)))
            elif isinstance(item, Poly):
                shape = d.polygon if item.closed else d.polyline
                attrs = _style(item.style)
                if not item.closed:
                    attrs["fill"] = "none"
                parent.add(shape([(round(x, 3), round(y, 3)) for x, y in item.points], **attrs))
            elif isinstance(item, Text):
                self._text(item, parent)
            elif isinstance(item, Picture):
                self._picture(item, parent)

    def _group(self, group: Group, parent) -> None:
        transform = f"translate({group.dx:.3f},{group.dy:.3f}) scale({group.scale:.5g})"
        element = self.doc.g(transform=transform)
        if group.clip:
            self._clips += 1
            clip = self.doc.defs.add(self.doc.clipPath(id=f"clip{self._clips}"))
            x, y, w, h = group.clip
            clip.add(self.doc.rect((x, y), (w, h)))
            element["clip-path"] = f"url(#clip{self._clips})"
        parent.add(element)
        self.paint(group.items, element)

    def _text(self, text: Text, parent) -> None:
        weight, style = WEIGHT[text.font]
        element = self.doc.text(
            text.text, insert=(0, 0), transform=f"translate({text.x:.3f},{text.y:.3f}) scale(1,-1)",
            font_family=FAMILY, font_size=f"{text.size_pt:.3g}", font_weight=weight, font_style=style,
            fill=_rgb(text.color), text_anchor=text.align.value,
        )
        parent.add(element)

    def _picture(self, picture: Picture, parent) -> None:
        image = self.pictures(picture.piece_id) if self.pictures else None
        if image is None:
            self.paint((picture.fallback,), parent)
            return
        buffer = io.BytesIO()
        image.save(buffer, "PNG")
        href = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
        flip = f"translate({picture.x:.3f},{picture.y + picture.height:.3f}) scale(1,-1)"
        parent.add(self.doc.image(href, insert=(0, 0), size=(picture.width, picture.height), transform=flip))


def svg_text(drawing: Drawing, margin_pt: float = 0.0, pictures: PictureSource | None = None) -> str:
    """The drawing as an SVG document."""
    painter = SvgPainter(drawing, margin_pt, pictures)
    painter.paint(drawing.items, painter.root)
    return painter.doc.tostring()
