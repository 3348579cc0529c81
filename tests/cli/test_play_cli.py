"""`dealer play` scripted (standard input not a terminal): whole games, autosave, resume, damaged saves."""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.engine.game import builtin_games
from dealers_chess.engine.notation import format_fen, format_move
from dealers_chess.engine.position import Position
from dealers_chess.engine.record import read_record
from dealers_chess.engine.rules import legal_moves, outcome
from dealers_chess.engine.rules import play as play_move
from dealers_chess.engine.session.session import Session
from tests.positions import start_of

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder
GAMES = sorted(builtin_games())
DEALER = [sys.executable, "-m", "dealers_chess"]


def play(*args: str, script: str = ""):
    """Run `dealer play ARGS` with the script on standard input; (exit code, stdout lines, stderr)."""
    result = CliRunner().invoke(cli, ["play", *args], input=script)
    return result.exit_code, result.stdout.strip().splitlines(), result.stderr


def test_fools_mate_ends_with_the_result_line_and_is_saved():
    code, lines, _ = play("chess", script="f3\ne5\ng4\nQh4\n")
    assert code == 0
    assert lines[0].startswith("Chess: saved after every move to build/games/chess-")
    assert lines[1:] == [
        "1. f3 (White's Standard Pawn f2-f3)", "1... e5 (Black's Standard Pawn e7-e5)",
        "2. g4 (White's Standard Pawn g2-g4)", "2... Qh4# (Black's Queen d8-h4)",
        "game over: 0-1 (checkmate)", "result: 0-1 (checkmate)",
    ]
    record = read_record(next(Path("build/games").glob("chess-*-1.pgn")))
    assert record.moves == ("f3", "e5", "g4", "Qh4#") and record.tags["Termination"] == "checkmate"


def test_a_bad_line_is_reported_the_game_goes_on_and_the_exit_status_is_1():
    code, lines, errors = play("chess", "--save", "g.pgn", script="e4\ne5e4\nundo\nundo\ne4\nquit\n")
    assert code == 1
    assert errors.strip().splitlines() == [
        "error: e5e4: move 'e5e4' is not legal: no piece stands on e5",
        "error: undo: nothing to undo: no move has been played since the game started",
    ]
    assert lines[-1] == "result: * (unfinished)"
    assert read_record("g.pgn").moves == ("e4",)


def test_moves_card_fen_and_help_answer_in_lines():
    code, lines, _ = play("chess", script="moves g1\ncard N\ncard e8\nfen\nhelp\n")
    assert code == 0 and lines[1] == "2 legal moves: Nf3 Nh3"
    assert lines[2] == "Knight (knight, piece, code N)" and "King (king, royal, code K)" in lines
    assert "fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" in lines
    assert any(line.startswith("undo, redo") for line in lines)


def test_consuls_fork_mate():
    code, lines, _ = play("consuls", "--fen", "3k1k2/8/8/8/3N4/8/8/3KK3 w - - 0 1", script="d4e6\n")
    assert code == 0 and lines[-2:] == ["game over: 1-0 (checkmate)", "result: 1-0 (checkmate)"]


def test_dealers_promotion_from_hand_with_the_shared_extra():
    fen = "4k3/1P6/8/8/8/5p2/8/4K3 w - - 0 1 hand=Q(MI)(mi) shared=(MI)"
    code, lines, _ = play("dealers-8x8", "--fen", fen, script="b7b8\nMI\nfen\n")
    assert code == 0
    assert lines[1].startswith("choice: White's Standard Pawn reaches b8: promote to: Q = Queen (from White's hand), ")
    assert "White used the shared Minister: Black may no longer promote to it" in lines
    assert lines[-2] == "fen: 1(MI)2k3/8/8/8/8/5p2/8/4K3 b - - 0 1 hand=Q"


def test_big_deck_promotion_from_a_saved_deal():
    assert CliRunner().invoke(cli, ["deal", "--seed", "7", "--big-deck", "--save", "deal.json"]).exit_code == 0
    extras = " ".join(f for f in json.loads(Path("deal.json").read_text())["fen"].split() if "=" in f)
    fen = f"4(sg)3/1P6/8/8/8/8/8/4(RX)3 w - - 0 1 {extras}"
    code, lines, _ = play("--deal", "deal.json", "--fen", fen, script="b7b8\nCN\n")
    assert code == 0 and "choice: White's Standard Pawn reaches b8: promote to: MI = Minister" in lines[1]
    assert "White drew Minister, Cannon, Rook and kept the Cannon; Minister and Rook go to the discard pile" in lines
    assert read_record(next(Path("build/games").glob("*.pgn"))).tags["DealSeed"] == "7"


