"""The calibration sheet: a 50 mm check square and, for each axis, a fine vernier and a coarse ruler
that read a two-sided print's front/back misregistration directly as the --back-offset that cancels it.

Fine scale: front line i every PITCH_MM; back line i behind it, moved i x STEP_MM; both carry the
number a + i x STEP_MM (a: the offset the sheet itself was printed with). The pair with the same
number that forms one straight line is the reading. Lines with different numbers can only meet for
shifts of PITCH_MM - 8 x STEP_MM = 6 mm or more, beyond the fine scale's 4 mm, so there is never a
second reading. Coarse ruler: 1 mm ticks on the front, one arrow on the back, for shifts up to 10 mm.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from dealers_chess.cards.primitives import Font
from dealers_chess.cards.text import text_width_pt, wrap
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.cards.pdf import finished_pdf, new_canvas, set_duplex
from dealers_chess.printing.cards.sheets import MM_PT, Duplex, Profile
from dealers_chess.printing.files import write_atomic

STEP_MM = 0.5
FINE_STEPS = range(-8, 9)  # the fine scale reads a - 4 .. a + 4 mm
PITCH_MM = 10.0
LINE_MM, OVERLAP_MM = 8.0, 2.0  # front lines on one side of the axis, back lines on the other, overlapping 2 mm
COARSE_STEPS = range(-10, 11)  # coarse ticks every mm, labelled every 5
LABEL_PT = 7.0
TEXT_PT = 9.0
MARGIN_PT = 54.0
Y_COLUMN_PT = 110.0  # the fine Y scale's axis sits this far from the right edge


class Axis(Enum):
    """The direction an offset is measured in, on the page's own axes."""

    X = 0
    Y = 1


