"""Print plates: pieces laid out on a printer bed, one STL per plate, plus a list of what is where.

Pieces with the same filament changes go on plates of their own: a change to the accent where their top
faces end colours the diagrams of every piece on a plate and nothing else, and under horse heads a second
change, back to the body's filament where the diagrams end, prints the heads in the body's colour (top faces
stand on a few shared levels, pieces/model3d/levels.py, so a chess army takes three plates a colour, the
Knights' with two changes); within such a group pieces are
packed in rows (largest first) with a gap between bases, at most `max_per_plate` a plate, spread evenly
over the plates the group needs, each plate centred on the bed. Each plate
STL is validated like a piece STL, expecting one body per piece on it; beside it, plate-NN.3mf holds the
same plate as a PrusaSlicer project with those filament changes built in (plate_project.py).
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import numpy as np

from dealers_chess.engine.dealing.deal_file import read_deal_file
from dealers_chess.engine.game import load_game
from dealers_chess.pieces.catalogue import Catalogue, PieceDef
from dealers_chess.pieces.errors import DealerError
from dealers_chess.pieces.model3d.model import DEFAULT_OPTIONS, ModelOptions
from dealers_chess.printing.files import out_path, remove_unlisted, write_atomic
from dealers_chess.printing.parallel import each_on_every_core
from dealers_chess.printing.solids.built import BuiltPiece, build_for_print
from dealers_chess.printing.solids.colour_swap import ColourSwap, change_layers
from dealers_chess.printing.solids.fdm import load_fdm_settings
from dealers_chess.printing.solids.mesh_check import triangles_of
from dealers_chess.printing.solids.plate_project import ProjectPiece, write_plate_project
from dealers_chess.printing.solids.print_advice import PrintEstimate, advice, estimate
from dealers_chess.printing.solids.stl import write_stl
from dealers_chess.printing.solids.weight import PieceWeight

DEFAULT_BED_MM = (220.0, 220.0)
DEFAULT_SPACING_MM = 6.0
MAX_SPACING_MM = 100.0
MAX_BED_MM = 2000.0
MAX_PER_PLATE = 200
MAX_COPIES = 50  # a chess set needs 8 of a piece at most; 1,000 copies of one piece took 7 s and 40 plates
EDGE_MM = 10.0  # kept clear along the bed's edges at least (clips, a cooler and less level rim)
BOTH_COLOURS = "Print every plate once in each colour (white and black)."
ACCENTS = "red on White's pieces, gold on Black's"  # the accent filaments, as the pictures and projects show them
SIDES = ("white", "black")


class PlateError(DealerError):
    """A bed or spacing that cannot hold the pieces asked for."""


@dataclass(frozen=True, slots=True)
class Placement:
    """One piece on a plate: its centre on the bed in mm."""

    piece_id: str
    code: str
    x_mm: float
    y_mm: float
    diameter_mm: float


@dataclass(frozen=True, slots=True)
class Plate:
    """A numbered plate and the pieces on it."""

    number: int
    placements: tuple[Placement, ...]
    changes: tuple[ColourSwap, ...] = ()  # the filament changes every piece on the plate shares, bottom up

    @property
    def file_name(self) -> str:
        """The plate's STL file name."""
        return f"plate-{self.number:02d}.stl"

    @property
    def project_name(self) -> str:
        """The plate's PrusaSlicer project (3MF) file name."""
        return f"plate-{self.number:02d}.3mf"


def parse_bed(text: str) -> tuple[float, float]:
    """A bed size such as '220x220' (mm) as (width, depth)."""
    match = re.fullmatch(r"\s*([0-9]{1,5}(?:\.[0-9]{1,3})?)\s*[xX]\s*([0-9]{1,5}(?:\.[0-9]{1,3})?)\s*", text)
    if not match or not all(40 <= float(side) <= MAX_BED_MM for side in (match[1], match[2])):
        raise PlateError(
            f"bed size {text[:40]!r} is not allowed; write WIDTHxDEPTH in mm, each 40 to {MAX_BED_MM:g}, e.g. 220x220"
        )
    return float(match[1]), float(match[2])


