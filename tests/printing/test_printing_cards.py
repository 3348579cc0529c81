"""The printed deck read back: page sizes, safe zones, names, text sizes, fonts, duplex placement."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from dealers_chess.cards.back import card_back
from dealers_chess.cards.face import card_face
from dealers_chess.cards.primitives import walk_texts
from dealers_chess.engine.measure.values import piece_value, value_margin
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.printing.cards.deck import CardKind, build_deck, face_info, select_pieces
from dealers_chess.printing.cards.jobs import DeckRequest, Format, PictureMode, print_backs, print_cards, write_drawing
from dealers_chess.printing.cards.pdfs import BackLayout, BackOptions
from dealers_chess.printing.cards.sheets import MM_PT, Duplex, load_profile

CATALOGUE = load_catalogue()
STARTER = DeckRequest(pictures=PictureMode.SILHOUETTE)
CELL_W, CELL_H, SAFE = 306.0, 198.0, 18.0


@pytest.fixture(scope="module")
def starter_pdf(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("deck")
    path, pages = print_cards(CATALOGUE, STARTER, out)
    assert pages == 10
    return path


@pytest.fixture(scope="module")
def starter_words(starter_pdf):
    with pdfplumber.open(starter_pdf) as pdf:
        sizes = [(page.width, page.height) for page in pdf.pages]
        words = [
            page.extract_words(extra_attrs=["fontname", "size"], keep_blank_chars=False) for page in pdf.pages
        ]
        chars = [list(page.chars) for page in pdf.pages]
    return sizes, words, chars


def _cell(word) -> tuple[int, int]:
    return int(word["x0"] // CELL_W), int(word["top"] // CELL_H)


def test_every_page_is_letter(starter_words) -> None:
    sizes, _, _ = starter_words
    assert sizes == [(612, 792)] * 10


def test_all_text_inside_its_cell_and_18pt_from_the_edges(starter_words) -> None:
    _, pages, _ = starter_words
    for words in pages:
        for word in words:
            column, row = _cell(word)
            left, top = column * CELL_W, row * CELL_H
            assert word["x0"] - left >= SAFE - 0.01, word
            assert left + CELL_W - word["x1"] >= SAFE - 0.01, word
            assert word["top"] - top >= SAFE - 0.01, word
            assert top + CELL_H - word["bottom"] >= SAFE - 0.01, word


def _band_titles(pages) -> Counter:
    titles: Counter = Counter()
    for words in pages:
        cells: dict[tuple[int, int], list[str]] = {}
        for word in words:
            if "Bold" in word["fontname"] and word["size"] > 8.5 and word["top"] % CELL_H < 40:
                cells.setdefault(_cell(word), []).append(word["text"])
        titles.update(" ".join(texts) for texts in cells.values())
    return titles


def test_every_starter_piece_named_exactly_once(starter_words) -> None:
    titles = _band_titles(starter_words[1])
    for piece in CATALOGUE.select(sets=["starter"]):
        assert titles[piece.name] == 1, piece.name
    assert titles["Reading the diagrams"] == 2
    assert sum(titles.values()) == 71 + 2


def test_no_text_under_6pt_and_rules_text_at_least_8pt(starter_words) -> None:
    _, _, pages = starter_words
    rules_chars = 0
    for chars in pages:
        assert min(c["size"] for c in chars) >= 6 - 0.01
        legend_cells = {
            (int(c["x0"] // CELL_W), int(c["top"] // CELL_H)) for c in chars
            if c["text"] == "R" and "Bold" in c["fontname"] and c["size"] > 8.5 and c["top"] % CELL_H < 40
        }
        for c in chars:
            x, y = c["x0"] % CELL_W, c["top"] % CELL_H
            cell = (int(c["x0"] // CELL_W), int(c["top"] // CELL_H))
            in_rules_box = x >= 146 and 42 <= y and c["bottom"] % CELL_H <= 162
            if in_rules_box and cell not in legend_cells:
                rules_chars += 1
                assert c["size"] >= 8 - 0.01, c
    assert rules_chars > 5000


def _fonts(resources, found: list) -> None:
    resources = resources.get_object() if resources is not None else {}
    for font in (resources.get("/Font") or {}).values():
        found.append(font.get_object())
    for xobject in (resources.get("/XObject") or {}).values():
        xobject = xobject.get_object()
        if xobject.get("/Subtype") == "/Form":
            _fonts(xobject.get("/Resources"), found)


def test_every_font_embedded_no_helvetica_and_print_preferences(starter_pdf) -> None:
    reader = PdfReader(starter_pdf)
    fonts: list = []
    for page in reader.pages:
        _fonts(page.get("/Resources"), fonts)
    assert fonts
    for font in fonts:
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        descriptor = descendant["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor, font.get("/BaseFont")
    assert b"Helvetica" not in starter_pdf.read_bytes()
    assert reader.pdf_header == "%PDF-1.7"
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


def test_pod_pages_have_bleed_trim_and_bleed_boxes(tmp_path) -> None:
    request = DeckRequest(piece_ids=("knight", "rook"), profile="pod", pictures=PictureMode.SILHOUETTE)
    path, pages = print_cards(CATALOGUE, request, tmp_path)
    reader = PdfReader(path)
    assert pages == 2 and len(reader.pages) == 2
    page = reader.pages[0]
    assert [float(v) for v in page.mediabox] == [0, 0, 324, 216]
    assert [float(v) for v in page.trimbox] == [9, 9, 315, 207]
    assert [float(v) for v in page.bleedbox] == [0, 0, 324, 216]


def _medallions(path: Path) -> list[list[tuple[float, float]]]:
    """Centre of every back's medallion title, page by page (pdfplumber: top-left origin)."""
    with pdfplumber.open(path) as pdf:
        result = []
        for page in pdf.pages:
            words = [w for w in page.extract_words() if w["text"] == "CHESS"]
            result.append([(w["x0"], page.height - w["bottom"]) for w in words])
    return result


