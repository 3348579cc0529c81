"""`dealer catalogue` and `dealer piece`: list the catalogue and show one piece."""

from __future__ import annotations

import click

from dealers_chess.cli.common import catalogue_option, echo_json
from dealers_chess.engine.board import parse_board_size
from dealers_chess.engine.measure.describe import piece_json, piece_text
from dealers_chess.engine.measure.probe import probe
from dealers_chess.engine.measure.values import piece_value, value_margin
from dealers_chess.pieces.catalogue import Catalogue, Group


@click.command("catalogue")
@click.option("--set", "sets", multiple=True, help="Only pieces of this set (e.g. starter); repeatable.")
@click.option("--game", "games", multiple=True, help="Only pieces of this game (e.g. chess); repeatable.")
@click.option("--group", "groups", multiple=True, type=click.Choice([g.value for g in Group]),
              help="Only this group; repeatable.")
@click.option("--board", default="8x8", show_default=True, help="Board size the values are for.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@catalogue_option
def catalogue_command(sets, games, groups, board, as_json, catalogue: Catalogue) -> None:
    """List the pieces of the catalogue."""
    size = parse_board_size(board)
    rows = [
        {"id": p.id, "name": p.name, "group": p.group.value, "code": p.code, "sets": list(p.sets),
         "games": list(p.games), "betza": p.betza, "value": piece_value(p, size),
         "measured": value_margin(p, size) is not None}
        for p in catalogue.select(sets, games, groups)
    ]
    if as_json:
        echo_json(rows)
        return
    click.echo(f"{'id':20} {'name':17} {'group':6} {'code':4} {'value':>5}  betza")
    for row in rows:
        mark = " " if row["measured"] else "~"
        click.echo(f"{row['id']:20} {row['name']:17} {row['group']:6} {row['code']:4} {row['value']:5.2f}{mark} "
                   f"{row['betza']}")
    click.echo(f"{len(rows)} piece{'' if len(rows) == 1 else 's'}; ~ marks the model's estimate, the others are "
               "measured by self-play (dealer values)")


@click.command("piece")
@click.argument("piece_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON with moves, initial_moves and captures.")
@catalogue_option
def piece_command(piece_id: str, as_json: bool, catalogue: Catalogue) -> None:
    """Show one piece: rules text, notation, value and its moves from the centre of an empty board."""
    piece = catalogue.get(piece_id)
    offsets = probe(piece)
    if as_json:
        echo_json(piece_json(piece, offsets))
        return
    click.echo(piece_text(piece, offsets))


COMMANDS = (catalogue_command, piece_command)
