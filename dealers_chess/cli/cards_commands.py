"""`dealer cards`, `backs`, `calibrate`, `diagram` and `kit`: printable cards and the starter kit."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dealers_chess.cards.back import BackStyle
from dealers_chess.cli.common import catalogue_option
from dealers_chess.engine.dealing.deal_file import cards_in_play, read_deal_file
from dealers_chess.pieces.catalogue import Catalogue, Group
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.cards.jobs import (
    DeckRequest,
    Format,
    PictureMode,
    deck_pages,
    deck_pictures,
    prerender_deck,
    print_backs,
    print_calibration,
    print_cards,
    print_diagram,
)
from dealers_chess.printing.cards.pdfs import BackLayout, BackOptions
from dealers_chess.printing.cards.sheets import DEFAULT_PROFILE, Duplex
from dealers_chess.printing.files import prepare_out_dir
from dealers_chess.printing.kit import KitContext, build_kit, kit_units


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        raise DealerError(f"--back-offset {text[:40]!r}: expected X,Y in mm, e.g. 1.5,-0.5") from None
    if not (abs(x) <= 20 and abs(y) <= 20):  # also refuses nan
        raise DealerError(f"--back-offset {text!r}: offsets are at most 20 mm each way")
    return (x, y)


def deck_options(command):
    """The options that choose a deck and a sheet profile."""
    options = (
        click.option("--set", "sets", multiple=True, help="Cards of this set (default: starter); repeatable."),
        click.option("--game", "games", multiple=True, help="Cards of the pieces of this game; repeatable."),
        click.option("--group", "groups", multiple=True,
                     help=f"Only this group ({', '.join(g.value for g in Group)}); repeatable."),
        click.option("--piece", "piece_ids", multiple=True, help="Only this piece id; repeatable."),
        click.option("--profile", default=DEFAULT_PROFILE, show_default=True,
                     help="Sheet profile: letter-2x4-perforated, letter-cut, a4-cut, pod, or a .toml file."),
        click.option("--legend/--no-legend", default=None, help="Add the legend sheet (default: with whole sets)."),
        click.option("--blanks", type=click.IntRange(0, 64), default=0, show_default=True,
                     help="At least this many write-in cards per group, each with its group's back "
                          "(sheets are always filled with them)."),
        click.option("--out", "out_dir", default="build", show_default=True, type=click.Path(),
                     help="Output folder."),
    )
    for option in reversed(options):
        command = option(command)
    return command


def _request(sets, games, groups, piece_ids, profile, legend, blanks, pictures="render") -> DeckRequest:
    return DeckRequest(tuple(sets), tuple(games), tuple(groups), tuple(piece_ids), profile, legend,
                       PictureMode(pictures), blanks)


PICTURES = click.option(
    "--pictures", type=click.Choice([m.value for m in PictureMode]), default="render", show_default=True,
    help="The face's picture: the piece's 3D model rendered (cached under OUT/render-cache), or a silhouette.",
)


@click.command("cards")
@deck_options
@PICTURES
@click.option("--deal", "deal_file", type=click.Path(),
              help="Only the cards in play in a deal saved by `dealer deal --save FILE`.")
@catalogue_option
def cards_command(sets, games, groups, piece_ids, profile, legend, blanks, out_dir, pictures, deal_file,
                  catalogue: Catalogue) -> None:
    """Print card fronts as a PDF (default: the whole starter kit on perforated Letter sheets)."""
    if deal_file:
        piece_ids = (*piece_ids, *cards_in_play(read_deal_file(deal_file)))
    request = _request(sets, games, groups, piece_ids, profile, legend, blanks, pictures)
    pages = deck_pages(catalogue, request)
    prepare_out_dir(out_dir)
    pictures_needed = len(deck_pictures(catalogue, request))
    if pictures_needed:
        with click.progressbar(length=pictures_needed, label="card pictures", file=sys.stderr) as bar:
            prerender_deck(catalogue, request, Path(out_dir), bar.update)
    with click.progressbar(length=pages, label="card fronts", file=sys.stderr) as bar:
        path, pages = print_cards(catalogue, request, Path(out_dir), bar.update)
    click.echo(f"wrote {path} ({pages} page{'' if pages == 1 else 's'})")


@click.command("backs")
@deck_options
@click.option("--duplex", type=click.Choice([d.value for d in Duplex]), default="long", show_default=True,
              help="The edge your printer flips the paper on.")
@click.option("--back-offset", "back_offset", default="0,0", show_default=True,
              help="X,Y in mm to shift the backs: read it off `dealer calibrate` with the same --profile.")
@click.option("--layout", type=click.Choice([m.value for m in BackLayout]), default="sheet", show_default=True,
              help="sheet: one back page per kind of front sheet (mostly one per group), to print N times; "
                   "pages: one back per front page; "
                   "interleaved: fronts and backs alternating in one file, for a duplex printer.")
@click.option("--back-style", "back_style", type=click.Choice([s.value for s in BackStyle]), default="full",
              show_default=True, help="full: the group's colour over the whole card; light: the same design in "
                                      "outline on white, for a fraction of the ink (and no white edges to show).")
@PICTURES
@catalogue_option
def backs_command(sets, games, groups, piece_ids, profile, legend, blanks, out_dir, duplex, back_offset, layout,
                  back_style, pictures, catalogue: Catalogue) -> None:
    """Print the card backs as a PDF, placed for double-sided printing.

    sheet and pages files are printed one-sided onto fronts printed before; interleaved is printed
    double-sided. Measure --back-offset with `dealer calibrate --profile P` for the profile you print.
    """
    request = _request(sets, games, groups, piece_ids, profile, legend, blanks, pictures)
    options = BackOptions(Duplex(duplex), BackLayout(layout), _offset(back_offset), BackStyle(back_style))
    pages = deck_pages(catalogue, request, options.layout)
    prepare_out_dir(out_dir)
    with click.progressbar(length=pages, label="card backs",
                           file=sys.stderr) as bar:
        path, pages = print_backs(catalogue, request, options, Path(out_dir), bar.update)
    click.echo(f"wrote {path} ({pages} page{'' if pages == 1 else 's'})")


@click.command("calibrate")
@click.option("--profile", default=DEFAULT_PROFILE, show_default=True,
              help="The sheet profile you print the cards on: portrait and landscape pages swap the axes.")
@click.option("--duplex", type=click.Choice([d.value for d in Duplex]), default="long", show_default=True,
              help="The edge your printer flips the paper on.")
@click.option("--back-offset", "back_offset", default="0,0", show_default=True,
              help="Print the back with this offset, X,Y in mm: the scales then read the whole offset.")
@click.option("--out", "out_dir", default="build", show_default=True, type=click.Path())
def calibrate_command(profile, duplex, back_offset, out_dir) -> None:
    """Print a two-sided sheet that measures your printer's front/back offset for a profile.

    Every line is numbered on both sides: the pair with the same number that forms one straight line
    is the --back-offset for `dealer backs` with the same --profile and --duplex.
    """
    path = print_calibration(profile, Duplex(duplex), _offset(back_offset), prepare_out_dir(out_dir))
    click.echo(f"wrote {path}: print it double-sided at 100 %, then follow the steps on the sheet")


@click.command("diagram")
@click.argument("piece_id")
@click.option("--format", "fmt", type=click.Choice([f.value for f in Format]), default="svg", show_default=True)
@click.option("--card", "whole_card", is_flag=True, help="The whole card face, not just the diagram.")
@click.option("--dpi", default=300, show_default=True, help="Resolution of a PNG.")
@click.option("--bleed", is_flag=True, help="With --card: add 1/8 in bleed all round (print-on-demand).")
@PICTURES
@click.option("--out", "out_dir", default="build", show_default=True, type=click.Path())
@catalogue_option
def diagram_command(piece_id, fmt, whole_card, dpi, bleed, pictures, out_dir, catalogue: Catalogue) -> None:
    """Write one piece's movement diagram (or with --card its card face) as SVG, PNG or PDF."""
    path = print_diagram(catalogue, piece_id, Format(fmt), prepare_out_dir(out_dir), whole_card, dpi,
                         PictureMode(pictures), bleed)
    click.echo(f"wrote {path}")


