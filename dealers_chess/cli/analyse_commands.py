"""`dealer analyse`: the computer's best move, score and principal variation for a position."""

from __future__ import annotations

import click

from dealers_chess.cli.common import catalogue_option, echo_json, load_position
from dealers_chess.engine.notation import format_fen, format_move
from dealers_chess.engine.search import Info, Limits, Searcher, pv_san
from dealers_chess.pieces.catalogue import Catalogue

DEFAULT_SECONDS = 2.0


@click.command("analyse")
@click.argument("game", required=False)
@click.option("--deal", "deal_file", type=click.Path(), default=None,
              help="Start from a saved deal (dealer deal --save FILE).")
@click.option("--fen", default=None, help="The position to analyse (docs/notation.md); default: the start.")
@click.option("--moves", default=None, help="Moves to play first, comma-separated: e2e4,e7e5 or e4,e5.")
@click.option("--time", "seconds", type=click.FloatRange(0.01, 3600), default=None,
              help=f"Seconds to think (default {DEFAULT_SECONDS:g} when no --depth is given).")
@click.option("--depth", type=click.IntRange(1, 64), default=None, help="Search this many plies deep.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: best move, score, depth, nodes and the line.")
@catalogue_option
def analyse_command(game, deal_file, fen, moves, seconds, depth, as_json, catalogue: Catalogue) -> None:
    """Best move, score (for the side to move) and principal variation in SAN."""
    pos = load_position(game, deal_file, fen, moves, catalogue)
    if seconds is None and depth is None:
        seconds = DEFAULT_SECONDS
    searcher = Searcher()
    searcher.prepare(pos)  # the pieces' values first, so --time is all thinking
    result = searcher.search(pos, Limits(seconds=seconds, depth=depth))
    info = result.info
    line = pv_san(pos, info.pv)
    best = None if result.move is None else {"move": format_move(pos, result.move),
                                             "san": pv_san(pos, [result.move])[0]}
    if as_json:
        echo_json({
            "game": pos.game.id, "fen": format_fen(pos), "turn": "white" if pos.turn == 0 else "black",
            "best": best, "score_cp": info.score_cp, "mate_in": info.mate_in, "depth": info.depth,
            "nodes": info.nodes, "nps": info.nps, "seconds": round(info.seconds, 3),
            "pv": line, "pv_moves": _coordinates(pos, info.pv[: len(line)]),
        })
        return
    side = "white" if pos.turn == 0 else "black"
    click.echo(f"{pos.game.name}: {format_fen(pos)}")
    if best is None:
        click.echo(f"no legal move for {side}: the game is over ({_score(info)})")
        return
    click.echo(f"score: {_score(info)} for {side}, the side to move")
    click.echo(f"depth {info.depth}, {info.nodes} nodes in {info.seconds:.2f} s ({info.nps:,} nodes/s)")
    click.echo(f"line: {' '.join(line)}")
    click.echo(f"best move: {best['san']} ({best['move']})")


def _score(info: Info) -> str:
    if info.mate_in is not None:
        if info.mate_in == 0:
            return "checkmated"
        return f"mate in {info.mate_in}" if info.mate_in > 0 else f"mated in {-info.mate_in}"
    assert info.score_cp is not None  # a completed iteration has a score or a mate
    return f"{info.score_cp / 100:+.2f}"


def _coordinates(pos, pv) -> list[str]:
    """The line's moves in coordinate form, each written in the position it is played in; pos is restored."""
    out: list[str] = []
    try:
        for m in pv:
            out.append(format_move(pos, m))
            pos.push(m)
    finally:
        for _ in out:
            pos.pop()
    return out


COMMANDS = (analyse_command,)
