"""The calibration sheet read back from its PDF, as a user reads it against a light.

A simulated printer shifts the whole back page by (X, Y) mm on the back page's own axes; the back is
then seen from the front through the paper (a long-edge flip of a portrait page turns x round, a
short-edge flip turns y round; a landscape page the other way). The reading must be unique, its two
numbers must match, and the offset it names must put every card back behind its front.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pytest

from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.printing.cards.calibrate import write_calibration
from dealers_chess.printing.cards.jobs import DeckRequest, PictureMode, print_backs, print_calibration
from dealers_chess.printing.cards.pdfs import BackLayout, BackOptions
from dealers_chess.printing.cards.sheets import MM_PT, Duplex, load_profile

CATALOGUE = load_catalogue()
PROFILES = ("letter-2x4-perforated", "letter-cut", "a4-cut")
FINE_LINE_PT = 8 * MM_PT
HALF_MM = [i / 2 for i in range(-8, 9)]  # -4.0 .. +4.0


@dataclass(frozen=True)
class Mark:
    """A line of a scale: where it lies along the measuring direction, where across, and its number."""

    along: float
    across: float
    label: str


@dataclass(frozen=True)
class Side:
    """One page of the sheet as read: fine lines and coarse ticks per axis, the back's arrows."""

    fine: dict[str, list[Mark]]
    ticks: dict[str, list[Mark]]
    arrows: dict[str, tuple[float, float]]


def _label(words, x: float, y: float) -> str:
    """The word centred nearest (x, y) (bottom-left origin); '' if none is within 12 pt."""
    best = min(words, key=lambda w: ((w["x0"] + w["x1"]) / 2 - x) ** 2 + (w["y"] - y) ** 2)
    near = abs((best["x0"] + best["x1"]) / 2 - x) < 12 and abs(best["y"] - y) < 12
    return best["text"] if near else ""


def _read(page) -> Side:
    """The scales of one page: vertical lines are X marks, horizontal lines Y marks (bottom-left origin)."""
    words = page.extract_words()
    for word in words:
        word["y"] = page.height - (word["top"] + word["bottom"]) / 2
    fine: dict[str, list[Mark]] = {"x": [], "y": []}
    ticks: dict[str, list[Mark]] = {"x": [], "y": []}
    for line in page.lines:
        length = max(line["x1"] - line["x0"], line["y1"] - line["y0"])
        vertical = abs(line["x1"] - line["x0"]) < 0.01
        axis = "x" if vertical else "y"
        along, low, high = (line["x0"], line["y0"], line["y1"]) if vertical else (line["y0"], line["x0"], line["x1"])
        if abs(length - FINE_LINE_PT) < 0.05:
            ends = (low - 6, high + 6)
            labels = [_label(words, along, end) if vertical else _label_beside(words, along, end) for end in ends]
            fine[axis].append(Mark(along, (low + high) / 2, next((t for t in labels if t), "")))
        elif length < 11:
            ticks[axis].append(Mark(along, low, _tick_label(words, along, high, vertical)))
    arrows = {}
    for curve in page.curves:
        (tx, ty), (ax, ay), (bx, by) = curve["pts"][:3]
        tip = (tx, page.height - ty)
        arrows["x" if abs(ax - bx) > abs(ay - by) else "y"] = tip
    return Side(fine, ticks, arrows)


def _label_beside(words, along: float, end: float) -> str:
    """The word level with a horizontal line, just beyond one of its ends."""
    row = [w for w in words if abs(w["y"] - along) < 3]
    near = [w for w in row if min(abs(w["x0"] - end), abs(w["x1"] - end)) < 8]
    return near[0]["text"] if near else ""


def _tick_label(words, along: float, tip: float, vertical: bool) -> str:
    if vertical:
        near = [w for w in words if abs((w["x0"] + w["x1"]) / 2 - along) < 4 and 0 < w["y"] - tip < 20]
    else:
        near = [w for w in words if abs(w["y"] - along) < 3 and 0 < w["x0"] - tip < 6]
    return near[0]["text"] if near else ""


def _seen_from_front(point: tuple[float, float], width: float, height: float, duplex: Duplex) -> tuple[float, float]:
    """Where a point of the back page shows through on the front (the review's independent model)."""
    x, y = point
    portrait = width <= height
    if (duplex is Duplex.LONG) == portrait:
        return (width - x, y)
    return (x, height - y)


