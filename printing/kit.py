"""`dealer kit`: everything printable for the starter kit in one folder, as a plain list of steps.

To add an output (3D pieces as STL, a rules booklet, ...), append a KitStep to KIT_STEPS: a label,
how many progress units it takes and a function that writes its files and returns their paths.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from pieces.catalogue import Catalogue
from printing.cards.jobs import (
    BLEED_PT, DeckRequest, Format, PictureMode, card_drawing, deck_cards, deck_pages, picture_source, print_backs,
    print_calibration, print_cards, write_drawing,
)
from printing.cards.pdfs import BackLayout, BackOptions
from printing.cards.deck import CardKind
from printing.files import out_path, write_atomic
from printing.pictures import renderer_available
from printing.cards.sheets import Duplex
from cards.back import card_back
from cards.legend import legend_card
from cards.theme import NEUTRAL, group_look

STARTER = DeckRequest(sets=("starter",))
POD = DeckRequest(sets=("starter",), profile="pod", legend=True)


@dataclass(frozen=True, slots=True)
class KitContext:
    """What every step gets: the catalogue, the kit folder, a progress callback and the picture mode."""

    catalogue: Catalogue
    out_dir: Path
    advance: Callable[[int], None]
    pictures: PictureMode = PictureMode.RENDER


@dataclass(frozen=True, slots=True)
class KitStep:
    """One output of the kit."""

    label: str
    units: Callable[[KitContext], int]
    run: Callable[[KitContext], list[Path]]


def _pictures_units(ctx: KitContext) -> int:
    if ctx.pictures is PictureMode.SILHOUETTE or not renderer_available():
        return 0
    return len(ctx.catalogue.select(sets=["starter"]))


def _pictures(ctx: KitContext) -> list[Path]:
    """Render each starter piece once (cached), so the card steps only read the cache."""
    source = picture_source(ctx.catalogue, ctx.pictures, ctx.out_dir)
    if _pictures_units(ctx) == 0:
        return []
    for piece in ctx.catalogue.select(sets=["starter"]):
        source(piece.id)
        ctx.advance(1)
    return []


def _with(request: DeckRequest, ctx: KitContext) -> DeckRequest:
    return DeckRequest(request.sets, request.games, request.groups, request.piece_ids, request.profile,
                       request.legend, ctx.pictures)


def _fronts(ctx: KitContext) -> list[Path]:
    return [print_cards(ctx.catalogue, _with(STARTER, ctx), ctx.out_dir, ctx.advance)[0]]


def _backs(ctx: KitContext) -> list[Path]:
    written = []
    for layout in (BackLayout.SHEET, BackLayout.PAGES, BackLayout.INTERLEAVED):
        written.append(print_backs(ctx.catalogue, _with(STARTER, ctx), BackOptions(Duplex.LONG, layout), ctx.out_dir, ctx.advance)[0])
    return written


def _calibration(ctx: KitContext) -> list[Path]:
    path = print_calibration("letter-2x4-perforated", Duplex.LONG, (0.0, 0.0), ctx.out_dir)
    ctx.advance(1)
    return [path]


def _pod(ctx: KitContext) -> list[Path]:
    folder = "cards/print-on-demand"
    fronts = print_cards(ctx.catalogue, _with(POD, ctx), ctx.out_dir, ctx.advance, folder)[0]
    backs = print_backs(ctx.catalogue, POD, BackOptions(Duplex.LONG, BackLayout.SHEET), ctx.out_dir, ctx.advance, folder)[0]
    return [fronts, backs]


def _pod_pngs(ctx: KitContext) -> list[Path]:
    """One 300 dpi PNG per card face and per back, with 1/8 in bleed, as print-on-demand sites ask."""
    folder = out_path(ctx.out_dir, "cards/print-on-demand/png")
    source = picture_source(ctx.catalogue, ctx.pictures, ctx.out_dir)
    written = []
    for piece in ctx.catalogue.select(sets=["starter"]):
        drawing = card_drawing(ctx.catalogue, piece.id, source)
        written.append(write_drawing(drawing, Format.PNG, out_path(folder, f"{piece.id}.png"), 300, BLEED_PT, source))
        ctx.advance(1)
    written.append(write_drawing(legend_card(), Format.PNG, out_path(folder, "legend.png"), 300, BLEED_PT))
    for group in _starter_groups(ctx):
        back = card_back(group, BLEED_PT)
        written.append(write_drawing(back, Format.PNG, out_path(folder, f"back-{group}.png"), 300, BLEED_PT))
    ctx.advance(1)
    return written


def _starter_groups(ctx: KitContext) -> list[str]:
    return [*dict.fromkeys(p.group.value for p in ctx.catalogue.select(sets=["starter"])), NEUTRAL]


def _previews(ctx: KitContext) -> list[Path]:
    folder = out_path(ctx.out_dir, "cards/preview")
    source = picture_source(ctx.catalogue, ctx.pictures, ctx.out_dir)
    legend = write_drawing(legend_card(), Format.PNG, out_path(folder, "legend.png"), 150)
    knight = write_drawing(card_drawing(ctx.catalogue, "knight", source), Format.PNG, out_path(folder, "knight.png"), 150, pictures=source)
    ctx.advance(2)
    return [legend, knight]


def _pieces3d(ctx: KitContext) -> list[Path]:
    """3D pieces (added by the pieces engineer): one STL per starter piece and print plates, 50 mm squares."""
    from pieces.model3d.model import ModelOptions
    from printing.solids.plates import plates_folder, write_plates
    from printing.solids.piece_files import pieces_folder, write_piece_stls

    chosen = ctx.catalogue.select(sets=["starter"])
    options = ModelOptions()
    stls = write_piece_stls(chosen, pieces_folder(ctx.out_dir, options), options, lambda _: ctx.advance(1))
    plates = write_plates(chosen, plates_folder(ctx.out_dir, options), options,
                          progress=lambda plate: ctx.advance(len(plate.placements)))
    return stls + plates


KIT_STEPS: list[KitStep] = [
    KitStep("piece pictures (3D renders, cached)", _pictures_units, _pictures),
    KitStep("card fronts, Letter perforated 2x4", lambda ctx: deck_pages(ctx.catalogue, STARTER), _fronts),
    KitStep("card backs (per group, per front page, and fronts and backs in one file)", lambda ctx: sum(
        deck_pages(ctx.catalogue, STARTER, layout) for layout in BackLayout
    ), _backs),
    KitStep("printer calibration sheet", lambda ctx: 1, _calibration),
    KitStep("print-on-demand cards (one per page, bleed)", lambda ctx: (
        deck_pages(ctx.catalogue, POD) + deck_pages(ctx.catalogue, POD, BackLayout.SHEET)
    ), _pod),
    KitStep("print-on-demand PNGs (300 dpi, bleed, one per card and back)",
            lambda ctx: len(ctx.catalogue.select(sets=["starter"])) + 1, _pod_pngs),
    KitStep("previews (PNG)", lambda ctx: 2, _previews),
    KitStep("3D pieces: STL per piece and print plates (50 mm squares)",
            lambda ctx: 2 * len(ctx.catalogue.select(sets=["starter"])), _pieces3d),
]

HOW_TO_PRINT = """\
How to print the Dealer's Chess starter kit
===========================================