def check_spacing(spacing_mm: float) -> float:
    """The gap between bases, if it is one a plate can have (1 to 100 mm)."""
    if not 1.0 <= spacing_mm <= MAX_SPACING_MM:  # also refuses nan
        raise PlateError(f"spacing {spacing_mm:g} mm is not allowed; use 1 to {MAX_SPACING_MM:g} mm between bases")
    return spacing_mm


def check_max_per_plate(max_per_plate: int | None) -> int | None:
    """The most pieces a plate may hold, if it is a count a plate can have (None: as many as fit)."""
    if max_per_plate is not None and not 1 <= max_per_plate <= MAX_PER_PLATE:
        raise PlateError(f"max per plate {max_per_plate} is not allowed; use 1 to {MAX_PER_PLATE} pieces")
    return max_per_plate


def plan_plates(
    items: Sequence[tuple[str, str, float]], bed_mm: tuple[float, float] = DEFAULT_BED_MM,
    spacing_mm: float = DEFAULT_SPACING_MM, max_per_plate: int | None = None,
) -> list[Plate]:
    """Pack (piece id, code, base diameter) items in rows, largest first, over as many plates as needed,
    each plate centred on the bed."""
    width, depth = bed_mm
    check_spacing(spacing_mm)
    limit = check_max_per_plate(max_per_plate) or len(items)
    plates: list[list[list[Placement]]] = [[[]]]  # plates of rows of placements
    x = y = row = EDGE_MM
    row_height = 0.0
    for piece_id, code, diameter in sorted(items, key=lambda item: -item[2]):
        if diameter + 2 * EDGE_MM > min(width, depth):
            raise PlateError(f"piece {piece_id!r} ({diameter:.1f} mm across) does not fit a {width:g}x{depth:g} mm bed "
                             f"with {EDGE_MM:g} mm clear along its edges")
        if x + diameter > width - EDGE_MM + 1e-9:  # next row
            x, y = EDGE_MM, row + row_height + spacing_mm
            row, row_height = y, 0.0
            plates[-1].append([])
        if y + diameter > depth - EDGE_MM + 1e-9 or sum(map(len, plates[-1])) >= limit:  # next plate
            plates.append([[]])
            x = y = row = EDGE_MM
            row_height = 0.0
        plates[-1][-1].append(Placement(piece_id, code, x + diameter / 2, y + diameter / 2, diameter))
        x += diameter + spacing_mm
        row_height = max(row_height, diameter)
    laid_out = [_centred(rows, bed_mm) for rows in plates if any(rows)]
    return [Plate(number, placements) for number, placements in enumerate(laid_out, start=1)]


def _centred(rows: Sequence[Sequence[Placement]], bed_mm: tuple[float, float]) -> tuple[Placement, ...]:
    """A plate's rows each centred across the bed, and the rows together centred from front to back."""
    low_y = min(p.y_mm - p.diameter_mm / 2 for row in rows for p in row)
    high_y = max(p.y_mm + p.diameter_mm / 2 for row in rows for p in row)
    dy = (bed_mm[1] - low_y - high_y) / 2
    placed = []
    for row in filter(None, rows):
        low_x, high_x = row[0].x_mm - row[0].diameter_mm / 2, row[-1].x_mm + row[-1].diameter_mm / 2
        dx = (bed_mm[0] - low_x - high_x) / 2
        placed += [replace(p, x_mm=round(p.x_mm + dx, 3), y_mm=round(p.y_mm + dy, 3)) for p in row]
    return tuple(placed)


def plan_evenly(
    items: Sequence[tuple[str, str, float]], bed_mm: tuple[float, float] = DEFAULT_BED_MM,
    spacing_mm: float = DEFAULT_SPACING_MM, max_per_plate: int | None = None,
) -> list[Plate]:
    """As plan_plates, the pieces spread evenly over the plates they need (17 pieces as 9 and 8, not 16
    and a lone one)."""
    plates = plan_plates(items, bed_mm, spacing_mm, max_per_plate)
    if len(plates) < 2:
        return plates
    even = plan_plates(items, bed_mm, spacing_mm, math.ceil(len(items) / len(plates)))
    return even if len(even) == len(plates) else plates