@click.command("kit")
@click.option("--out", "out_dir", default="build", show_default=True, type=click.Path())
@PICTURES
@catalogue_option
def kit_command(out_dir, pictures, catalogue: Catalogue) -> None:
    """Write everything printable for the starter kit into one folder, with a how-to-print note."""
    prepare_out_dir(out_dir)
    with click.progressbar(length=1, label="starter kit", file=sys.stderr) as bar:
        ctx = KitContext(catalogue, Path(out_dir), bar.update, PictureMode(pictures))
        bar.length = kit_units(ctx)
        done = build_kit(ctx)
    for label, paths in done:
        if paths:
            click.echo(f"{label}:")
        for line in _summary(paths):
            click.echo(f"    {line}")
    click.echo(f"kit written to {out_dir}/ -- start with {Path(out_dir) / 'HOW-TO-PRINT.txt'}")


def _summary(paths: list[Path]) -> list[str]:
    """One line per file, or one per folder when a step wrote many files there."""
    folders: dict[Path, list[Path]] = {}
    for path in paths:
        folders.setdefault(path.parent, []).append(path)
    lines = []
    for folder, files in folders.items():
        if len(files) > 4:
            size = sum(f.stat().st_size for f in files) / 1024 / 1024
            lines.append(f"{folder}/  ({len(files)} files, {size:.1f} MiB)")
        else:
            lines += [f"{f}  ({f.stat().st_size / 1024:.0f} KiB)" for f in files]
    return lines


COMMANDS = (cards_command, backs_command, calibrate_command, diagram_command, kit_command)