@pytest.mark.parametrize("duplex", [Duplex.LONG, Duplex.SHORT])
@pytest.mark.parametrize("offset_mm", [(0.0, 0.0), (2.0, -1.5)])
def test_backs_are_mirrored_for_the_flip_with_the_offset(tmp_path, duplex, offset_mm) -> None:
    profile_file = tmp_path / "one-column.toml"  # asymmetric, so a wrong mirror cannot pass
    profile_file.write_text(
        'page_width_pt = 612\npage_height_pt = 792\ncolumns = 1\nrows = 2\ncard_width_pt = 306\n'
        'card_height_pt = 198\nleft_pt = 36\ntop_pt = 30\ngap_x_pt = 0\ngap_y_pt = 20\nbleed_pt = 0\n'
        'crop_marks = false\ntrim_box = false\n'
    )
    alone = write_drawing(card_back("piece"), Format.PDF, tmp_path / "alone.pdf")
    ((ox, oy),) = _medallions(alone)[0]  # where the title sits inside one back
    request = DeckRequest(piece_ids=("knight",), profile=str(profile_file), legend=False)
    path, _ = print_backs(CATALOGUE, request, BackOptions(duplex, BackLayout.PAGES, offset_mm), tmp_path)
    fronts = [(36.0, 792 - 30 - 198), (36.0, 792 - 30 - 198 - 20 - 198)]  # bottom-left of each front card
    dx, dy = offset_mm[0] * MM_PT, offset_mm[1] * MM_PT
    if duplex is Duplex.LONG:  # portrait page, long edge: x mirrored
        expected = [(612 - x - 306 + ox + dx, y + oy + dy) for x, y in fronts]
    else:  # short edge: y mirrored
        expected = [(x + ox + dx, 792 - y - 198 + oy + dy) for x, y in fronts]
    found = _medallions(path)[0]
    flat = lambda points: [v for point in sorted(points) for v in point]  # noqa: E731
    assert flat(found) == pytest.approx(flat(expected), abs=0.05)
    reader = PdfReader(path)  # fed once, one-sided, onto printed fronts: no two-sided request
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/Simplex"