def plan_by_changes(
    items: Sequence[tuple[str, str, float]], changes: Mapping[str, tuple[ColourSwap, ...]],
    bed_mm: tuple[float, float] = DEFAULT_BED_MM, spacing_mm: float = DEFAULT_SPACING_MM,
    max_per_plate: int | None = None, heights_mm: Mapping[str, float] | None = None,
) -> list[Plate]:
    """Plates of pieces that change filament at the same layers, every one of them (the highest first change
    first), numbered from 1. With the pieces' heights, pieces that end before a group's later changes may
    join it, when that saves a plate (a lone horse head among the pawns of its level)."""
    groups: dict[tuple[int, ...], list[tuple[str, str, float]]] = {}
    for item in items:
        groups.setdefault(change_layers(changes[item[0]]), []).append(item)
    if heights_mm is not None:
        groups = _joined(groups, changes, heights_mm, bed_mm, spacing_mm, max_per_plate)
    plates: list[Plate] = []
    for layers in sorted(groups, reverse=True):
        shared = next(changes[item[0]] for item in groups[layers] if change_layers(changes[item[0]]) == layers)
        for plate in plan_evenly(groups[layers], bed_mm, spacing_mm, max_per_plate):
            plates.append(Plate(len(plates) + 1, plate.placements, shared))
    return plates


def plan_built(
    items: Sequence[tuple[str, str, float]], built: Mapping[str, BuiltPiece],
    bed_mm: tuple[float, float] = DEFAULT_BED_MM,
    spacing_mm: float = DEFAULT_SPACING_MM, max_per_plate: int | None = None,
) -> list[Plate]:
    """plan_by_changes for built pieces, with their changes and heights (what `dealer plate` and the kit lay out)."""
    return plan_by_changes(items, {piece_id: piece.changes for piece_id, piece in built.items()}, bed_mm,
                           spacing_mm, max_per_plate, {piece_id: piece.height_mm for piece_id, piece in built.items()})


def _joined(
    groups: dict[tuple[int, ...], list[tuple[str, str, float]]], changes: Mapping[str, tuple[ColourSwap, ...]],
    heights_mm: Mapping[str, float], bed_mm: tuple[float, float], spacing_mm: float, max_per_plate: int | None,
) -> dict[tuple[int, ...], list[tuple[str, str, float]]]:
    """The groups after pieces moved into a group with more changes, as many as make the fewest plates, then
    the fewest lone pieces, then the evenest plates. A piece may go where the changes begin with its own and
    the first further change comes once it is printed whole (its highest point at or under that layer's
    bottom), so the further changes colour nothing of it: plain leapers beside a horse-headed royal."""
    groups = {layers: list(members) for layers, members in groups.items()}

    def plates_for(members: list) -> int:
        return len(plan_evenly(members, bed_mm, spacing_mm, max_per_plate)) if members else 0

    def cost(longer: list, shorter: list) -> tuple[int, int, int]:
        counts = [(len(members), plates_for(members)) for members in (longer, shorter) if members]
        return (sum(plates for _, plates in counts), sum(size == 1 for size, _ in counts),
                max(math.ceil(size / plates) for size, plates in counts))

    for longer in sorted(groups, key=len, reverse=True):
        for shorter in [layers for layers in groups if len(layers) < len(longer) and longer[:len(layers)] == layers]:
            further = next(c for c in changes[groups[longer][0][0]] if c.layer == longer[len(shorter)])
            printed_by = further.z_mm - further.layer_mm + 1e-3  # a micron over: the mesh is float32
            fits = [item for item in groups[shorter] if heights_mm[item[0]] <= printed_by]
            stays = [item for item in groups[shorter] if heights_mm[item[0]] > printed_by]
            moved = min(range(len(fits) + 1), key=lambda k: (*cost(groups[longer] + fits[len(fits) - k:],
                                                                   stays + fits[:len(fits) - k]), k))
            groups[longer] += fits[len(fits) - moved:]
            groups[shorter] = stays + fits[:len(fits) - moved]
    return {layers: members for layers, members in groups.items() if members}


