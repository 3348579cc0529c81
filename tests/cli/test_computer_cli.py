"""`dealer play --computer`: the computer's moves in a script and at the terminal, saved like any move."""

from __future__ import annotations

import io

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from dealers_chess.cli.terminal.prompt import play_in_terminal
from dealers_chess.engine.game import builtin_games
from dealers_chess.engine.notation import parse_fen, parse_move
from dealers_chess.engine.record import read_record
from dealers_chess.engine.session.computer import Computer
from dealers_chess.engine.session.session import Session
from dealers_chess.printing.records import Saver
from tests.cli.test_play_cli import play
from tests.positions import start_of

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder

AFTER_F3_E5 = "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2"


def test_the_fools_mate_is_punished_by_dealer_play_chess_computer_black():
    code, lines, err = play("chess", "--computer", "black", "--think", "0.5", "--fen", AFTER_F3_E5, "--save", "g.pgn",
                            script="g4\n")
    assert code == 0, err
    assert lines[1:] == ["2. g4 (White's Standard Pawn g2-g4)", "computer: d8h4", "2... Qh4# (Black's Queen d8-h4)",
                         "game over: 0-1 (checkmate)", "result: 0-1 (checkmate)"]
    record = read_record("g.pgn")
    assert record.moves == ("g4", "Qh4#") and record.tags["Result"] == "0-1"
    assert record.tags["Black"].startswith("Computer (full strength")


def test_the_computer_as_white_moves_first_and_undo_takes_back_the_pair_after_resume():
    code, lines, err = play("chess", "--computer", "white", "--think", "0.2", "--level", "4", "--save", "g.pgn",
                            script="")
    assert code == 0, err
    first = lines[1].removeprefix("computer: ")
    assert lines[1].startswith("computer: ") and lines[-1] == "result: * (unfinished)"
    pos = parse_fen(builtin_games()["chess"].start)
    parse_move(pos, first)  # a legal first move, written as `dealer moves` writes it
    reply = "e5" if first not in ("e2e4", "e2e3") else "d5"
    code, lines, err = play("--resume", "g.pgn", "--computer", "white", "--think", "0.2", "--level", "4",
                            script=f"{reply}\nundo\nquit\n")
    assert code == 0, err
    assert lines[2].startswith("computer: ")
    taken = [line for line in lines if line.startswith("took back")]
    assert len(taken) == 2 and taken[0].startswith("took back 2. ") and taken[0].endswith("; White to move")
    assert taken[1] == f"took back 1... {reply}; Black to move"
    assert len(read_record("g.pgn").moves) == 1  # the computer's first move stays
    assert read_record("g.pgn").tags["White"] == "Computer (level 4, 0.2 s a move)"


@pytest.mark.parametrize("game", ["dealers-8x8", "spinal-tap", "consuls", "wad-chess"])
def test_the_computer_opens_a_fairy_game_with_a_legal_move(game):
    code, lines, err = play(game, "--computer", "white", "--think", "0.2", "--save", "g.pgn", script="quit\n")
    assert code == 0, err
    move = lines[1].removeprefix("computer: ")
    assert lines[1] != move and lines[2].startswith("1. ")
    parse_move(start_of(game), move)  # legal at the start, in the game's own coordinates
    assert len(read_record("g.pgn").moves) == 1


@pytest.mark.parametrize("args, message", [
    (["--think", "2"], "--think and --level set the computer opponent: add --computer white or --computer black"),
    (["--level", "3"], "--think and --level set the computer opponent"),
    (["--computer", "red"], "--computer"),
    (["--computer", "black", "--level", "0"], "--level"),
    (["--computer", "black", "--think", "0"], "--think"),
])
def test_bad_computer_options_are_one_line(args, message):
    code, lines, err = play("chess", *args, script="")
    assert code == 2 and err.count("\n") == 1 and message in err, err


def test_at_the_terminal_the_computer_answers_and_the_board_is_drawn_again(tmp_path):
    session = Session.new("chess", AFTER_F3_E5)
    session.set_computer(Computer.create("black", 0.3))
    shown = io.StringIO()
    console = Console(file=shown, color_system=None, width=80, highlight=False)
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("g4\rundo\rquit\r")
        play_in_terminal(session, Saver(tmp_path / "g.pgn"), False, console)
    text = shown.getvalue()
    assert "computer: d8h4" in text and "2... Qh4# (Black's Queen d8-h4)" in text
    assert "took back 2... Qh4#; Black to move" in text and "took back 2. g4; White to move" in text
    assert session.sans == [] and read_record(tmp_path / "g.pgn").moves == ()