def test_back_slot_geometry() -> None:
    letter = load_profile("letter-2x4-perforated")
    assert letter.slot(0) == (0, 594) and letter.slot(7) == (306, 0)
    assert letter.back_slot(0, Duplex.LONG) == (306, 594)
    assert letter.back_slot(0, Duplex.SHORT) == (0, 0)
    assert letter.back_slot(3, Duplex.LONG, (1.0, 2.0)) == pytest.approx((0 + MM_PT, 396 + 2 * MM_PT))
    cut = load_profile("letter-cut")  # a landscape page: the long edge is horizontal
    x, y = cut.slot(0)
    assert cut.back_slot(0, Duplex.LONG) == (x, 612 - y - 198)
    assert cut.back_slot(0, Duplex.SHORT) == (792 - x - 306, y)


def test_crop_marks_stay_outside_every_card(tmp_path) -> None:
    request = DeckRequest(piece_ids=("knight", "queen"), profile="letter-cut", pictures=PictureMode.SILHOUETTE)
    path, _ = print_cards(CATALOGUE, request, tmp_path)
    profile = load_profile("letter-cut")
    trims = [(x, 612 - y - 198, x + 306, 612 - y) for x, y in (profile.slot(i) for i in range(4))]
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        assert (page.width, page.height) == (792, 612)
        marks = [line for line in page.lines if line["linewidth"] == pytest.approx(0.4)]
    assert len(marks) == 4 * 8
    for mark in marks:
        for x0, top, x1, bottom in trims:
            inside_x = mark["x0"] < x1 - 0.01 and mark["x1"] > x0 + 0.01
            inside_y = mark["top"] < bottom - 0.01 and mark["bottom"] > top + 0.01
            assert not (inside_x and inside_y), mark


def test_starter_deck_is_whole_sheets_with_padding() -> None:
    cards = build_deck(CATALOGUE, select_pieces(CATALOGUE), 8)
    kinds = Counter((card.kind, card.group) for card in cards)
    assert kinds[(CardKind.FACE, "royal")] == 7 and kinds[(CardKind.FACE, "piece")] == 40
    assert kinds[(CardKind.FACE, "pawn")] == 24 and kinds[(CardKind.LEGEND, "neutral")] == 2
    assert len(cards) == 80
    assert [card.group for card in cards[7:8]] == ["royal"]  # the royal sheet's eighth card
    # the legend sheet is filled with write-in cards of every group, fewest first, then the larger group
    assert [(card.kind, card.group) for card in cards[72:]] == [
        (CardKind.LEGEND, "neutral"), (CardKind.LEGEND, "neutral"), (CardKind.BLANK, "royal"),
        *[(CardKind.BLANK, "piece")] * 3, *[(CardKind.BLANK, "pawn")] * 2,
    ]
    assert kinds[(CardKind.BLANK, "neutral")] == 0


@pytest.mark.parametrize("per_sheet", [1, 4, 8])
@pytest.mark.parametrize("blanks", [0, 1, 5, 9])
def test_blanks_give_every_group_its_own_write_in_cards_on_whole_sheets(per_sheet, blanks) -> None:
    cards = build_deck(CATALOGUE, select_pieces(CATALOGUE), per_sheet, legend=False, blanks=blanks)
    for group in ("royal", "piece", "pawn"):
        mine = [card for card in cards if card.group == group]
        written = sum(card.kind is CardKind.BLANK for card in mine)
        assert written >= blanks and (per_sheet == 1 or len(mine) % per_sheet == 0), (group, written)
        assert written < blanks + per_sheet or per_sheet == 1
    groups = [card.group for card in cards]
    assert groups == sorted(groups, key=["royal", "piece", "pawn"].index)  # each group on sheets of its own


def test_every_catalogue_face_fits_its_safe_area() -> None:
    for piece in CATALOGUE:
        face = card_face(face_info(CATALOGUE, piece))
        for text, x, y, size in walk_texts(face.items):
            assert size >= 6, (piece.id, text.text)
            assert SAFE <= y - 0.25 * size and y + size <= CELL_H - SAFE, (piece.id, text.text)
            assert SAFE <= x <= CELL_W - SAFE, (piece.id, text.text)


