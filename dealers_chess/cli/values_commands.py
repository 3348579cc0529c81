"""`dealer values`: piece values, the model's and the measured, and `dealer values measure`, which measures them."""

from __future__ import annotations

import itertools
import math
import sys
import time
from pathlib import Path

import click

from dealers_chess.cli.common import GameProgress, WholeNumber, catalogue_option, echo_json
from dealers_chess.compute.ray_games import Cluster, Players, check_reachable, stop
from dealers_chess.engine.board import parse_board_size
from dealers_chess.engine.measure.table import MAX_MARGIN, shipped_results
from dealers_chess.engine.measure.values import model_piece_value
from dealers_chess.engine.selfplay.allocate import first_pairs, plan_pairs
from dealers_chess.engine.selfplay.estimate import Measured, estimate, table_data
from dealers_chess.engine.selfplay.imbalance import GUARD, KING, PAWN, MeasureError, base_for, matchups_for
from dealers_chess.engine.selfplay.results import (
    LADDER_FACTOR,
    RecordedMatchup,
    Results,
    Settings,
    check_matchup,
    read_results,
    recorded,
    tasks_for_pairs,
    tasks_to_play,
)
from dealers_chess.pieces.catalogue import Catalogue, Group, PieceDef
from dealers_chess.printing.value_results import ResultsWriter, start_from, write_compressed
from dealers_chess.printing.value_table import write_table

DEFAULT_NODES = 300
DEFAULT_GAMES = 64
UNTIL_CAP_GAMES = 1000  # with --until, the most games a piece's matchup gets (the scales and the ladder 4 times)
ROUND_PAIRS = 8  # with --until, pairs a round for each player: the idle tail at a round's end stays small
DEFAULT_SEED = 1
BOARDS = ("8x8", "10x10", "12x12")


def _selection(command):
    for option in reversed((
        click.option("--set", "sets", multiple=True, help="Pieces of this set (e.g. starter); repeatable."),
        click.option("--game", "games_of", multiple=True, help="Pieces of this game (e.g. chess); repeatable."),
        click.option("--group", "groups", multiple=True, type=click.Choice([g.value for g in Group]),
                     help="Pieces of this group; repeatable."),
        click.option("--piece", "piece_ids", multiple=True, help="Add this piece id; repeatable."),
        click.option("--board", default="8x8", show_default=True, type=click.Choice(BOARDS),
                     help="The board the values are for."),
    )):
        command = option(command)
    return command


@click.group("values", invoke_without_command=True)
@_selection
@click.option("--json", "as_json", is_flag=True, help="Print JSON: model, measured value, interval and games.")
@catalogue_option
@click.pass_context
def values_command(ctx, sets, games_of, groups, piece_ids, board, as_json, catalogue: Catalogue) -> None:
    """Each piece's value in Pawns: the model's estimate and, where measured, the self-play value with its
    95 % interval and the games behind it."""
    if ctx.invoked_subcommand is not None:
        return
    from dealers_chess.engine.measure.values import value_rows

    pieces = catalogue.choose(sets, games_of, groups, piece_ids, default_sets=None)
    rows = value_rows(pieces, parse_board_size(board))
    if as_json:
        echo_json(rows)
        return
    click.echo(f"{'id':20} {'group':6} {'model':>6} {'measured':>9} {'95 % interval':>15} {'games':>6}  uses")
    for row in rows:
        measured = row["measured"]
        shown = (f"{measured['value']:9.2f} {measured['low']:7.2f} - {measured['high']:5.2f} {measured['games']:6d}"
                 if measured else f"{'-':>9} {'':>15} {'':>6}")
        click.echo(f"{row['id']:20} {row['group']:6} {row['model']:6.2f} {shown}  {row['uses']}")
    used = sum(1 for row in rows if row["uses"] == "measured")
    click.echo(f"{len(rows)} pieces, {sum(1 for row in rows if row['measured'])} measured, {used} of them within "
               f"+-{MAX_MARGIN} Pawn and used by cards and deals (docs/values.md)")


@values_command.command("measure")
@_selection
@click.option("--games", type=WholeNumber(),
              help=f"Games a piece (the Pawn-odds scale and the orthodox ladder get 4 times as many); default "
                   f"{DEFAULT_GAMES}. With --until, the most a matchup gets: default {UNTIL_CAP_GAMES}.")
@click.option("--until", "until", type=click.FloatRange(min=0, min_open=True), metavar="HALF_WIDTH",
              help="Play in rounds until every selected piece's 95 % interval is within +-HALF_WIDTH Pawn "
                   "(e.g. 0.75), each round's games where they narrow the widest intervals most.")
@click.option("--nodes", type=WholeNumber(), default=DEFAULT_NODES, show_default=True,
              help="Nodes the engine searches a move (fixed, so results do not depend on the machine).")
@click.option("--seed", type=WholeNumber(), default=DEFAULT_SEED, show_default=True, help="Seed of the openings.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False),
              help="The results file: every game is appended as it ends, and a run resumes from it. "
                   "Default: build/values-BOARD.jsonl.")
