"""How much name fits a piece's card: the name band's room and the bold face the name is set in.

The card face (dealers_chess.cards.face) sets the name between NAME_LARGEST_PT and NAME_SMALLEST_PT;
the catalogue refuses a name that would not fit NAME_ROOM_PT at the smallest size, so every card
can be drawn. Widths come from the TTF the cards embed (Bitstream Vera Bold, in reportlab's wheel),
read only for a name long enough to need it: up to NAME_ROOM_PT / (WIDEST_GLYPH_EM * NAME_SMALLEST_PT)
characters (17) fit whatever they are, as no glyph of the face is wider than WIDEST_GLYPH_EM.
"""

from __future__ import annotations

from functools import lru_cache

NAME_FONT_FILE = "VeraBd.ttf"  # the card's Font.BOLD
NAME_LARGEST_PT = 13.0
NAME_SMALLEST_PT = 8.0
# The band's width left of the widest value note ("Value 100.0": catalogue values stop at 100, the model's
# at about 65); tests/cards checks the face leaves at least this much.
NAME_ROOM_PT = 200.0
WIDEST_GLYPH_EM = 1.44  # the widest advance in VeraBd.ttf is 1.43994 em (tests/pieces checks it)


@lru_cache(maxsize=1)
def _advances() -> tuple[dict[int, float], float]:
    """Vera Bold's advance widths per code point (in 1/1000 em) and the width of a glyph it lacks."""
    from reportlab.pdfbase.ttfonts import TTFontFace

    face = TTFontFace(NAME_FONT_FILE)
    return dict(face.charWidths), float(face.defaultWidth)


def name_width_pt(name: str, size_pt: float) -> float:
    """The width of `name` in the card's bold face at `size_pt`, as the card measures it."""
    widths, missing = _advances()
    return sum(widths.get(ord(character), missing) for character in name) * size_pt / 1000


def name_fits_card(name: str) -> bool:
    """Whether the name fits its card's name band at the smallest size the band allows."""
    if len(name) * WIDEST_GLYPH_EM * NAME_SMALLEST_PT <= NAME_ROOM_PT:
        return True  # no glyph is wider: it fits without reading the font
    return name_width_pt(name, NAME_SMALLEST_PT) <= NAME_ROOM_PT


def name_refusal(name: str) -> str | None:
    """Why the name cannot go on a card (one line naming the limit), or None when it fits."""
    if name_fits_card(name):
        return None
    width = name_width_pt(name, NAME_SMALLEST_PT)
    fitting = next(n for n in range(len(name), -1, -1) if name_width_pt(name[:n], NAME_SMALLEST_PT) <= NAME_ROOM_PT)
    return (f"{name[:60]!r} is {width:.0f} pt wide in bold at {NAME_SMALLEST_PT:g} pt, and the card's name band "
            f"holds {NAME_ROOM_PT:.0f} pt (here the first {fitting} characters): shorten it")