Cards (cards/)
  starter-cards.pdf      the fronts: {pages} sheets for US Letter perforated cardstock, 2 x 4 cards of
                         4.25 x 2.75 in:
{contents}.
  starter-backs.pdf      one back sheet per group. Print each on the back of its group's front
                         sheets: {backs}.
  starter-backs-per-page.pdf
                         the same backs, one page per front page, in order: for printers that take
                         the fronts back in and print the backs in one run.
  starter-cards-duplex.pdf
                         fronts and backs alternating, for a printer that prints both sides itself:
                         print the whole file double-sided, flipping on the long edge.
  calibration.pdf        print it double-sided first to measure your printer's front/back offset.

Always print at 100 % ("Actual size"); "Fit to page" shrinks the sheet and the cards miss the
perforations. Backs are placed for flipping on the long edge. If the backs come out shifted, print
calibration.pdf, read the offset and run:
    dealer backs --duplex long --back-offset X,Y
For plain cardstock with crop marks: dealer cards --profile letter-cut (or a4-cut), and the same
--profile for dealer backs.

Print-on-demand (cards/print-on-demand/)
  one card per page with 1/8 in bleed, TrimBox and BleedBox set, and one back per group;
  png/ holds every card and back as a 300 dpi PNG with bleed (1350 x 900 px).
  Single cards as 300 dpi PNG with bleed: dealer diagram ID --card --bleed --format png

3D pieces (pieces-50mm/, plates-50mm/)
  one STL per piece for 50 mm squares, and the same pieces laid out on 220 x 220 mm plates
  (plates.txt says what is where). Print each plate in white and in black, no supports; for a
  two-colour diagram change filament at the first layer above the top face. Other sizes:
    dealer pieces --set starter --square-mm 40      dealer plate --set starter --bed 250x210

Files written by this run:
"""


def how_to_print(catalogue: Catalogue) -> str:
    """The note's text, with the sheet counts of the starter deck."""
    cards, profile = deck_cards(catalogue, STARTER)
    faces = Counter(card.group for card in cards if card.kind is CardKind.FACE)
    sheets = Counter(card.group for card in cards)
    contents = ", ".join(f"{count} {group_look(group).plural.lower()}" for group, count in faces.items())
    contents += ", legend cards and blank write-in cards to fill the sheets"
    backs = ", ".join(f"{group_look(g).label.lower()} x{n // profile.per_page}" for g, n in sheets.items())
    contents = textwrap.fill(contents, 100, initial_indent=" " * 25, subsequent_indent=" " * 25)
    return HOW_TO_PRINT.format(pages=len(cards) // profile.per_page, contents=contents, backs=backs)


def kit_units(ctx: KitContext) -> int:
    """Total progress units of the whole kit."""
    return sum(step.units(ctx) for step in KIT_STEPS)


def build_kit(ctx: KitContext) -> list[tuple[str, list[Path]]]:
    """Run every kit step; write HOW-TO-PRINT.txt; return (label, files) per step."""
    done = [(step.label, step.run(ctx)) for step in KIT_STEPS]
    listing = "".join(
        f"  {path.relative_to(ctx.out_dir)}\n" for _, paths in done for path in paths
    )
    note = write_atomic(out_path(ctx.out_dir, "HOW-TO-PRINT.txt"), how_to_print(ctx.catalogue) + listing)
    return done + [("how to print", [note])]