@dataclass(frozen=True, slots=True)
class Sheet:
    """A calibration page: its size, how it is turned over, and the offset its back is printed with."""

    width_pt: float
    height_pt: float
    duplex: Duplex
    offset_mm: tuple[float, float]

    @property
    def portrait(self) -> bool:
        return self.width_pt <= self.height_pt

    def mirrored(self, axis: Axis) -> bool:
        """Whether the flip turns this axis round (x for a long-edge flip of a portrait page)."""
        x_turns = (self.duplex is Duplex.LONG) == self.portrait
        return x_turns == (axis is Axis.X)

    def behind(self, x: float, y: float, shift_mm: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
        """Where on the back page to draw what should show behind front point (x, y), moved by the
        sheet's offset plus shift_mm (both on the back page's own axes)."""
        if self.mirrored(Axis.X):
            x = self.width_pt - x
        else:
            y = self.height_pt - y
        return (x + (self.offset_mm[0] + shift_mm[0]) * MM_PT, y + (self.offset_mm[1] + shift_mm[1]) * MM_PT)

    def value(self, axis: Axis, mm: float) -> str:
        """The label of a reading mm from the sheet's own offset on an axis: the total --back-offset."""
        total = round(self.offset_mm[axis.value] + mm, 2)
        return "0" if total == 0 else f"{total:+.1f}"


def _at(axis: Axis, along: float, across: float) -> tuple[float, float]:
    """A point given along the measuring direction and across it (the X scale measures along x)."""
    return (along, across) if axis is Axis.X else (across, along)


def write_calibration(
    profile: Profile, duplex: Duplex, offset_mm: tuple[float, float], path: Path, profile_arg: str | None = None,
) -> Path:
    """Write the two-page calibration PDF for a profile (print it double-sided, like the cards)."""
    sheet = Sheet(profile.page_width_pt, profile.page_height_pt, duplex, offset_mm)
    layout = _layout(sheet, _steps(sheet, profile_arg or profile.name))
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, sheet.width_pt, sheet.height_pt, "Dealer's Chess printer calibration")
    set_duplex(canvas, duplex is Duplex.LONG)
    _front(canvas, sheet, layout)
    canvas.showPage()
    _back(canvas, sheet, layout, profile_arg or profile.name)
    canvas.showPage()
    return write_atomic(path, finished_pdf(canvas, buffer, path.name))


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of the front page goes (points, origin bottom-left)."""

    title_y: float
    steps: tuple[Line, ...]
    steps_top: float
    fine_x: tuple[float, float]  # line 0 of the fine X scale, on its axis
    fine_y: tuple[float, float]
    coarse_x: tuple[float, float]  # tick 0 of the coarse X ruler
    coarse_y: tuple[float, float]
    square: tuple[float, float]  # bottom-left corner of the 50 mm square


def _layout(sheet: Sheet, steps: tuple[tuple[str, str, str], ...]) -> Layout:
    """The title, then the fine X scale (across a portrait page; left of the Y column on a landscape
    one); the fine Y scale in a column at the right; the steps left of it; the square and the coarse
    rulers at the bottom left. DealerError if the page is too small for all that."""
    w, h = sheet.width_pt, sheet.height_pt
    half_span = FINE_STEPS[-1] * PITCH_MM * MM_PT
    column_x = w - Y_COLUMN_PT
    left_width = column_x - 60 - MARGIN_PT  # clear of the Y scale's back labels
    title_y = h - MARGIN_PT - 10
    fine_x = ((MARGIN_PT + (w - MARGIN_PT if sheet.portrait else column_x - 60)) / 2, title_y - 62)
    fine_y = (column_x, fine_x[1] - 60 - half_span if sheet.portrait else h / 2)
    lines = tuple(_wrapped(steps, left_width))
    steps_top = fine_x[1] - 45
    square = (MARGIN_PT, MARGIN_PT + 6)
    coarse_x = (square[0] + 50 * MM_PT + 90, square[1] + 100)
    coarse_y = (coarse_x[0] + 100, square[1] + 50)
    steps_bottom = steps_top - len(lines) * (TEXT_PT + 3.5)
    if (fine_y[1] - half_span < MARGIN_PT or fine_x[0] - half_span < MARGIN_PT
            or steps_bottom < coarse_x[1] + 50 or coarse_y[0] + 40 > column_x - 60):
        raise DealerError(f"a {w:g} x {h:g} pt page is too small for the calibration sheet; use a Letter or A4 profile")
    return Layout(title_y, lines, steps_top, fine_x, fine_y, coarse_x, coarse_y, square)


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the steps: its text, its font and how far it is indented."""

    text: str
    font: Font = Font.REGULAR
    indent_pt: float = 0.0


def _wrapped(steps: tuple[tuple[str, str, str], ...], width_pt: float) -> list[Line]:
    """Each step's words wrapped under its number, and its command alone on the lines after."""
    lines: list[Line] = []
    for number, text, command in steps:
        indent = 14.0 if number else 0.0
        body = wrap(text, Font.REGULAR, TEXT_PT, _every_line(width_pt - indent)) or [text]
        lines += [Line(f"{number} {body[0]}" if number else body[0]),
                  *(Line(part, indent_pt=indent) for part in body[1:])]
        if command:
            parts = wrap(command, Font.BOLD, TEXT_PT, _every_line(width_pt - 2 * indent)) or [command]
            lines += [Line(part, Font.BOLD, 2 * indent if i else indent) for i, part in enumerate(parts)]
    return lines


def _every_line(width_pt: float) -> Callable[[int], float]:
    """A wrap width, the same for every line."""
    return lambda _line: width_pt