def test_spinal_tap_battle_move():
    code, lines, _ = play("spinal-tap", script="d3d4&e3e4&f3g4\nd9d8&e9e8\nd4d5&e4e5\n")
    assert code == 1 and lines[1].startswith("1. d3d4&e3e4&f3g4 (White's battle move, once a game:")
    assert lines[2].startswith("1... d9d8&e9e8 (Black's battle move")


def test_constable_spiel_free_castling_asks_which():
    fen = "rnbqk2r/8/4p3/8/8/4P3/8/R3K2R w KQkq - 0 1"
    code, lines, _ = play("constable-spiel", "--fen", fen, script="e1f1\nh1\nO-O\ng8\n")
    assert code == 0
    assert lines[1].startswith("choice: White's King: castle or move, which: move = King e1-f1, no castling, h1 = ")
    assert lines[2] == "1. O-O@f1 (White castles: King e1-f1, Rook h1-e1)"
    assert lines[4] == "1... O-O@g8 (Black castles: King e8-g8, Rook h8-e8)"


def test_usage_errors_exit_2_and_user_errors_exit_1():
    assert play()[0] == 2 and play("chess", "--resume", "x.pgn")[0] == 2
    code, _, errors = play("chess", "--clock", "fast")
    assert code == 1 and "MINUTES+SECONDS" in errors


def test_a_damaged_save_is_reported_and_never_overwritten():
    Path("old.pgn").write_text("[Event \"x\"]\n\n1. e4 e5 2. Nf3")
    before = Path("old.pgn").read_bytes()
    code, _, errors = play("--resume", "old.pgn", script="Nc6\n")
    assert code == 1 and errors.count("\n") == 1 and "truncated" in errors
    code, _, errors = play("chess", "--save", "old.pgn", script="e4\n")
    assert code == 1 and "already exists" in errors
    code, lines, errors = play("chess", "--save", "new.pgn",
                               script="e4\nsave old.pgn\nsave copy.pgn\ne5\nsave copy.pgn\n")
    assert code == 1 and "old.pgn: already exists" in errors and lines[-2] == "saved to copy.pgn"
    assert read_record("copy.pgn").moves == ("e4", "e5")
    assert Path("old.pgn").read_bytes() == before


def test_a_record_damaged_during_the_game_is_left_alone():
    from dealers_chess.cli.terminal.script import play_script
    from dealers_chess.engine.session.session import Session
    from dealers_chess.printing.records import Saver

    session, path = Session.new("chess"), Path("g.pgn")
    saver = Saver(path)
    saver.save(session)

    def lines():
        yield "e4\n"
        path.write_text("damaged")
        yield "e5\n"

    assert play_script(session, saver, lines()) == 1
    assert path.read_text() == "damaged" and session.sans == ["e4", "e5"]


def test_resume_after_sigkill_gives_the_same_game():
    fen = "4k3/1P6/8/3n4/8/5p2/8/3QK3 w - - 0 1 hand=(MI)(mi) shared=(MI) draw=QRBNN discard= deck=3.0"
    args = ["play", "dealers-8x8", "--fen", fen, "--save", "g.pgn", "--clock", "5+3"]
    game = subprocess.Popen([*DEALER, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in game.stdout], daemon=True).start()
    try:
        lines.get(timeout=30)
        for move, answer in (("Qxd5", "discard pile"), ("Ke7", "Ke7"), ("b8", "choice"), ("R", "discard pile"),
                             ("fen", "fen")):
            game.stdin.write(move + "\n")
            game.stdin.flush()
            last = lines.get(timeout=30)
            while answer not in last:
                last = lines.get(timeout=30)
        saved = read_record("g.pgn")
    finally:
        os.kill(game.pid, signal.SIGKILL)
        game.wait()
    resumed = subprocess.run([*DEALER, "play", "--resume", "g.pgn"], input="fen\nsave\n", capture_output=True,
                             text=True)
    out = resumed.stdout.splitlines()
    assert resumed.returncode == 0 and out[1] == last.strip()
    again = read_record("g.pgn")
    assert again.moves == saved.moves == ("Qxd5", "Ke7", "b8=R")
    assert (format_fen(again.position) == format_fen(saved.position)
            and "draw=BNNQN discard= deck=3.1" in format_fen(again.position))
    for tag in ("WhiteClock", "BlackClock"):
        assert abs(_seconds(again.tags[tag]) - _seconds(saved.tags[tag])) < 2


