"""Card drawings onto a reportlab canvas: Vera fonts embedded, keyed art drawn once as PDF forms."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable

from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from dealers_chess.cards.primitives import Align, Circle, Drawing, Font, Group, Item, Picture, Poly, Rect, Style, Text
from dealers_chess.cards.text import register_fonts

PictureSource = Callable[[str], "object | None"]  # piece id -> PIL image (RGB or RGBA) or None
FORM_BOX_PT = (-2000.0, -2000.0, 4000.0, 4000.0)
SUBSET_NAME = re.compile(rb"(/(?:BaseFont|FontName) /)([A-Z]{6})\+([A-Za-z0-9-]+)")


def new_canvas(buffer: io.BytesIO, width_pt: float, height_pt: float, title: str, **boxes) -> Canvas:
    """A PDF 1.7 canvas whose only fonts are embedded Vera subsets, byte-identical run to run."""
    register_fonts()
    canvas = Canvas(
        buffer, pagesize=(width_pt, height_pt), initialFontName=Font.REGULAR.value, invariant=1,
        pdfVersion=(1, 7), **boxes,
    )
    canvas.setTitle(title)
    canvas.setAuthor("Dealer's Chess toolkit")
    canvas.setCreator("dealer (Dealer's Chess toolkit)")
    canvas.setViewerPreference("PrintScaling", "None")
    return canvas


def set_duplex(canvas: Canvas, flip_long_edge: bool) -> None:
    """Ask the print dialogue for two-sided printing flipped on the long or the short edge."""
    canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge" if flip_long_edge else "DuplexFlipShortEdge")


def set_simplex(canvas: Canvas) -> None:
    """Ask the print dialogue for one-sided printing (a file fed once, or onto sheets printed before)."""
    canvas.setViewerPreference("Duplex", "Simplex")


def finished_pdf(canvas: Canvas, buffer: io.BytesIO, file_name: str) -> bytes:
    """Save the canvas and give each embedded font subset a tag of this file's own.

    reportlab tags every first subset AAAAAA+; a print shop merging files and keeping one font per
    name would mix up different subsets. The tags come from a hash of the file's name and bytes, so
    different files get different tags and the same input still gives the same bytes. The tag keeps
    its length, so the cross-reference offsets stay valid.
    """
    canvas.save()
    data = buffer.getvalue()
    digest = hashlib.sha256(file_name.encode() + b"\0" + data).digest()

    def retag(match: re.Match[bytes]) -> bytes:
        seed = hashlib.sha256(digest + match.group(2) + match.group(3)).digest()
        tag = bytes(ord("A") + byte % 26 for byte in seed[:6])
        return match.group(1) + tag + b"+" + match.group(3)

    return SUBSET_NAME.sub(retag, data)


class PdfPainter:
    """Draws Drawings on one canvas, turning keyed groups into forms drawn once."""

    def __init__(self, canvas: Canvas, pictures: PictureSource | None = None, forms: bool = True) -> None:
        self.canvas = canvas
        self.pictures = pictures
        self.use_forms = forms  # False only to measure what forms save
        self._forms: set[str] = set()
        self._images: dict[str, ImageReader | None] = {}

    def draw(self, drawing: Drawing, x: float, y: float) -> None:
        """Draw a drawing with its bottom-left corner at (x, y)."""
        c = self.canvas
        c.saveState()
        c.translate(x, y)
        for item in drawing.items:
            self._item(item)
        c.restoreState()

    def _item(self, item: Item) -> None:
        if isinstance(item, Group):
            self._group(item)
        elif isinstance(item, Rect):
            self._shape(
                item.style, lambda fill, stroke: self.canvas.rect(item.x, item.y, item.width, item.height, stroke, fill)
            )
        elif isinstance(item, Circle):
            self._shape(item.style, lambda fill, stroke: self.canvas.circle(item.cx, item.cy, item.r, stroke, fill))
        elif isinstance(item, Poly):
            self._poly(item)
        elif isinstance(item, Text):
            self._text(item)
        elif isinstance(item, Picture):
            self._picture(item)

    def _group(self, group: Group) -> None:
        c = self.canvas
        c.saveState()
        if group.dx or group.dy:
            c.translate(group.dx, group.dy)
        if group.scale != 1.0:
            c.scale(group.scale, group.scale)
        if group.clip:
            path = c.beginPath()
            path.rect(*group.clip)
            c.clipPath(path, stroke=0, fill=0)
        if group.key is None or not self.use_forms:
            for item in group.items:
                self._item(item)
        else:
            name = _form_name(group.key)
            if name not in self._forms:
                self._forms.add(name)
                c.beginForm(name, *_box())
                for item in group.items:
                    self._item(item)
                c.endForm()
            c.doForm(name)
        c.restoreState()

    def _shape(self, style: Style, paint: Callable[[int, int], None]) -> None:
        c = self.canvas
        fill = style.fill
        stroke = style.stroke if style.width_pt > 0 else None
        if fill is None and stroke is None:
            return
        if fill is not None:
            c.setFillColorRGB(*fill)
        if stroke is not None:
            c.setStrokeColorRGB(*stroke)
            c.setLineWidth(style.width_pt)
            c.setDash(list(style.dash_pt) if style.dash_pt else [])
            c.setLineCap(1 if style.round_caps else 0)
        paint(int(fill is not None), int(stroke is not None))

    def _poly(self, poly: Poly) -> None:
        def paint(fill: int, stroke: int) -> None:
            path = self.canvas.beginPath()
            path.moveTo(*poly.points[0])
            for point in poly.points[1:]:
                path.lineTo(*point)
            if poly.closed:
                path.close()
            self.canvas.drawPath(path, stroke=stroke, fill=fill if poly.closed else 0)

        self._shape(poly.style, paint)

    def _text(self, text: Text) -> None:
        c = self.canvas
        c.setFont(text.font.value, text.size_pt)
        c.setFillColorRGB(*text.color)
        draw = {Align.LEFT: c.drawString, Align.CENTRE: c.drawCentredString, Align.RIGHT: c.drawRightString}
        draw[text.align](text.x, text.y, text.text)

    def _picture(self, picture: Picture) -> None:
        image = self._image(picture.piece_id)
        if image is None:
            self._item(picture.fallback)
            return
        self.canvas.drawImage(
            image, picture.x, picture.y, picture.width, picture.height, preserveAspectRatio=True, anchor="c",
        )

    def picture_aspect(self, piece_id: str) -> float | None:
        """Width / height of the piece's picture, None if it has none (the silhouette stands in)."""
        image = self._image(piece_id)
        if image is None:
            return None
        width, height = image.getSize()
        return width / height

    def _image(self, piece_id: str) -> ImageReader | None:
        if piece_id not in self._images:
            pil = self.pictures(piece_id) if self.pictures else None
            self._images[piece_id] = ImageReader(_jpeg_on_white(pil)) if pil is not None else None
        return self._images[piece_id]


def _jpeg_on_white(image) -> io.BytesIO:
    """A picture flattened onto the white card and stored as JPEG: about a third of the PDF size."""
    from PIL import Image

    rgba = image.convert("RGBA")
    flat = Image.new("RGB", rgba.size, (255, 255, 255))
    flat.paste(rgba, mask=rgba.getchannel("A"))
    buffer = io.BytesIO()
    flat.save(buffer, "JPEG", quality=88, optimize=True)
    buffer.seek(0)
    return buffer


def _box() -> tuple[float, float, float, float]:
    x, y, w, h = FORM_BOX_PT
    return (x, y, x + w, y + h)


def _form_name(key: str) -> str:
    return "F" + re.sub(r"[^A-Za-z0-9]", "_", key)
