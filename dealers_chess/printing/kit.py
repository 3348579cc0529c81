"""`dealer kit`: everything printable for the starter kit in one folder, as a plain list of steps.

To add an output (3D pieces as STL, a rules booklet, ...), append a KitStep to KIT_STEPS: a label,
how many progress units it takes and a function that writes its files and returns their paths (and whether
its work is on the worker processes, or needs the built pieces only partway: build_kit runs steps side by side).
"""

from __future__ import annotations

import textwrap
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import copy_context
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from dealers_chess.cards.back import BackStyle, card_back
from dealers_chess.cards.face import blank_face
from dealers_chess.cards.legend import legend_card
from dealers_chess.cards.primitives import Drawing
from dealers_chess.cards.theme import NEUTRAL, group_look
from dealers_chess.pieces.catalogue import Catalogue, PieceDef
from dealers_chess.printing.cards.deck import CardKind
from dealers_chess.printing.cards.jobs import (
    BLEED_PT,
    DeckRequest,
    Format,
    PictureMode,
    card_drawing,
    deck_cards,
    deck_pages,
    picture_source,
    print_backs,
    print_calibration,
    print_cards,
    write_drawing,
)
from dealers_chess.printing.cards.pdfs import BackLayout, BackOptions, sheet_backs
from dealers_chess.printing.cards.sheets import Duplex
from dealers_chess.printing.files import out_path, remove_unlisted, write_atomic
from dealers_chess.printing.parallel import each_on_every_core, on_queued, shared_workers
from dealers_chess.printing.pictures import PictureSource, renderer_available, store_picture

if TYPE_CHECKING:  # the 3D modules load only when the 3D steps run
    from dealers_chess.pieces.model3d.model import PieceModel
    from dealers_chess.printing.solids.built import BuiltPiece
    from dealers_chess.printing.solids.colour_swap import ColourSwap

STARTER = DeckRequest(sets=("starter",))
POD = DeckRequest(sets=("starter",), profile="pod", legend=True, blanks=1)
BACK_FILES = (
    (BackLayout.SHEET, BackStyle.FULL), (BackLayout.SHEET, BackStyle.LIGHT), (BackLayout.PAGES, BackStyle.FULL),
    (BackLayout.INTERLEAVED, BackStyle.FULL),
)


def _built_already() -> None:
    """The pieces are built (outside build_kit, a step runs on its own)."""


@dataclass(frozen=True, slots=True)
class KitContext:
    """What every step gets: the catalogue, the kit folder, a progress callback and the picture mode; the
    pieces the first step built, which the plates and HOW-TO-PRINT's figures read (by id); and pieces_built(),
    which waits until the first step has built them, their pictures in the render cache (needs_pieces)."""

    catalogue: Catalogue
    out_dir: Path
    advance: Callable[[int], None]
    pictures: PictureMode = PictureMode.RENDER
    built: dict[str, BuiltPiece] = field(default_factory=dict)
    pieces_built: Callable[[], object] = _built_already


@dataclass(frozen=True, slots=True)
class KitStep:
    """One output of the kit. The first builds the pieces (on the worker processes); a step on_workers has
    its work there too, and runs once the pieces are built, in a thread of its own, its work queued after that
    of the steps on_workers before it; the others write in this process, meanwhile: those that do not need the
    pieces from their start (needs_pieces False: they call ctx.pieces_built() before any part that does) first,
    while the pieces are built."""

    label: str
    units: Callable[[KitContext], int]
    run: Callable[[KitContext], list[Path]]
    on_workers: bool = False
    needs_pieces: bool = True


# what the kit's worker processes run, imported once by the fork server they are started from
WORKER_MODULES = (
    "dealers_chess.printing.kit", "dealers_chess.printing.solids.built", "dealers_chess.printing.solids.stl",
    "dealers_chess.printing.render_cache", "dealers_chess.printing.solids.plates",
)


