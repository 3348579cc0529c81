"""Card faces, 4.25 x 2.75 in landscape: name band, diagram, rules text in a fixed column, picture, footer.

Everything sits at least SAFE_PT inside the card, so the same face works on perforated home stock
(printers cannot reach the sheet edge) and on print-on-demand cards with bleed. The picture is at
least PICTURE_MIN_PT (1 in) tall, sized to the render's own proportions, or it is left out and the
rules text takes its width.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from dealers_chess.cards.art import slim_silhouette
from dealers_chess.cards.diagram import Diagram, diagram_for, draw_diagram, forward_arrow, rule_badge
from dealers_chess.cards.primitives import Align, Drawing, Font, Group, Item, Picture, Poly, Rect, Style, Text
from dealers_chess.cards.text import DESCENT, LayoutError, Lines, fit_line, fit_text, text_width_pt
from dealers_chess.cards.theme import NEUTRAL, group_look
from dealers_chess.pieces.card_name import NAME_LARGEST_PT, NAME_SMALLEST_PT
from dealers_chess.pieces.catalogue import PieceDef

CARD_W_PT, CARD_H_PT = 306.0, 198.0
SAFE_PT = 18.0
LEFT, RIGHT, BOTTOM, TOP = SAFE_PT, CARD_W_PT - SAFE_PT, SAFE_PT, CARD_H_PT - SAFE_PT
BAND_H_PT = 20.0
BODY_TOP_PT = TOP - BAND_H_PT - 4  # the top of the diagram, the rules text and the picture
GRID_PT = 104.0
GRID_X_PT, GRID_Y_PT = LEFT + 0.5, BODY_TOP_PT - GRID_PT
GUTTER_PT = 14.0  # between diagram and text: the forward arrow and the rule badge
TEXT_X_PT = LEFT + GRID_PT + GUTTER_PT
BADGE_R_PT = 4.5
PICTURE_GAP_PT = 6.0
PICTURE_HEIGHTS_PT = (84.0, 78.0, 72.0)  # tried in turn; 72 pt (1 in) is the least that shows the piece
SILHOUETTE_ASPECT = 0.55  # width / height of the silhouette drawn where no render is available
RULES_SIZES_PT = (9.5, 9.25, 9.0, 8.75, 8.5, 8.25, 8.0)
RULES_LEADING = 1.15
LABEL_PT = 8.0
SMALL_PT = 7.0  # footer lines; nothing on a face is smaller
FOOTER_GAP_PT = 12.0
INK = (0.08, 0.08, 0.08)
GREY = (0.3, 0.3, 0.3)  # 70 % black: still dark on an inkjet


@dataclass(frozen=True, slots=True)
class FaceInfo:
    """What a face shows besides the piece itself: its value and place in its set."""

    piece: PieceDef
    value: float
    set_name: str  # e.g. "Starter"
    number: int  # 1-based place in its group within the set
    total: int
    margin: float | None = None  # the measured value's 95 % half-width; None: the model's estimate

    @property
    def value_text(self) -> str:
        """The band's value in Pawns: '7.9 ± 0.6' measured by self-play, '≈ 6.9' the model's estimate."""
        if self.margin is None:
            return f"\u2248 {self.value:.1f}"
        if self.margin == 0:
            return f"{self.value:.1f}"  # the Pawn: the unit, exact by definition
        return f"{self.value:.1f} \u00b1 {self.margin:.1f}"


@lru_cache(maxsize=512)  # a kit lays each face out for three PDFs: once is enough (a Drawing never changes)
def card_face(info: FaceInfo, picture_aspect: float | None = None) -> Drawing:
    """The face of one piece's card, its picture slot shaped width/height = picture_aspect (None: the silhouette's).

    LayoutError naming the piece if its words do not fit.
    """
    try:
        return _card_face(info, picture_aspect or SILHOUETTE_ASPECT)
    except LayoutError as error:
        raise LayoutError(f"{info.piece.origin or 'catalogue'}: piece {info.piece.id!r}: {error}") from None


def _card_face(info: FaceInfo, aspect: float) -> Drawing:
    piece = info.piece
    look = group_look(piece.group.value)
    diagram = diagram_for(piece)
    items: list[Item] = [name_band(piece.group.value, piece.name, info.value_text)]
    items.append(Group((draw_diagram(diagram, GRID_PT),), GRID_X_PT, GRID_Y_PT))
    items += _diagram_marks(diagram)
    place = f"{info.set_name} \u00b7 {look.plural} {info.number}/{info.total} \u00b7 code {piece.code}"
    footer, bottom = footer_lines(f"XBetza {piece.betza}", place)
    items += footer
    label, bottom = _rule_label(diagram.badges, bottom)
    items += label
    items += _text_and_picture(piece, aspect, bottom)
    return Drawing(CARD_W_PT, CARD_H_PT, tuple(items))


def name_band(group: str, title: str, right: str) -> Group:
    """The coloured band across the top of a face: title left, a short note right."""
    look = group_look(group)
    items: list[Item] = [Rect(LEFT, TOP - BAND_H_PT, RIGHT - LEFT, BAND_H_PT, Style(look.band, None))]
    right_size = 8.0
    right_w = text_width_pt(right, Font.REGULAR, right_size) if right else 0.0
    room = RIGHT - LEFT - 12 - right_w - (8 if right else 0)
    size = fit_line(title, Font.BOLD, room, NAME_LARGEST_PT, NAME_SMALLEST_PT) if title else NAME_LARGEST_PT
    baseline = TOP - BAND_H_PT + 5.5
    if title:
        items.append(Text(LEFT + 6, baseline, title, size, Font.BOLD, look.ink))
    if right:
        items.append(Text(RIGHT - 6, baseline, right, right_size, Font.REGULAR, look.ink, Align.RIGHT))
    return Group(tuple(items))


def _diagram_marks(diagram: Diagram) -> list[Item]:
    """The forward arrow and the rule badge, in the gutter between diagram and text, clear of both."""
    x = GRID_X_PT + GRID_PT + 1.0 + BADGE_R_PT
    items: list[Item] = []
    if diagram.forward:
        items.append(forward_arrow(x, GRID_Y_PT + 2, 26))
    if diagram.badges:
        items.append(rule_badge(x, BODY_TOP_PT - BADGE_R_PT - 0.5, BADGE_R_PT))
    return items


def _rule_label(badges: tuple[str, ...], bottom: float) -> tuple[list[Item], float]:
    """The named rules in bold under the text, across text and picture columns; returns the new bottom."""
    if not badges:
        return [], bottom
    width = RIGHT - TEXT_X_PT - 13
    label = fit_text(", ".join(badges), Font.BOLD, 3 * LABEL_PT, lambda _: width, LABEL_PT, LABEL_PT)
    y = bottom + DESCENT * label.size_pt + (len(label.lines) - 1) * label.leading_pt
    items: list[Item] = [rule_badge(TEXT_X_PT + 5, y + 0.36 * label.size_pt, 5)]
    for line in label.lines:
        items.append(Text(TEXT_X_PT + 13, y, line, label.size_pt, Font.BOLD, INK))
        y -= label.leading_pt
    return items, bottom + 4 + len(label.lines) * label.leading_pt


def _text_and_picture(piece: PieceDef, aspect: float, bottom: float) -> list[Item]:
    """The rules text in one fixed column beside the picture: the largest text size first, then the
    tallest picture that leaves it room; with no room at 8 pt, the picture goes and the text takes its width."""
    height = BODY_TOP_PT - bottom
    for size in RULES_SIZES_PT:
        for picture_h in PICTURE_HEIGHTS_PT:
            picture_w = aspect * picture_h
            width = RIGHT - PICTURE_GAP_PT - picture_w - TEXT_X_PT
            lines = _fit(piece.text, height, width, size)
            if lines is not None:
                return _rules_lines(lines) + [_picture(piece, picture_w, picture_h)]
    lines = fit_text(piece.text, Font.REGULAR, height, lambda _: RIGHT - TEXT_X_PT,
                     RULES_SIZES_PT[0], RULES_SIZES_PT[-1], RULES_LEADING)
    return _rules_lines(lines)


def _fit(text: str, height: float, width: float, size: float) -> Lines | None:
    if width < 60:
        return None
    try:
        return fit_text(text, Font.REGULAR, height, lambda _: width, size, size, RULES_LEADING)
    except LayoutError:
        return None


def _rules_lines(lines: Lines) -> list[Item]:
    y = BODY_TOP_PT - lines.size_pt * 0.93
    items: list[Item] = []
    for line in lines.lines:
        items.append(Text(TEXT_X_PT, y, line, lines.size_pt, Font.REGULAR, INK))
        y -= lines.leading_pt
    return items


def _picture(piece: PieceDef, width: float, height: float) -> Picture:
    """The picture slot at the top right; the group's silhouette stands in where there is no render."""
    x, y = RIGHT - width, BODY_TOP_PT - height
    fallback = slim_silhouette(piece.group.value, width, height, group_look(piece.group.value).band)
    return Picture(x, y, width, height, piece.id, Group((fallback,), x, y))


