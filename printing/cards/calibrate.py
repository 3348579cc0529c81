"""The calibration sheet: a 50 mm scale check and two verniers that measure the front/back offset.

Front lines sit every 5 mm; on the back, line i sits behind front line i shifted by i x 0.5 mm.
Held against a light, the pair that lines up names the --back-offset that cancels the printer's shift.
"""

from __future__ import annotations

import io
from pathlib import Path

from printing.files import write_atomic
from printing.cards.pdf import new_canvas, set_duplex
from printing.cards.sheets import MM_PT, Duplex, Profile

STEPS = range(-8, 9)
PITCH_MM, SHIFT_MM = 5.0, 0.5
LINE_MM = 9.0


def _mirror(profile: Profile, duplex: Duplex, x: float, y: float) -> tuple[float, float]:
    """The point on the back page that lies behind (x, y) on the front."""
    portrait = profile.page_width_pt <= profile.page_height_pt
    if (duplex is Duplex.LONG) == portrait:
        return (profile.page_width_pt - x, y)
    return (x, profile.page_height_pt - y)


def write_calibration(profile: Profile, duplex: Duplex, offset_mm: tuple[float, float], path: Path) -> Path:
    """Write the two-page calibration PDF (print it double-sided, like the cards)."""
    buffer = io.BytesIO()
    w, h = profile.page_width_pt, profile.page_height_pt
    canvas = new_canvas(buffer, w, h, "Dealer's Chess printer calibration")
    set_duplex(canvas, duplex is Duplex.LONG)
    cx, cy = w / 2, h / 2
    _front(canvas, profile, duplex, cx, cy)
    canvas.showPage()
    _back(canvas, profile, duplex, offset_mm, cx, cy)
    canvas.showPage()
    canvas.save()
    return write_atomic(path, buffer.getvalue())


def _front(canvas, profile: Profile, duplex: Duplex, cx: float, cy: float) -> None:
    top = profile.page_height_pt - 54
    canvas.setFont("VeraBd", 14)
    canvas.drawString(54, top, "Dealer's Chess: printer calibration")
    canvas.setFont("Vera", 9)
    lines = (
        f"1. Print both pages double-sided, flipping on the {duplex.value} edge, at 100 % ('Actual size', never 'Fit').",
        "2. The square below must measure 50 mm each way; if not, turn the printer's scaling off.",
        "3. Hold the sheet against a light. On each scale, find the back line that lies exactly on a",
        "    front line and read its number (printed on both sides).",
        f"4. Print the backs with: dealer backs --duplex {duplex.value} --back-offset X,Y",
        "    (X from the horizontal scale, Y from the vertical one; 0,0 needs no offset).",
    )
    for i, line in enumerate(lines):
        canvas.drawString(54, top - 22 - i * 13, line)
    side = 50 * MM_PT
    canvas.setLineWidth(0.5)
    canvas.rect(54, 90, side, side)
    canvas.drawString(54, 90 + side + 6, "50 mm")
    _vernier(canvas, [(cx + i * PITCH_MM * MM_PT, cy, i) for i in STEPS], vertical=True)
    _vernier(canvas, [(cx + 150, cy - 60 + j * PITCH_MM * MM_PT, j) for j in STEPS], vertical=False)
    canvas.setFont("Vera", 8)
    canvas.drawCentredString(cx, cy - LINE_MM * MM_PT - 18, "X: horizontal offset (mm)")
    canvas.drawString(cx + 150 + LINE_MM * MM_PT + 20, cy - 60, "Y (mm)")


def _back(canvas, profile: Profile, duplex: Duplex, offset_mm: tuple[float, float], cx: float, cy: float) -> None:
    dx, dy = offset_mm[0] * MM_PT, offset_mm[1] * MM_PT
    x_lines, y_lines = [], []
    for i in STEPS:
        bx, by = _mirror(profile, duplex, cx + i * PITCH_MM * MM_PT, cy)
        x_lines.append((bx + i * SHIFT_MM * MM_PT + dx, by + dy, i))
    for j in STEPS:
        bx, by = _mirror(profile, duplex, cx + 150, cy - 60 + j * PITCH_MM * MM_PT)
        y_lines.append((bx + dx, by + j * SHIFT_MM * MM_PT + dy, j))
    _vernier(canvas, x_lines, vertical=True)
    _vernier(canvas, y_lines, vertical=False)
    canvas.setFont("Vera", 9)
    canvas.drawString(54, 54, "Back of the calibration sheet. Read the number where a line here lies on a line of the front.")


def _vernier(canvas, lines: list[tuple[float, float, int]], vertical: bool) -> None:
    """Hair lines with their offset labels; every second label is shown to keep them legible."""
    length = LINE_MM * MM_PT
    canvas.setFont("Vera", 6.5)
    for x, y, i in lines:
        canvas.setLineWidth(0.6 if i == 0 else 0.3)
        label = f"{i * SHIFT_MM:+.1f}" if i else "0"
        if vertical:
            canvas.line(x, y - length / 2, x, y + length / 2)
            if i % 2 == 0:
                canvas.drawCentredString(x, y - length / 2 - 8 - (4 if i % 4 else 0), label)
        else:
            canvas.line(x - length / 2, y, x + length / 2, y)
            if i % 2 == 0:
                canvas.drawString(x + length / 2 + 3, y - 2, label)