@click.option("--resume", "resume_from", type=click.Path(dir_okay=False, exists=True),
              help="Start --out from this results file (e.g. the package's own, .jsonl.gz) and extend it.")
@click.option("--fresh", is_flag=True, help="Do not start from the package's results for these settings.")
@click.option("--address", help="A running Ray cluster to play on (HOST:PORT of `ray start --head`); "
                                "default: Ray on this machine's cores.")
@click.option("--workers", type=WholeNumber(), help="At most this many games at once (default: every core).")
@catalogue_option
def measure_command(sets, games_of, groups, piece_ids, board, games, until, nodes, seed, out_file, resume_from,
                    fresh, address, workers, catalogue: Catalogue) -> None:
    """Measure pieces' values by self-play from imbalanced starts, on Ray (docs/values.md)."""
    pieces = catalogue.choose(sets, games_of, groups, piece_ids, default_sets=None)
    out = Path(out_file or f"build/values-{board}.jsonl")
    if games is None:
        games = DEFAULT_GAMES if until is None else UNTIL_CAP_GAMES
    measure(pieces, catalogue, board, games, nodes, seed, out, resume_from, fresh, address, workers, until)


@values_command.command("table")
@click.argument("results_file", required=False, type=click.Path(dir_okay=False, exists=True))
@click.option("--board", type=click.Choice(BOARDS), default="8x8", show_default=True,
              help="Without RESULTS_FILE: re-analyse the package's own results for this board.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="Write the table as TOML here.")
@click.option("--compressed", "compressed_file", type=click.Path(dir_okay=False),
              help="Also write the results file gzipped here (results-BOARD.jsonl.gz, as the package ships it).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@catalogue_option
def table_command(results_file, board, out_file, compressed_file, as_json, catalogue: Catalogue) -> None:
    """Re-analyse a results file (by default the package's own): every measured value with its interval."""
    if results_file is None:
        shipped = shipped_results(board)
        if shipped is None:
            raise MeasureError(f"the package holds no measured results for {board}; give a results file "
                               f"(`dealer values measure --board {board}` writes one)")
        results_file = str(shipped)
    if compressed_file:
        write_compressed(results_file, compressed_file)
    analyse(Path(results_file), catalogue, Path(out_file) if out_file else None, as_json)


REPORT_EVERY_S = 20.0  # how often the estimates are printed while games come in


def measure(pieces: list[PieceDef], catalogue: Catalogue, board: str, games: int, nodes: int, seed: int,
            out: Path, resume_from: str | None, fresh: bool, address: str | None, workers: int | None,
            until: float | None = None) -> None:
    """Plan the matchups, play the games still missing on Ray, append each to `out`, report the values.
    With `until`, play in rounds until every piece's 95 % half-width is at most that (`games`: the cap)."""
    settings = Settings(board, nodes, seed)
    base = base_for(board)
    if address:
        check_reachable(address)  # before anything is written or played
    _begin(out, settings, resume_from, fresh)
    results = read_results(out) if out.exists() else Results(settings=settings)
    if results.settings != settings:
        raise MeasureError(f"{out}: its games were played with {results.settings}; measure with those "
                           "settings or into another --out")
    board_size = base.game_def().board
    plan = matchups_for(pieces, base, catalogue, lambda p: model_piece_value(catalogue.get(p), board_size))
    with ResultsWriter(out) as writer:
        if not out.stat().st_size:
            writer.append(settings.header())
        run = _Run(results, _record(plan, results, catalogue, writer, out), catalogue, writer)
        try:
            with Players(catalogue, base.game_def(), Cluster(address, workers)) as players:
                if until is None:
                    tasks = tasks_to_play(results, run.chosen, games)
                    click.echo(f"{len(run.targets)} matchups, {results.game_count} games already in {out}, "
                               f"{len(tasks)} to play at {nodes} nodes a move", err=True)
                    run.play(tasks, players, "Measuring")
                else:
                    click.echo(f"{len(run.targets)} matchups, {results.game_count} games already in {out}, "
                               f"playing at {nodes} nodes a move until every interval is within +-{until} Pawn "
                               f"(at most {games} games a piece)", err=True)
                    _until(run, [p.id for p in pieces], until, games, players)
        finally:
            stop()
    _print_values(estimate(results), [p.id for p in pieces], catalogue)


def _begin(out: Path, settings: Settings, resume_from: str | None, fresh: bool) -> None:
    """A new --out starts from --resume's file, or from the package's results when they have these settings."""
    if out.exists():
        if resume_from:
            raise MeasureError(f"{out} exists: it resumes by itself; --resume only starts a new results file")
        return
    source = resume_from or (None if fresh else shipped_results(settings.board, settings.nodes, settings.seed))
    if source:
        start_from(source, out)


def _record(plan, results: Results, catalogue: Catalogue, writer: ResultsWriter, out: Path) -> list[RecordedMatchup]:
    """The plan's matchups as the file has them (new ones appended to it)."""
    chosen = []
    for matchup in plan:
        new = recorded(matchup, catalogue)
        old = results.matchups.get(new.id)
        if old is None:
            writer.append(new.line())
            results.matchups[new.id] = old = new
        else:
            check_matchup(old, new, out)
        chosen.append(old)
    return chosen


class _Run:
    """A measuring run under way: its results (the file's, kept up to date), matchups and results file."""

    def __init__(self, results: Results, chosen: list[RecordedMatchup], catalogue: Catalogue,
                 writer: ResultsWriter) -> None:
        self.results, self.chosen, self.catalogue, self.writer = results, chosen, catalogue, writer
        self.targets = list(dict.fromkeys(m.target for m in chosen))

    def play(self, tasks, players: Players, label: str) -> None:
        """Play the tasks, append each game to the file as it ends, print the estimates every REPORT_EVERY_S."""
        last_report = time.perf_counter()

        def on_game(line: dict) -> None:
            nonlocal last_report
            line = {"type": "game", **line}
            self.writer.append(line)
            self.results.games.setdefault(line["matchup"], {})[line["index"]] = line
            if time.perf_counter() - last_report >= REPORT_EVERY_S:
                last_report = time.perf_counter()
                click.echo("", err=True)
                _print_values(estimate(self.results), self.targets, self.catalogue, sys.stderr)

        with GameProgress(len(tasks), label) as progress:
            players.play(tasks, progress.counting(on_game))


def _until(run: _Run, selected: list[str], until: float, cap: int, players: Players) -> None:
    """Rounds of games, each where it narrows the widest intervals most (engine.selfplay.allocate), until every
    selected piece is within +-until or the matchups its value stands on have reached the cap."""
    measured_targets = {m.target for m in run.chosen}
    pieces = [p for p in selected if p != PAWN and (GUARD if p == KING else p) in measured_targets]
    for number in itertools.count(1):
        found = estimate(run.results)
        widths = {p: found[p].half_width if p in found else math.inf for p in pieces}
        wide = [p for p, width in widths.items() if width > until]
        if not wide:
            click.echo(f"Every piece's interval is within +-{until} Pawn.", err=True)
            return
        first = first_pairs(run.results, run.chosen, widths, until, cap)
        pairs = first or plan_pairs(run.results, run.chosen, widths, until, cap, ROUND_PAIRS * players.count,
                                    least=players.count)  # a pair for every player at least: none idles
        if not pairs:
            click.echo(f"{_names(wide, run.catalogue)}: still wider than +-{until} Pawn, and more games within "
                       f"the cap (--games {cap} a piece, the scales and the ladder {LADDER_FACTOR} times that) "
                       "would not narrow them.", err=True)
            return
        ahead = "" if first else \
            f", about {2 * sum(plan_pairs(run.results, run.chosen, widths, until, cap, None).values()):,} games to go"
        click.echo(f"Round {number}: {len(wide)} of {len(pieces)} pieces wider than +-{until} Pawn{ahead}; "
                   f"{'first pairs' if first else 'pairs'}: "
                   + ", ".join(f"{m} {n}" for m, n in sorted(pairs.items(), key=lambda item: -item[1])), err=True)
        run.play(tasks_for_pairs(run.results, run.chosen, pairs), players, "Measuring")


def _names(pieces: list[str], catalogue: Catalogue) -> str:
    return ", ".join(catalogue.get(p).name if p in catalogue else p for p in pieces)


def _minutes(minutes: float) -> str:
    return f"{minutes:.0f} min" if minutes < 120 else f"{minutes / 60:.1f} h"


def _print_values(found: dict[str, Measured], pieces: list[str], catalogue: Catalogue, file=None) -> None:
    line = []
    for piece in pieces:
        measured = found.get(piece)
        if measured is not None:
            name = catalogue.get(piece).name if piece in catalogue else piece
            line.append(f"{name} {measured.value:.2f} [{measured.low:.2f}, {measured.high:.2f}] ({measured.games})")
    for start in range(0, len(line), 3):
        click.echo("  " + "; ".join(line[start:start + 3]), file=file)


def analyse(path: Path, catalogue: Catalogue, out: Path | None, as_json: bool) -> None:
    """`dealer values table`: the values a results file gives, printed and optionally written as TOML."""
    results = read_results(path)
    found = estimate(results)
    data = table_data(results, found, path.name)
    if out is not None:
        write_table(out, data)
    if as_json:
        echo_json(data)
        return
    for piece, row in data["piece"].items():
        click.echo(f"{piece:20} {row['value']:6.2f}  [{row['low']:6.2f}, {row['high']:6.2f}]  "
                   f"{row['games']:4d} games  {row['matchup']}")
    click.echo(f"{len(data['piece'])} values from {results.game_count} games in {path}")


COMMANDS = (values_command,)
