"""Seats: a page tied to one side moves, claims, offers, answers and resigns only for that side; undo is a request."""

from __future__ import annotations

import pytest

from dealers_chess.engine.session.computer import Computer
from dealers_chess.engine.session.seats import Seat, run_seat_line, seat_cancel, seat_play
from dealers_chess.engine.session.session import Session, SessionError
from dealers_chess.engine.session.state import session_state

WHITE, BLACK, BOTH = Seat.WHITE, Seat.BLACK, Seat.BOTH
PROMOTION_FEN = "4k3/1P6/8/8/8/5p2/8/4K3 w - - 0 1 hand=Q(MI)(mi) shared=(MI)"


class NoSave:
    def save(self, session, path=None):
        return path


def line(session: Session, seat: Seat, text: str) -> list[str]:
    return [event.text for event in run_seat_line(session, NoSave(), seat, text).report.events]


def test_a_seat_moves_only_its_own_side_on_its_own_turn():
    session = Session.new("chess")
    with pytest.raises(SessionError, match="it is White's turn: this page plays Black and may move on Black's turn"):
        seat_play(session, BLACK, "e7e5")
    seat_play(session, WHITE, "e2e4")
    with pytest.raises(SessionError, match="it is Black's turn: this page plays White"):
        seat_play(session, WHITE, "d2d4")
    seat_play(session, BLACK, "e7e5")
    seat_play(session, BOTH, "g1f3")  # the table's own link plays either side
    assert session.sans == ["e4", "e5", "Nf3"]


def test_resigning_offering_and_answering_draws_are_for_the_seats_own_side():
    session = Session.new("chess")
    seat_play(session, WHITE, "e2e4")
    assert line(session, WHITE, "draw") == [
        "White offers a draw: Black may accept or decline it (a move declines it too)"]
    for refused in ("accept", "decline"):
        with pytest.raises(SessionError, match="White offered this draw: Black answers it"):
            line(session, WHITE, refused)
    assert line(session, BLACK, "decline") == ["Black declines the draw"]
    assert line(session, BLACK, "draw")[0].startswith("Black offers a draw")  # on White's move, as on lichess
    assert line(session, WHITE, "accept")[-1] == "game over: 1/2-1/2 (agreement)"
    session = Session.new("chess")
    assert line(session, BLACK, "resign")[0] == "Black resigns"  # White to move: Black resigns, not White
    assert session.result_line() == "result: 1-0 (resignation)"


def test_a_claim_is_the_side_to_moves_and_a_question_is_answered_or_put_away_by_it():
    session = Session.new("chess")
    for move in ("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"):
        seat_play(session, BOTH, move)
    assert session.claimable() is not None
    with pytest.raises(SessionError, match="may claim a draw on Black's turn"):
        line(session, BLACK, "claim")
    assert line(session, WHITE, "claim")[-1].startswith("game over: 1/2-1/2")
    session = Session.new("dealers-8x8", PROMOTION_FEN)
    assert seat_play(session, WHITE, "b7b8").choice is not None
    with pytest.raises(SessionError, match="may answer the question on Black's turn"):
        seat_cancel(session, BLACK)
    with pytest.raises(SessionError, match="may move on Black's turn"):
        seat_play(session, BLACK, "Q")
    assert seat_cancel(session, WHITE) and session.pending is None


def test_undo_is_a_request_the_other_seat_accepts_or_declines():
    session = Session.new("chess")
    with pytest.raises(SessionError, match="nothing to take back: White has not moved yet"):
        line(session, WHITE, "undo")
    seat_play(session, WHITE, "e2e4")
    assert line(session, WHITE, "undo") == [
        "White asks to take back a move: Black may accept or decline (a move declines too)"]
    assert session_state(session).takeback == "white"
    with pytest.raises(SessionError, match="White asked for this takeback: the other side answers it"):
        line(session, WHITE, "accept undo")
    assert line(session, BLACK, "accept undo") == ["took back 1. e4; White to move"]
    assert session.sans == [] and session.takeback is None
    seat_play(session, WHITE, "e2e4")
    seat_play(session, BLACK, "e7e5")
    line(session, WHITE, "undo")  # Black has replied: White's move and Black's reply go, White is to move again
    assert line(session, BLACK, "decline undo") == ["Black declines the takeback"] and session.sans == ["e4", "e5"]
    line(session, WHITE, "undo")
    assert len(line(session, BLACK, "accept undo")) == 2 and session.sans == [] and session.turn == 0
    seat_play(session, WHITE, "d2d4")
    line(session, WHITE, "undo")
    seat_play(session, BLACK, "d7d5")  # a move answers the request: it lapses
    assert session.takeback is None
    with pytest.raises(SessionError, match="no takeback has been asked for"):
        line(session, WHITE, "accept undo")


def test_once_the_game_is_over_no_takeback_is_asked_for_even_after_a_mate_but_the_table_may_still_undo():
    session = Session.new("chess")
    for move in ("f2f3", "e7e5", "g2g4"):
        seat_play(session, WHITE if session.turn == 0 else BLACK, move)
    line(session, WHITE, "undo")  # a request that stands when the game ends goes with it
    seat_play(session, BLACK, "d8h4")
    assert session.result is not None and session.takeback is None
    for seat in (WHITE, BLACK):
        with pytest.raises(SessionError, match=r"the game is over \(0-1, checkmate\): a takeback can no longer"):
            line(session, seat, "undo")
    with pytest.raises(SessionError, match="no takeback has been asked for"):
        line(session, WHITE, "accept undo")
    assert line(session, BOTH, "undo")[0].startswith("took back 2... Qh4#")  # one device at the board: as before


def test_against_the_computer_its_seat_follows_and_the_players_undo_is_at_once():
    session = Session.new("chess")
    session.set_computer(Computer.create("black", 0.05, 1))
    seat_play(session, WHITE, "e2e4")
    session.computer_move()
    for text in ("resign", "draw", "undo"):
        with pytest.raises(SessionError, match="the computer plays Black: this page follows the game"):
            line(session, BLACK, text)
    line(session, WHITE, "undo")
    assert session.sans == [] and session.turn == 0


def test_a_seat_sends_only_the_pages_commands():
    session = Session.new("chess")
    for text in ("save /tmp/x.pgn", "quit", "e2e4", "fen"):
        with pytest.raises(SessionError, match="is not a command; allowed: undo, redo, draw, accept"):
            line(session, WHITE, text)
