"""`dealer uci`: the computer opponent as a UCI engine, for chess GUIs and python-chess.

The protocol is dealers_chess.engine.session.uci; this command only connects it to standard input and output.
"""

from __future__ import annotations

import sys

import click

from dealers_chess.cli.common import catalogue_option
from dealers_chess.pieces.catalogue import Catalogue


@click.command("uci")
@catalogue_option
def uci_command(catalogue: Catalogue) -> None:
    """Speak UCI on standard input and output (uci, isready, setoption, ucinewgame, position, go, stop, quit).

    UCI_Variant chooses the game (every built-in game); positions are the toolkit's FEN with hands
    and extras, moves its coordinates (e2e4, e7e8q). A line it cannot read is answered with
    'info string' and the engine goes on.
    """
    from dealers_chess.engine.session.uci import run_uci

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()  # a GUI waits for each line

    run_uci(sys.stdin, write, catalogue)


COMMANDS = (uci_command,)
