"""The card jobs the commands run: fronts, backs, calibration sheet, one card or diagram as a file."""

from __future__ import annotations

import io
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from dealers_chess.cards.back import BackStyle
from dealers_chess.cards.diagram import diagram_for, draw_diagram
from dealers_chess.cards.primitives import Drawing
from dealers_chess.pieces.catalogue import Catalogue
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.cards.calibrate import write_calibration
from dealers_chess.printing.cards.deck import Card, build_deck, face_info, select_pieces
from dealers_chess.printing.cards.pdf import PdfPainter, finished_pdf, new_canvas
from dealers_chess.printing.cards.pdfs import (
    BackLayout,
    BackOptions,
    pages_of,
    sheet_backs,
    write_backs,
    write_fronts,
    write_interleaved,
)
from dealers_chess.printing.cards.png import png_bytes
from dealers_chess.printing.cards.sheets import DEFAULT_PROFILE, Duplex, Profile, load_profile
from dealers_chess.printing.cards.svg import svg_text
from dealers_chess.printing.files import file_stem, out_path, write_atomic
from dealers_chess.printing.pictures import (
    PictureSource,
    no_pictures,
    picture_aspect,
    prerender,
    rendered_pictures,
    renderer_available,
)

DIAGRAM_PT = 198.0
BLEED_PT = 9.0  # 1/8 in, what print-on-demand services ask for


class Format(Enum):
    """File formats for a single card or diagram."""

    SVG = "svg"
    PNG = "png"
    PDF = "pdf"


class PictureMode(Enum):
    """What the face's picture shows."""

    RENDER = "render"  # the 3D model rendered (cached), or the silhouette where it cannot be
    SILHOUETTE = "silhouette"


@dataclass(frozen=True, slots=True)
class DeckRequest:
    """What to print: a selection of the catalogue on a sheet profile."""

    sets: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    piece_ids: tuple[str, ...] = ()
    profile: str = DEFAULT_PROFILE
    legend: bool | None = None  # None: a legend with whole sets, none with single pieces
    pictures: PictureMode = PictureMode.RENDER
    blanks: int = 0  # at least this many write-in cards per group

    @property
    def filtered(self) -> bool:
        """Whether a set, game or group is given (--piece alone prints just those pieces)."""
        return bool(self.sets or self.games or self.groups)

    @property
    def name(self) -> str:
        """The deck's file stem, e.g. 'starter', 'chess-piece' or 'custom'."""
        added = (self.piece_ids[0] if len(self.piece_ids) == 1 else "custom") if self.piece_ids else ""
        if self.piece_ids and not self.filtered:
            parts = [added]
        else:
            parts = [*self.sets, *self.games] or ["starter"]
            parts += [*self.groups, *(["and", added] if added else [])]
        if self.profile != DEFAULT_PROFILE:
            parts.append(file_stem(Path(self.profile).stem, "profile"))
        return "-".join(parts)


def deck_cards(catalogue: Catalogue, request: DeckRequest) -> tuple[list[Card], Profile]:
    """The deck's cards and its profile."""
    profile = load_profile(request.profile)
    pieces = select_pieces(catalogue, request.sets, request.games, request.groups, request.piece_ids)
    legend = request.legend if request.legend is not None else request.filtered or not request.piece_ids
    hint = request.sets[0] if request.sets else ""
    return build_deck(catalogue, pieces, profile.per_page, legend, hint, request.blanks), profile


def deck_pictures(catalogue: Catalogue, request: DeckRequest) -> list:
    """The pieces whose 3D pictures the deck's faces show (none in silhouette mode or without the renderer)."""
    if request.pictures is PictureMode.SILHOUETTE or not renderer_available():
        return []
    return list(select_pieces(catalogue, request.sets, request.games, request.groups, request.piece_ids))


def prerender_deck(catalogue: Catalogue, request: DeckRequest, out_dir: Path, progress=None) -> None:
    """Render the deck's pictures into the cache under out_dir on every core, before the pages need them."""
    prerender(deck_pictures(catalogue, request), out_dir, progress or (lambda units: None))


def picture_source(catalogue: Catalogue, mode: PictureMode, out_dir: Path) -> PictureSource:
    """The pictures for faces: 3D renders from the render cache under out_dir, or silhouettes."""
    if mode is PictureMode.SILHOUETTE or not renderer_available():
        return no_pictures
    return rendered_pictures(catalogue, out_dir)


def print_cards(
    catalogue: Catalogue, request: DeckRequest, out_dir: Path, progress=None, folder: str = "cards",
) -> tuple[Path, int]:
    """Write the card fronts PDF into out_dir/folder; return its path and page count."""
    cards, profile = deck_cards(catalogue, request)
    pictures = picture_source(catalogue, request.pictures, out_dir)
    path = out_path(out_dir, folder, f"{request.name}-cards.pdf")
    title = f"Dealer's Chess cards: {request.name}"
    write_fronts(cards, profile, path, title, pictures, progress)
    return path, len(pages_of(cards, profile))


