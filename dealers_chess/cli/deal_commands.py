"""`dealer deal`: deal the armies, arrange them, and print, save or sheet the result."""

from __future__ import annotations

import json
from pathlib import Path

import click

from dealers_chess.cli.common import WholeNumber, catalogue_files_given, catalogue_option, echo_json
from dealers_chess.engine.dealing.arrangement import Choice, arrange, load_choices, parse_rows
from dealers_chess.engine.dealing.deal import (
    DealError,
    ExtraRow,
    balanced_deal,
    deck_for,
    find_procedure,
    hand_value,
    load_procedures,
)
from dealers_chess.engine.dealing.deal_file import DealtGame, deal_json
from dealers_chess.engine.dealing.deck import load_deck, starter_deck
from dealers_chess.engine.dealing.recreate import DealOptions, recreate_command
from dealers_chess.engine.dealing.start import starting_fen
from dealers_chess.engine.rng import fresh_seed
from dealers_chess.pieces.catalogue import Catalogue
from dealers_chess.printing.files import check_target, out_path, prepare_out_dir, write_atomic

BOARDS = tuple(dict.fromkeys(procedure.board_name for procedure in load_procedures()))


@click.command("deal")
@click.option("--seed", type=WholeNumber(),
              help="Deal number; the same seed gives the same deal anywhere. Drawn at random if left out.")
@click.option("--board", type=click.Choice(BOARDS), default="8x8", show_default=True, help="Set-up procedure.")
@click.option("--extra-row", type=click.Choice([row.value for row in ExtraRow]), default="none", show_default=True,
              help="10x10: a third row of pieces or spears; 12x12: a row of spears.")
@click.option("--deck", "deck_file", type=click.Path(),
              help="A TOML deck: royals, pieces, pawns (and spears) lists of ids.")
@click.option("--big-deck", is_flag=True, help="Undealt piece cards become the draw stack for promotions.")
@click.option("--max-imbalance", type=float, help="Re-deal until the armies' values differ by at most this much.")
@click.option("--white-back", help="White's rows, back first: ids by file from a, commas; rows split by '/'. "
              "The royal's square may be left out.")
@click.option("--black-back", help="Black's rows, as --white-back.")
@click.option("--white-pawns", help="White's pawns by file from a (simplified: the one pawn chosen).")
@click.option("--black-pawns", help="Black's pawns by file from a.")
@click.option("--arrange", "arrange_file", type=click.Path(), help="A TOML file with [white]/[black] rows and pawns.")
@click.option("--interactive", is_flag=True, help="Ask each player in the terminal where the dealt cards go.")
@click.option("--json", "as_json", is_flag=True, help="Print the deal as JSON.")
@click.option("--save", type=click.Path(), help="Write the deal JSON to this file (for --deal FILE).")
@click.option("--sheet", is_flag=True, help="Also write a printable deal sheet PDF under --out.")
@click.option("--out", default="build", show_default=True, type=click.Path(), help="Folder for the deal sheet.")
@click.option("--playout", type=WholeNumber(), help="Judge the deal by play: N engine games of its start, each army "
              "taking both colours, on Ray (docs/values.md).")
@click.option("--nodes", type=WholeNumber(), default=300, show_default=True, help="--playout: nodes a move.")
@click.option("--address", help="--playout: a running Ray cluster (HOST:PORT); default: this machine's cores.")
@click.option("--workers", type=WholeNumber(), help="--playout: at most this many games at once.")
@catalogue_option
def deal_command(seed, board, extra_row, deck_file, big_deck, max_imbalance, white_back, black_back, white_pawns,
                 black_pawns, arrange_file, interactive, as_json, save, sheet, out, playout, nodes, address, workers,
                 catalogue: Catalogue) -> None:
    """Deal both armies as the rules say, reproducibly from a seed."""
    procedure = find_procedure(board, extra_row)
    if save:
        check_target(Path(save))  # before dealing: a device, folder or symlink there is refused, never replaced
    if sheet:
        prepare_out_dir(out)
    if big_deck and procedure.simplified:
        raise DealError("--big-deck needs a full deal; the simplified game promotes as in standard chess")
    seed = fresh_seed() if seed is None else seed
    deck = deck_for(procedure, load_deck(deck_file, catalogue) if deck_file else starter_deck(catalogue),
                    default=not deck_file)
    the_deal = balanced_deal(procedure, deck, seed, catalogue, max_imbalance)
    choices = load_choices(arrange_file) if arrange_file else {}
    for side, rows, pawns in (("white", white_back, white_pawns), ("black", black_back, black_pawns)):
        if rows or pawns:
            choices[side] = Choice(parse_rows(rows) if rows else None, parse_rows(pawns)[0] if pawns else None)
    if interactive:
        try:
            choices = {side: _ask(the_deal, side, catalogue) for side in ("white", "black")}
        except click.Abort:  # the input ended before every answer was given
            raise DealError("--interactive asks the players at a terminal, and the input ended; in a script give "
                            "--white-back/--black-back and --white-pawns/--black-pawns, or --arrange FILE") from None
    white, black = (arrange(the_deal, side, catalogue, choices.get(side)) for side in ("white", "black"))
    game = DealtGame(the_deal, white, black, big_deck=big_deck)
    data = deal_json(game, catalogue, starting_fen(game, catalogue))
    files = catalogue_files_given(click.get_current_context().params.get("catalogue_files", ()))
    recreate = recreate_command(DealOptions(seed, board, extra_row, deck_file, big_deck, max_imbalance, files), choices)
    if save:
        click.echo(f"deal saved to {write_atomic(save, json.dumps(data, indent=2) + chr(10))}", err=as_json)
    if sheet:
        from dealers_chess.printing.deal_sheet import (
            write_deal_sheet,  # reportlab: loaded only when a sheet is asked for
        )

        path = write_deal_sheet(game, catalogue, out_path(out, f"deal-{seed}.pdf"), recreate)
        click.echo(f"deal sheet written to {path}", err=as_json)
    if not as_json:
        click.echo(describe(game, data, catalogue, recreate))
    if playout:
        data["playout"] = _play_out(data["fen"], the_deal.procedure.game, catalogue, playout, nodes, seed,
                                   address, workers, quiet=as_json)
    if as_json:
        echo_json(data)