def _seconds(text: str) -> float:
    hours, minutes, seconds = text.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def test_flag_fall_ends_a_scripted_game_before_the_late_move(capsys):
    from dealers_chess.cli.terminal.script import play_script
    from dealers_chess.engine.session.clock import TimeControl
    from dealers_chess.engine.session.session import Session
    from dealers_chess.printing.records import Saver

    now = [0.0]
    session = Session.new("chess", control=TimeControl.parse("1+0"), now=lambda: now[0])

    def lines():
        yield "e4\n"
        now[0] += 61
        yield "e5\n"

    assert play_script(session, Saver(Path("g.pgn")), lines()) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-3:] == ["Black's flag has fallen", "game over: 1-0 (time)", "result: 1-0 (time)"]
    record = read_record("g.pgn")
    assert record.moves == ("e4",) and record.tags["Termination"] == "time"
    assert record.tags["BlackClock"] == "0:00:00.000"


def random_game(game_id: str, seed: int, plies: int) -> tuple[list[str], Position, int]:
    """Script lines for up to `plies` random legal moves (captures preferred), the position reached, the move count.

    A move is written as the engine writes coordinates; where that text leaves the player a choice
    (a king step that could also castle, an optional promotion), the line after it answers it.
    """
    rng = random.Random(seed)
    pos, shadow = start_of(game_id), Session.new(game_id)
    lines = []
    while len(shadow.sans) < plies and outcome(pos) is None:
        moves = legal_moves(pos)
        captures = [m for m in moves if pos.occ[m.to] == 1 - pos.turn]
        move = rng.choice(captures if captures and rng.random() < 0.7 else moves)
        lines.append(format_move(pos, move))
        choice = shadow.play(lines[-1]).choice
        if choice is not None:
            lines.append(next(option.key for option in choice.options if option.move == move))
            shadow.choose(lines[-1])
        play_move(pos, move)
    assert format_fen(shadow.position) == format_fen(pos)
    return lines, pos, len(shadow.sans)


def check_scripted_game(game_id: str, seed: int, plies: int) -> None:
    """`dealer play` plays a random game to the engine's position and result (resigning if none)."""
    lines_in, pos, played = random_game(game_id, seed, plies)
    ended = outcome(pos)
    script = "\n".join([*lines_in, "fen", *([] if ended else ["resign"])]) + "\n"
    save = f"{game_id}-{seed}.pgn"
    code, lines, errors = play(game_id, "--save", save, script=script)
    assert code == 0 and errors == "", errors
    assert f"fen: {format_fen(pos)}" in lines
    loser = "0-1" if pos.turn == 0 else "1-0"
    expected = f"result: {ended.result.value} ({ended.reason})" if ended else f"result: {loser} (resignation)"
    assert lines[-1] == expected
    assert len(read_record(save).moves) == played


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_plays_to_a_result(game_id):
    check_scripted_game(game_id, seed=1, plies=40)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_plays_long_random_games_to_a_result(game_id):
    for seed in range(2, 7):
        check_scripted_game(game_id, seed, plies=600)


def test_threefold_repetition_is_claimed_by_the_side_to_move():
    shuffle = "Nf3\nNf6\nNg1\nNg8\n"
    code, lines, errors = play("chess", script="Nf3\nNf6\nclaim\nNg1\nNg8\n" + shuffle + "claim\n")
    assert code == 1 and errors.startswith("error: claim: no draw can be claimed now")  # too early
    assert lines[-4:] == [
        "White may claim a draw (threefold repetition)", "White claims a draw: threefold repetition",
        "game over: 1/2-1/2 (threefold repetition)", "result: 1/2-1/2 (threefold repetition)",
    ]


def test_board_is_printed_as_text_in_a_script():
    code, lines, _ = play("chess", script="e4\nboard\n")
    board = lines[lines.index("1. e4 (White's Standard Pawn e2-e4)") + 1:]
    assert board[0] == "  8 r n b q k b n r" and board[4] == "  4 . . . . P . . ."
    assert board[8] == "    a b c d e f g h"
    assert board[9:] == ["last move: 1. e4", "Black to move", "result: * (unfinished)"]


def test_save_does_not_create_missing_folders():
    code, lines, errors = play("chess", "--save", "g.pgn", script="e4\nsave no/such/folder/x.pgn\nsave copy.pgn\n")
    assert code == 1 and errors.strip() == (
        "error: save no/such/folder/x.pgn: no/such/folder/x.pgn: the folder no/such/folder does not exist; "
        "create it first, or save elsewhere")
    assert not Path("no").exists() and read_record("copy.pgn").moves == ("e4",)
    code, _, errors = play("chess", "--save", "missing/g.pgn", script="e4\n")
    assert code == 1 and "the folder missing does not exist" in errors and not Path("missing").exists()


