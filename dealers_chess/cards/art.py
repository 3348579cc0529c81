"""Vector silhouettes of a piece per group: the picture a card shows when no render is available."""

from __future__ import annotations

from dealers_chess.cards.primitives import Circle, Color, Group, Item, Poly, Rect, Style

Outline = tuple[tuple[float, float], ...]

# Outlines in a 100 x 100 box, base at y = 8.
_BASE: Outline = ((18, 8), (82, 8), (82, 16), (74, 20), (26, 20), (18, 16))
_PAWN_BODY: Outline = (
    (30, 20), (70, 20), (60, 32), (56, 50), (62, 54), (62, 58), (38, 58), (38, 54), (44, 50), (40, 32),
)
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
    paint = "-".join(f"{c:.3f}" for c in (*fill, *ground))
    return Group((Group(tuple(items), scale=size_pt / 100, key=f"silhouette-{group}-{size_pt:.1f}-{paint}"),))


def _poly(points: Outline, style: Style) -> Poly:
    return Poly(points, style, closed=True)


_ROYAL_CAP: Outline = ((47, 90), (53, 90), (53, 98), (47, 98))
_SLIM_PARTS: dict[str, tuple[tuple[Outline, ...], tuple[tuple[float, float, float], ...]]] = {
    "pawn": ((_PAWN_BODY,), ((50, 68, 13),)),
    "spear": ((_PAWN_BODY, _SPEAR_HEAD), ((50, 64, 9),)),
    "royal": ((_OFFICER_BODY, _CROWN, _ROYAL_CAP), ()),
    "piece": ((_OFFICER_BODY, _MITRE), ((50, 94.5, 3.5),)),
}


def slim_silhouette(group: str, width_pt: float, height_pt: float, fill: Color) -> Group:
    """The group's silhouette stretched to fill a width x height box (the face's picture slot), no ground disc."""
    outlines, balls = _SLIM_PARTS.get(group, _SLIM_PARTS["piece"])
    top = max([y for outline in outlines for _, y in outline] + [cy + r for _, cy, r in balls])
    kx, ky = width_pt / (_BASE[1][0] - _BASE[0][0]), height_pt / (top - _BASE[0][1])
    style = Style(fill, (1.0, 1.0, 1.0), 0.8)

    def place(x: float, y: float) -> tuple[float, float]:
        return ((x - 50) * kx + width_pt / 2, (y - _BASE[0][1]) * ky)

    items: list[Item] = [Poly(tuple(place(x, y) for x, y in outline), style, closed=True) for outline in outlines]
    items += [Circle(*place(cx, cy), r * (kx + ky) / 2, style) for cx, cy, r in balls]
    items.append(Poly(tuple(place(x, y) for x, y in _BASE), style, closed=True))
    paint = "-".join(f"{c:.3f}" for c in fill)
    return Group(tuple(items), key=f"slim-{group}-{width_pt:.1f}x{height_pt:.1f}-{paint}")