def print_backs(
    catalogue: Catalogue, request: DeckRequest, options: BackOptions, out_dir: Path, progress=None,
    folder: str = "cards",
) -> tuple[Path, int]:
    """Write the card backs PDF into out_dir/folder; return its path and page count."""
    cards, profile = deck_cards(catalogue, request)
    light = "-light" if options.style is BackStyle.LIGHT else ""
    if options.layout is BackLayout.INTERLEAVED:
        path = out_path(out_dir, folder, f"{request.name}-cards-duplex{light}.pdf")
        pictures = picture_source(catalogue, request.pictures, out_dir)
        title = f"Dealer's Chess cards, fronts and backs: {request.name}"
        write_interleaved(cards, profile, path, title, options, pictures, progress)
        return path, 2 * deck_pages(catalogue, request)
    suffix = "" if options.layout is BackLayout.SHEET else "-per-page"
    path = out_path(out_dir, folder, f"{request.name}-backs{suffix}{light}.pdf")
    write_backs(cards, profile, path, f"Dealer's Chess card backs: {request.name}", options, progress)
    return path, deck_pages(catalogue, request, options.layout)


def print_calibration(profile_name: str, duplex: Duplex, offset_mm: tuple[float, float], out_dir: Path) -> Path:
    """Write the printer calibration sheet for a profile: cards/calibration.pdf for the default profile,
    cards/calibration-PROFILE.pdf for another (portrait and landscape pages read their axes differently)."""
    profile = load_profile(profile_name)
    if min(profile.page_width_pt, profile.page_height_pt) < 500:
        raise DealerError(
            f"profile {profile.name!r}: the calibration sheet needs a full sheet of paper, not a single card"
        )
    suffix = "" if profile_name == DEFAULT_PROFILE else "-" + file_stem(profile.name, "profile")
    path = out_path(out_dir, "cards", f"calibration{suffix}.pdf")
    return write_calibration(profile, duplex, offset_mm, path, profile_name)


def card_drawing(catalogue: Catalogue, piece_id: str, pictures: PictureSource | None = None) -> Drawing:
    """One piece's card face, its picture slot shaped to the picture pictures gives (default: the silhouette's)."""
    from dealers_chess.cards.face import card_face

    piece = catalogue.get(piece_id)
    return card_face(face_info(catalogue, piece), picture_aspect(pictures, piece.id))


def diagram_drawing(catalogue: Catalogue, piece_id: str) -> Drawing:
    """One piece's movement diagram on its own."""
    grid = draw_diagram(diagram_for(catalogue.get(piece_id)), DIAGRAM_PT)
    return Drawing(DIAGRAM_PT, DIAGRAM_PT, (grid,))


def write_drawing(
    drawing: Drawing, fmt: Format, path: Path, dpi: int = 300, margin_pt: float = 0.0,
    pictures: PictureSource | None = None,
) -> Path:
    """Write one drawing as SVG, PNG (dpi) or a one-page PDF, with margin_pt of bleed all round.

    A PDF with bleed sets TrimBox to the drawing and BleedBox to the page, as print shops expect.
    """
    if fmt is Format.SVG:
        return write_atomic(path, svg_text(drawing, margin_pt, pictures))
    if fmt is Format.PNG:
        if not 36 <= dpi <= 1200:
            raise DealerError(f"dpi {dpi} is not allowed; use 36 to 1200")
        return write_atomic(path, png_bytes(drawing, dpi, margin_pt, pictures))
    buffer = io.BytesIO()
    width, height = drawing.width_pt + 2 * margin_pt, drawing.height_pt + 2 * margin_pt
    boxes = {}
    if margin_pt > 0:
        m = margin_pt
        boxes = {"trimBox": (m, m, width - m, height - m), "bleedBox": (0, 0, width, height)}
    canvas = new_canvas(buffer, width, height, path.stem, **boxes)
    PdfPainter(canvas, pictures).draw(drawing, margin_pt, margin_pt)
    canvas.showPage()
    return write_atomic(path, finished_pdf(canvas, buffer, path.name))


def print_diagram(catalogue: Catalogue, piece_id: str, fmt: Format, out_dir: Path, whole_card: bool = False,
                  dpi: int = 300, pictures: PictureMode = PictureMode.RENDER, bleed: bool = False) -> Path:
    """Write one piece's diagram (or whole card face, optionally with 1/8 in bleed) as SVG, PNG or PDF."""
    piece = catalogue.get(piece_id)
    if whole_card:
        source = picture_source(catalogue, pictures, out_dir)
        path = out_path(out_dir, "cards", f"{piece.id}-card{'-bleed' if bleed else ''}.{fmt.value}")
        margin = BLEED_PT if bleed else 0.0
        return write_drawing(card_drawing(catalogue, piece.id, source), fmt, path, dpi, margin, pictures=source)
    drawing = diagram_drawing(catalogue, piece.id)
    return write_drawing(drawing, fmt, out_path(out_dir, "cards", f"{piece.id}-diagram.{fmt.value}"), dpi)


def deck_pages(catalogue: Catalogue, request: DeckRequest, layout: BackLayout | None = None) -> int:
    """How many pages the fronts (or, with a layout, the backs) of a deck take."""
    cards, profile = deck_cards(catalogue, request)
    if layout is BackLayout.SHEET:
        return len(sheet_backs(cards, profile))
    return len(pages_of(cards, profile))