def _pictures_rendered(ctx: KitContext) -> bool:
    return ctx.pictures is not PictureMode.SILHOUETTE and renderer_available()


def _piece_files(ctx: KitContext) -> list[Path]:
    """Build each starter piece for print at 50 mm squares, once for the whole kit (on every core), and where
    it is built write its STL and render its card picture into the cache, so the card steps only read the
    cache and the plates step only lays the pieces out."""
    from dealers_chess.pieces.model3d.model import ModelOptions
    from dealers_chess.printing.solids.built import build_for_print
    from dealers_chess.printing.solids.piece_files import pieces_folder

    starter = ctx.catalogue.select(sets=["starter"])
    folder = pieces_folder(ctx.out_dir, ModelOptions())
    picture_dir = ctx.out_dir if _pictures_rendered(ctx) else None
    also = partial(_stl_and_picture, folder=folder, picture_dir=picture_dir)
    ctx.built.update(build_for_print(starter, ModelOptions(), ctx.advance, also))
    stls = [out_path(folder, f"{piece.id}.stl") for piece in starter]
    remove_unlisted(folder, stls, ["*.stl", "*.3mf"])  # HOW-TO-PRINT lists the folder: it holds the kit's pieces alone
    return stls


def _stl_and_picture(piece: PieceDef, model: PieceModel, folder: Path, picture_dir: Path | None) -> None:
    """A piece's STL and (unless picture_dir is None) its card picture, in the process that built it."""
    from dealers_chess.printing.solids.stl import write_piece_stl

    write_piece_stl(out_path(folder, f"{piece.id}.stl"), model)
    if picture_dir is not None:
        store_picture(piece, model, picture_dir)


def _with(request: DeckRequest, ctx: KitContext) -> DeckRequest:
    return replace(request, pictures=ctx.pictures)


def _fronts(ctx: KitContext) -> list[Path]:
    return [print_cards(ctx.catalogue, _with(STARTER, ctx), ctx.out_dir, ctx.advance)[0]]


def _backs(ctx: KitContext) -> list[Path]:
    written = []
    for layout, style in BACK_FILES:
        if layout is BackLayout.INTERLEAVED:  # the fronts with the backs: their pictures
            ctx.pieces_built()
        options = BackOptions(Duplex.LONG, layout, style=style)
        written.append(print_backs(ctx.catalogue, _with(STARTER, ctx), options, ctx.out_dir, ctx.advance)[0])
    return written


def _calibration(ctx: KitContext) -> list[Path]:
    path = print_calibration("letter-2x4-perforated", Duplex.LONG, (0.0, 0.0), ctx.out_dir)
    ctx.advance(1)
    return [path]


def _pod(ctx: KitContext) -> list[Path]:
    folder = "cards/print-on-demand"
    options = BackOptions(Duplex.LONG, BackLayout.SHEET)
    backs = print_backs(ctx.catalogue, POD, options, ctx.out_dir, ctx.advance, folder)[0]
    ctx.pieces_built()
    fronts = print_cards(ctx.catalogue, _with(POD, ctx), ctx.out_dir, ctx.advance, folder)[0]
    return [fronts, backs]


def _pod_pngs(ctx: KitContext) -> list[Path]:
    """One 300 dpi PNG per card face, write-in card and back, with 1/8 in bleed, as print-on-demand sites ask;
    every card drawn on the worker processes."""
    folder = out_path(ctx.out_dir, "cards/print-on-demand/png")
    draw = partial(_pod_card_png, catalogue=ctx.catalogue, pictures=ctx.pictures, out_dir=ctx.out_dir, folder=folder)
    return each_on_every_core(draw, _pod_cards(ctx), ctx.advance)


def _pod_cards(ctx: KitContext) -> list[tuple[str, str]]:
    """The print-on-demand PNGs, as (kind, piece id or group): each face, the legend, the write-ins, the backs."""
    groups = _starter_groups(ctx)
    return [*(("face", piece.id) for piece in ctx.catalogue.select(sets=["starter"])), ("legend", ""),
            *(("write-in", group) for group in groups[:-1]), *(("back", group) for group in groups)]


