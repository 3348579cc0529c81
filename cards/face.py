"""Card faces, 4.25 x 2.75 in landscape: name band, diagram, picture, rules text, notation, value.

Everything sits at least SAFE_PT inside the card, so the same face works on perforated home stock
(printers cannot reach the sheet edge) and on print-on-demand cards with bleed.
"""

from __future__ import annotations

from dataclasses import dataclass

from cards.art import silhouette
from cards.diagram import Diagram, diagram_for, draw_diagram, forward_arrow, rule_badge
from cards.primitives import Align, Drawing, Font, Group, Item, Picture, Poly, Rect, Style, Text
from cards.text import DESCENT, LayoutError, fit_line, fit_text, text_width_pt
from cards.theme import NEUTRAL, group_look
from pieces.catalogue import PieceDef

CARD_W_PT, CARD_H_PT = 306.0, 198.0
SAFE_PT = 18.0
LEFT, RIGHT, BOTTOM, TOP = SAFE_PT, CARD_W_PT - SAFE_PT, SAFE_PT, CARD_H_PT - SAFE_PT
BAND_H_PT = 20.0
GRID_PT = 116.0
GRID_Y_PT = 38.0
TEXT_X_PT = LEFT + GRID_PT + 14
PICTURE_PT = 48.0
SMALL_PICTURE_PT = 30.0
RULES_MAX_PT, RULES_MIN_PT = 9.5, 8.0
SMALL_PT = 6.5  # footer lines; nothing on a card is smaller than 6 pt
INK = (0.08, 0.08, 0.08)
GREY = (0.35, 0.35, 0.35)


@dataclass(frozen=True, slots=True)
class FaceInfo:
    """What a face shows besides the piece itself: its value and place in its set."""

    piece: PieceDef
    value: float
    set_name: str  # e.g. "Starter"
    number: int  # 1-based place in its group within the set
    total: int


def card_face(info: FaceInfo) -> Drawing:
    """The face of one piece's card; LayoutError naming the piece if its words do not fit."""
    try:
        return _card_face(info)
    except LayoutError as error:
        raise LayoutError(f"{info.piece.origin or 'catalogue'}: piece {info.piece.id!r}: {error}") from None


def _card_face(info: FaceInfo) -> Drawing:
    piece = info.piece
    look = group_look(piece.group.value)
    diagram = diagram_for(piece)
    items: list[Item] = [name_band(piece.group.value, piece.name, f"Value {info.value:.1f}")]
    items.append(Group((draw_diagram(diagram, GRID_PT),), LEFT + 0.5, GRID_Y_PT))
    items += _diagram_marks(diagram)
    top = GRID_Y_PT + GRID_PT
    try:
        picture_pt, text = PICTURE_PT, _rules_text(piece.text, diagram.badges, PICTURE_PT)
    except LayoutError:  # a long text: a smaller picture leaves it more room
        picture_pt, text = SMALL_PICTURE_PT, _rules_text(piece.text, diagram.badges, SMALL_PICTURE_PT)
    items.append(Picture(
        RIGHT - picture_pt, top - picture_pt, picture_pt, picture_pt, piece.id,
        Group((silhouette(piece.group.value, picture_pt, look.band, (0.93, 0.93, 0.93)),),
              RIGHT - picture_pt, top - picture_pt),
    ))
    items += text
    items += _footer(
        f"XBetza {piece.betza}", f"{info.set_name} \u00b7 {look.plural} {info.number}/{info.total}",
        f"code {piece.code}",
    )
    return Drawing(CARD_W_PT, CARD_H_PT, tuple(items))


def name_band(group: str, title: str, right: str) -> Group:
    """The coloured band across the top of a face: title left, a short note right."""
    look = group_look(group)
    items: list[Item] = [Rect(LEFT, TOP - BAND_H_PT, RIGHT - LEFT, BAND_H_PT, Style(look.band, None))]
    right_size = 8.0
    right_w = text_width_pt(right, Font.REGULAR, right_size) if right else 0.0
    room = RIGHT - LEFT - 12 - right_w - (8 if right else 0)
    size = fit_line(title, Font.BOLD, room, 13.0, 8.0) if title else 13.0
    baseline = TOP - BAND_H_PT + 5.5
    if title:
        items.append(Text(LEFT + 6, baseline, title, size, Font.BOLD, look.ink))
    if right:
        items.append(Text(RIGHT - 6, baseline, right, right_size, Font.REGULAR, look.ink, Align.RIGHT))
    return Group(tuple(items))


