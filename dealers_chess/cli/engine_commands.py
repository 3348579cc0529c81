"""`dealer perft` and `dealer moves`: the rules engine from the command line."""

from __future__ import annotations

import sys
import time

import click

from dealers_chess.cli.common import catalogue_option, echo_json, load_position
from dealers_chess.engine.notation import format_fen, format_move, format_san
from dealers_chess.engine.perft import divide, moves_for_perft, perft
from dealers_chess.engine.rules import claimable_draw, in_check, outcome
from dealers_chess.pieces.catalogue import Catalogue


def _battle_option(command):
    return click.option(
        "--battle", is_flag=True,
        help="Include Spinal Tap's battle moves (several pawns and crabs stepping at once, written d3d4&e3e4).",
    )(command)


def _position_options(command):
    command = click.option("--moves", default=None,
                           help="Moves to play first, comma-separated, coordinate or SAN-like: "
                           "e2e4,e7e5 or e4,e5.")(command)
    command = click.option("--fen", default=None, help="Start from this FEN instead (docs/notation.md).")(command)
    command = click.option("--deal", "deal_file", type=click.Path(), default=None,
                           help="Start from a saved deal (dealer deal --save FILE).")(command)
    return click.argument("game", required=False)(command)


@click.command("perft")
@_position_options
@click.option("--depth", type=click.IntRange(0, 12), required=True, help="Plies to count.")
@click.option("--divide", "per_move", is_flag=True, help="Also print the count below each legal move.")
@_battle_option
@catalogue_option
def perft_command(game, deal_file, fen, moves, depth, per_move, battle, catalogue: Catalogue) -> None:
    """Count the legal move sequences of DEPTH plies; the count is the last line."""
    pos = load_position(game, deal_file, fen, moves, catalogue)
    started = time.perf_counter()
    if per_move or depth >= 4:
        rows = divide(pos, depth, _progress if depth >= 4 else None, battle) if depth > 0 else []
        if per_move:
            for text, count in rows:
                click.echo(f"{text}: {count}")
        total = sum(count for _, count in rows) if depth > 0 else 1
    else:
        total = perft(pos, depth, battle)
    seconds = time.perf_counter() - started
    click.echo(f"{pos.game.id} depth {depth}: {total} nodes in {seconds:.2f} s ({total / max(seconds, 1e-9):,.0f}/s)",
               err=True)
    click.echo(total)


def _progress(moves):
    """Root moves under a progress bar on stderr (long perft runs)."""
    with click.progressbar(moves, label="perft", file=sys.stderr) as bar:
        yield from bar


@click.command("moves")
@_position_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON: fen, turn, check, outcome and the moves.")
@_battle_option
@catalogue_option
def moves_command(game, deal_file, fen, moves, as_json, battle, catalogue: Catalogue) -> None:
    """List the legal moves of the side to move (coordinate and SAN-like forms)."""
    pos = load_position(game, deal_file, fen, moves, catalogue)
    legal = moves_for_perft(pos, battle)
    rows = [{"move": format_move(pos, m), "san": format_san(pos, m, legal)} for m in legal]
    rows.sort(key=lambda row: row["move"])
    ended, claim = outcome(pos), claimable_draw(pos)
    if as_json:
        echo_json({
            "game": pos.game.id, "fen": format_fen(pos), "turn": "white" if pos.turn == 0 else "black",
            "check": in_check(pos, pos.turn), "moves": rows,
            "outcome": None if ended is None else {"result": ended.result.value, "reason": ended.reason},
            "claimable": claim,
        })
        return
    click.echo(f"{pos.game.name}: {format_fen(pos)}")
    click.echo(f"{'White' if pos.turn == 0 else 'Black'} to move{' (in check)' if in_check(pos, pos.turn) else ''}")
    width = max((len(r["move"]) for r in rows), default=4) + 2
    for row in rows:
        click.echo(f"  {row['move']:{width}} {row['san']}")
    unlisted = "" if battle or not pos.game.battle_move else " (battle moves not listed: --battle lists them)"
    summary = f"{len(rows)} legal moves{unlisted}"
    if ended:
        summary += f"; game over: {ended.result.value} ({ended.reason})"
    if claim:
        summary += f"; the player to move may claim a draw ({claim})"
    click.echo(summary)


COMMANDS = (perft_command, moves_command)