# a print-on-demand PNG's kind: its file name and its drawing, of (piece id or group, catalogue, pictures)
POD_KINDS: dict[str, tuple[str, Callable[[str, Catalogue, PictureSource | None], Drawing]]] = {
    "face": ("{}.png", lambda piece_id, catalogue, source: card_drawing(catalogue, piece_id, source)),
    "legend": ("legend.png", lambda *_: legend_card()),
    "write-in": ("write-in-{}.png", lambda group, *_: blank_face(group)),
    "back": ("back-{}.png", lambda group, *_: card_back(group, BLEED_PT)),
}


def _pod_card_png(card: tuple[str, str], catalogue: Catalogue, pictures: PictureMode, out_dir: Path,
                  folder: Path) -> Path:
    """One print-on-demand PNG (in a worker process: a face reads its picture from the cache)."""
    kind, name = card
    source = picture_source(catalogue, pictures, out_dir) if kind == "face" else None
    file_name, drawing = POD_KINDS[kind]
    return write_drawing(drawing(name, catalogue, source), Format.PNG, out_path(folder, file_name.format(name)),
                         300, BLEED_PT, source)


def _starter_groups(ctx: KitContext) -> list[str]:
    return [*dict.fromkeys(p.group.value for p in ctx.catalogue.select(sets=["starter"])), NEUTRAL]


def _previews(ctx: KitContext) -> list[Path]:
    folder = out_path(ctx.out_dir, "cards/preview")
    source = picture_source(ctx.catalogue, ctx.pictures, ctx.out_dir)
    legend = write_drawing(legend_card(), Format.PNG, out_path(folder, "legend.png"), 150)
    knight_card = card_drawing(ctx.catalogue, "knight", source)
    knight = write_drawing(knight_card, Format.PNG, out_path(folder, "knight.png"), 150, pictures=source)
    ctx.advance(2)
    return [legend, knight]


def _plates(ctx: KitContext) -> list[Path]:
    """Print plates of the starter pieces built in the first step (STL and PrusaSlicer project each)."""
    from dealers_chess.pieces.model3d.model import ModelOptions
    from dealers_chess.printing.solids.plates import plates_folder, write_plates

    chosen = ctx.catalogue.select(sets=["starter"])
    options = ModelOptions()
    return write_plates(chosen, plates_folder(ctx.out_dir, options), options, built=ctx.built,
                        progress=lambda plate: ctx.advance(len(plate.placements)))


KIT_STEPS: list[KitStep] = [
    KitStep("3D pieces: an STL per piece and its card picture (50 mm squares)",
            lambda ctx: len(ctx.catalogue.select(sets=["starter"])), _piece_files),
    KitStep("card fronts, Letter perforated 2x4", lambda ctx: deck_pages(ctx.catalogue, STARTER), _fronts),
    KitStep("card backs (per kind of sheet, light, per front page, and fronts and backs in one file)", lambda ctx: sum(
        deck_pages(ctx.catalogue, STARTER, layout) for layout, _ in BACK_FILES
    ), _backs, needs_pieces=False),
    KitStep("printer calibration sheet", lambda ctx: 1, _calibration, needs_pieces=False),
    KitStep("print-on-demand cards (one per page, bleed)", lambda ctx: (
        deck_pages(ctx.catalogue, POD) + deck_pages(ctx.catalogue, POD, BackLayout.SHEET)
    ), _pod, needs_pieces=False),
    KitStep("print plates of the 3D pieces, STL and PrusaSlicer project each (50 mm squares)",
            lambda ctx: len(ctx.catalogue.select(sets=["starter"])), _plates, on_workers=True),
    KitStep("print-on-demand PNGs (300 dpi, bleed, one per card and back)",
            lambda ctx: len(_pod_cards(ctx)), _pod_pngs, on_workers=True),
    KitStep("previews (PNG)", lambda ctx: 2, _previews),
]

