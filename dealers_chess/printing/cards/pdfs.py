"""Card sheets as PDF: fronts imposed on a profile, backs placed for duplex, one card per page for POD."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from dealers_chess.cards.back import BackStyle, card_back
from dealers_chess.cards.primitives import Drawing
from dealers_chess.printing.cards.deck import Card
from dealers_chess.printing.cards.pdf import (
    PdfPainter,
    PictureSource,
    finished_pdf,
    new_canvas,
    set_duplex,
    set_simplex,
)
from dealers_chess.printing.cards.sheets import Duplex, Profile
from dealers_chess.printing.files import write_atomic

Progress = Callable[[int], None]  # called with the number of pages just finished


class BackLayout(Enum):
    """How backs are laid out: one sheet per group to print N times, one back per front page, or
    fronts and backs interleaved in one file for a duplex printer."""

    SHEET = "sheet"
    PAGES = "pages"
    INTERLEAVED = "interleaved"


@dataclass(frozen=True, slots=True)
class BackOptions:
    """Duplex flip, layout, the measured front/back offset in mm (x right, y up, on the back) and the look."""

    duplex: Duplex = Duplex.LONG
    layout: BackLayout = BackLayout.SHEET
    offset_mm: tuple[float, float] = (0.0, 0.0)
    style: BackStyle = BackStyle.FULL


def pages_of(cards: list[Card], profile: Profile) -> list[list[Card]]:
    """The deck cut into pages of the profile."""
    n = profile.per_page
    return [cards[i : i + n] for i in range(0, len(cards), n)]


def _canvas(buffer: io.BytesIO, profile: Profile, title: str):
    boxes = {}
    if profile.trim_box:
        b = profile.bleed_pt
        x, y = profile.slot(0)
        boxes = {
            "trimBox": (x, y, x + profile.card_width_pt, y + profile.card_height_pt),
            "bleedBox": (x - b, y - b, x + profile.card_width_pt + b, y + profile.card_height_pt + b),
        }
    return new_canvas(buffer, profile.page_width_pt, profile.page_height_pt, title, **boxes)


def write_fronts(
    cards: list[Card], profile: Profile, path: Path, title: str,
    pictures: PictureSource | None = None, progress: Progress | None = None,
) -> Path:
    """Write the card faces imposed on the profile's sheets, to print one-sided."""
    buffer = io.BytesIO()
    canvas = _canvas(buffer, profile, title)
    set_simplex(canvas)
    painter = PdfPainter(canvas, pictures)
    cache: dict[Card, Drawing] = {}
    for page in pages_of(cards, profile):
        _front_page(painter, profile, page, cache)
        if progress:
            progress(1)
    return write_atomic(path, finished_pdf(canvas, buffer, path.name))


def _front_page(painter: PdfPainter, profile: Profile, page: list[Card], cache: dict[Card, Drawing]) -> None:
    for index, card in enumerate(page):
        if card not in cache:
            aspect = painter.picture_aspect(card.info.piece.id) if card.info else None
            cache[card] = card.drawing(aspect)
        drawing = cache[card]
        painter.draw(drawing, *profile.slot(index))
        if profile.crop_marks:
            _crop_marks(painter.canvas, profile, index)
    painter.canvas.showPage()


def _back_page(painter: PdfPainter, profile: Profile, groups: list[str], options: BackOptions,
               backs: dict[str, Drawing]) -> None:
    for index, group in enumerate(groups):
        drawing = backs.get(group) or backs.setdefault(group, card_back(group, profile.bleed_pt, options.style))
        painter.draw(drawing, *profile.back_slot(index, options.duplex, options.offset_mm))
    painter.canvas.showPage()


def write_interleaved(
    cards: list[Card], profile: Profile, path: Path, title: str, options: BackOptions,
    pictures: PictureSource | None = None, progress: Progress | None = None,
) -> Path:
    """Write front, back, front, back... in one file, to print double-sided in one go."""
    buffer = io.BytesIO()
    canvas = _canvas(buffer, profile, title)
    set_duplex(canvas, options.duplex is Duplex.LONG)
    painter = PdfPainter(canvas, pictures)
    fronts: dict[Card, Drawing] = {}
    backs: dict[str, Drawing] = {}
    for page in pages_of(cards, profile):
        _front_page(painter, profile, page, fronts)
        _back_page(painter, profile, [card.group for card in page], options, backs)
        if progress:
            progress(1)
    return write_atomic(path, finished_pdf(canvas, buffer, path.name))


def _crop_marks(canvas, profile: Profile, index: int) -> None:
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(0.4)
    canvas.setDash([])
    for (x0, y0), (x1, y1) in profile.crop_marks_at(index):
        canvas.line(x0, y0, x1, y1)


def sheet_backs(cards: list[Card], profile: Profile) -> list[tuple[tuple[str, ...], list[int]]]:
    """Each distinct back page (the group of every slot) with the front pages (0-based) it goes behind."""
    patterns: dict[tuple[str, ...], list[int]] = {}
    for number, page in enumerate(pages_of(cards, profile)):
        patterns.setdefault(tuple(card.group for card in page), []).append(number)
    return list(patterns.items())


def back_pages(cards: list[Card], profile: Profile, layout: BackLayout) -> list[list[str]]:
    """The group of each back slot, page by page: per front page, or once per distinct page (SHEET)."""
    if layout is BackLayout.SHEET:
        return [list(groups) for groups, _ in sheet_backs(cards, profile)]
    return [[card.group for card in page] for page in pages_of(cards, profile)]


def write_backs(
    cards: list[Card], profile: Profile, path: Path, title: str, options: BackOptions,
    progress: Progress | None = None,
) -> Path:
    """Write the backs: mirrored for the duplex flip and shifted by the offset.

    The file is fed once, one-sided, onto fronts printed before: it asks for no two-sided printing.
    """
    buffer = io.BytesIO()
    canvas = _canvas(buffer, profile, title)
    set_simplex(canvas)
    painter = PdfPainter(canvas)
    backs: dict[str, Drawing] = {}
    for page in back_pages(cards, profile, options.layout):
        _back_page(painter, profile, page, options, backs)
        if progress:
            progress(1)
    return write_atomic(path, finished_pdf(canvas, buffer, path.name))
