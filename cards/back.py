"""Card backs per group: a full-bleed lattice with a central medallion, no border near the edge.

A back printed a few millimetres off its front still looks right: the pattern has no edge to
misalign against, and the medallion sits far inside the card.
"""

from __future__ import annotations

from cards.art import silhouette
from cards.face import CARD_H_PT, CARD_W_PT
from cards.primitives import Align, Drawing, Font, Group, Item, Poly, Rect, Circle, Style, Text
from cards.theme import NEUTRAL, group_look

PATTERN_PITCH_PT = 18.0
OVERSCAN_PT = 18.0  # the pattern runs this far past the trim (bleed and misregistration)


def card_back(group: str, bleed_pt: float = 0.0) -> Drawing:
    """The back of every card of a group, drawn once as reusable art."""
    art = Group((_pattern(group), _medallion(group)), key=f"back-{group}")
    clip = (-bleed_pt, -bleed_pt, CARD_W_PT + 2 * bleed_pt, CARD_H_PT + 2 * bleed_pt)
    return Drawing(CARD_W_PT, CARD_H_PT, (Group((art,), clip=clip),))


def _pattern(group: str) -> Group:
    look = group_look(group)
    pad = OVERSCAN_PT
    items: list[Item] = [Rect(-pad, -pad, CARD_W_PT + 2 * pad, CARD_H_PT + 2 * pad, Style(look.back, None))]
    p = PATTERN_PITCH_PT  # divides 306 and 198: the lattice runs on unbroken from card to card
    motif = Style(look.back_motif, None)
    h = p * 0.3
    count_x, count_y = int((CARD_W_PT + 2 * pad) / p) + 2, int((CARD_H_PT + 2 * pad) / p) + 2
    start = -(int(pad / p) + 1) * p
    for j in range(count_y):
        for i in range(count_x):
            for shift in (0.0, p / 2):
                x, y = start + i * p + shift, start + j * p + shift
                items.append(Poly(((x, y - h), (x + h, y), (x, y + h), (x - h, y)), motif, closed=True))
    return Group(tuple(items))


def _medallion(group: str) -> Group:
    look = group_look(group)
    cx, cy = CARD_W_PT / 2, CARD_H_PT / 2
    ring = Style((0.98, 0.97, 0.93), look.back_motif, 3.0)
    title = "DEALER'S CHESS"
    label = "REFERENCE" if group == NEUTRAL else look.label.upper()
    items: list[Item] = [
        Circle(cx, cy, 62, Style(look.back_motif, None)),
        Circle(cx, cy, 56, ring),
        Group((silhouette(group if group != NEUTRAL else "piece", 46, look.back, (0.9, 0.88, 0.82)),),
              cx - 23, cy - 22),
        Text(cx, cy + 33, title, 7.5, Font.BOLD, look.back, Align.CENTRE),
        Text(cx, cy - 34, label, 11.0, Font.BOLD, look.back, Align.CENTRE),
    ]
    return Group(tuple(items))
