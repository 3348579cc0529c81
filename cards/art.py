"""Vector silhouettes of a piece per group: the picture a card shows when no render is available."""

from __future__ import annotations

from cards.primitives import Circle, Color, Group, Item, Poly, Rect, Style

Outline = tuple[tuple[float, float], ...]

# Outlines in a 100 x 100 box, base at y = 8.
_BASE: Outline = ((18, 8), (82, 8), (82, 16), (74, 20), (26, 20), (18, 16))
_PAWN_BODY: Outline = ((30, 20), (70, 20), (60, 32), (56, 50), (62, 54), (62, 58), (38, 58), (38, 54), (44, 50), (40, 32))
_OFFICER_BODY: Outline = (
    (28, 20), (72, 20), (62, 34), (58, 60), (66, 64), (66, 69), (34, 69), (34, 64), (42, 60), (38, 34),
)
_MITRE: Outline = ((50, 94), (62, 80), (60, 71), (40, 71), (38, 80))
_CROWN: Outline = ((34, 70), (66, 70), (72, 90), (61, 81), (55, 93), (50, 82), (45, 93), (39, 81), (28, 90))
_SPEAR_HEAD: Outline = ((50, 97), (58, 80), (53, 80), (53, 70), (47, 70), (47, 80), (42, 80))


def silhouette(group: str, size_pt: float, fill: Color, ground: Color) -> Group:
    """A piece silhouette for a group, size_pt square, origin bottom-left; drawn once per group."""
    style = Style(fill, (1.0, 1.0, 1.0), 1.2)
    items: list[Item] = [Circle(50, 48, 46, Style(ground, None))]
    if group == "pawn":
        items += [_poly(_PAWN_BODY, style), Circle(50, 68, 13, style)]
    elif group == "spear":
        items += [_poly(_PAWN_BODY, style), Circle(50, 64, 9, style), _poly(_SPEAR_HEAD, style)]
    elif group == "royal":
        items += [_poly(_OFFICER_BODY, style), _poly(_CROWN, style), Rect(47, 90, 6, 8, style)]
    else:
        items += [_poly(_OFFICER_BODY, style), _poly(_MITRE, style), Circle(50, 96, 3.5, style)]
    items.append(_poly(_BASE, style))
    return Group((Group(tuple(items), scale=size_pt / 100, key=f"silhouette-{group}-{size_pt:.1f}"),))


def _poly(points: Outline, style: Style) -> Poly:
    return Poly(points, style, closed=True)