def test_a_record_is_held_by_one_session_and_freed_when_it_ends():
    from dealers_chess.engine.errors import RecordError
    from dealers_chess.printing.records import lock_path, lock_record

    assert play("chess", "--save", "g.pgn", script="e4\n")[0] == 0
    held = lock_record("g.pgn", "dealer serve")
    assert lock_path(Path("g.pgn")).read_text().startswith(f"dealer serve (process {os.getpid()} on ")
    code, lines, errors = play("--resume", "g.pgn", script="e5\n")
    assert code == 1 and lines == []
    assert errors.startswith(f"error: g.pgn: in use by dealer serve (process {os.getpid()} ")
    code, lines, errors = play("chess", "--save", "other.pgn", script="save g.pgn\n")  # nor a copy over it
    assert code == 1 and "error: save g.pgn: g.pgn: in use by dealer serve" in errors
    assert read_record("g.pgn").moves == ("e4",)
    with pytest.raises(RecordError, match="in use by dealer serve"):
        lock_record("g.pgn", "dealer play")
    held.release()
    assert not lock_path(Path("g.pgn")).exists()
    lock_path(Path("g.pgn")).write_text("dealer serve (process 999999999 on elsewhere, since long ago)\n")
    assert play("--resume", "g.pgn", script="e5\n")[0] == 0  # a lock file nobody holds is taken over
    assert read_record("g.pgn").moves == ("e4", "e5") and not lock_path(Path("g.pgn")).exists()


def test_a_record_another_program_changed_is_not_overwritten():
    from dealers_chess.cli.terminal.script import play_script
    from dealers_chess.printing.records import start_saver

    session = Session.new("chess")
    saver = start_saver(session, "g.pgn", None)
    assert play_script(session, saver, ["e4\n"]) == 0
    edited = Path("g.pgn").read_text().replace("1. e4", "1. d4")
    Path("g.pgn").write_text(edited)  # another program (an editor, a session without the lock) wrote it
    assert play_script(session, saver, ["e5\n"]) == 1
    assert Path("g.pgn").read_text() == edited
    saver.release()


def test_moves_of_an_empty_square_or_the_other_sides_piece_says_so():
    code, lines, _ = play("chess", script="moves e4\nmoves e7\nmoves e2\n")
    assert lines[1:4] == ["no piece stands on e4", "the piece on e7 is Black's, and it is White's turn",
                          "2 legal moves: e3 e4"]


def own_game_file(name: str = "my-game.toml") -> Path:
    """A copy of the built-in chess game file under its own id, as a user makes one."""
    from dealers_chess.engine.game import game_files

    chess = next(path for path in game_files() if path.name == "chess.toml").read_text(encoding="utf-8")
    assert 'id = "chess"' in chess
    Path(name).write_text(chess.replace('id = "chess"', 'id = "my-chess"').replace(
        'name = "Chess"', 'name = "My Chess"'), encoding="utf-8")
    return Path(name)


def test_an_own_game_file_is_played_saved_and_resumed():
    own_game_file()
    code, lines, errors = play("my-game.toml", "--save", "g.pgn", script="f3\ne5\nquit\n")
    assert (code, errors) == (0, "") and lines[0] == "My Chess: saved after every move to g.pgn"
    record = read_record("g.pgn")
    assert record.tags["Variant"] == str(Path("my-game.toml").resolve()) and record.moves == ("f3", "e5")
    code, lines, _ = play("--resume", "g.pgn", script="g4\nQh4\n")
    assert code == 0 and lines[-1] == "result: 0-1 (checkmate)"
    # without --save the record is named after the game's own id
    assert play("my-game.toml", script="e4\n")[0] == 0
    assert read_record(next(Path("build/games").glob("my-chess-*-1.pgn"))).moves == ("e4",)


def test_a_start_that_fails_leaves_no_record_and_no_lock():
    from dealers_chess.engine.errors import RecordError
    from dealers_chess.printing import records

    def cannot_save(self, session, path=None):
        raise RecordError("the disk is full")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(records.Saver, "save", cannot_save)
        code, _, errors = play("chess", "--save", "g.pgn", script="e4\n")
    assert code == 1 and errors == "error: the disk is full\n"
    assert sorted(os.listdir()) == []  # neither g.pgn nor .g.pgn.lock: the name is free for the next try
    assert play("chess", "--save", "g.pgn", script="e4\n")[0] == 0 and read_record("g.pgn").moves == ("e4",)