@dataclass(frozen=True)
class Sheet:
    """A printed calibration sheet: its page size, flip, front and back."""

    width: float
    height: float
    duplex: Duplex
    front: Side
    back: Side

    def back_marks(self, axis: str, shift_mm: tuple[float, float]) -> list[Mark]:
        """The back's fine lines of an axis after the printer's shift, as seen from the front (a flip
        mirrors one coordinate, so vertical lines stay vertical)."""
        seen = []
        for mark in self.back.fine[axis]:
            x, y = (mark.along, mark.across) if axis == "x" else (mark.across, mark.along)
            x, y = _seen_from_front((x + shift_mm[0] * MM_PT, y + shift_mm[1] * MM_PT), self.width, self.height,
                                    self.duplex)
            seen.append(Mark(x, y, mark.label) if axis == "x" else Mark(y, x, mark.label))
        return seen

    def fine_pairs(self, axis: str, shift_mm: tuple[float, float], tolerance_mm: float) -> list[tuple[Mark, Mark]]:
        """Every (front line, back line) of an axis's fine scale lying within tolerance of each other."""
        backs = self.back_marks(axis, shift_mm)
        return [
            (front, back) for front in self.front.fine[axis] for back in backs
            if abs(front.along - back.along) <= tolerance_mm * MM_PT
        ]

    def coarse_reading(self, axis: str, shift_mm: tuple[float, float]) -> float:
        """The number on the front's coarse ruler where the back's arrow points (to the nearest 0.5 mm)."""
        tip = self.back.arrows[axis]
        x, y = _seen_from_front((tip[0] + shift_mm[0] * MM_PT, tip[1] + shift_mm[1] * MM_PT),
                                self.width, self.height, self.duplex)
        along = x if axis == "x" else y
        labelled = sorted((m.along, float(m.label)) for m in self.front.ticks[axis] if m.label)
        (a0, v0), (a1, v1) = labelled[0], labelled[-1]
        value = v0 + (along - a0) * (v1 - v0) / (a1 - a0)
        return round(value * 2) / 2


def _sheet(path: Path, duplex: Duplex) -> Sheet:
    with pdfplumber.open(path) as pdf:
        front, back = (_read(page) for page in pdf.pages)
        return Sheet(float(pdf.pages[0].width), float(pdf.pages[0].height), duplex, front, back)


@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> dict[tuple[str, Duplex], Sheet]:
    out = tmp_path_factory.mktemp("calibration")
    result = {}
    for name in PROFILES:
        for duplex in Duplex:
            path = write_calibration(load_profile(name), duplex, (0.0, 0.0), out / f"{name}-{duplex.value}.pdf")
            result[(name, duplex)] = _sheet(path, duplex)
    return result


def _number(label: str) -> float:
    return float(label)


def test_every_line_is_numbered_on_both_sides(sheets) -> None:
    for sheet in sheets.values():
        for side in (sheet.front, sheet.back):
            for axis in ("x", "y"):
                labels = sorted(_number(m.label) for m in side.fine[axis])
                assert labels == HALF_MM, (axis, labels)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("duplex", list(Duplex))
def test_every_shift_within_4mm_has_exactly_one_reading_and_it_cancels_the_shift(sheets, profile, duplex) -> None:
    sheet = sheets[(profile, duplex)]
    for x in HALF_MM:
        for y in HALF_MM:
            reading = []
            for axis, shift in (("x", x), ("y", y)):
                pairs = sheet.fine_pairs(axis, (x, y), tolerance_mm=0.3)
                assert len(pairs) == 1, (profile, duplex, (x, y), axis, pairs)
                (front, back), = pairs
                assert front.label == back.label, (profile, duplex, (x, y), axis)
                assert abs(front.along - back.along) < 0.01
                reading.append(_number(front.label))
                assert _number(front.label) == -shift, (profile, duplex, (x, y), axis, front.label)


@pytest.mark.parametrize("duplex", list(Duplex))
def test_between_half_millimetres_the_best_pair_still_matches_and_no_other_numbers_come_close(sheets, duplex) -> None:
    sheet = sheets[("letter-2x4-perforated", duplex)]
    for tenth in range(-42, 43):
        shift = tenth / 10
        for axis, shift_mm in (("x", (shift, 0.7)), ("y", (-0.3, shift))):
            pairs = sheet.fine_pairs(axis, shift_mm, tolerance_mm=2.0)
            best_gap = min(abs(f.along - b.along) for f, b in pairs)
            best = [(f, b) for f, b in pairs if abs(f.along - b.along) <= best_gap + 0.01]
            for front, back in best:
                assert front.label == back.label
                assert abs(_number(front.label) + shift) <= 0.25 + 1e-6, (axis, shift, front.label)
            mismatched = [(f, b) for f, b in pairs if f.label != b.label]
            assert all(abs(f.along - b.along) >= 1.5 * MM_PT for f, b in mismatched), (axis, shift)


@pytest.mark.parametrize("profile", PROFILES)
def test_coarse_ruler_reads_shifts_up_to_10mm(sheets, profile) -> None:
    for duplex in Duplex:
        sheet = sheets[(profile, duplex)]
        for whole in range(-10, 11):
            assert sheet.coarse_reading("x", (whole, 0.0)) == -whole
            assert sheet.coarse_reading("y", (0.0, whole)) == -whole
            assert sheet.coarse_reading("x", (whole + 0.5, -3.0)) == pytest.approx(-whole - 0.5)