def _diagram_marks(diagram: Diagram) -> list[Item]:
    """The forward arrow and the rule badge, in the gap between diagram and text."""
    x = LEFT + GRID_PT + 7
    items: list[Item] = []
    if diagram.forward:
        items.append(forward_arrow(x, GRID_Y_PT + 2, 26))
    if diagram.badges:
        items.append(rule_badge(x, GRID_Y_PT + GRID_PT - 5.5, 5.5))
    return items


def _rules_text(text: str, badges: tuple[str, ...], picture_pt: float) -> list[Item]:
    """The rules text, shrunk to fit (never below 8 pt), flowing around the picture."""
    top, bottom = GRID_Y_PT + GRID_PT, GRID_Y_PT
    items: list[Item] = []
    if badges:
        label = fit_text(", ".join(badges), Font.BOLD, 20, lambda _: RIGHT - TEXT_X_PT - 14, RULES_MIN_PT, RULES_MIN_PT)
        y = bottom + DESCENT * label.size_pt + (len(label.lines) - 1) * label.leading_pt
        items.append(rule_badge(TEXT_X_PT + 5, y + 0.36 * label.size_pt, 5))
        for line in label.lines:
            items.append(Text(TEXT_X_PT + 13, y, line, label.size_pt, Font.BOLD, INK))
            y -= label.leading_pt
        bottom += 4 + len(label.lines) * label.leading_pt
    width = RIGHT - TEXT_X_PT
    narrow = width - picture_pt - 5

    def width_at(offset: float) -> float:
        return narrow if offset < picture_pt + 2 else width

    lines = fit_text(text, Font.REGULAR, top - bottom, width_at, RULES_MAX_PT, RULES_MIN_PT, 1.15)
    y = top - lines.size_pt * 0.93
    for line in lines.lines:
        items.append(Text(TEXT_X_PT, y, line, lines.size_pt, Font.REGULAR, INK))
        y -= lines.leading_pt
    return items


def _footer(notation: str, place: str, right: str) -> list[Item]:
    size = fit_line(notation, Font.REGULAR, RIGHT - LEFT, 7.0, 6.0)
    return [
        Poly(((LEFT, 34.5), (RIGHT, 34.5)), Style(None, (0.6, 0.6, 0.6), 0.5)),
        Text(LEFT, 26.5, notation, size, Font.REGULAR, INK),
        Text(LEFT, BOTTOM + 2.2, place, SMALL_PT, Font.REGULAR, GREY),
        Text(RIGHT, BOTTOM + 2.2, right, SMALL_PT, Font.REGULAR, GREY, Align.RIGHT),
    ]


def blank_face(group: str) -> Drawing:
    """A write-in card: a band to name the piece, an empty grid to draw its moves, lines for rules."""
    look = group_look(group)
    label = "Write-in card" if group == NEUTRAL else f"Write-in {look.label.lower()}"
    items: list[Item] = [name_band(group, "", look.label if group != NEUTRAL else "")]
    empty = Diagram(radius=4, cells=())
    items.append(Group((draw_diagram(empty, GRID_PT),), LEFT + 0.5, GRID_Y_PT, key=f"blank-grid-{group}"))
    rule = Style(None, (0.7, 0.7, 0.7), 0.5)
    y = GRID_Y_PT + GRID_PT - 14
    while y > GRID_Y_PT + 4:
        items.append(Poly(((TEXT_X_PT, y), (RIGHT, y)), rule))
        y -= 14
    items += _footer("XBetza", label, "code")
    return Drawing(CARD_W_PT, CARD_H_PT, (Group(tuple(items), key=f"blank-{group}"),))
