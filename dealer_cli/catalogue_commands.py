"""`dealer catalogue` and `dealer piece`: list the catalogue and show one piece."""

from __future__ import annotations

import click

from dealer_cli.common import catalogue_option, echo_json
from engine.board import parse_board_size
from engine.measure.probe import Offsets, probe
from engine.measure.values import piece_value
from pieces.catalogue import Catalogue, Group, PieceDef


@click.command("catalogue")
@click.option("--set", "sets", multiple=True, help="Only pieces of this set (e.g. starter); repeatable.")
@click.option("--game", "games", multiple=True, help="Only pieces of this game (e.g. chess); repeatable.")
@click.option("--group", "groups", multiple=True, type=click.Choice([g.value for g in Group]), help="Only this group; repeatable.")
@click.option("--board", default="8x8", show_default=True, help="Board size the values are for.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@catalogue_option
def catalogue_command(sets, games, groups, board, as_json, catalogue: Catalogue) -> None:
    """List the pieces of the catalogue."""
    size = parse_board_size(board)
    rows = [
        {"id": p.id, "name": p.name, "group": p.group.value, "code": p.code, "sets": list(p.sets),
         "games": list(p.games), "betza": p.betza, "value": piece_value(p, size)}
        for p in catalogue.select(sets, games, groups)
    ]
    if as_json:
        echo_json(rows)
        return
    click.echo(f"{'id':20} {'name':17} {'group':6} {'code':4} {'value':>5}  betza")
    for row in rows:
        click.echo(f"{row['id']:20} {row['name']:17} {row['group']:6} {row['code']:4} {row['value']:5.2f}  {row['betza']}")
    click.echo(f"{len(rows)} pieces")


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


def piece_text(piece: PieceDef, offsets: Offsets | None = None) -> str:
    """What `dealer piece ID` prints: name, XBetza, value, rules, the card text and a text diagram."""
    lines = [f"{piece.name} ({piece.id}, {piece.group.value}, code {piece.code})",
             f"XBetza: {piece.betza}    value on 8x8: {piece_value(piece):.2f}"]
    if piece.rules:
        lines.append("Rules: " + ", ".join(sorted(rule.value for rule in piece.rules)))
    lines += [click.wrap_text(piece.text, width=78), "", text_diagram(offsets or probe(piece))]
    return "\n".join(lines)


def piece_json(piece: PieceDef, offsets: Offsets) -> dict:
    """The stable JSON form of one piece (see DESIGN: `dealer piece ID --json`)."""
    return {
        "id": piece.id,
        "name": piece.name,
        "group": piece.group.value,
        "code": piece.code,
        "betza": piece.betza,
        "description": piece.text,
        "rules": sorted(rule.value for rule in piece.rules),
        "sets": list(piece.sets),
        "games": list(piece.games),
        "value": piece_value(piece),
        "moves": [list(o) for o in offsets.moves],
        "initial_moves": [list(o) for o in offsets.initial_moves],
        "captures": [list(o) for o in offsets.captures],
        "initial_captures": [list(o) for o in offsets.initial_captures],
    }


SYMBOLS = {
    (True, True): "*", (True, False): "o", (False, True): "x",
}
LEGEND = "K piece   * move or capture   o move only   x capture only   i first move only   . empty"


def text_diagram(offsets: Offsets) -> str:
    """A character grid of the piece's moves, forward up, sized to its reach (at most 15x15)."""
    moves, captures = set(offsets.moves), set(offsets.captures)
    first = set(offsets.initial_moves) | set(offsets.initial_captures)
    every = moves | captures | first
    reach = max([2] + [max(abs(dx), abs(dy)) for dx, dy in every])
    lines = []
    for dy in range(reach, -reach - 1, -1):
        row = []
        for dx in range(-reach, reach + 1):
            cell = (dx, dy)
            if cell == (0, 0):
                row.append("K")
            elif cell in moves or cell in captures:
                row.append(SYMBOLS[(cell in moves, cell in captures)])
            else:
                row.append("i" if cell in first else ".")
        lines.append(" ".join(row))
    return "\n".join(lines + ["", LEGEND])


COMMANDS = (catalogue_command, piece_command)