def _play_out(fen: str, game_id: str, catalogue: Catalogue, games: int, nodes: int, seed: int,
             address: str | None, workers: int | None, quiet: bool = False) -> dict:
    """`dealer deal --playout N`: play the dealt start out on Ray and print the verdict; its JSON form."""
    from dealers_chess.cli.common import GameProgress
    from dealers_chess.compute.ray_games import Cluster, play_games, stop
    from dealers_chess.engine.game import load_game
    from dealers_chess.engine.measure.table import pawn_logit
    from dealers_chess.engine.selfplay.playout import playout_tasks, verdict

    game = load_game(game_id)
    tasks = playout_tasks(fen, games + games % 2, nodes, seed)
    scores: dict[int, float] = {}
    with GameProgress(len(tasks), "Playing out") as progress:
        try:
            play_games(tasks, catalogue, game, Cluster(address, workers),
                       progress.counting(lambda line: scores.__setitem__(line["index"], line["score"])))
        finally:
            stop()
    found = verdict(scores, pawn_logit(game.board.label))
    if not quiet:
        click.echo(f"Playout ({found.games} games at {nodes} nodes a move): {found.line()}")
    return {"games": found.games, "points": found.points, "score": round(found.score, 3),
            "low": round(found.low, 3), "high": round(found.high, 3),
            "pawns": None if found.pawns is None else round(found.pawns, 2), "nodes": nodes, "verdict": found.line()}


def describe(game: DealtGame, data: dict, catalogue: Catalogue, recreate: str) -> str:
    """The deal as readable text: a board of codes (Black in lower case) and each side's cards."""
    board = game.deal.procedure.board
    squares = game.squares()
    width = max(len(p.code) for p in catalogue) + 1
    lines = [f"Deal {data['seed']}: {game.deal.procedure.board_name}, deck {data['deck']}, "
             f"deals taken {data['deals']}", ""]
    for rank in range(board.ranks - 1, -1, -1):
        cells = []
        for file in range(board.files):
            card, side = squares.get(board.square(file, rank), (None, None))
            code = catalogue.get(card).code if card else "."
            cells.append((code if side == "white" else code.lower()).ljust(width))
        lines.append(f"{rank + 1:>2}  " + "".join(cells))
    lines.append("    " + "".join(letter.ljust(width) for letter in "abcdefghijklmnop"[: board.files]))

    def names(cards) -> str:
        return ", ".join(catalogue.get(c).name for c in cards) or "-"

    for side in ("white", "black"):
        army = game.army(side)
        lines += ["", f"{side.capitalize()} (value {hand_value(game.deal, side, catalogue):.2f}): "
                      f"royal {catalogue.get(army.royal).name}"]
        for number, row in enumerate(army.rows, start=1):
            lines.append(f"  row {number}: {names(row)}")
        lines.append(f"  pawns: {names(army.pawns)}")
        lines.append(f"  in hand: {names(game.hand(side))}")
    lines += ["", f"{imbalance_line(data)}. Re-create: {recreate}", f"FEN: {data['fen']}"]
    return "\n".join(lines)


def imbalance_line(data: dict) -> str:
    """'Imbalance 1.20 ± 0.85 (measured values; 2 cards by the model)' and the like."""
    text = f"Imbalance {data['imbalance']:.2f}"
    measured = data["imbalance_margin"] > 0
    if measured:
        text += f" \u00b1 {data['imbalance_margin']:.2f} (95 %, from the measured values"
        text += f"; {data['model_cards']} card{'s' if data['model_cards'] != 1 else ''} by the model's estimate)" \
            if data["model_cards"] else ")"
    else:
        text += " (the model's estimates)"
    return text


def _ask(the_deal, side: str, catalogue: Catalogue) -> Choice:
    """Ask one player in the terminal for rows and pawns, until the arrangement is allowed."""
    hand = the_deal.hand(side)
    click.echo(f"\n{side.capitalize()} was dealt: royal {hand.royal}; pieces {', '.join(hand.pieces)}; "
               f"pawns {', '.join(hand.pawns)}")
    while True:
        rows = click.prompt(f"{side} rows (ids by file from a, '/' between rows; royal's square may be left out; "
                            "Enter = automatic)", default="", show_default=False)
        pawns = click.prompt(f"{side} pawns by file from a (Enter = automatic)", default="", show_default=False)
        choice = Choice(parse_rows(rows) if rows else None, parse_rows(pawns)[0] if pawns else None)
        try:
            arrange(the_deal, side, catalogue, choice)
            return choice
        except DealError as error:
            click.echo(f"error: {error}", err=True)


COMMANDS = (deal_command,)
