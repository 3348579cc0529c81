"""`dealer export ...`: a game, a deal or some pieces in another program's format.

`export` is a click group: each format is one subcommand below it (add the next one the same way).
"""

from __future__ import annotations

import click

from dealer_cli.common import catalogue_option
from pieces.catalogue import Catalogue


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
    from engine.export_diagram import diagram_for, diagram_page
    from printing.files import write_atomic

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
            raise click.UsageError(f"name a game ({names[0]!r}) or give --deal FILE, not both: the deal file names its game")
        return None, ()
    if len(names) != 1:
        raise click.UsageError("name one game (e.g. chess, dealers-8x8), or give --deal FILE, or --piece ID [ID ...]")
    return names[0], ()


COMMANDS = (export_group,)