def write_plates(
    pieces: Sequence[PieceDef], out_dir: str | Path, options: ModelOptions = DEFAULT_OPTIONS,
    bed_mm: tuple[float, float] = DEFAULT_BED_MM, spacing_mm: float = DEFAULT_SPACING_MM, copies: int = 1,
    progress: Callable[[Plate], None] | None = None, colour_note: str = BOTH_COLOURS, max_per_plate: int | None = None,
    one_colour: bool = False, side: str = "white", built: Mapping[str, BuiltPiece] | None = None,
) -> list[Path]:
    """Write plate-NN.stl files, their PrusaSlicer projects plate-NN.3mf and plates.txt into out_dir; return
    their paths (the list last).

    A piece listed twice is placed twice; `copies` multiplies every entry. Plates hold pieces that change
    filament at the same layers, and each project changes filament (M600) at each of them, previewed in
    `side`'s colours; unless `one_colour` (pieces printed in one filament): then pieces of every height
    share plates, the fewest plates that fit, and the projects change nothing. `built`
    gives the pieces already built for print (else they are built here); plates are written one process
    per core.
    """
    if not 1 <= copies <= MAX_COPIES:
        raise PlateError(f"copies {copies} is not allowed; use 1 to {MAX_COPIES}")
    built = dict(built) if built is not None else build_for_print(pieces, options)
    items = [(piece.id, piece.code, built[piece.id].diameter_mm) for piece in pieces for _ in range(copies)]
    if one_colour:
        plates = plan_evenly(items, bed_mm, spacing_mm, max_per_plate)
    else:
        plates = plan_built(items, built, bed_mm, spacing_mm, max_per_plate)
    jobs = [(plate, {p.piece_id: (built[p.piece_id].vertices, built[p.piece_id].faces) for p in plate.placements})
            for plate in plates]
    paths = []
    written = each_on_every_core(partial(_write_plate, out_dir=Path(out_dir), bed_mm=bed_mm, side=side), jobs)
    for (plate, _), plate_paths in zip(jobs, written, strict=True):
        paths += plate_paths
        if progress is not None:
            progress(plate)
    weights = {piece_id: piece.weight for piece_id, piece in built.items()}
    cost = estimate([[p.piece_id for p in plate.placements] for plate in plates], built,
                    sum(len(plate.changes) for plate in plates))
    top_faces_mm = {piece_id: piece.top_mm for piece_id, piece in built.items()}
    listing = plate_listing(plates, options, bed_mm, spacing_mm, colour_note, weights, top_faces_mm, cost)
    paths.append(write_atomic(out_path(out_dir, "HOW-TO-PRINT.txt"), plates_how_to(cost, plates)))
    paths.append(write_atomic(out_path(out_dir, "plates.txt"), listing))
    # an earlier run's plates would be printed too
    remove_unlisted(Path(out_dir), paths, ["plate-*.stl", "plate-*.3mf"])
    return paths


def _write_plate(
    job: tuple[Plate, dict[str, tuple[np.ndarray, np.ndarray]]], out_dir: Path, bed_mm: tuple[float, float],
    side: str,
) -> list[Path]:
    """One plate's STL and PrusaSlicer project (in a worker process)."""
    plate, meshes = job
    triangles = np.concatenate([_placed(meshes[p.piece_id], p) for p in plate.placements])
    path = out_path(out_dir, plate.file_name)
    write_stl(path, triangles, f"plate {plate.number}", expected_bodies=len(plate.placements))
    return [path, _write_project(out_path(out_dir, plate.project_name), plate, meshes, bed_mm, side)]


def _write_project(
    path: Path, plate: Plate, meshes: dict[str, tuple[np.ndarray, np.ndarray]], bed_mm: tuple[float, float],
    side: str,
) -> Path:
    """The plate as a PrusaSlicer project: one object per piece at its place, an M600 at each of its change layers."""
    pieces = [ProjectPiece(p.piece_id, *meshes[p.piece_id], p.x_mm, p.y_mm) for p in plate.placements]
    write_plate_project(path, pieces, [change.z_mm for change in plate.changes], bed_mm, side)
    return path


def _placed(mesh: tuple[np.ndarray, np.ndarray], placement: Placement) -> np.ndarray:
    vertices, faces = mesh
    return triangles_of(vertices + np.array([placement.x_mm, placement.y_mm, 0.0]), faces)


