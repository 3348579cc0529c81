"""`dealer uci`: the computer opponent as a UCI engine, for chess GUIs and python-chess.

The protocol is engine.session.uci; this command only connects it to standard input and output.
"""

from __future__ import annotations

import sys

import click


@click.command("uci")
def uci_command() -> None:
    """Speak UCI on standard input and output (uci, isready, setoption, ucinewgame, position, go, stop, quit).

    UCI_Variant chooses the game (every built-in game); positions are the toolkit's FEN with hands
    and extras, moves its coordinates (e2e4, e7e8q). A line it cannot read is answered with
    'info string' and the engine goes on.
    """
    from engine.session.uci import run_uci

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()  # a GUI waits for each line

    run_uci(sys.stdin, write)


COMMANDS = (uci_command,)