def test_face_shows_place_in_set_and_value() -> None:
    info = face_info(CATALOGUE, CATALOGUE.get("knight"))
    assert (info.set_name, info.number, info.total) == ("Starter", 22, 40)
    knight = CATALOGUE.get("knight")  # the value shown: measured (with its margin) where the table is precise
    assert (info.value, info.margin) == (piece_value(knight), value_margin(knight))
    guardian = face_info(CATALOGUE, CATALOGUE.get("guardian"))
    assert guardian.margin is None or guardian.margin <= 0.75


@pytest.mark.parametrize("duplex", [Duplex.LONG, Duplex.SHORT])
def test_calibration_back_lines_sit_behind_the_front_lines_shifted_half_a_mm_each(tmp_path, duplex) -> None:
    from dealers_chess.printing.cards.calibrate import FINE_STEPS, LINE_MM, PITCH_MM, STEP_MM, write_calibration

    path = write_calibration(load_profile("letter-2x4-perforated"), duplex, (0.0, 0.0), tmp_path / "c.pdf")
    with pdfplumber.open(path) as pdf:
        front, back = ([ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01
                        and abs(ln["bottom"] - ln["top"] - LINE_MM * MM_PT) < 0.01] for page in pdf.pages)
    xs = sorted(ln["x0"] for ln in front)
    assert len(xs) == len(FINE_STEPS) and xs[1] - xs[0] == pytest.approx(PITCH_MM * MM_PT, abs=0.01)
    expected = [
        (612 - x if duplex is Duplex.LONG else x) + i * STEP_MM * MM_PT for x, i in zip(xs, FINE_STEPS, strict=True)
    ]
    assert sorted(ln["x0"] for ln in back) == pytest.approx(sorted(expected), abs=0.01)


def test_interleaved_file_alternates_fronts_and_mirrored_backs(tmp_path) -> None:
    request = DeckRequest(piece_ids=("knight",), legend=False, pictures=PictureMode.SILHOUETTE)
    path, pages = print_backs(CATALOGUE, request, BackOptions(Duplex.SHORT, BackLayout.INTERLEAVED), tmp_path)
    assert pages == 2 and path.name == "knight-cards-duplex.pdf"
    with pdfplumber.open(path) as pdf:
        front, back = (page.extract_text() for page in pdf.pages)
    assert "Knight" in front and "PIECE" in back and "Knight" not in back
    assert PdfReader(path).trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"


def _extents(items, dx=0.0, dy=0.0, s=1.0):
    """Every drawn point of a drawing (shapes, pictures and text baselines), in card points."""
    from dealers_chess.cards.primitives import Circle, Group, Picture, Poly, Rect, Text

    for item in items:
        if isinstance(item, Group):
            yield from _extents(item.items, dx + item.dx * s, dy + item.dy * s, s * item.scale)
        elif isinstance(item, Rect):
            yield from ((dx + x * s, dy + y * s)
                        for x, y in ((item.x, item.y), (item.x + item.width, item.y + item.height)))
        elif isinstance(item, Circle):
            yield from ((dx + (item.cx + k) * s, dy + (item.cy + k) * s) for k in (-item.r, item.r))
        elif isinstance(item, Poly):
            yield from ((dx + x * s, dy + y * s) for x, y in item.points)
        elif isinstance(item, Picture):
            yield from ((dx + x * s, dy + y * s)
                        for x, y in ((item.x, item.y), (item.x + item.width, item.y + item.height)))
        elif isinstance(item, Text):
            yield (dx + item.x * s, dy + item.y * s)


def test_all_art_of_every_face_stays_a_quarter_inch_inside() -> None:
    from dealers_chess.cards.face import blank_face
    from dealers_chess.cards.legend import legend_card

    drawings = [card_face(face_info(CATALOGUE, p)) for p in CATALOGUE] + [legend_card(), blank_face("pawn")]
    for drawing in drawings:
        for x, y in _extents(drawing.items):
            assert SAFE - 0.01 <= x <= CELL_W - SAFE + 0.01 and SAFE - 0.01 <= y <= CELL_H - SAFE + 0.01, (x, y)
