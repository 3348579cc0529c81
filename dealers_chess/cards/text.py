"""Text metrics (Bitstream Vera, as embedded in the PDFs) and wrapping that shrinks to fit.

Metrics come from reportlab's reading of the TTF files shipped in its wheel, so a line measured
here is exactly as wide in the PDF.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from dealers_chess.cards.primitives import Font
from dealers_chess.pieces.errors import DealerError

DESCENT = 0.24


class LayoutError(DealerError):
    """Text that cannot fit its box at the smallest allowed size."""


def register_fonts() -> None:
    """Register the four Vera faces with reportlab (idempotent)."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    for font in Font:
        if font.value not in registered:
            pdfmetrics.registerFont(TTFont(font.value, font.file_name))


@lru_cache(maxsize=65536)
def text_width_pt(text: str, font: Font, size_pt: float) -> float:
    """Width of one line of text in points."""
    register_fonts()
    return pdfmetrics.stringWidth(text, font.value, size_pt)


def font_path(font: Font) -> str:
    """The TTF file of a font face (inside the reportlab wheel)."""
    register_fonts()
    return pdfmetrics.getFont(font.value).face.filename


@dataclass(frozen=True, slots=True)
class Lines:
    """Wrapped text: the lines, the size and leading used."""

    lines: tuple[str, ...]
    size_pt: float
    leading_pt: float


def wrap(text: str, font: Font, size_pt: float, width_at: Callable[[int], float]) -> list[str] | None:
    """Greedy word wrap where line i may be width_at(i) wide; None if a single word cannot fit."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            trial = f"{current} {word}" if current else word
            if text_width_pt(trial, font, size_pt) <= width_at(len(lines)):
                current = trial
                continue
            if not current:
                return None
            lines.append(current)
            current = word
            if text_width_pt(current, font, size_pt) > width_at(len(lines)):
                return None
        lines.append(current)
    return lines


def balanced_wrap(text: str, font: Font, size_pt: float, width_at: Callable[[int], float]) -> list[str] | None:
    """As many lines as the greedy wrap, with the breaks moved so the lines are as even as possible.

    Minimises the sum of squared leftover widths over every line but a paragraph's last, so no line
    ends far short of the column while the next is full (no lone 'squares' above 'orthogonally;');
    a last line under a third of the column costs too, so a lone 'it.' does not end a paragraph.
    """
    greedy = wrap(text, font, size_pt, width_at)
    if greedy is None:
        return None
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        count = len(wrap(paragraph, font, size_pt, _from_line(width_at, len(lines))) or [""])
        lines += _even_breaks(words, font, size_pt, [width_at(len(lines) + k) for k in range(count)]) if words else [""]
    return lines


def _from_line(width_at: Callable[[int], float], first: int) -> Callable[[int], float]:
    """width_at for lines counted from line `first` (a paragraph's own lines after those above it)."""
    return lambda i: width_at(first + i)


def _even_breaks(words: list[str], font: Font, size_pt: float, widths: list[float]) -> list[str]:
    """The words in exactly len(widths) lines, line k at most widths[k] wide, least squared slack."""
    n, count = len(words), len(widths)
    infinity = float("inf")
    best = [[infinity] * (n + 1) for _ in range(count + 1)]  # best[k][j]: words[:j] in k lines
    back = [[0] * (n + 1) for _ in range(count + 1)]
    best[0][0] = 0.0
    for k in range(1, count + 1):
        for j in range(1, n + 1):
            for i in range(j - 1, -1, -1):
                width = text_width_pt(" ".join(words[i:j]), font, size_pt)
                if width > widths[k - 1]:
                    break
                slack = (widths[k - 1] - width) ** 2 if k < count else 4 * max(0.0, widths[k - 1] / 3 - width) ** 2
                if best[k - 1][i] + slack < best[k][j]:
                    best[k][j], back[k][j] = best[k - 1][i] + slack, i
    lines, j = [], n
    for k in range(count, 0, -1):
        i = back[k][j]
        lines.append(" ".join(words[i:j]))
        j = i
    return lines[::-1]


def fit_text(
    text: str, font: Font, height_pt: float, width_at: Callable[[float], float],
    largest_pt: float, smallest_pt: float, leading: float = 1.2,
) -> Lines:
    """Wrap text into a box, from largest_pt down to smallest_pt in 0.25 pt steps.

    width_at(top_offset_pt) gives the width available for a line whose top is that far below the
    box top (so text can flow around a picture). Raise LayoutError if it fits at no allowed size.
    """
    size = largest_pt
    while size >= smallest_pt - 1e-9:
        lead = size * leading
        width = lambda i, lead=lead: width_at(i * lead)  # noqa: E731
        lines = wrap(text, font, size, width)  # the fewest lines; evened out only once they fit
        if lines is not None and len(lines) * lead - (lead - size) <= height_pt:
            return Lines(tuple(balanced_wrap(text, font, size, width) or lines), size, lead)
        size -= 0.25
    raise LayoutError(
        f"text {text[:40]!r}... does not fit a {height_pt:.0f} pt box at {smallest_pt} pt; shorten it"
    )


def fit_line(text: str, font: Font, width_pt: float, largest_pt: float, smallest_pt: float) -> float:
    """The largest size (0.25 pt steps) at which one line fits the width; LayoutError below smallest."""
    size = largest_pt
    while size >= smallest_pt - 1e-9:
        if text_width_pt(text, font, size) <= width_pt:
            return size
        size -= 0.25
    raise LayoutError(f"{text!r} does not fit {width_pt:.0f} pt at {smallest_pt} pt; shorten it")