def _steps(sheet: Sheet, profile: str) -> tuple[tuple[str, str, str], ...]:
    """(number, words, command) of each step."""
    edge = sheet.duplex.value
    options = f"--profile {profile} --duplex {edge} --back-offset X,Y"
    orientation = "portrait" if sheet.portrait else "landscape"
    steps: tuple[tuple[str, str, str], ...] = (
        ("1.", f"Print both pages double-sided, flipping on the {edge} edge, at 100 % ('Actual size', "
               "never 'Fit to page').", ""),
        ("2.", "The square must measure 50 mm each way; if it does not, turn the printer's scaling off.", ""),
        ("3.", "Hold the sheet against a light. On each fine scale, find the pair of lines, one on each side, "
               "that carry the same number and form one straight line: that number is the offset, X on the "
               "horizontal scale, Y on the vertical one. Lines with different numbers never meet here.", ""),
        ("4.", "No pair meets? The offset is over 4 mm. Read where the back's arrow points on each coarse "
               "ruler, print a new sheet with those X,Y and read its fine scales:", f"dealer calibrate {options}"),
        ("5.", "Print the backs with the same profile, edge and offset (0,0 needs none):", f"dealer backs {options}"),
        ("", f"This sheet measures the {orientation} pages of profile {profile}. Portrait and landscape "
             "sheets swap the axes: calibrate again with the --profile you print.", ""),
    )
    if sheet.offset_mm != (0.0, 0.0):
        offset = ",".join(f"{v:g}" for v in sheet.offset_mm)
        steps += (("", f"Printed with --back-offset {offset}: the scales read the whole offset, and the lines "
                       f"numbered {sheet.value(Axis.X, 0)} (X) and {sheet.value(Axis.Y, 0)} (Y) meet when it is right.",
                   ""),)
    return steps


def _front(canvas: Canvas, sheet: Sheet, layout: Layout) -> None:
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(Font.BOLD.value, 14)
    canvas.drawString(MARGIN_PT, layout.title_y, "Dealer's Chess: printer calibration")
    for i, line in enumerate(layout.steps):
        canvas.setFont(line.font.value, TEXT_PT)
        canvas.drawString(MARGIN_PT + line.indent_pt, layout.steps_top - TEXT_PT - i * (TEXT_PT + 3.5), line.text)
    side = 50 * MM_PT
    x, y = layout.square
    canvas.setLineWidth(0.5)
    canvas.rect(x, y, side, side)
    canvas.drawString(x, y + side + 6, "50 mm")
    for axis, origin, title in ((Axis.X, layout.fine_x, "X, fine (mm)"), (Axis.Y, layout.fine_y, "Y, fine (mm)")):
        _fine_front(canvas, sheet, axis, origin)
        _caption(canvas, axis, origin, FINE_STEPS[-1] * PITCH_MM * MM_PT, title)
    for axis, origin, title in ((Axis.X, layout.coarse_x, "X, coarse"), (Axis.Y, layout.coarse_y, "Y, coarse")):
        _coarse_front(canvas, sheet, axis, origin)
        _caption(canvas, axis, origin, COARSE_STEPS[-1] * MM_PT, title)


def _caption(canvas: Canvas, axis: Axis, origin: tuple[float, float], half_span: float, title: str) -> None:
    """A scale's name: above the middle of a horizontal scale's labels, above a vertical scale's top."""
    canvas.setFont(Font.BOLD.value, 8)
    x, y = origin
    if axis is Axis.X:
        canvas.drawCentredString(x, y + LINE_MM * MM_PT + 22, title)
    else:
        canvas.drawCentredString(x, y + half_span + 16, title)


def _back(canvas: Canvas, sheet: Sheet, layout: Layout, profile: str) -> None:
    for axis, origin in ((Axis.X, layout.fine_x), (Axis.Y, layout.fine_y)):
        _fine_back(canvas, sheet, axis, origin)
    for axis, origin in ((Axis.X, layout.coarse_x), (Axis.Y, layout.coarse_y)):
        _coarse_back(canvas, sheet, axis, origin)
    canvas.setFont(Font.REGULAR.value, TEXT_PT)
    canvas.setFillColorRGB(0, 0, 0)
    x, y = sheet.behind(MARGIN_PT + 25 * MM_PT, MARGIN_PT + 6 + 25 * MM_PT)  # behind the square
    canvas.drawCentredString(x, y + 4, "Back of the calibration sheet")
    canvas.drawCentredString(x, y - 8, f"{profile}, {sheet.duplex.value}-edge flip")


