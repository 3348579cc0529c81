"""The computer at the board (engine.session.computer and Session.computer): its turn, its moves, undo and redo."""

from __future__ import annotations

import pytest

from dealers_chess.engine.errors import GameError
from dealers_chess.engine.notation import format_fen, format_move
from dealers_chess.engine.record import format_record, parse_record
from dealers_chess.engine.session.commands import computer_turn, run_line
from dealers_chess.engine.session.computer import Computer, replayed
from dealers_chess.engine.session.record import session_from_record, session_record
from dealers_chess.engine.session.session import Session, SessionError

AFTER_F3_E5 = "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2"
THINK = 0.3


class NoSave:
    def save(self, session, path=None):
        return path


def against_black(fen: str | None = None, level: int | None = None) -> Session:
    session = Session.new("chess", fen)
    session.set_computer(Computer.create("black", THINK, level))
    return session


def test_the_fools_mate_is_punished():
    session = against_black(AFTER_F3_E5)
    run_line(session, NoSave(), "g4")
    assert session.computer_due
    answer = computer_turn(session)
    assert answer.lines == ["computer: d8h4"]
    assert [e.text for e in answer.report.events] == ["2... Qh4# (Black's Queen d8-h4)", "game over: 0-1 (checkmate)"]
    assert session.result_line() == "result: 0-1 (checkmate)"


def test_the_player_cannot_move_for_the_computer_and_its_moves_are_in_the_record():
    session = against_black()
    session.play("e4")
    with pytest.raises(SessionError, match="Black is the computer's side: wait for its move"):
        session.play("e5")
    with pytest.raises(SessionError, match="it is not the computer's turn"):
        against_black().computer_move()
    computer_turn(session)
    assert len(session.sans) == 2 and session.turn == 0
    record = session_record(session)
    assert record.tags["Black"] == f"Computer (full strength, {THINK:g} s a move)"
    again = session_from_record(parse_record(format_record(record)))
    assert again.sans == session.sans and format_fen(again.position) == format_fen(session.position)


def test_undo_takes_back_the_pair_and_redo_plays_it_again():
    session = against_black()
    session.play("d4")
    computer_turn(session)
    session.play("c4")
    computer_turn(session)
    fen, sans = format_fen(session.position), list(session.sans)
    report = session.undo()
    assert [e.kind.value for e in report.events] == ["undo", "undo"]
    assert session.sans == sans[:2] and session.turn == 0 and not session.computer_due
    session.redo()
    assert session.sans == sans and format_fen(session.position) == fen


def test_undo_after_the_player_mates_the_computer_takes_back_one_move():
    session = against_black("k7/8/1K6/8/8/8/8/7R w - - 0 1")
    session.play("Rh8#")
    assert session.result_line() == "result: 1-0 (checkmate)"
    session.undo()
    assert session.sans == [] and session.turn == 0


def test_when_the_computer_plays_white_its_first_move_alone_cannot_be_undone():
    session = Session.new("chess")
    session.set_computer(Computer.create("white", THINK))
    assert session.computer_due
    computer_turn(session)
    with pytest.raises(SessionError, match="only the computer's first move"):
        session.undo()
    session.play(session.moves()[0].move)
    computer_turn(session)
    session.undo()
    assert len(session.sans) == 1 and session.turn == 1


def test_resigning_against_the_computer_is_the_players_resignation():
    session = against_black()
    session.play("e4")
    assert session.computer_due
    session.resign()
    assert session.result_line() == "result: 0-1 (resignation)"


def test_a_copy_for_thinking_elsewhere_has_the_same_position_and_history():
    session = against_black()
    for move in ("Nf3", "Nf6", "Ng1", "Ng8"):
        session.computer, saved = None, session.computer
        session.play(move)
        session.computer = saved
    copy = replayed(session.position, session.start_fen)
    assert format_fen(copy) == format_fen(session.position) and copy.stack is not session.position.stack
    assert copy.key() == session.position.key() and len(copy.stack) == len(session.position.stack)


@pytest.mark.parametrize("side, seconds, level, reason", [
    ("red", None, None, "--computer 'red'; allowed: white, black"),
    ("black", 0, None, "--think 0: the computer's seconds per move must be from 0.01 to 3600"),
    ("black", None, 9, "--level 9; allowed: 1 (a beginner) to 8 (full strength)"),
])
def test_bad_computer_settings_name_the_option(side, seconds, level, reason):
    with pytest.raises(GameError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        Computer.create(side, seconds, level)


def test_level_one_is_weaker_than_full_strength():
    """A free knight: full strength always takes it; level 1 (depth 1, large random error) often does not."""
    pos = Session.new("chess", "4k3/8/8/3n4/8/8/3R4/4K3 w - - 0 1").position
    strong = Computer.create("white", THINK)
    assert format_move(pos, strong.choose(pos)) == "d2d5"
    beginner = Computer.create("white", THINK, 1)
    beginner.searcher.rng.seed(1)  # the level's random error, made repeatable
    chosen = [format_move(pos, beginner.choose(pos)) for _ in range(12)]
    assert 2 <= chosen.count("d2d5") <= 10, chosen


def test_on_a_clock_the_computer_thinks_at_most_a_twentieth_of_its_time():
    computer = Computer.create("black", 5.0)
    assert computer.limits().seconds == 5.0
    assert computer.limits(clock_left=60).seconds == pytest.approx(3.0)
    assert computer.limits(clock_left=0.2).seconds == 0.05
    assert computer.limits(clock_left=600).seconds == 5.0
