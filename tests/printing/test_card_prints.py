"""What a user meets at the printer and the print shop, read back from the files: the pictures on the
printed fronts, the print flags, trim boxes, font subset tags, write-in cards behind their own backs
and the ink of the light backs."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pdfplumber
import pytest
from PIL import Image
from pypdf import PdfReader

from dealers_chess.cards.back import BackStyle, card_back
from dealers_chess.cards.face import blank_face
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.printing.cards.jobs import (
    DeckRequest,
    Format,
    PictureMode,
    deck_cards,
    print_backs,
    print_calibration,
    print_cards,
    print_diagram,
)
from dealers_chess.printing.cards.pdfs import BackLayout, BackOptions, pages_of, sheet_backs, write_fronts
from dealers_chess.printing.cards.png import png_bytes, rgb_png
from dealers_chess.printing.cards.sheets import Duplex
from dealers_chess.printing.pictures import rendered_pictures, renderer_available

CATALOGUE = load_catalogue()
CELL_W, CELL_H = 306.0, 198.0
ONE_INCH_PT = 72.0


def _fronts(out: Path, pictures) -> Path:
    cards, profile = deck_cards(CATALOGUE, DeckRequest())
    return write_fronts(cards, profile, out / "starter-cards.pdf", "starter", pictures)


@pytest.fixture(scope="module")
def group_rendered_fronts(tmp_path_factory) -> Path:
    """The starter fronts, every piece showing the real render of one piece of its group (3 renders, fast)."""
    if not renderer_available():
        pytest.skip("the 3D renderer is not available")
    out = tmp_path_factory.mktemp("group-rendered")
    renders = rendered_pictures(CATALOGUE, out)
    stand_in = {"royal": "king", "piece": "knight", "pawn": "berolina-pawn"}
    return _fronts(out, lambda piece_id: renders(stand_in[CATALOGUE.get(piece_id).group.value]))


@pytest.fixture(scope="module")
def rendered_fronts(tmp_path_factory) -> Path:
    """The starter fronts with each piece's own 3D render, as `dealer cards` prints them."""
    if not renderer_available():
        pytest.skip("the 3D renderer is not available")
    out = tmp_path_factory.mktemp("rendered")
    return print_cards(CATALOGUE, DeckRequest(), out)[0]


