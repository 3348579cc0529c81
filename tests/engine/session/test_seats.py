"""Seats: a page tied to one side moves, claims, offers, answers and resigns only for that side; undo is a request."""

from __future__ import annotations

import pytest

from dealers_chess.engine.session.computer import Computer
from dealers_chess.engine.session.events import ending_words
from dealers_chess.engine.session.record import session_record
from dealers_chess.engine.session.seats import Seat, run_seat_line, seat_cancel, seat_name, seat_play
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


def test_a_spectators_seat_follows_the_game_and_can_do_nothing():
    session = Session.new("chess")
    for act in (lambda: seat_play(session, Seat.WATCH, "e2e4"), lambda: seat_cancel(session, Seat.WATCH),
                lambda: line(session, Seat.WATCH, "resign"), lambda: line(session, Seat.WATCH, "draw"),
                lambda: seat_name(session, Seat.WATCH, "Eve")):
        with pytest.raises(SessionError, match="this page watches the game|a name is given on a side's page"):
            act()
    assert session.sans == [] and session.result is None and session.player_name(0) is None


def test_each_side_names_its_own_player_and_the_record_keeps_the_names():
    session = Session.new("chess")
    assert [event.text for event in seat_name(session, WHITE, "  Ann   Lee ").events] == ["White is played by Ann Lee"]
    seat_name(session, BLACK, "Bob")
    assert session_state(session).names == {"white": "Ann Lee", "black": "Bob"}
    assert (session_record(session).tags["White"], session_record(session).tags["Black"]) == ("Ann Lee", "Bob")
    for bad in ("", "   ", "x" * 41, "bell\x07"):
        with pytest.raises(SessionError, match="a player's name is 1 to 40"):
            seat_name(session, WHITE, bad)
    with pytest.raises(SessionError, match="a name is given on a side's page"):
        seat_name(session, BOTH, "Carl")


@pytest.mark.parametrize(("result", "reason", "words"), [
    ("1-0", "checkmate", "White wins by checkmate"), ("0-1", "resignation", "Black wins by resignation"),
    ("0-1", "time", "Black wins on time"), ("1-0", "royal lost", "White wins by taking the royal"),
    ("1/2-1/2", "agreement", "Draw by agreement"), ("1/2-1/2", "stalemate", "Draw by stalemate"),
    ("1/2-1/2", "threefold repetition", "Draw by threefold repetition"),
    ("1/2-1/2", "time, against a side that cannot mate", "Draw: a flag fell, but the other side cannot mate")])
def test_the_end_says_who_won_and_how(result, reason, words):
    assert ending_words(result, reason) == words


def test_a_rematch_keeps_the_start_and_clock_and_swaps_the_players_and_the_computers_side():
    from dealers_chess.engine.session.clock import TimeControl
    from dealers_chess.engine.session.rematch import rematch_session

    session = Session.new("chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", control=TimeControl.parse("3+2"),
                          tags={"DealSeed": "7"})
    session.set_computer(Computer.create("black", 0.05, 1))
    session.name_player(0, "Ann")
    assert not seat_rematch_allowed(session)
    session.resign(0)
    with pytest.raises(SessionError, match="the computer plays Black: this page follows the game"):
        seat_rematch_allowed(session, BLACK)
    assert seat_rematch_allowed(session, WHITE)  # the player's page: at once, against the computer
    again = rematch_session(session, 2)
    assert again.computer is not None and again.computer.side == 0 and again.computer.level == 1
    assert (again.tags["Black"], again.tags["DealSeed"], again.tags["Round"]) == ("Ann", "7", "2")
    assert again.start_fen == session.start_fen and again.clock is not None and again.clock.control.base_s == 180
    assert again.sans == [] and again.result is None


def seat_rematch_allowed(session: Session, seat: Seat = BOTH) -> bool:
    from dealers_chess.engine.session.seats import seat_rematch

    try:
        return seat_rematch(session, seat)
    except SessionError as error:
        if "a rematch is for a game that is over" not in str(error):
            raise
        return False