HOW_TO_PRINT = """\
How to print the Dealer's Chess starter kit
===========================================

Cards (cards/)
  starter-cards.pdf      the fronts, printed one-sided: {pages} sheets for US Letter perforated
                         cardstock, 2 x 4 cards of 4.25 x 2.75 in:
{contents}
  starter-backs.pdf      the backs, one page per kind of front sheet, printed one-sided onto the
                         back of the printed fronts:
{back_pages}
  starter-backs-light.pdf
                         the same backs in outline on white: less than a tenth of the ink.
  starter-backs-per-page.pdf
                         the same backs, one page per front page, in order: for printers that take
                         the whole stack of fronts back in and print the backs in one run.
  starter-cards-duplex.pdf
                         fronts and backs alternating, for a printer that prints both sides itself:
                         print the whole file double-sided, flipping on the long edge.
  calibration.pdf        print it double-sided first: it measures your printer's front/back offset
                         on these portrait sheets (steps on the sheet).

Always print at 100 % ("Actual size"); "Fit to page" shrinks the sheet and the cards miss the
perforations. The backs are placed for flipping on the long edge.

Feeding the fronts back by hand: rehearse with calibration.pdf. Print its first page, put the
sheet back in the tray the way you mean to put the fronts back, print its second page: if the
scales of the two sides lie on each other, feed the fronts the same way. If the back comes out
upside down, turn the stack round (or print the backs with --duplex short).

Backs shifted? Read the offset off calibration.pdf and print the backs again with it:
    dealer backs --profile letter-2x4-perforated --duplex long --back-offset X,Y
An offset belongs to the profile it was measured on: portrait and landscape sheets swap the axes.
For plain cardstock cut by hand (landscape sheets with gutters and crop marks) measure again:
    dealer cards --profile letter-cut          (or a4-cut)
    dealer calibrate --profile letter-cut      writes cards/calibration-letter-cut.pdf
    dealer backs --profile letter-cut --back-offset X,Y

White strips on the backs: the backs are printed to the very edge of every card, but most home
printers cannot print the outer 3-8 mm of a sheet, so on perforated sheets the cards' outer edges
come out with a white strip. To avoid it, turn on borderless printing if your printer has it; or
print starter-backs-light.pdf, whose white ground hides the strip; or print on plain cardstock
with --profile letter-cut or a4-cut, where the backs run into the gutters, which are cut off.

{write_ins}

Print-on-demand (cards/print-on-demand/)
  one card per page with 1/8 in bleed, TrimBox and BleedBox set, a write-in card and a back per
  group; png/ holds every card, write-in card and back as a 300 dpi PNG with bleed (1350 x 900 px).
  One card with bleed: dealer diagram ID --card --bleed --format png (--format pdf sets TrimBox and
  BleedBox too)

3D pieces (pieces-50mm/, plates-50mm/)
  one STL per piece for 50 mm squares, and the same pieces laid out on 220 x 220 mm plates, each an
  STL and a PrusaSlicer project (plates.txt says what is where). Print each plate in white and in
  black, no supports. Other sizes:
    dealer pieces --set starter --square-mm 40      dealer plate --set starter --bed 250x210
  Shorter print jobs (a failed print costs less): dealer plate --set starter --max-per-plate 6
  Pieces in one filament, on the fewest plates (pieces of every height together):
    dealer plate --army chess --one-colour

  Two colours on one nozzle: the pieces on a plate have their top faces in one layer, so one
  filament change, to the accent filament, colours every diagram on it and the head standing on it
  (crown, battlements, mitre) and nothing else. A horse head prints in the body's colour: a plate of
  horse-headed pieces changes back to the body filament where the diagrams end, a second change
  (Rex's crown, round its horse head, then prints in the body's colour too; pawns and plain leapers
  sharing such a plate are printed whole by then). Top faces stand on a
  few shared levels, so pieces of many kinds share a plate; change filament before the layers
  plates.txt names for the plate:
{swaps}
  Layers are counted at {layer_mm:g} mm, the first layer too; with another first layer, go by the height.

{jobs}
  Each plate also comes as a PrusaSlicer project with its changes built in, plate-NN.3mf beside
  plate-NN.stl: open it, slice, print; the printer stops for each filament change by itself (M600)
  at the layers plates.txt names. The project brings {layer_mm:g} mm layers and first layer; if you
  choose your own printer and print profile, keep those.

{advice}

  Accent colours: red on White's pieces, gold on Black's, as dealer render draws them. Not black on
  White's or white on Black's: a diagram in the other side's colour makes a piece look like one of
  theirs at a glance.

  Against strings between the diagram's dots and bars (small islands, a travel between each):
    avoid crossing perimeters on (the projects set it);
    retraction 0.8-1 mm on a direct-drive extruder, longer on a Bowden one (4-6 mm);
    a minimum layer time of 15-20 s (PrusaSlicer: Filament, Cooling, "Slow down if layer print
    time is below"; the projects set 15 s), so the small accent layers cool before the next.

  Weight: every piece has a pocket under the base for two stacked flat steel washers (ISO 7089; glue
  them in and cover the base with felt, which also hides the code); dealer pieces --no-weight-pocket
  leaves the pocket out. Estimated
  weights in {material} ({density:g} g/cm3), printed with {perimeters} perimeters of {width:g} mm, {infill:g} % infill,
  {top} top and {bottom} bottom layers of {layer_mm:g} mm (within 10 % of PrusaSlicer's own estimate at
  these settings), plus the two washers' nominal steel mass:
{weights}

Files written by this run:
"""


