"""The game session: moves in any notation, events in words, choices, undo/redo, draws, clock and records."""

from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.engine.dealing.deal_file import read_deal_file
from dealers_chess.engine.errors import IllegalMoveError, NotationError
from dealers_chess.engine.notation import format_fen
from dealers_chess.engine.record import format_record, parse_record
from dealers_chess.engine.session.choices import ChoiceKind
from dealers_chess.engine.session.clock import ClockError, TimeControl, format_seconds
from dealers_chess.engine.session.events import EventKind
from dealers_chess.engine.session.record import session_from_record, session_record
from dealers_chess.engine.session.session import Session, SessionError
from dealers_chess.engine.session.state import session_state


class FakeTime:
    """A time source the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def kinds(report) -> list[EventKind]:
    return [event.kind for event in report.events]


def texts(report) -> str:
    return " | ".join(event.text for event in report.events)


def test_fools_mate_in_any_notation_ends_with_checkmate():
    session = Session.new("chess")
    for text in ("f2f3", "e7-e5", "g4", "Qh4"):
        report = session.play(text)
    assert kinds(report) == [EventKind.MOVE, EventKind.GAME_OVER]
    assert report.events[0].text == "2... Qh4# (Black's Queen d8-h4)"
    assert session.result_line() == "result: 0-1 (checkmate)"
    with pytest.raises(SessionError, match="game is over"):
        session.play("a2a3")


@pytest.mark.parametrize(("text", "said"), [
    ("B1c2", "1. B1c2 (White's Bishop d1-c2)"),  # SAN with a rank: the Bishop on rank 1, not the King on b1
    ("b1c2", "1. Kc2 (White's King b1-c2)"),  # the from-square in lower case: a coordinate move
    ("B1-C2", "1. Kc2 (White's King b1-c2)"),  # both squares in capitals: a coordinate move
    ("b1C2", "1. Kc2 (White's King b1-c2)"),
])
def test_mixed_case_reads_as_docs_notation_says(text, said):
    session = Session.new("chess", fen="4k3/7p/8/8/8/3B4/8/1K1B4 w - - 0 1")
    assert session.play(text).events[0].text == said


def test_bad_moves_raise_and_leave_the_game_unchanged():
    session = Session.new("chess")
    with pytest.raises(IllegalMoveError, match="e2e5"):
        session.play("e2e5")
    with pytest.raises(NotationError):
        session.play("castle please")
    assert session.sans == [] and format_fen(session.position) == session.start_fen


def test_promotion_is_asked_then_answered_and_undo_redo_restore_it():
    session = Session.new("chess", fen="4k3/1P5p/8/8/8/8/8/4K3 w - - 0 1")  # the pawn keeps K+N v K alive
    report = session.play("b7b8")
    assert report.events == () and report.choice.kind is ChoiceKind.PROMOTION
    assert [o.key for o in report.choice.options] == ["Q", "R", "B", "N"]
    assert session.choices_for("b7", "b8") == report.choice
    with pytest.raises(SessionError, match=r"^'M' is neither an answer nor a legal move; White's Standard Pawn "
                                           r"reaches b8: promote to: Q, R, B, N \(or play another move\)$"):
        session.play("M")
    assert session.pending == report.choice
    report = session.play("n")
    assert kinds(report) == [EventKind.MOVE, EventKind.PROMOTION]
    assert format_fen(session.position).startswith("1N2k3/")
    assert session.undo().events[0].text == "took back 1. b8=N; White to move"
    assert format_fen(session.position) == session.start_fen
    session.redo()
    assert session.sans == ["b8=N"]
    with pytest.raises(SessionError, match="nothing to redo"):
        session.redo()


def test_shared_extra_promotion_from_hand_is_told_and_leaves_both_hands():
    session = Session.new("dealers-8x8", fen="4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 hand=Q(MI)(mi) shared=(MI)")
    choice = session.play("b7b8").choice
    assert {o.key: o.text for o in choice.options} == {
        "Q": "Queen (from White's hand)", "MI": "Minister (shared extra: the other side loses it too)"}
    report = session.choose("MI")
    assert kinds(report) == [EventKind.MOVE, EventKind.PROMOTION, EventKind.SHARED]
    assert "Black may no longer promote to it" in texts(report)
    assert session.position.hands == [("queen",), ()] and session.position.shared == ()


def test_big_deck_promotion_offers_the_three_cards_drawn_and_says_what_was_discarded():
    session = Session.new("dealers-8x8", fen="4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 draw=QRBNN discard= deck=7.0")
    choice = session.play("b7b8").choice
    assert [o.key for o in choice.options] == ["Q", "R", "B"]
    report = session.play("R")
    assert "White drew Queen, Rook, Bishop and kept the Rook; Queen and Bishop go to the discard pile" in texts(report)
    assert "ran low" in texts(report) and session.position.deck.shuffles == 1


@pytest.mark.parametrize("game, fen, move, kind, words", [
    ("dealers-8x8", "4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1", "Qxd5", EventKind.HAND, "a Knight goes into White's hand"),
    ("dealers-8x8", "4k3/8/8/3(zo)4/8/8/8/3QK3 w - - 0 1", "d1d5", EventKind.ZOMBIE, "becomes a Zombie Pawn itself"),
    ("dealers-8x8", "4k3/8/8/3n4/3(LB)4/8/8/4K3 w - - 0 1", "d4d5", EventKind.PUSH,
     "pushes Black's Knight from d5 to d6"),
    ("dealers-8x8", "4k3/8/8/3(cp)4/8/8/8/3QK3 w - - 0 1", "Qd2", EventKind.RETREAT, "Chicken Pawn on d5 is attacked"),
    ("spinal-tap", "5k5/11/11/11/11/6n4/11/11/11/11/5KQ4 w - - 0 1", "g1g6", EventKind.HAND,
     "Black may now promote to the Knight it lost"),
    ("spinal-tap", "5k5/11/11/11/11/11/3n7/11/11/4(HY)6/5K5 w - - 0 1", "e2e4", EventKind.FROZEN,
     "Black cannot move: Knight d5"),
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/4n6/4(DZ)6/5K5 w - - 0 1", "e2e4", EventKind.DAZZLE,
     "Black's Knight on e3 was jumped by the Dazzler and cannot move this turn"),
    ("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8", EventKind.CHECK, "Black is in check"),
])
def test_rule_effects_are_told_in_words(game, fen, move, kind, words):
    report = Session.new(game, fen=fen).play(move)
    assert any(e.kind is kind and words in e.text for e in report.events), texts(report)


def test_spinal_tap_battle_move_and_its_promotion_choice():
    session = Session.new("spinal-tap")
    report = session.play("d3d4&e3e4")
    assert kinds(report) == [EventKind.BATTLE]
    assert "once a game: Pawn d3-d4, Crab e3-e4" in report.events[0].text
    fen = "5k5/3(STP)7/11/11/11/11/11/11/(STP)10/11/5K5 w - - 0 1 hand=Q(DZ)"
    session = Session.new("spinal-tap", fen=fen)
    choice = session.play("d10d11&a3a4").choice
    assert choice.kind is ChoiceKind.BATTLE_PROMOTION and {o.key for o in choice.options} >= {"Q", "DZ"}
    assert "d11=Q" in session.play("Q").events[0].text


def test_free_castling_asks_step_or_castle_and_which_landing_square():
    session = Session.new("constable-spiel", fen="4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    choice = session.play("e1f1").choice
    assert choice.kind is ChoiceKind.CASTLING and {o.key for o in choice.options} == {"move", "h1"}
    assert {o.key for o in session.play("O-O-O").choice.options} == {"b1", "c1", "d1"}
    assert {o.key for o in session.choices_for("e1", "a1").options} == {"b1", "c1", "d1"}
    report = session.play("c1")
    assert report.events[0].kind is EventKind.CASTLE
    assert report.events[0].text.endswith("(White castles: King e1-c1, Rook a1-e1)")


def test_draw_offer_lapses_when_the_other_side_moves_and_agreement_ends_the_game():
    session = Session.new("chess")
    assert "White offers a draw" in texts(session.offer_draw())
    session.play("e4")  # the offer stands for Black
    assert "draw offer lapses" in texts(session.play("e5"))
    session.offer_draw()
    assert "Black declines" in texts(session.decline_draw())
    with pytest.raises(SessionError, match="no draw has been offered"):
        session.accept_draw()
    session.offer_draw()
    session.accept_draw()
    assert session.result_line() == "result: 1/2-1/2 (agreement)"
    with pytest.raises(SessionError, match="cannot be taken back"):
        session.undo()


def test_resignation_and_undo_after_mate():
    session = Session.new("chess")
    session.play("e4")
    assert session.resign().events[-1].text == "game over: 1-0 (resignation)"
    assert not session_state(session).can_undo
    with pytest.raises(SessionError, match="cannot be taken back"):
        session.undo()
    session = Session.new("chess", fen="4k3/8/4K3/8/8/8/8/R7 w - - 0 1")
    session.play("Ra8")
    assert session.result_line() == "result: 1-0 (checkmate)" and session_state(session).can_undo
    session.undo()
    assert not session.over and session.legal_moves()


def test_claim_without_a_claimable_draw_is_refused():
    with pytest.raises(SessionError, match="no draw can be claimed"):
        Session.new("chess").claim_draw()


def test_clock_waits_for_the_players_then_starts_with_the_board_or_the_first_move():
    now = FakeTime()
    session = Session.new("chess", control=TimeControl.parse("1+2"), now=now)
    now.now += 1000  # a server started long before anyone looked: nobody is charged, nobody has lost
    assert session.clock.running is None and session.check_time() is None and session.clock.left(0) == 60
    session.play("e4")  # a first move starts the opponent's time, without charging the mover
    assert session.clock.left(0) == pytest.approx(62) and session.clock.running == 1
    other = Session.new("chess", control=TimeControl.parse("1+2"), now=now)
    other.start_clock()  # the interface shows the board
    now.now += 7
    assert other.clock.running == 0 and other.clock.left(0) == pytest.approx(53)
    other.resign()
    other.start_clock()
    assert other.clock.running is None


def test_clock_charges_thinking_time_adds_the_increment_and_flags():
    now = FakeTime()
    session = Session.new("chess", control=TimeControl.parse("1+2"), now=now)
    session.start_clock()
    now.now += 10
    session.play("e4")
    assert session.clock.left(0) == pytest.approx(52) and session.clock.running == 1
    now.now += 5
    assert session.clock.left(1) == pytest.approx(55)
    session.pause()
    now.now += 500  # paused: nobody is charged
    session.play("e5")
    assert session.clock.left(1) == pytest.approx(57)
    now.now += 52.5
    report = session.play("Nf3")
    assert kinds(report) == [EventKind.CLOCK, EventKind.GAME_OVER]
    assert session.result_line() == "result: 0-1 (time)" and session.sans == ["e4", "e5"]


@pytest.mark.parametrize(("game", "fen", "result"), [
    ("chess", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1", "result: 1-0 (time)"),  # K+R can mate
    ("chess", "4k3/8/8/8/8/8/8/N3K3 b - - 0 1", "result: 1/2-1/2 (time, against a side that cannot mate)"),
    ("chess", "4k3/8/8/8/8/8/8/B3K3 b - - 0 1", "result: 1/2-1/2 (time, against a side that cannot mate)"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 b - - 0 1", None),  # K v K is dead before any flag falls
    ("chess", "4k3/7p/8/8/8/8/8/4K3 b - - 0 1", "result: 1/2-1/2 (time, against a side that cannot mate)"),
    ("chess", "4k3/7p/8/8/8/8/8/4K3 w - - 0 1", "result: 0-1 (time)"),  # the pawn may promote
    ("chess", "4k3/7p/8/8/8/8/8/N3K3 b - - 0 1", "result: 1-0 (time)"),  # FIDE: a helpmate with the pawn exists
    ("dealers-8x8", "4k3/8/8/8/8/8/8/(FE)(FE)(WA)K4 w - - 0 1",
     "result: 1/2-1/2 (time, against a side that cannot mate)"),  # Black's lone King can never give check
    ("dealers-8x8", "4k3/8/8/8/8/8/8/(FE)(FE)(WA)K4 b - - 0 1", "result: 1-0 (time)"),
    # The Consuls (rules audit 3, W3): two bare kings never give check, so they cannot mate either
    ("consuls", "1k2k3/8/8/8/8/8/8/1KQ1K3 w - - 0 1", "result: 1/2-1/2 (time, against a side that cannot mate)"),
    ("consuls", "1k2k3/8/8/8/8/8/8/1KQ1K3 b - - 0 1", "result: 1-0 (time)"),
    ("consuls", "1k2k3/8/8/8/8/8/8/1K2K2R w - - 0 1", "result: 1/2-1/2 (time, against a side that cannot mate)"),
    # a king that takes a Zombie becomes a pawn (its side keeps a royal), and a pawn can mate
    ("consuls", "1k2k3/8/8/8/8/8/3(ZO)4/1KQ1K3 w - - 0 1", "result: 0-1 (time)"),
])
def test_a_flag_fall_against_a_side_that_can_never_mate_is_a_draw(game, fen, result):
    now = FakeTime()
    session = Session.new(game, fen=fen, control=TimeControl.parse("1+0"), now=now)
    if session.over:
        assert "dead position" in session.result_line()
        return
    session.start_clock()
    now.now += 61
    assert session.check_time() is not None and session.result_line() == result


@pytest.mark.parametrize("text", ["15", "0+5", "15+x", "2000+0"])
def test_bad_time_controls_are_refused(text):
    with pytest.raises(ClockError, match="MINUTES\\+SECONDS"):
        TimeControl.parse(text)


def test_clock_readings():
    assert [format_seconds(s) for s in (3725, 892, 9.44, -1)] == ["1:02:05", "14:52", "0:09.4", "0:00.0"]


def test_record_round_trip_keeps_moves_clock_offer_and_deal(tmp_path):
    now = FakeTime()
    assert CliRunner().invoke(cli, ["deal", "--seed", "42", "--save", str(tmp_path / "deal.json")]).exit_code == 0
    deal = read_deal_file(tmp_path / "deal.json")
    fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 hand=Q(MI)(mi) shared=(MI)"
    session = Session.from_deal(deal, fen=fen, control=TimeControl.parse("15+10"), now=now)
    session.start_clock()
    now.now += 30
    session.play("Ke2")
    now.now += 12.25
    session.offer_draw()
    text = format_record(session_record(session))
    assert '[DealSeed "42"]' in text and '[TimeControl "900+10"]' in text and '[DrawOffer "black"]' in text
    again = session_from_record(parse_record(text), now)
    assert format_fen(again.position) == format_fen(session.position) and again.sans == ["Ke2"]
    assert again.clock.left(0) == pytest.approx(880) and again.clock.left(1) == pytest.approx(887.75)
    now.now += 100  # a resumed clock waits for the players too
    assert again.clock.running is None and again.clock.left(1) == pytest.approx(887.75)
    assert again.draw_offer == 1 and again.start_fen == session.start_fen
    assert format_record(session_record(again)) == text


def test_record_keeps_a_result_decided_off_the_board():
    session = Session.new("chess")
    session.play("e4")
    session.resign()
    again = session_from_record(parse_record(format_record(session_record(session))))
    assert again.result_line() == "result: 1-0 (resignation)"


def test_state_is_plain_data_for_a_web_page():
    session = Session.new("dealers-8x8")
    session.play("e4")
    state = session_state(session)
    data = json.loads(json.dumps(dataclasses.asdict(state)))
    assert data["turn"] == "black" and data["last_move"] == "1. e4" and data["last_squares"] == ["e2", "e4"]
    assert data["rows"][7][3] == {"name": "d1", "light": True, "piece": "chancellor", "code": "CH", "side": "white",
                                  "royal": False, "piece_name": "Chancellor"}
    assert [card["code"] for card in data["hands"]["white"]] == ["AB", "MI", "PX", "Q", "UN", "WA"]
    assert data["hand_promotion"] and data["result"] is None


@pytest.mark.parametrize(("fen", "text", "reason"), [
    ("4k3/8/8/8/8/5P2/8/4K1(GN)1 w - - 0 1", "GNf3", "the target f3 holds White's own Standard Pawn (P)"),
    ("4k3/8/8/8/8/5P2/8/4K1(GN)1 w - - 0 1", "GNe4", "the Gnu on g1 cannot move to e4"),
    ("4k3/8/8/8/8/5P2/8/4K1(GN)1 w - - 0 1", "Nf3", "White has no Knight (N) on the board"),
    ("4k3/8/8/8/8/5P2/8/4K1(GN)1 w - - 0 1", "XYf3", "no piece has the code 'XY'"),
    ("4k3/8/8/8/8/5P2/8/4K1(GN)1 w - - 0 1", "e4", "White has no pawn on the e file"),
    ("4k3/8/8/4p3/8/4N3/4P3/4K1N1 w - - 0 1", "e4", "the Standard Pawn on e2 cannot move to e4; e3 is in the way"),
    ("4k3/8/8/4p3/8/4N3/4P3/4K1N1 w - - 0 1", "Nf4", "no White Knight (N) can move to f4 (from e3 or g1)"),
    ("4k3/8/8/4p3/8/4N3/4P3/4K1N1 w - - 0 1", "Nxf5", "it is written Nf5"),
    ("4k3/8/8/4p3/8/4N3/4P3/4K1N1 w - - 0 1", "Ngh2", "the Knight on g1 cannot move to h2"),
    ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", "it is written Nbd2 or Nfd2"),
    ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nb3d2", "no White Knight (N) stands on b3"),
    ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Ncd2", "White has no Knight (N) on the c file"),
    ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "Kd2", "it would leave White's royal piece attacked"),
])
def test_a_san_slip_says_why_it_is_no_legal_move(fen, text, reason):
    session = Session.new("chess", fen)
    with pytest.raises(IllegalMoveError) as refused:
        session.play(text)
    assert str(refused.value) == f"move {text!r} is not legal: {reason}"
    assert session.sans == []


def test_lines_that_end_the_game_by_a_players_word_ask_first():
    from dealers_chess.engine.session.commands import confirmation

    session = Session.new("chess")
    assert confirmation(session, "draw") is None and confirmation(session, "accept") is None
    assert confirmation(session, "resign") == "White resigns and loses the game. Resign?"
    session.play("e4")
    session.offer_draw()
    for line in ("draw", "accept", " ACCEPT "):
        assert confirmation(session, line) == "White accepts Black's draw offer: the game ends 1/2-1/2. Accept?"
    assert confirmation(session, "decline") is None and confirmation(session, "claim") is None
    session.accept_draw()
    assert confirmation(session, "resign") is None  # the game is over: the line is refused, not asked about


def test_card_without_a_piece_lists_what_it_takes():
    from dealers_chess.engine.session.commands import run_line

    session = Session.new("chess", "4k3/8/8/8/8/5P2/8/4K1(GN)1 w - - 0 1")
    with pytest.raises(Exception, match=r"^name a piece: a catalogue id \(knight\), a square \(g1\) or a code on the "
                                        r"board: GN K P$"):
        run_line(session, None, "card")
    assert run_line(session, None, "card GN").lines[0] == "Gnu (gnu, piece, code GN)"
