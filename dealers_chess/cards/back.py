"""Card backs per group: a lattice over the whole card with a central medallion, no border near the edge.

A back printed a few millimetres off its front still looks right: the pattern has no edge to
misalign against, and the medallion sits far inside the card. The full style covers the card in
the group's colour; the light style draws the same design in outline on white, for a fraction of the ink.
"""

from __future__ import annotations

from enum import Enum

from dealers_chess.cards.art import silhouette
from dealers_chess.cards.face import CARD_H_PT, CARD_W_PT
from dealers_chess.cards.primitives import Align, Circle, Color, Drawing, Font, Group, Item, Poly, Rect, Style, Text
from dealers_chess.cards.theme import NEUTRAL, GroupLook, group_look

PATTERN_PITCH_PT = 18.0
OVERSCAN_PT = 18.0  # the pattern runs this far past the trim (bleed and misregistration)
PAPER: Color = (1.0, 1.0, 1.0)
IVORY: Color = (0.98, 0.97, 0.93)


class BackStyle(Enum):
    """How much ink a back takes."""

    FULL = "full"  # the group's colour over the whole card
    LIGHT = "light"  # the same lattice and medallion in outline on white paper


def card_back(group: str, bleed_pt: float = 0.0, style: BackStyle = BackStyle.FULL) -> Drawing:
    """The back of every card of a group, drawn once as reusable art."""
    art = Group((_pattern(group, style), _medallion(group, style)), key=f"back-{group}-{style.value}")
    clip = (-bleed_pt, -bleed_pt, CARD_W_PT + 2 * bleed_pt, CARD_H_PT + 2 * bleed_pt)
    return Drawing(CARD_W_PT, CARD_H_PT, (Group((art,), clip=clip),))


def tint(color: Color, amount: float) -> Color:
    """The colour mixed with white: amount 1 is the colour, 0 is white."""
    red, green, blue = (1 - amount * (1 - c) for c in color)
    return (red, green, blue)


def _pattern(group: str, style: BackStyle) -> Group:
    look = group_look(group)
    pad = OVERSCAN_PT
    items: list[Item] = []
    if style is BackStyle.FULL:
        items.append(Rect(-pad, -pad, CARD_W_PT + 2 * pad, CARD_H_PT + 2 * pad, Style(look.back, None)))
        motif = Style(look.back_motif, None)
    else:
        motif = Style(None, tint(look.back, 0.45), 0.5)
    p = PATTERN_PITCH_PT  # divides 306 and 198: the lattice runs on unbroken from card to card
    h = p * 0.3
    count_x, count_y = int((CARD_W_PT + 2 * pad) / p) + 2, int((CARD_H_PT + 2 * pad) / p) + 2
    start = -(int(pad / p) + 1) * p
    for j in range(count_y):
        for i in range(count_x):
            for shift in (0.0, p / 2):
                x, y = start + i * p + shift, start + j * p + shift
                items.append(Poly(((x, y - h), (x + h, y), (x, y + h), (x - h, y)), motif, closed=True))
    return Group(tuple(items))


def _medallion(group: str, style: BackStyle) -> Group:
    look = group_look(group)
    cx, cy = CARD_W_PT / 2, CARD_H_PT / 2
    outer, ring, figure, ground, words = _medallion_paint(look, style)
    title = "DEALER'S CHESS"
    label = "REFERENCE" if group == NEUTRAL else look.label.upper()
    items: list[Item] = [
        Circle(cx, cy, 62, outer),
        Circle(cx, cy, 56, ring),
        Group((silhouette(group if group != NEUTRAL else "piece", 46, figure, ground),), cx - 23, cy - 22),
        Text(cx, cy + 33, title, 7.5, Font.BOLD, words, Align.CENTRE),
        Text(cx, cy - 34, label, 11.0, Font.BOLD, words, Align.CENTRE),
    ]
    return Group(tuple(items))


def _medallion_paint(look: GroupLook, style: BackStyle) -> tuple[Style, Style, Color, Color, Color]:
    """Outer disc, ring, figure, the figure's ground and the words, for a style."""
    if style is BackStyle.FULL:
        return (Style(look.back_motif, None), Style(IVORY, look.back_motif, 3.0), look.back, (0.9, 0.88, 0.82),
                look.back)
    return (Style(PAPER, tint(look.back, 0.45), 0.5), Style(PAPER, look.back, 1.5), tint(look.back, 0.8),
            tint(look.back, 0.12), look.back)
