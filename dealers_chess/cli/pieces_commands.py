"""`dealer pieces`, `dealer plate` and `dealer render`: STLs or 3MFs of the 3D pieces, print plates, pictures
(a piece, a line-up, a set-up on its board)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dealers_chess.cli.common import catalogue_option
from dealers_chess.pieces.catalogue import Catalogue, Group, PieceDef
from dealers_chess.pieces.errors import DealerError
from dealers_chess.pieces.model3d.model import DEFAULT_SQUARE_MM, ModelOptions
from dealers_chess.printing.files import check_target, file_stem, out_path, prepare_out_dir
from dealers_chess.printing.render_cache import write_render_png
from dealers_chess.printing.solids.board_picture import BOARD_WIDTH_PX, board_setup, write_board_png
from dealers_chess.printing.solids.lineup import LINEUP_SQUARE_PX, army_lineups, write_lineup_png
from dealers_chess.printing.solids.piece_files import PieceFormat, pieces_folder, write_piece_files
from dealers_chess.printing.solids.plates import (
    DEFAULT_SPACING_MM,
    MAX_COPIES,
    MAX_PER_PLATE,
    army_pieces,
    check_spacing,
    deal_armies,
    parse_bed,
    plates_folder,
    write_plates,
    write_side_plates,
)


def select_pieces(catalogue: Catalogue, sets, games, groups, piece_ids) -> list[PieceDef]:
    """The pieces to print (Catalogue.choose, as `dealer cards` selects); every piece when nothing is given."""
    return catalogue.choose(sets, games, groups, piece_ids, default_sets=None)


def _selection_options(command):
    for option in reversed((
        click.option("--set", "sets", multiple=True, help="Pieces of this set (e.g. starter); repeatable."),
        click.option("--game", "games", multiple=True, help="Pieces of this game (e.g. chess); repeatable."),
        click.option("--group", "groups", multiple=True, type=click.Choice([group.value for group in Group]),
                     help="Pieces of this group; repeatable."),
        click.option("--piece", "piece_ids", multiple=True,
                     help="Add this piece id to what --set, --game and --group select; repeatable."),
        click.option("--square-mm", type=float, default=DEFAULT_SQUARE_MM, show_default=True,
                     help="Board square size the pieces are for (40 and 50 are common)."),
        click.option("--weight-pocket/--no-weight-pocket", default=True, show_default=True,
                     help="Leave a pocket under the base for two stacked steel washers (up to M10), or not."),
        click.option("--one-colour", "--one-color", "one_colour", is_flag=True,
                     help="Pieces printed in one filament: the diagram stands 1.2 mm with dots of 2 mm, "
                     "to read by its shadow; plates hold pieces of every height (no filament change)."),
        click.option("--out", "out_dir", default="build", show_default=True, type=click.Path(),
                     help="Output folder."),
    )):
        command = option(command)
    return command


@click.command("pieces")
@_selection_options
@click.option("--format", "file_format", type=click.Choice([f.value for f in PieceFormat]),
              default=PieceFormat.STL.value, show_default=True,
              help="stl: one solid per file; 3mf: body, relief and code as separate parts, "
              "for a second colour on a printer with a filament changer; 3mf-prusa: the same parts as one "
              "PrusaSlicer object, relief and code on extruder 2 (ID.prusa.3mf).")
@catalogue_option
def pieces_command(sets, games, groups, piece_ids, square_mm, weight_pocket, one_colour, out_dir, file_format,
                   catalogue: Catalogue) -> None:
    """Write one STL (or 3MF) per piece (named by id), validated watertight, for printing without supports."""
    chosen = select_pieces(catalogue, sets, games, groups, piece_ids)
    options, file_format = ModelOptions(square_mm, weight_pocket, one_colour), PieceFormat(file_format)
    folder = pieces_folder(prepare_out_dir(out_dir), options)
    with click.progressbar(length=len(chosen), label="Building pieces", file=sys.stderr) as bar:
        paths = write_piece_files(chosen, folder, options, file_format, advance=bar.update)
    kind = "STL" if file_format is PieceFormat.STL else "3MF"
    click.echo(f"{len(paths)} {kind} files in {folder}")


@click.command("plate")
@_selection_options
@click.option("--bed", default="220x220", show_default=True, help="Printer bed WIDTHxDEPTH in mm.")
@click.option("--spacing", "spacing_mm", type=float, default=DEFAULT_SPACING_MM, show_default=True,
              help="Gap between bases in mm.")
@click.option("--copies", type=click.IntRange(1, MAX_COPIES), default=1, show_default=True,
              help="Copies of each piece.")
@click.option("--deal", "deal_file", type=click.Path(),
              help="A deal saved by `dealer deal --save FILE`: plates of every piece each side needs, per colour.")
@click.option("--army", "army_game", help="A game's full starting armies (e.g. chess: 16 pieces a side), per colour.")
@click.option("--max-per-plate", type=click.IntRange(1, MAX_PER_PLATE),
              help="At most this many pieces a plate, for shorter print jobs (default: as many as fit).")
@catalogue_option
def plate_command(
    sets, games, groups, piece_ids, square_mm, weight_pocket, one_colour, out_dir, bed, spacing_mm, copies, deal_file,
    army_game, max_per_plate, catalogue: Catalogue,
) -> None:
    """Lay pieces out on printer beds: one STL per plate, the same plate as a PrusaSlicer project (3MF),
    plates.txt listing each plate and HOW-TO-PRINT.txt (jobs, time, filament, M600 on your printer).

    Pieces with their top faces at one height share plates, so one filament change colours every diagram, and
    a plate of horse heads changes back to the body filament above its diagrams; the project has the changes
    (M600) built in. Top faces stand on a few shared levels: a chess army takes three plates a colour. With
    --one-colour pieces of every height share plates.
    """
    options = ModelOptions(square_mm, weight_pocket, one_colour)
    folder = plates_folder(prepare_out_dir(out_dir), options)
    bed_mm, spacing_mm = parse_bed(bed), check_spacing(spacing_mm)
    if deal_file or army_game:
        if sets or games or groups or piece_ids or copies != 1 or (deal_file and army_game):
            raise DealerError("--deal and --army choose the pieces themselves; give one of them alone")
        armies = deal_armies(deal_file, catalogue) if deal_file else army_pieces(army_game, catalogue)
        name = (file_stem(Path(deal_file).stem, "deal") if deal_file
                else "army-" + file_stem(Path(army_game).stem, "game"))
        target = out_path(folder, name)
        what = "this deal" if deal_file else f"the start of {army_game}"
        with click.progressbar(length=sum(map(len, armies.values())), label="Building plates", file=sys.stderr) as bar:
            paths = write_side_plates(armies, what, target, options, bed_mm, spacing_mm,
                                      progress=lambda plate: bar.update(len(plate.placements)),
                                      max_per_plate=max_per_plate, one_colour=one_colour)
        click.echo(f"{sum(p.suffix == '.stl' for p in paths)} plate STL files and their PrusaSlicer projects (3MF), "
                   f"white/ and black/, in {target}")
        click.echo(HOW_TO_LINE)
        return
    chosen = select_pieces(catalogue, sets, games, groups, piece_ids)
    with click.progressbar(length=len(chosen) * copies, label="Building plates", file=sys.stderr) as bar:
        paths = write_plates(
            chosen, folder, options, bed_mm, spacing_mm, copies,
            progress=lambda plate: bar.update(len(plate.placements)), max_per_plate=max_per_plate,
            one_colour=one_colour,
        )
    click.echo(f"{sum(p.suffix == '.stl' for p in paths)} plate STL files, their PrusaSlicer projects (3MF) "
               f"and {paths[-1].name} in {folder}")
    click.echo(HOW_TO_LINE)


HOW_TO_LINE = "HOW-TO-PRINT.txt beside plates.txt: jobs, time and filament a colour; M600 on your printer, purging"


@click.command("render")
@click.argument("piece_id", required=False)
@click.option("--out", "out_file", type=click.Path(),
              help="PNG file (default build/renders/ID-COLOUR.png, lineup-NAME-COLOUR.png or board-NAME-VIEW.png).")
@click.option("--colour", "--color", "colour", type=click.Choice(["white", "black", "both"]),
              help="Which copy to draw (default white); both = side by side "
              "(a line-up: White's row above Black's).")
@click.option("--width", "width_px", type=click.IntRange(32, 4000),
              help="Picture width in pixels per copy (default 600); "
              "with --lineup, pixels per board square (default 250); with --board, of the picture "
              f"(default {BOARD_WIDTH_PX}).")
@click.option("--square-mm", type=float, default=DEFAULT_SQUARE_MM, show_default=True, help="Board square size.")
@click.option("--lineup", is_flag=True, help="Draw pieces standing in a row, from the side: --game, --deal or --piece.")
@click.option("--board", is_flag=True,
              help="Draw a set-up standing on its board, as a player sees it: --game or --deal.")
@click.option("--view", type=click.Choice(["chair", "top"]),
              help="With --board: from White's chair, in perspective (default), or straight from above.")
@click.option("--game", "game_id", help="With --lineup: each piece of this game's starting army (e.g. chess); "
              "with --board: its start position (a game id or game file).")
@click.option("--deal", "deal_file", type=click.Path(),
              help="With --lineup: each piece a deal saved by `dealer deal --save FILE` gives a side; "
              "with --board: the position it sets up.")
@click.option("--piece", "piece_ids", multiple=True, help="With --lineup: this piece, in the order given; repeatable.")
@catalogue_option
def render_command(
    piece_id, out_file, colour, width_px, square_mm, lineup, board, view, game_id, deal_file, piece_ids,
    catalogue: Catalogue,
) -> None:
    """Draw a piece in three-quarter view as a PNG with a transparent background, a line-up of pieces, or a
    set-up on its board."""
    if board:
        path = _render_board(piece_id, out_file, colour, width_px or BOARD_WIDTH_PX, square_mm, lineup, view,
                             game_id, deal_file, piece_ids, catalogue)
        click.echo(str(path))
        return
    if view:
        raise DealerError("--view chooses how a board is seen; add --board")
    colour = colour or "white"
    if lineup:
        path = _render_lineup(piece_id, out_file, colour, width_px or LINEUP_SQUARE_PX, square_mm, game_id, deal_file,
                              piece_ids, catalogue)
        click.echo(str(path))
        return
    if game_id or deal_file or piece_ids:
        raise DealerError("--game, --deal and --piece choose the pieces of a line-up; add --lineup")
    if not piece_id:
        raise DealerError("render needs a PIECE_ID, or --lineup with --game GAME, --deal FILE or --piece ID, "
                          "or --board with --game GAME or --deal FILE")
    piece = catalogue.get(piece_id)
    path = check_target(Path(out_file) if out_file else out_path("build", "renders", f"{piece.id}-{colour}.png"))
    write_render_png(piece, path, width_px or 600, colour, square_mm)
    click.echo(str(path))


def _render_board(piece_id, out_file, colour, width_px, square_mm, lineup, view, game_id, deal_file, piece_ids,
                  catalogue) -> Path:
    """The board the options ask for, written as a PNG; its path."""
    if lineup or piece_id or piece_ids or colour:
        raise DealerError("--board draws a whole set-up in both colours: give it no PIECE_ID, --piece, --colour "
                          "or --lineup")
    if bool(game_id) == bool(deal_file):
        raise DealerError("a board takes its set-up from one of --game GAME or --deal FILE")
    view = view or "chair"
    name = file_stem(Path(deal_file).stem, "deal") if deal_file else file_stem(Path(game_id).stem, "game")
    default = out_path("build", "renders", f"board-{name}-{view}.png")
    path = check_target(Path(out_file) if out_file else default)
    return write_board_png(board_setup(catalogue, game_id, deal_file), path, view, width_px, square_mm)


def _render_lineup(piece_id, out_file, colour, square_px, square_mm, game_id, deal_file, piece_ids, catalogue) -> Path:
    """The line-up the options ask for, written as a PNG; its path."""
    pieces = [*([piece_id] if piece_id else []), *piece_ids]
    if sum(map(bool, (game_id, deal_file, pieces))) != 1:
        raise DealerError("a line-up takes its pieces from one of --game GAME, --deal FILE or --piece ID (repeatable)")
    if pieces:
        chosen = [catalogue.get(p) for p in pieces]
        armies, name = {"white": chosen, "black": chosen}, "pieces"
    else:
        armies = army_lineups(catalogue, game_id, deal_file)
        name = file_stem(Path(deal_file).stem, "deal") if deal_file else file_stem(Path(game_id).stem, "game")
    rows = [(side, armies[side]) for side in (("white", "black") if colour == "both" else (colour,))]
    default = out_path("build", "renders", f"lineup-{name}-{colour}.png")
    path = check_target(Path(out_file) if out_file else default)
    return write_lineup_png(rows, path, square_px / square_mm, square_mm)


COMMANDS = (pieces_command, plate_command, render_command)