def how_to_print(catalogue: Catalogue, built: Mapping[str, BuiltPiece] | None = None) -> str:
    """The note's text, with the sheets, back pages and write-in cards of the starter deck and its pieces' weights
    (of the starter pieces as `built` for print at 50 mm squares, or built here)."""
    cards, profile = deck_cards(catalogue, STARTER)
    faces = Counter(card.group for card in cards if card.kind is CardKind.FACE)
    blanks = Counter(card.group for card in cards if card.kind is CardKind.BLANK)
    contents = ", ".join(f"{count} {group_look(group).plural.lower()}" for group, count in faces.items())
    contents += ", two legend cards and write-in cards to fill the sheets."
    contents = textwrap.fill(contents, 100, initial_indent=" " * 25, subsequent_indent=" " * 25)
    return HOW_TO_PRINT.format(
        pages=len(cards) // profile.per_page, contents=contents, back_pages=_back_pages(cards, profile),
        write_ins=textwrap.fill(
            "Write-in cards: blank cards for pieces of your own, each with its own group's back so it does not "
            f"stand out face down: {', '.join(f'{n} {group_look(g).label.lower()}' for g, n in blanks.items())}. "
            "For more, give the same --blanks N to dealer cards and dealer backs.", 100),
        **_pieces_figures(catalogue, built),
    )