def _fine_front(canvas: Canvas, sheet: Sheet, axis: Axis, origin: tuple[float, float]) -> None:
    """Front lines on the + side of the axis, numbered beyond their ends."""
    along0, across0 = origin if axis is Axis.X else (origin[1], origin[0])
    length = LINE_MM * MM_PT
    for i in FINE_STEPS:
        along = along0 + i * PITCH_MM * MM_PT
        canvas.setLineWidth(0.6 if i == 0 else 0.35)
        canvas.line(*_at(axis, along, across0), *_at(axis, along, across0 + length))
        label = sheet.value(axis, i * STEP_MM)
        _label(canvas, *_at(axis, along, across0 + length + 3 + _half(axis, label)), label)


def _fine_back(canvas: Canvas, sheet: Sheet, axis: Axis, origin: tuple[float, float]) -> None:
    """Back lines on the - side of the axis (as seen from the front), line i moved i x STEP_MM."""
    along0, across0 = origin if axis is Axis.X else (origin[1], origin[0])
    low, high = across0 - (LINE_MM - OVERLAP_MM) * MM_PT, across0 + OVERLAP_MM * MM_PT
    for i in FINE_STEPS:
        along = along0 + i * PITCH_MM * MM_PT
        shift = _at(axis, i * STEP_MM, 0.0)
        canvas.setLineWidth(0.6 if i == 0 else 0.35)
        start = sheet.behind(*_at(axis, along, low), shift)
        end = sheet.behind(*_at(axis, along, high), shift)
        canvas.line(*start, *end)
        label = sheet.value(axis, i * STEP_MM)
        _label(canvas, *sheet.behind(*_at(axis, along, low - 3 - _half(axis, label)), shift), label)


def _coarse_front(canvas: Canvas, sheet: Sheet, axis: Axis, origin: tuple[float, float]) -> None:
    """A ruler with a tick every mm, labelled every 5 mm with the offset the back's arrow reads there."""
    along0, across0 = origin if axis is Axis.X else (origin[1], origin[0])
    sign = -1 if sheet.mirrored(axis) else 1
    canvas.setLineWidth(0.35)
    first, last = COARSE_STEPS[0] * MM_PT, COARSE_STEPS[-1] * MM_PT
    canvas.line(*_at(axis, along0 + first, across0), *_at(axis, along0 + last, across0))
    for k in COARSE_STEPS:
        along = along0 + k * MM_PT
        tick = (3.5 if k % 5 == 0 else 2.0) * MM_PT
        canvas.line(*_at(axis, along, across0), *_at(axis, along, across0 + tick))
        if k % 5 == 0:
            label = sheet.value(axis, -sign * k)
            row = 0 if axis is Axis.Y or k % 10 == 0 else 8  # staggered along x, where labels sit side by side
            _label(canvas, *_at(axis, along, across0 + tick + 3 + row + _half(axis, label)), label)


def _coarse_back(canvas: Canvas, sheet: Sheet, axis: Axis, origin: tuple[float, float]) -> None:
    """One arrow under the ruler's 0 tick, pointing at the ruler."""
    along0, across0 = origin if axis is Axis.X else (origin[1], origin[0])
    tip = sheet.behind(*_at(axis, along0, across0 - 0.3 * MM_PT))
    left = sheet.behind(*_at(axis, along0 - 1.2 * MM_PT, across0 - 3.5 * MM_PT))
    right = sheet.behind(*_at(axis, along0 + 1.2 * MM_PT, across0 - 3.5 * MM_PT))
    path = canvas.beginPath()
    path.moveTo(*tip)
    path.lineTo(*left)
    path.lineTo(*right)
    path.close()
    canvas.setFillColorRGB(0, 0, 0)
    canvas.drawPath(path, stroke=0, fill=1)


def _half(axis: Axis, label: str) -> float:
    """Half a label's extent across the scale: its height beside an X line, its width beside a Y line."""
    return LABEL_PT * 0.38 if axis is Axis.X else text_width_pt(label, Font.REGULAR, LABEL_PT) / 2


def _label(canvas: Canvas, x: float, y: float, text: str) -> None:
    """A label centred on (x, y), upright on whichever side it is printed."""
    canvas.setFont(Font.REGULAR.value, LABEL_PT)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.drawCentredString(x, y - 0.36 * LABEL_PT, text)