def _check_every_piece_card_picture(path: Path) -> None:
    """Read back every front page: each piece card's picture at least 1 in tall or wide, top right."""
    cards, profile = deck_cards(CATALOGUE, DeckRequest())
    with pdfplumber.open(path) as pdf:
        assert sum(len(page.images) for page in pdf.pages) == 71
        for page, deck_page in zip(pdf.pages, pages_of(cards, profile), strict=True):
            pictures = {(int(i["x0"] // CELL_W), int(i["top"] // CELL_H)): i for i in page.images}
            words = page.extract_words()  # once a page, not once a card
            for index, card in enumerate(deck_page):
                slot = (index % 2, index // 2)
                if card.info is None:
                    assert slot not in pictures  # write-in and legend cards carry no picture
                    continue
                image = pictures[slot]
                size = max(image["x1"] - image["x0"], image["bottom"] - image["top"])
                assert size >= ONE_INCH_PT - 0.01, (card.info.piece.id, size)
                assert image["x1"] == pytest.approx((slot[0] + 1) * CELL_W - 18, abs=0.6), card.info.piece.id
                assert image["top"] >= slot[1] * CELL_H + 18 + 20, card.info.piece.id
                for word in words:  # no word on the picture
                    apart = (word["x1"] <= image["x0"] + 0.01 or word["x0"] >= image["x1"] - 0.01
                             or word["bottom"] <= image["top"] + 0.01 or word["top"] >= image["bottom"] - 0.01)
                    assert apart, (card.info.piece.id, word["text"])


def test_every_piece_card_shows_a_render_at_least_one_inch_tall_or_wide(group_rendered_fronts) -> None:
    _check_every_piece_card_picture(group_rendered_fronts)


@pytest.mark.slow
def test_every_piece_card_shows_its_own_render_at_least_one_inch_tall_or_wide(rendered_fronts) -> None:
    _check_every_piece_card_picture(rendered_fronts)


def _viewer(path: Path) -> dict:
    return PdfReader(path).trailer["/Root"]["/ViewerPreferences"]


def test_print_flags_one_sided_for_files_fed_once_two_sided_for_the_rest(tmp_path) -> None:
    request = DeckRequest(piece_ids=("knight", "rook"), pictures=PictureMode.SILHOUETTE)
    fronts = print_cards(CATALOGUE, request, tmp_path)[0]
    assert _viewer(fronts)["/Duplex"] == "/Simplex"
    for layout in (BackLayout.SHEET, BackLayout.PAGES):
        for duplex in Duplex:
            backs = print_backs(CATALOGUE, request, BackOptions(duplex, layout), tmp_path / duplex.value)[0]
            assert _viewer(backs)["/Duplex"] == "/Simplex", (layout, duplex)
            assert _viewer(backs)["/PrintScaling"] == "/None"
    for duplex, flip in ((Duplex.LONG, "/DuplexFlipLongEdge"), (Duplex.SHORT, "/DuplexFlipShortEdge")):
        both = print_backs(CATALOGUE, request, BackOptions(duplex, BackLayout.INTERLEAVED),
                           tmp_path / "i" / duplex.value)[0]
        assert _viewer(both)["/Duplex"] == flip
        calibration = print_calibration("letter-cut", duplex, (0.0, 0.0), tmp_path / "c" / duplex.value)
        assert _viewer(calibration)["/Duplex"] == flip


def test_one_card_with_bleed_has_its_trim_box_9pt_inside_the_page(tmp_path) -> None:
    path = print_diagram(CATALOGUE, "knight", Format.PDF, tmp_path, whole_card=True,
                         pictures=PictureMode.SILHOUETTE, bleed=True)
    page = PdfReader(path).pages[0]
    assert [float(v) for v in page.mediabox] == [0, 0, 324, 216]
    assert [float(v) for v in page.trimbox] == [9, 9, 315, 207]
    assert [float(v) for v in page.bleedbox] == [0, 0, 324, 216]
    plain = print_diagram(CATALOGUE, "knight", Format.PDF, tmp_path / "plain", whole_card=True,
                          pictures=PictureMode.SILHOUETTE)
    page = PdfReader(plain).pages[0]
    assert [float(v) for v in page.trimbox] == [float(v) for v in page.mediabox] == [0, 0, 306, 198]


def _subset_names(path: Path) -> set[str]:
    return set(re.findall(r"/(?:BaseFont|FontName) /([A-Z]{6}\+[A-Za-z0-9-]+)", path.read_bytes().decode("latin-1")))


def test_each_file_tags_its_font_subsets_with_its_own_six_letters(tmp_path) -> None:
    request = DeckRequest(piece_ids=("knight",), legend=False, pictures=PictureMode.SILHOUETTE)
    paths = [
        print_cards(CATALOGUE, request, tmp_path)[0],
        print_backs(CATALOGUE, request, BackOptions(), tmp_path)[0],
        print_backs(CATALOGUE, request, BackOptions(layout=BackLayout.PAGES), tmp_path)[0],  # same fonts as the last
        print_calibration("letter-2x4-perforated", Duplex.LONG, (0.0, 0.0), tmp_path),
        print_diagram(CATALOGUE, "rook", Format.PDF, tmp_path, whole_card=True, pictures=PictureMode.SILHOUETTE),
    ]
    seen: dict[str, Path] = {}
    for path in paths:
        names = _subset_names(path)
        assert names and not any(name.startswith("AAAAAA+") for name in names), path.name
        for name in names:
            assert seen.setdefault(name, path) == path, (name, path.name, seen[name].name)
        assert PdfReader(path).pages[0].extract_text() is not None  # still a valid PDF
    again = print_cards(CATALOGUE, request, tmp_path / "again")[0]
    assert again.read_bytes() == paths[0].read_bytes()  # the same input still gives the same bytes


def _back_labels(page) -> list[tuple[float, float, str]]:
    """Centre (bottom-left origin) and group label of every back's medallion on a page."""
    found = []
    for word in page.extract_words():
        if word["text"] in ("ROYAL", "PIECE", "PAWN", "REFERENCE"):
            found.append(((word["x0"] + word["x1"]) / 2, page.height - word["bottom"], word["text"]))
    return found


@pytest.mark.parametrize("duplex", list(Duplex))
def test_the_legend_sheet_back_page_puts_each_write_in_card_behind_its_own_groups_back(tmp_path, duplex) -> None:
    request = DeckRequest(pictures=PictureMode.SILHOUETTE)
    cards, profile = deck_cards(CATALOGUE, request)
    path = print_backs(CATALOGUE, request, BackOptions(duplex), tmp_path)[0]
    labels = {"royal": "ROYAL", "piece": "PIECE", "pawn": "PAWN", "neutral": "REFERENCE"}
    backs = sheet_backs(cards, profile)
    assert [len(fronts) for _, fronts in backs] == [1, 5, 3, 1]  # royals, pieces, pawns, legend sheet
    groups, (front,) = backs[-1]
    legend_sheet = pages_of(cards, profile)[front]
    assert (Counter(card.group for card in legend_sheet if card.info is None)
            == {"neutral": 2, "royal": 1, "piece": 3, "pawn": 2})
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 4
        found = _back_labels(pdf.pages[-1])  # the one page with backs of different groups
    assert len(found) == profile.per_page
    for index, card in enumerate(legend_sheet):
        x, y = profile.back_slot(index, duplex)
        (label,) = [text for cx, cy, text in found if x < cx < x + CELL_W and y < cy < y + CELL_H]
        assert label == labels[card.group], (index, card)


def _ink(drawing) -> float:
    """Naive C+M+Y coverage in % of a drawing rendered at 36 dpi."""
    pixels = np.asarray(Image.open(io.BytesIO(png_bytes(drawing, 36))).convert("RGB"), dtype=float) / 255
    return float((3 - pixels.sum(axis=2)).mean() * 100)


def test_light_backs_take_a_fraction_of_the_ink() -> None:
    for group in ("royal", "piece", "pawn", "neutral"):
        full, light = _ink(card_back(group)), _ink(card_back(group, style=BackStyle.LIGHT))
        assert full > 150 and light < 25 and light < full / 6, (group, full, light)
    assert _ink(blank_face("piece")) < 40


def test_light_backs_have_their_own_file_name_and_ask_for_the_same_printing(tmp_path) -> None:
    request = DeckRequest(piece_ids=("knight",), legend=False, pictures=PictureMode.SILHOUETTE)
    light = print_backs(CATALOGUE, request, BackOptions(style=BackStyle.LIGHT), tmp_path)[0]
    both = print_backs(CATALOGUE, request, BackOptions(layout=BackLayout.INTERLEAVED, style=BackStyle.LIGHT),
                       tmp_path)[0]
    assert (light.name, both.name) == ("knight-backs-light.pdf", "knight-cards-duplex-light.pdf")
    assert _viewer(light)["/Duplex"] == "/Simplex" and _viewer(both)["/Duplex"] == "/DuplexFlipLongEdge"


def test_card_pngs_read_back_as_the_pixels_drawn_at_their_dpi() -> None:
    drawn = Image.new("RGB", (67, 41), (250, 248, 240))
    drawn.paste((12, 200, 99), (5, 7, 60, 30))
    drawn.putpixel((0, 40), (0, 0, 0))  # an Up filter from 250 down to 0 wraps below zero
    with Image.open(io.BytesIO(rgb_png(drawn, 300))) as read:
        read.load()
        assert read.mode == "RGB" and read.size == (67, 41) and read.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        assert (np.asarray(read) == np.asarray(drawn)).all()
    with Image.open(io.BytesIO(png_bytes(card_back("pawn"), 72))) as card:
        assert card.size == (306, 198) and card.info["dpi"] == pytest.approx((72, 72), abs=0.01)