def _pieces_figures(catalogue: Catalogue, built: Mapping[str, BuiltPiece] | None) -> dict[str, str | float]:
    """The 3D section's figures: each group's filament changes and weights, measured on the starter pieces as built."""
    from dealers_chess.pieces.model3d.model import ModelOptions
    from dealers_chess.printing.solids.built import build_for_print
    from dealers_chess.printing.solids.fdm import load_fdm_settings
    from dealers_chess.printing.solids.print_advice import advice

    settings = load_fdm_settings()
    starter = catalogue.select(sets=["starter"])
    if built is None or any(piece.id not in built for piece in starter):
        built = build_for_print(starter, ModelOptions())
    by_group: dict[str, list] = {}
    for piece in starter:
        by_group.setdefault(piece.group.value, []).append((piece, built[piece.id].changes, built[piece.id].weight))
    swaps, weights = [], []
    for group, rows in by_group.items():
        name = group_look(group).plural.lower()
        swaps += _group_changes(name, [changes for _, changes, _ in rows])
        weights.append(f"    {name + ':':9} {_group_weights([weight for _, _, weight in rows])}")
        each = ", ".join(f"{piece.id}\u00a0{weight.printed_g:.1f}" for piece, _, weight in rows)  # no break inside
        each = textwrap.fill(each, 100, initial_indent=" " * 6, subsequent_indent=" " * 6, break_on_hyphens=False)
        weights.append(each.replace("\u00a0", " "))
    return {
        "swaps": "\n".join(swaps), "weights": "\n".join(weights), "layer_mm": settings.layer_mm,
        "jobs": _kit_jobs(starter, built), "advice": advice(98, "  "),
        "material": settings.material, "density": settings.density_g_cm3, "perimeters": settings.perimeters,
        "width": settings.perimeter_width_mm, "infill": settings.infill_percent, "top": settings.top_layers,
        "bottom": settings.bottom_layers,
    }


def _group_changes(name: str, changes: list[tuple[ColourSwap, ...]]) -> list[str]:
    """A group's lines of filament changes: its top faces' layers, and the layers it changes back at under horse
    heads."""
    layers = sorted({(swaps[0].layer, swaps[0].z_mm, swaps[0].surface_mm) for swaps in changes})
    (low, low_z, low_top), (high, high_z, high_top) = layers[0], layers[-1]
    lines = [
        f"    {name + ':':9} top face {low_top:.1f} mm, change before layer {low} (z {low_z:.1f} mm)"
        if len(layers) == 1
        else f"    {name + ':':9} {len(layers)} heights, top faces {low_top:.1f}-{high_top:.1f} mm: "
             f"layers {low}-{high} (z {low_z:.1f}-{high_z:.1f} mm)"]
    back = sorted({(swaps[1].layer, swaps[1].z_mm) for swaps in changes if len(swaps) > 1})
    if back:
        lines.append(f"{'':14}under horse heads, back to the body filament before layer{'s' if len(back) > 1 else ''} "
                     f"{' and '.join(str(layer) for layer, _ in back)} "
                     f"(z {' and '.join(f'{z_mm:.1f}' for _, z_mm in back)} mm)")
    return lines


def _kit_jobs(starter: list[PieceDef], built: Mapping[str, BuiltPiece]) -> str:
    """The starter plates' jobs, changes, time and filament a colour, as `dealer kit` lays them out."""
    from dealers_chess.printing.solids.plates import plan_built
    from dealers_chess.printing.solids.print_advice import estimate

    items = [(piece.id, piece.code, built[piece.id].diameter_mm) for piece in starter]
    plates = plan_built(items, built)
    text = estimate([[p.piece_id for p in plate.placements] for plate in plates], built,
                    sum(len(plate.changes) for plate in plates)).sentence()
    return textwrap.fill(f"The whole kit: {text}; twice that for both colours, {2 * len(plates)} jobs in all.",
                         98, initial_indent="  ", subsequent_indent="  ")


def _span(values: list[float], unit: str = " g") -> str:
    low, high = min(values), max(values)
    return f"{low:.1f}{unit}" if f"{low:.1f}" == f"{high:.1f}" else f"{low:.1f}-{high:.1f}{unit}"


def _group_weights(weights: list) -> str:
    """'17.5-17.8 g printed + 2 M10 washers (7.2 g) = 24.7-25.0 g' for a group's pieces."""
    printed = f"{_span([w.printed_g for w in weights])} printed"
    washers = sorted({w.washer.size for w in weights if w.washer}, key=lambda size: float(size[1:]))
    if not washers:
        return printed + " (no washer)"
    washer_g = _span([w.washer_g for w in weights if w.washer])
    return f"{printed} + 2 {'/'.join(washers)} washers ({washer_g}) = {_span([w.total_g for w in weights])}"


