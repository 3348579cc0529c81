"""`dealer play`: the referee beside a real board, one game from the deal to the last move.

A terminal (standard input a terminal) gets a drawn board and line editing (dealers_chess.cli.terminal.prompt);
otherwise one move or command is read per line, one line is printed per event, and the last line is
`result: <1-0|0-1|1/2-1/2|*> (<reason>)` (dealers_chess.cli.terminal.script). The game is saved as a PGN
record after every move; while it runs, the record is locked against a second session.
"""

from __future__ import annotations

import sys

import click

from dealers_chess.cli.common import CATALOGUE_HELP, catalogue_files_given, computer_options, open_session
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.printing.records import open_game


@click.command("play")
@click.argument("game", required=False)
@click.option("--deal", "deal_file", type=click.Path(dir_okay=False),
              help="Start from a saved deal (dealer deal --save FILE).")
@click.option("--fen", help="Start from this position instead (docs/notation.md).")
@click.option("--save", "save_file", type=click.Path(dir_okay=False),
              help="The record saved after every move (default build/games/GAME-DATE-N.pgn).")
@click.option("--resume", "resume_file", type=click.Path(dir_okay=False),
              help="Continue the game saved in this record.")
@click.option("--clock", help="A clock: MINUTES+SECONDS each, e.g. 15+10 (Fischer increment); "
              "it starts when the board is first shown.")
@click.option("--catalogue", "catalogue_files", multiple=True, type=click.Path(dir_okay=False), help=CATALOGUE_HELP)
@computer_options
def play_command(game, deal_file, fen, save_file, resume_file, clock, catalogue_files, computer, think, level) -> None:
    """Play a game at the board: the referee checks every move, saves it, and says what happened.

    At a terminal, resigning and accepting or claiming a draw ask first. The record is locked while
    the game runs: no other dealer play or dealer serve can change it. With --computer the computer
    plays one side (in a script its move is printed as the line 'computer: MOVE'); undo then takes
    back its move and yours.
    """
    catalogue_files = catalogue_files_given(catalogue_files)
    catalogue = load_catalogue(catalogue_files) if catalogue_files else None
    session, saver = open_game(resume_file, save_file, "dealer play",
                               lambda: open_session(game, deal_file, fen, resume_file, clock, catalogue,
                                                            (computer, think, level)))
    try:
        if sys.stdin.isatty() and sys.stdout.isatty():
            from dealers_chess.cli.terminal.prompt import play_in_terminal

            play_in_terminal(session, saver, resume_file is not None)
            return
        from dealers_chess.cli.terminal.script import play_script

        status = play_script(session, saver, sys.stdin)
    finally:
        saver.release()
    sys.exit(status)


COMMANDS = (play_command,)
