"""`dealer play` at a terminal: the prompt loop (through prompt_toolkit's pipe input), the board's colours and plain
text."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.color import Color
from rich.console import Console

from dealers_chess.cli.terminal.prompt import PIECE_STYLE, SQUARE_STYLE, draw_board, play_in_terminal
from dealers_chess.engine.record import read_record
from dealers_chess.engine.session.session import Session
from dealers_chess.engine.session.state import session_state
from dealers_chess.printing.records import Saver


def typed(session: Session, keys: str, tmp_path: Path, color_system: str | None = None) -> str:
    """Play `keys` (lines ending in \\r) at the terminal prompt; what the terminal showed."""
    shown = io.StringIO()
    console = Console(file=shown, color_system=color_system, width=80, highlight=False)
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text(keys)
        play_in_terminal(session, Saver(tmp_path / "g.pgn"), False, console)
    return shown.getvalue()


def test_accepting_a_draw_and_resigning_ask_first(tmp_path):
    session = Session.new("chess")
    shown = typed(session, "e4\rdraw\rdraw\rno\rresign\r\rdraw\ryes\rquit\r", tmp_path)
    assert shown.count("not done: the game goes on") == 2  # 'no', then an empty answer
    assert "Black offers a draw: White may accept or decline it (a move declines it too)" in shown
    assert session.result_line() == "result: 1/2-1/2 (agreement)"
    assert read_record(tmp_path / "g.pgn").tags["Termination"] == "agreement"


def test_without_colour_empty_squares_are_dots(tmp_path):
    for console in (Console(file=io.StringIO(), color_system=None, width=80, highlight=False),
                    Console(file=io.StringIO(), color_system="truecolor", no_color=True, width=80, highlight=False),
                    Console(file=io.StringIO(), color_system="standard", width=80, highlight=False)):
        session = Session.new("chess")
        session.play("e4")
        draw_board(console, session_state(session))
        lines = console.file.getvalue().splitlines()
        assert lines[:9] == ["  8 r n b q k b n r", "  7 p p p p p p p p", "  6 . . . . . . . .", "  5 . . . . . . . .",
                             "  4 . . . . P . . .", "  3 . . . . . . . .", "  2 P P P P . P P P", "  1 R N B Q K B N R",
                             "    a b c d e f g h"]
        assert "\x1b[" not in console.file.getvalue()


def test_with_256_colours_or_more_the_board_uses_the_readable_palette():
    for system, code in (("256", "48;5;65"), ("truecolor", "48;5;65")):
        console = Console(file=io.StringIO(), color_system=system, force_terminal=True, width=80)
        draw_board(console, session_state(Session.new("chess")))
        assert code in console.file.getvalue() and "48;5;130" in console.file.getvalue()


def _luminance(style: str) -> float:
    red, green, blue = Color.parse(style.split()[-1]).get_truecolor()

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


@pytest.mark.parametrize("square", sorted(SQUARE_STYLE))
def test_both_sides_codes_read_on_every_square_colour(square):
    background = _luminance(SQUARE_STYLE[square])
    for side in ("white", "black"):
        ink = _luminance(PIECE_STYLE[side])
        contrast = (max(ink, background) + 0.05) / (min(ink, background) + 0.05)
        assert contrast >= 4.0, (square, side, round(contrast, 2))  # was 2.4:1 for White on the light squares


def test_clear_clears_the_screen_and_draws_the_board_instead_of_being_read_as_a_move(tmp_path):
    shown = io.StringIO()
    console = Console(file=shown, force_terminal=True, color_system=None, width=80, highlight=False)
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("e4\rclear\rquit\r")
        play_in_terminal(Session.new("chess"), Saver(tmp_path / "g.pgn"), False, console)
    before, after = shown.getvalue().split("\x1b[2J")  # rich's clear-screen sequence, once
    assert "error" not in before + after
    assert "  4 . . . . P . . .\n" in after and "last move: 1. e4\nBlack to move\n" in after


def test_fen_is_printed_on_one_line_to_copy_back_whatever_the_width(tmp_path):
    from dealers_chess.engine.notation import format_fen

    session = Session.new("dealers-12x12")  # a FEN far wider than the 80 columns of the terminal
    fen = format_fen(session.position)
    assert len(fen) > 80
    shown = typed(session, "fen\rquit\r", tmp_path)
    assert f"fen: {fen}\n" in shown