def plate_listing(
    plates: Sequence[Plate], options: ModelOptions, bed_mm: tuple[float, float], spacing_mm: float,
    colour_note: str = BOTH_COLOURS, weights: dict[str, PieceWeight] | None = None,
    top_faces_mm: Mapping[str, float] | None = None, cost: PrintEstimate | None = None,
) -> str:
    """The text list of what is on each plate and where (bed origin at the front left corner)."""
    lines = [
        f"{len(plates)} plate(s) for {options.square_mm:g} mm squares on a {bed_mm[0]:g} x {bed_mm[1]:g} mm bed, "
        f"bases {spacing_mm:g} mm apart" + (", with weight pockets" if options.weight_pocket else "") + ".",
        colour_note + " The forward notch points to +y (the back of the bed).",
    ]
    heights = dict.fromkeys(" and back at ".join(f"{c.z_mm:.1f}" for c in plate.changes) for plate in plates)
    heights.pop("", None)  # plates without a change
    if heights:
        lines.append(f"{len(plates)} print job(s) a colour; filament changes (M600) at z {'; '.join(heights)} mm.")
    if cost is not None:
        lines += textwrap.wrap(cost.sentence() + ". HOW-TO-PRINT.txt: M600 on your printer, purging, the seam.", 110)
    lines += _colour_lines(plates)
    if weights:
        fdm = load_fdm_settings()
        lines += textwrap.wrap(
            f"Weights are estimates: printed {fdm.material} ({fdm.density_g_cm3:g} g/cm3) at {fdm.perimeters} "
            f"perimeters, {fdm.infill_percent:g} % infill, {fdm.top_layers} top and {fdm.bottom_layers} bottom "
            f"layers of {fdm.layer_mm:g} mm; and the two steel washers (ISO 7089) that fit the pocket.", 110)
    lines.append("")
    for plate in plates:
        count = len(plate.placements)
        lines.append(f"{plate.file_name}: {count} piece{'' if count == 1 else 's'}"
                     f"{_changes_text(plate, top_faces_mm or {})}")
        for p in plate.placements:
            weight = f", {_weight_text(weights[p.piece_id])}" if weights and p.piece_id in weights else ""
            lines.append(f"  {p.piece_id:22} {p.code:4} at x {p.x_mm:6.1f}  y {p.y_mm:6.1f}  "
                         f"({p.diameter_mm:.1f} mm base{weight})")
        lines.append("")
    return "\n".join(lines)


def _colour_lines(plates: Sequence[Plate]) -> list[str]:
    """What plates.txt says about colours: one filament a plate, or the changes and how the projects make them."""
    if not plates:
        return []
    layer_mm = next((plate.changes[0].layer_mm for plate in plates if plate.changes), None)
    if layer_mm is None:
        return ["Pieces of every height share these plates (--one-colour): print each plate in one filament.",
                "Each plate also comes as a PrusaSlicer project, plate-NN.3mf beside plate-NN.stl."]
    back = (" Where a plate names a second change, back to the body filament before the layer above the diagram, "
            "whatever rises above the diagram (a horse head, and a crown round it) prints in the body's colour."
            if _changes_back(plates) else "")
    lines = textwrap.wrap(
        "The pieces on a plate have their top faces in the same layer. For a two-colour diagram on one nozzle, "
        f"change to the accent filament ({ACCENTS}) before the layer named (layers of {layer_mm:g} mm, the first "
        "layer too): the diagram and whatever stands above the top face (a crown) print in it." + back, 110)
    return lines + textwrap.wrap(
        "Each plate also comes as a PrusaSlicer project with its changes built in, plate-NN.3mf beside "
        "plate-NN.stl: open it, slice, print; the printer stops for each filament change by itself (M600 before "
        f"each layer named). Keep {layer_mm:g} mm layers and first layer if you choose other print settings.", 110)


def _changes_back(plates: Sequence[Plate]) -> bool:
    """Whether any plate changes back to the body filament (a second change, above the diagrams)."""
    return any(len(plate.changes) > 1 for plate in plates)


def plates_how_to(cost: PrintEstimate, plates: Sequence[Plate]) -> str:
    """HOW-TO-PRINT.txt of a plates folder: the jobs, time and filament, and the printer advice."""
    title = "How to print these plates"
    lines = [title, "=" * len(title), "", *textwrap.wrap(cost.sentence() + ".", 100), ""]
    if not any(plate.changes for plate in plates):
        return "\n".join([*lines, "Each plate prints in one filament: no change, no pause.", ""])
    back = (" A plate of horse-headed pieces changes back to the body filament where their diagrams end (plates.txt "
            "names that layer too), so the horse heads print in the body's colour." if _changes_back(plates) else "")
    lines += textwrap.wrap(
        "Each plate changes to the accent filament where its pieces' top faces end (plates.txt names the layer "
        "and its z; plate-NN.3mf has the changes built in): the diagrams, and what stands on the top faces, print "
        f"in the accent. {ACCENTS[0].upper()}{ACCENTS[1:]}." + back, 100)
    return "\n".join([*lines, "", advice(100, ""), ""])