@pytest.mark.parametrize("duplex", list(Duplex))
def test_a_7mm_shift_reads_on_the_coarse_ruler_then_a_second_sheet_reads_it_exactly(tmp_path, sheets, duplex) -> None:
    profile = load_profile("letter-cut")
    shift = (7.0, -5.5)
    first = sheets[("letter-cut", duplex)]
    assert not [p for axis in ("x", "y") for p in first.fine_pairs(axis, shift, 0.3) if p[0].label == p[1].label]
    coarse = (first.coarse_reading("x", shift), first.coarse_reading("y", shift))
    assert coarse == (-7.0, 5.5)
    second = _sheet(write_calibration(profile, duplex, (coarse[0] - 1.0, coarse[1]), tmp_path / "again.pdf"), duplex)
    (fx, bx), = second.fine_pairs("x", shift, 0.3)
    (fy, by), = second.fine_pairs("y", shift, 0.3)
    assert (fx.label, fy.label) == (bx.label, by.label) == ("-7.0", "+5.5")


def _back_centres(path: Path) -> list[tuple[float, float]]:
    """Centre of the 'DEALER'S CHESS' title of every back on the first page (bottom-left origin)."""
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        return sorted(((w["x0"] + w["x1"]) / 2, page.height - (w["top"] + w["bottom"]) / 2)
                      for w in page.extract_words() if w["text"] == "CHESS")


@pytest.mark.parametrize("profile_name", PROFILES)
@pytest.mark.parametrize("duplex", list(Duplex))
def test_the_reading_put_into_dealer_backs_puts_every_back_behind_its_front(tmp_path, sheets, profile_name,
                                                                            duplex) -> None:
    profile = load_profile(profile_name)
    sheet = sheets[(profile_name, duplex)]
    for shift in [(x, y) for x in HALF_MM[::4] for y in HALF_MM[1::4]]:  # the arithmetic, for every slot
        reading = tuple(_number(sheet.fine_pairs(axis, shift, 0.3)[0][0].label) for axis in ("x", "y"))
        for index in range(profile.per_page):
            x, y = profile.back_slot(index, duplex, reading)
            ideal = profile.back_slot(index, duplex)
            assert (x + shift[0] * MM_PT, y + shift[1] * MM_PT) == pytest.approx(ideal, abs=1e-6)


# Reading a back page back costs 3-8 s (pdfplumber interprets every back's drawing), so the default run reads
# one file per duplex, on the perforated and on a cut profile; the other four combinations are slow. The
# arithmetic above still runs for all six.
@pytest.mark.parametrize("profile_name, duplex", [
    ("letter-2x4-perforated", Duplex.LONG), ("a4-cut", Duplex.SHORT),
    pytest.param("letter-2x4-perforated", Duplex.SHORT, marks=pytest.mark.slow),
    pytest.param("letter-cut", Duplex.LONG, marks=pytest.mark.slow),
    pytest.param("letter-cut", Duplex.SHORT, marks=pytest.mark.slow),
    pytest.param("a4-cut", Duplex.LONG, marks=pytest.mark.slow),
])
def test_the_file_dealer_backs_writes_with_a_reading_puts_every_back_behind_its_front(tmp_path, sheets, profile_name,
                                                                                       duplex) -> None:
    profile = load_profile(profile_name)
    sheet = sheets[(profile_name, duplex)]
    request = DeckRequest(piece_ids=("knight", "rook"), profile=profile_name, legend=False,
                          pictures=PictureMode.SILHOUETTE)
    straight = _back_centres(print_backs(CATALOGUE, request, BackOptions(duplex, BackLayout.PAGES), tmp_path / "a")[0])
    shift = (2.5, -1.0) if duplex is Duplex.LONG else (-3.5, 4.0)
    reading = tuple(_number(sheet.fine_pairs(axis, shift, 0.3)[0][0].label) for axis in ("x", "y"))
    path = print_backs(CATALOGUE, request, BackOptions(duplex, BackLayout.PAGES, reading), tmp_path / "b")[0]
    printed = sorted((x + shift[0] * MM_PT, y + shift[1] * MM_PT) for x, y in _back_centres(path))
    assert len(printed) == profile.per_page
    flat = [v for point in printed for v in point]
    assert flat == pytest.approx([v for point in straight for v in point], abs=0.01), (shift, reading)


def test_the_sheet_names_its_profile_and_the_command_to_run(tmp_path) -> None:
    path = print_calibration("letter-cut", Duplex.SHORT, (0.0, 0.0), tmp_path)
    assert path.name == "calibration-letter-cut.pdf"
    with pdfplumber.open(path) as pdf:
        text = " ".join(pdf.pages[0].extract_text().split())
        preferences = pdf.doc.catalog["ViewerPreferences"].resolve()
    assert "dealer backs --profile letter-cut --duplex short --back-offset X,Y" in text
    assert "landscape pages of profile letter-cut" in text
    assert preferences["Duplex"].name == "DuplexFlipShortEdge"
