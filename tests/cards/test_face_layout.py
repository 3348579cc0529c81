"""Card faces as drawings: the picture earns its space, the rules text keeps one column, the footer
reads on an inkjet and the rule badge stays clear of the words, for every catalogue piece."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealers_chess.cards.face import (
    BODY_TOP_PT,
    CARD_H_PT,
    CARD_W_PT,
    GREY,
    LEFT,
    PICTURE_HEIGHTS_PT,
    RIGHT,
    SAFE_PT,
    SMALL_PT,
    TEXT_X_PT,
    FaceInfo,
    blank_face,
    card_face,
)
from dealers_chess.cards.primitives import Circle, Font, Group, Picture, Text, walk_texts
from dealers_chess.cards.text import LayoutError, balanced_wrap, text_width_pt, wrap
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.printing.cards.deck import face_info

CATALOGUE = load_catalogue()
RENDER_ASPECTS = (0.51, 0.567)  # width / height of the 3D renders of pieces and pawns today
ONE_INCH_PT = 72.0


def _face(piece, aspect):
    return card_face(face_info(CATALOGUE, piece), aspect)


def _picture(drawing) -> Picture | None:
    pictures = [item for item in drawing.items if isinstance(item, Picture)]
    assert len(pictures) <= 1
    return pictures[0] if pictures else None


def _rules_lines(drawing) -> list[Text]:
    return [item for item in drawing.items
            if isinstance(item, Text) and item.font is Font.REGULAR and item.x == TEXT_X_PT and item.size_pt >= 8]


@pytest.mark.parametrize("aspect", [*RENDER_ASPECTS, None])
def test_every_catalogue_piece_has_a_picture_at_least_one_inch_tall_beside_a_fixed_column(aspect) -> None:
    for piece in CATALOGUE:
        face = _face(piece, aspect)
        picture = _picture(face)
        assert picture is not None, piece.id
        assert max(picture.width, picture.height) >= ONE_INCH_PT, piece.id
        assert picture.x + picture.width == pytest.approx(RIGHT)
        assert picture.y + picture.height == pytest.approx(BODY_TOP_PT)
        lines = _rules_lines(face)
        assert lines and len({line.size_pt for line in lines}) == 1, piece.id
        for line in lines:  # every line starts at the column and ends before the picture
            right = line.x + text_width_pt(line.text, line.font, line.size_pt)
            assert right <= picture.x - 5.9, (piece.id, line.text)


@settings(max_examples=12, deadline=None)
@given(st.floats(min_value=0.25, max_value=0.62))
def test_any_render_from_slim_to_stout_keeps_a_one_inch_picture(aspect) -> None:
    """The 3D pieces change shape; any render up to 0.62 wide per tall still gets 1 in on every card."""
    for piece in CATALOGUE:
        picture = _picture(_face(piece, aspect))
        assert picture is not None and picture.height >= ONE_INCH_PT - 1e-9, (piece.id, aspect)
        assert picture.width == pytest.approx(aspect * picture.height)


def test_a_render_too_wide_for_the_card_goes_and_the_text_takes_the_width() -> None:
    piece = CATALOGUE.get("left-end-pawn")  # the longest rules text
    face = _face(piece, 1.3)
    assert _picture(face) is None
    widest = max(line.x + text_width_pt(line.text, line.font, line.size_pt) for line in _rules_lines(face))
    assert widest > RIGHT - 40  # the column now runs to the right edge


def test_the_picture_prefers_its_largest_size_and_the_text_its_largest() -> None:
    heights = [_picture(_face(piece, 0.51)).height for piece in CATALOGUE]
    assert heights.count(PICTURE_HEIGHTS_PT[0]) >= 0.9 * len(heights)
    sizes = [_rules_lines(_face(piece, 0.51))[0].size_pt for piece in CATALOGUE]
    assert sizes.count(9.5) >= 0.9 * len(sizes)


def test_footer_text_at_least_7pt_and_at_least_60_percent_black() -> None:
    for piece in CATALOGUE:
        face = _face(piece, 0.51)
        footer = [(text, y, size) for text, _, y, size in walk_texts(face.items) if y < 30]
        assert len(footer) == 2, piece.id  # XBetza left; set, number and code right
        for text, _y, size in footer:
            assert size >= SMALL_PT >= 7.0 and max(text.color) <= 0.4, (piece.id, text.text)
    assert max(GREY) <= 0.4


def _badges(items, dx=0.0, dy=0.0):
    """Centre and radius of every rule badge (a black disc) in a drawing."""
    for item in items:
        if isinstance(item, Group):
            yield from _badges(item.items, dx + item.dx, dy + item.dy)
        elif isinstance(item, Circle) and item.style.fill is not None and max(item.style.fill) < 0.1 and item.r >= 4:
            yield (dx + item.cx, dy + item.cy, item.r)


def test_the_rule_badges_keep_3pt_clear_of_every_word() -> None:
    checked = 0
    for piece in CATALOGUE:
        face = _face(piece, 0.567)
        boxes = [
            (x, y - 0.24 * size, x + text_width_pt(t.text, t.font, size), y + 0.76 * size)
            for t, x, y, size in walk_texts(face.items)
        ]
        for cx, cy, r in _badges(face.items):
            checked += 1
            for x0, y0, x1, y1 in boxes:
                gap_x = max(x0 - (cx + r), (cx - r) - x1, 0.0)
                gap_y = max(y0 - (cy + r), (cy - r) - y1, 0.0)
                assert max(gap_x, gap_y) >= 3.0, (piece.id, (cx, cy, r), (x0, y0, x1, y1))
    assert checked >= 2 * sum(1 for piece in CATALOGUE if piece.rules)


def test_no_line_of_rules_text_ends_far_short_while_the_next_word_would_have_fitted_better() -> None:
    """Balanced breaks: never worse than the greedy wrap, and no line but the last under 45 % of the column."""
    for piece in CATALOGUE:
        _check_balanced_breaks(piece)


def _check_balanced_breaks(piece) -> None:
    lines = _rules_lines(_face(piece, 0.51))
    size = lines[0].size_pt
    column = _picture(_face(piece, 0.51)).x - 6 - TEXT_X_PT
    balanced = balanced_wrap(piece.text, Font.REGULAR, size, lambda i: column)
    greedy = wrap(piece.text, Font.REGULAR, size, lambda i: column)
    assert [line.text for line in lines] == balanced and len(balanced) == len(greedy)
    def cost(texts: list[str]) -> float:  # squared slack of every line but the last; a last line under a third
        widths = [text_width_pt(t, Font.REGULAR, size) for t in texts]
        return sum((column - w) ** 2 for w in widths[:-1]) + 4 * max(0.0, column / 3 - widths[-1]) ** 2

    assert cost(balanced) <= cost(greedy) + 1e-6
    for text in balanced[:-1]:
        assert text_width_pt(text, Font.REGULAR, size) >= 0.45 * column, (piece.id, text)


def test_blank_faces_and_faces_stay_inside_the_card() -> None:
    for drawing in [blank_face(group) for group in ("royal", "piece", "pawn", "spear", "neutral")]:
        for _text, x, y, size in walk_texts(drawing.items):
            assert SAFE_PT <= y - 0.25 * size and y + size <= CARD_H_PT - SAFE_PT
            assert SAFE_PT <= x <= CARD_W_PT - SAFE_PT


def test_a_user_piece_with_too_much_text_is_refused_naming_it() -> None:
    piece = CATALOGUE.get("knight")
    from dataclasses import replace

    chatty = replace(piece, text="Moves one square in any direction. " * 20)
    with pytest.raises(LayoutError, match="piece 'knight'"):
        card_face(FaceInfo(chatty, 3.0, "Starter", 1, 1))



def test_the_band_says_whether_a_value_is_measured_or_the_model_s() -> None:
    knight = CATALOGUE.get("knight")
    assert FaceInfo(knight, 3.0, "Starter", 1, 1).value_text == "\u2248 3.0"
    assert FaceInfo(knight, 3.14, "Starter", 1, 1, margin=0.42).value_text == "3.1 \u00b1 0.4"


def test_every_name_the_catalogue_accepts_fits_the_name_band_beside_the_widest_value() -> None:
    from dataclasses import replace

    from dealers_chess.pieces.card_name import NAME_ROOM_PT, NAME_SMALLEST_PT, name_fits_card, name_width_pt

    widest_value = 100.0  # the catalogue's largest fixed value; the model's stays under 70
    widest_texts = (FaceInfo(CATALOGUE.get("knight"), widest_value, "Starter", 1, 1).value_text,  # the model's
                    FaceInfo(CATALOGUE.get("knight"), 99.9, "Starter", 1, 1, margin=9.9).value_text)  # measured
    right = max(text_width_pt(text, Font.REGULAR, 8.0) for text in widest_texts)
    assert RIGHT - LEFT - 12 - right - 8 >= NAME_ROOM_PT  # the band's room is at least the catalogue's limit
    for name in ("Grand Imperial Chancellor of the", "MMMMMMMMMMMMMMMMMMMMMMM", "Wazir" * 8):
        assert name_width_pt(name, 8.0) == pytest.approx(text_width_pt(name, Font.BOLD, 8.0))  # the same metrics
        if name_fits_card(name):
            card_face(FaceInfo(replace(CATALOGUE.get("knight"), name=name), widest_value, "Starter", 1, 1))
            card_face(FaceInfo(replace(CATALOGUE.get("knight"), name=name), 99.9, "Starter", 1, 1, margin=9.9))
        else:
            assert name_width_pt(name, NAME_SMALLEST_PT) > NAME_ROOM_PT