# the filament each change loads on a plate, bottom up (alternating, should a plate ever need more)
CHANGE_WORDS = ("change to the accent filament", "back to the body filament")


def _changes_text(plate: Plate, top_faces_mm: Mapping[str, float]) -> str:
    """', top faces at 27.6 mm: change to the accent filament (M600) before layer 139 (z 27.8 mm), and back to the
    body filament (M600) before layer 143 (z 28.6 mm)', or nothing without a change."""
    if not plate.changes:
        return ""
    tops = [top_faces_mm.get(p.piece_id, plate.changes[0].surface_mm) for p in plate.placements]
    low, high = f"{min(tops):.1f}", f"{max(tops):.1f}"
    where = low if low == high else f"{low}-{high}"
    steps = [f"{CHANGE_WORDS[index % 2]} (M600) before layer {change.layer} (z {change.z_mm:.1f} mm)"
             for index, change in enumerate(plate.changes)]
    return f", top faces at {where} mm: {', and '.join(steps)}"


def _weight_text(weight: PieceWeight) -> str:
    washer = f" + 2 {weight.washer.size} washers {weight.washer_g:.1f} g" if weight.washer else ""
    return f"{weight.printed_g:.1f} g{washer}"


def plates_folder(out_dir: str | Path, options: ModelOptions) -> Path:
    """Where `dealer plate` writes: one folder per square size (and pocket choice: pockets are the default)."""
    pocket = "" if options.weight_pocket else "-no-pocket"
    colour = "-one-colour" if options.one_colour else ""
    return out_path(out_dir, f"plates-{options.square_mm:g}mm{pocket}{colour}")


def deal_armies(path: str | Path, catalogue: Catalogue) -> dict[str, list[PieceDef]]:
    """Every physical piece each side needs for a saved deal (`dealer deal --save FILE`).

    A side needs its rows (royal included), extra row, pawns, its hand (kept cards and shared extras)
    and the doppelgangers of the other side's pieces, all in its own colour.
    """
    data = read_deal_file(path)
    armies = {}
    for side in SIDES:
        army = data.side(side)
        rows = army.back_ranks or (army.back_rank,)
        ids = [piece_id for row in rows for piece_id in row] + list(army.extra_row)
        if army.royal not in ids:
            ids.append(army.royal)
        ids += [*army.pawns, *army.hand, *army.dopplegangers]
        armies[side] = [catalogue.get(piece_id) for piece_id in ids]
    return armies


def army_pieces(game_id: str, catalogue: Catalogue) -> dict[str, list[PieceDef]]:
    """Every piece on the board at the start of a game (its FEN placement), by side."""
    placement = load_game(game_id).start.split()[0]
    armies: dict[str, list[PieceDef]] = {side: [] for side in SIDES}
    for token in re.findall(r"\(([A-Za-z]+)\)|([A-Za-z])", placement):
        code = token[0] or token[1]
        side = "white" if code.isupper() else "black"
        armies[side].append(catalogue.by_code(code.upper()))
    return armies


def write_side_plates(
    armies: dict[str, list[PieceDef]], what: str, out_dir: str | Path, options: ModelOptions = DEFAULT_OPTIONS,
    bed_mm: tuple[float, float] = DEFAULT_BED_MM, spacing_mm: float = DEFAULT_SPACING_MM,
    progress: Callable[[Plate], None] | None = None, max_per_plate: int | None = None, one_colour: bool = False,
) -> list[Path]:
    """Plates per side in white/ and black/ folders, each side's pieces in its own colour."""
    written = []
    built = build_for_print([piece for pieces in armies.values() for piece in pieces], options)  # once for both
    for side, pieces in armies.items():
        note = f"Print these plates in {side}: they hold every piece {side.capitalize()} needs for {what}."
        written += write_plates(
            pieces, out_path(out_dir, side), options, bed_mm, spacing_mm, 1, progress, note, max_per_plate, one_colour,
            side=side, built=built)
    return written
