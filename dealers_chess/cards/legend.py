"""The legend card: every diagram symbol, drawn with the same functions as the diagrams themselves."""

from __future__ import annotations

from collections.abc import Callable

from dealers_chess.cards.diagram import (
    DARK,
    LIGHT,
    Access,
    Cell,
    Fill,
    StrokeKind,
    cell_mark,
    draw_stroke,
    en_passant_glyph,
    forward_arrow,
    hurdle_mark,
    piece_mark,
    rule_badge,
)
from dealers_chess.cards.face import BAND_H_PT, CARD_H_PT, CARD_W_PT, LEFT, RIGHT, SMALL_PT, TOP, name_band
from dealers_chess.cards.primitives import Circle, Color, Drawing, Font, Group, Item, Rect, Style, Text
from dealers_chess.cards.text import fit_line, fit_text
from dealers_chess.cards.theme import NEUTRAL

C = 13.0  # a sample square
VALUE_NOTE = "Value in Pawns: 7.9 \u00b1 0.6 measured in play (95 %); \u2248 6.9 estimated."
INK = (0.08, 0.08, 0.08)
Sample = Callable[[], list[Item]]


def _square(col: int, color: Color | None = None) -> Rect:
    return Rect(col * C, 0, C, C, Style(color or (LIGHT if col % 2 else DARK), (0.45, 0.45, 0.45), 0.5))


def _mark(fill: Fill, cell: Cell) -> Sample:
    return lambda: [_square(0), _square(1, fill.color), cell_mark(cell, 1.5 * C, C / 2, C)]


def _line(kind: StrokeKind) -> Sample:
    def sample() -> list[Item]:
        end = 2 * C - 1 if kind is StrokeKind.SLIDE else 1.5 * C
        line = draw_stroke([(0.5 * C, C / 2), (end, C / 2)], kind, C)
        return [_square(0), _square(1), *line, piece_mark(0.5 * C, C / 2, C)]
    return sample


def _lame() -> list[Item]:
    cell = Cell(Access.ALWAYS, Access.ALWAYS)
    return [
        _square(0), _square(1, Fill.MOVE_OR_CAPTURE.color),
        *draw_stroke([(0.5 * C, C / 2), (1.5 * C, C / 2)], StrokeKind.PATH, C),
        Circle(0.5 * C, C / 2, 0.11 * C, Style(INK, None)), cell_mark(cell, 1.5 * C, C / 2, C),
    ]


def _hop() -> list[Item]:
    cell = Cell(Access.NEVER, Access.ALWAYS, hop=True)
    return [_square(0), _square(1, Fill.HOP.color), hurdle_mark(0.5 * C, C / 2, C), cell_mark(cell, 1.5 * C, C / 2, C)]


def _en_passant() -> list[Item]:
    cell = Cell(Access.NEVER, Access.ALWAYS)
    return [_square(0, Fill.CAPTURE_ONLY.color), cell_mark(cell, 0.5 * C, C / 2, C), en_passant_glyph(0.5 * C, 0, C)]


ENTRIES: tuple[tuple[Sample, str], ...] = (
    (lambda: [_square(0, LIGHT), piece_mark(0.5 * C, C / 2, C)], "The piece. Forward is up."),
    (_mark(Fill.MOVE_OR_CAPTURE, Cell(Access.ALWAYS, Access.ALWAYS)), "Disc, yellow: move or capture."),
    (_mark(Fill.LEAP, Cell(Access.ALWAYS, Access.ALWAYS, leap=True)),
     "Diamond, orange: leaps there; nothing blocks it."),
    (_mark(Fill.MOVE_ONLY, Cell(Access.ALWAYS)), "Hollow, green: move only, no capture."),
    (_mark(Fill.CAPTURE_ONLY, Cell(Access.NEVER, Access.ALWAYS)), "Cross, red: capture only."),
    (_mark(Fill.FIRST_MOVE, Cell(Access.FIRST)), "Small i, dark green: first move only."),
    (_en_passant, "Triangle: may also capture en passant."),
    (_line(StrokeKind.SLIDE), "Arrow: slides any distance, to the board edge."),
    (_line(StrokeKind.LIMITED), "Dotted: slides, but only as far as shown."),
    (_lame, "Thin line, dot: passes there; blocked if occupied."),
    (_hop, "Grey: captures by hopping over a piece."),
    (lambda: [forward_arrow(0.5 * C, 0, C)], "Arrow beside a diagram: moves depend on direction."),
    (lambda: [rule_badge(0.5 * C, C / 2, C * 0.45)], "Badge: a special rule, see the card text."),
)


def legend_card() -> Drawing:
    """The legend card that explains every diagram symbol."""
    items: list[Item] = [name_band(NEUTRAL, "Reading the diagrams", "")]
    rows = (len(ENTRIES) + 1) // 2
    top = TOP - BAND_H_PT - 4
    pitch = (top - 37) / rows
    column_w = (RIGHT - LEFT) / 2
    for index, (sample, label) in enumerate(ENTRIES):
        column, row = divmod(index, rows)
        x, y = LEFT + column * column_w, top - (row + 1) * pitch + 2
        items.append(Group(tuple(sample()), x, y + (pitch - C) / 2 - 1))
        lines = fit_text(label, Font.REGULAR, pitch, lambda _: column_w - 2 * C - 8, 7.0, 6.0, 1.1)
        baseline = y + pitch / 2 + (len(lines.lines) - 1) * lines.leading_pt / 2 - lines.size_pt * 0.35
        for line in lines.lines:
            items.append(Text(x + 2 * C + 4, baseline, line, lines.size_pt, Font.REGULAR, INK))
            baseline -= lines.leading_pt
    for baseline, note in ((28.5, VALUE_NOTE), (20.5, "For Black, turn the diagram round. Colours as in the "
                                                           "Interactive Diagram.")):
        size = fit_line(note, Font.ITALIC, RIGHT - LEFT, SMALL_PT, 5.5)
        items.append(Text(LEFT, baseline, note, size, Font.ITALIC, (0.3, 0.3, 0.3)))
    return Drawing(CARD_W_PT, CARD_H_PT, (Group(tuple(items), key="legend"),))
