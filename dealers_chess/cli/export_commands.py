"""`dealer export ...`: a game, a deal or some pieces in another program's format.

`export` is a click group: each format is one subcommand below it (add the next one the same way).
"""

from __future__ import annotations

import click

from dealers_chess.cli.common import catalogue_option
from dealers_chess.pieces.catalogue import Catalogue


@click.group("export")
def export_group() -> None:
    """Write a game, a deal or some pieces in another program's format."""


@export_group.command("diagram")
@click.argument("names", nargs=-1, metavar="GAME | --piece ID...")
@click.option("--deal", "deal_file", type=click.Path(dir_okay=False), help="A saved deal (dealer deal --save FILE).")
@click.option("--piece", "pieces", is_flag=True, help="The names are piece ids: a diagram of those pieces alone.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False),
              help="The HTML file to write (default: print the page).")
@catalogue_option
def diagram_command(names, deal_file, pieces, out_file, catalogue: Catalogue) -> None:
    """Interactive Diagram page for chessvariants.com, listing what it simplifies.

    Of GAME, of a saved deal (--deal FILE), or of some pieces alone (--piece ID [ID ...]).
    """
    from dealers_chess.engine.exports.diagram import diagram_for, diagram_page
    from dealers_chess.printing.files import write_atomic

    game, piece_ids = _source(names, deal_file, pieces)
    diagram = diagram_for(game, deal_file, piece_ids, catalogue)
    page = diagram_page(diagram)
    if out_file is None:
        click.echo(page, nl=False)
        return
    path = write_atomic(out_file, page)
    click.echo(f"{path}: {diagram.title}, {len(diagram.pieces)} piece types, {len(diagram.simplified)} simplifications")


def _source(names: tuple[str, ...], deal_file: str | None, pieces: bool) -> tuple[str | None, tuple[str, ...]]:
    """(game, piece ids) from the command line; a usage error unless exactly one source is given."""
    if pieces:
        if deal_file or not names:
            raise click.UsageError("--piece takes one or more piece ids and no GAME or --deal")
        return None, names
    if deal_file:
        if names:
            raise click.UsageError(f"name a game ({names[0]!r}) or give --deal FILE, not both: "
                                   "the deal file names its game")
        return None, ()
    if len(names) != 1:
        raise click.UsageError("name one game (e.g. chess, dealers-8x8), or give --deal FILE, or --piece ID [ID ...]")
    return names[0], ()


@export_group.command("fsf")
@click.argument("game", required=False)
@click.option("--deal", "deal_file", type=click.Path(dir_okay=False), help="A saved deal (dealer deal --save FILE).")
@click.option("--name", help="The variant's name in variants.ini (default: the game id, or dealers-seed-N for a deal).")
@click.option("--out", "out_file", type=click.Path(dir_okay=False),
              help="The variants.ini file to write (default: print the section).")
@catalogue_option
def fsf_command(game, deal_file, name, out_file, catalogue: Catalogue) -> None:
    """A Fairy-Stockfish variants.ini section of GAME or of a saved deal (--deal FILE).

    What FSF cannot play is listed in comments at the top, with a warning; exit 1 if nothing playable is left.
    """
    from dealers_chess.engine.exports.fsf import ExportError, fsf_section
    from dealers_chess.printing.files import write_atomic

    position, default_name = _start(game, deal_file, catalogue)
    section = fsf_section(position, name or default_name)
    if section.unplayable:
        raise ExportError(f"nothing playable for Fairy-Stockfish: {'; '.join(section.unplayable)}")
    if out_file is None:
        click.echo(section.text, nl=False)
    else:
        click.echo(f"{write_atomic(out_file, section.text)}: variant [{section.name}] for Fairy-Stockfish")
    if section.simplified:
        click.echo(f"warning: {len(section.simplified)} rules simplified for Fairy-Stockfish; they are listed at the "
                   "top of the section", err=True)


def _start(game: str | None, deal_file: str | None, catalogue: Catalogue):
    """The start position and a default variant name, from GAME or --deal FILE (exactly one)."""
    if (game is None) == (deal_file is None):
        raise click.UsageError("name one game (e.g. chess, dealers-8x8) or give --deal FILE")
    from dealers_chess.engine.game import load_game
    from dealers_chess.engine.notation import parse_fen

    if deal_file is not None:
        from dealers_chess.engine.dealing.deal_file import read_deal_file

        deal = read_deal_file(deal_file)
        return parse_fen(deal.fen, load_game(deal.game), catalogue), f"dealers-seed-{deal.seed}"
    assert game is not None  # exactly one of GAME and --deal, checked above
    found = load_game(game)
    return parse_fen(found.start, found, catalogue), found.id


COMMANDS = (export_group,)
