"""A game played from a script: one move or command per line in, one line per event out, then the result line."""

from __future__ import annotations

import sys

import click

from dealers_chess.cli.terminal.text import board_lines, status_lines
from dealers_chess.engine.session.commands import Answer, computer_turn, run_line
from dealers_chess.engine.session.session import Session
from dealers_chess.engine.session.state import session_state
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.records import Saver


def play_script(session: Session, saver: Saver, lines) -> int:
    """Read one move or command per line, print one line per event; 1 if any line was refused."""
    click.echo(f"{session.position.game.name}: saved after every move to {saver.path}")
    sys.stdout.flush()
    session.start_clock()  # the script starts reading: the side to move's time runs from now
    refused = not _computer_plays(session, saver)
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            answer = run_line(session, saver, line)
        except DealerError as error:
            click.echo(f"error: {line.strip()}: {error}", err=True)
            refused = True
            continue
        state = session_state(session) if answer.board_text else None
        board = [] if state is None else board_lines(state) + status_lines(state)
        for text in [event.text for event in answer.report.events] + answer.lines + board:
            click.echo(text)
        if answer.report.choice is not None:
            click.echo(f"choice: {answer.report.choice.summary()}")
        sys.stdout.flush()  # a program driving the game through a pipe sees each answer at once
        if answer.changed and not _saved(session, saver):
            refused = True
        if answer.quit:
            break
        refused = not _computer_plays(session, saver) or refused
    session.pause()
    refused = not _saved(session, saver) or refused
    click.echo(session.result_line())
    return 1 if refused else 0


def _computer_plays(session: Session, saver: Saver) -> bool:
    """If it is the computer's turn, its move: `computer: MOVE`, then the move's events; False if it was not saved."""
    answer: Answer | None = computer_turn(session)
    if answer is None:
        return True
    for text in answer.lines + [event.text for event in answer.report.events]:
        click.echo(text)
    sys.stdout.flush()
    return _saved(session, saver)


def _saved(session: Session, saver: Saver) -> bool:
    """Autosave; on failure say why in one line and go on (the game is not lost, only unsaved)."""
    try:
        saver.save(session)
        return True
    except DealerError as error:
        click.echo(f"error: not saved: {error}", err=True)
        return False