def footer_lines(notation: str, place: str) -> tuple[list[Item], float]:
    """XBetza left and the set, number and code right on one line (two if they do not fit);
    returns the items and the lowest y the body above may use."""
    one_line = (text_width_pt(notation, Font.REGULAR, SMALL_PT) + FOOTER_GAP_PT
                + text_width_pt(place, Font.REGULAR, SMALL_PT))
    if one_line <= RIGHT - LEFT:
        baseline = BOTTOM + 2.0
        texts: list[Item] = [Text(LEFT, baseline, notation, SMALL_PT, Font.REGULAR, INK),
                             Text(RIGHT, baseline, place, SMALL_PT, Font.REGULAR, GREY, Align.RIGHT)]
    else:
        size = fit_line(notation, Font.REGULAR, RIGHT - LEFT, SMALL_PT, 6.0)
        baseline = BOTTOM + 2.0 + 8.5
        texts = [Text(LEFT, baseline, notation, size, Font.REGULAR, INK),
                 Text(RIGHT, BOTTOM + 2.0, place, SMALL_PT, Font.REGULAR, GREY, Align.RIGHT)]
        fit_line(place, Font.REGULAR, RIGHT - LEFT, SMALL_PT, SMALL_PT)  # LayoutError if even this is too long
    rule_y = baseline + SMALL_PT * 0.76 + 2.5
    rule = Poly(((LEFT, rule_y), (RIGHT, rule_y)), Style(None, (0.6, 0.6, 0.6), 0.5))
    return [rule, *texts], rule_y + 3.0


def blank_face(group: str) -> Drawing:
    """A write-in card: a band to name the piece, an empty grid to draw its moves, lines for rules."""
    look = group_look(group)
    label = "Write-in card" if group == NEUTRAL else f"Write-in {look.label.lower()}"
    items: list[Item] = [name_band(group, "", look.label if group != NEUTRAL else "")]
    empty = Diagram(radius=4, cells=())
    items.append(Group((draw_diagram(empty, GRID_PT),), GRID_X_PT, GRID_Y_PT, key=f"blank-grid-{group}"))
    footer, bottom = footer_lines("XBetza", f"{label} \u00b7 code")
    rule = Style(None, (0.7, 0.7, 0.7), 0.5)
    y = BODY_TOP_PT - 14
    while y > bottom + 2:
        items.append(Poly(((TEXT_X_PT, y), (RIGHT, y)), rule))
        y -= 14
    items += footer
    return Drawing(CARD_W_PT, CARD_H_PT, (Group(tuple(items), key=f"blank-{group}"),))