def _back_pages(cards: list, profile) -> str:
    """'page 1 behind front sheet 1 (royals)' and so on, one line per back page."""
    lines = []
    for page, (groups, fronts) in enumerate(sheet_backs(cards, profile), 1):
        first, last = fronts[0] + 1, fronts[-1] + 1
        sheets = f"front sheet {first}" if first == last else f"front sheets {first}-{last}"
        kinds = list(dict.fromkeys(groups))
        what = group_look(kinds[0]).plural.lower() if len(kinds) == 1 else "legend and write-in cards"
        times = "once" if len(fronts) == 1 else f"{len(fronts)} times"
        lines.append(f"{' ' * 27}page {page} behind {sheets} ({what}), {times}")
    return "\n".join(lines)


def kit_units(ctx: KitContext) -> int:
    """Total progress units of the whole kit."""
    return sum(step.units(ctx) for step in KIT_STEPS)


def build_kit(ctx: KitContext) -> list[tuple[str, list[Path]]]:
    """Run every kit step; write HOW-TO-PRINT.txt; return (label, files) per step.

    The first step builds the pieces on every core, in a thread that then starts the steps on_workers, each
    in a thread of its own, their work queued on the same worker processes in the steps' order (the plates'
    few long jobs first, the many short card PNGs after them, to even out the end). This thread meanwhile
    writes the PDFs: first what needs no pieces (the fork server starts and the first pieces build), then the
    rest, so both cores stay busy."""
    first, rest = KIT_STEPS[0], KIT_STEPS[1:]
    lock, progress = threading.Lock(), ctx.advance

    def advance(units: int) -> None:
        with lock:  # the progress bar is not made for threads
            progress(units)

    beside = [step for step in rest if step.on_workers]
    here = sorted((step for step in rest if not step.on_workers), key=lambda step: step.needs_pieces)
    with ThreadPoolExecutor(len(beside) + 1) as threads, shared_workers(WORKER_MODULES):
        ctx = replace(ctx, advance=advance)
        pieces = threads.submit(copy_context().run, _pieces_then_beside, first, beside, ctx, threads)
        ctx = replace(ctx, pieces_built=pieces.result)
        done = {}
        for step in here:
            if step.needs_pieces:
                ctx.pieces_built()
            done[step.label] = step.run(ctx)
        done[first.label], running = pieces.result()
        done.update((label, future.result()) for label, future in running.items())
    listing = "".join(
        f"  {path.relative_to(ctx.out_dir)}\n" for step in KIT_STEPS for path in done[step.label]
    )
    note = write_atomic(out_path(ctx.out_dir, "HOW-TO-PRINT.txt"), how_to_print(ctx.catalogue, ctx.built) + listing)
    return [(step.label, done[step.label]) for step in KIT_STEPS] + [("how to print", [note])]


def _pieces_then_beside(
    first: KitStep, beside: list[KitStep], ctx: KitContext, threads: ThreadPoolExecutor,
) -> tuple[list[Path], dict[str, Future]]:
    """The first step, then each step on_workers started in a thread of its own once the one before it has
    queued its work; the first step's files and the others' futures."""
    files = first.run(ctx)
    running = {}
    for step in beside:
        queued = threading.Event()
        running[step.label] = threads.submit(copy_context().run, _beside, step, ctx, queued)
        queued.wait()  # the next step's work queues behind this one's
    return files, running


def _beside(step: KitStep, ctx: KitContext, queued: threading.Event) -> list[Path]:
    """A step on_workers, in its own thread: `queued` is set once its work is queued on the workers (or it ends)."""
    try:
        with on_queued(queued.set):
            return step.run(ctx)
    finally:
        queued.set()
