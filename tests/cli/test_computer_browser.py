"""`dealer serve --computer black` in Chromium: the page says the computer thinks, then shows its move; undo takes
the pair."""

from __future__ import annotations

from dealers_chess.engine.record import read_record
from tests.cli.browser import NEEDS_CHROMIUM, SCREENSHOTS, open_board, wait_for_moves

pytestmark = NEEDS_CHROMIUM
AFTER_F3_E5 = "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2"


def test_the_page_shows_the_computer_thinking_and_answers_a_tap_meanwhile(serve, page):
    server = serve("chess", "--computer", "black", "--think", "4")
    open_board(page, server)
    page.click("[data-square=e2]")
    page.click("[data-square=e4]")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('thinking')")
    assert page.inner_text("#status") == "Black (the computer) is thinking…"
    assert page.is_disabled("#undo") and page.is_disabled("#redo")
    page.click("[data-square=d2]")  # a tap while it thinks is answered, not sent
    assert page.inner_text("#message") == "The computer is thinking: its move comes first."
    page.screenshot(path=str(SCREENSHOTS / "computer-thinking.png"))
    wait_for_moves(page, 2)
    page.wait_for_function("() => document.querySelector('#status').textContent === 'White to move'")
    assert page.inner_text("#message").startswith("Computer: ")
    assert len(read_record(server.record).moves) == 2


def test_the_page_shows_the_computers_mate_and_undo_takes_back_the_pair(serve, page):
    server = serve("chess", "--fen", AFTER_F3_E5, "--computer", "black", "--think", "1.5", "--save", "game.pgn")
    open_board(page, server)
    assert page.inner_text("#status") == "White to move"
    page.click("[data-square=g2]")
    page.click("[data-square=g4]")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over')", timeout=15000)
    assert page.inner_text("#status") == "Game over: Black wins by checkmate (0-1)"
    assert "Computer: d8h4 · 2... Qh4# (Black's Queen d8-h4)" in page.inner_text("#message")
    page.screenshot(path=str(SCREENSHOTS / "computer-mates.png"))
    assert read_record(server.record).moves == ("g4", "Qh4#")
    page.click("#undo")
    wait_for_moves(page, 0)
    assert page.inner_text("#status") == "White to move"
    assert read_record(server.record).moves == ()


def test_a_move_answered_after_the_computers_reply_arrived_still_shows_the_reply(serve, page):
    """The answer to the player's move is held back until the event stream has brought the computer's mate to
    the page (as on a busy machine; CI saw it): the page then says the computer's move with the player's own."""
    server = serve("chess", "--fen", AFTER_F3_E5, "--computer", "black", "--think", "0.5", "--save", "game.pgn")
    open_board(page, server)
    held = []
    page.route("**/api/play", lambda route: held.append((route, route.fetch())))
    page.click("[data-square=g2]")
    page.click("[data-square=g4]")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over')")
    assert page.inner_text("#message").startswith("Computer: d8h4 · 2... Qh4#") and len(held) == 1
    route, answer = held[0]
    route.fulfill(response=answer)
    page.wait_for_function("() => document.querySelector('#message').textContent.startsWith('2. g4')")
    assert page.inner_text("#message").startswith(
        "2. g4 (White's Standard Pawn g2-g4) · Computer: d8h4 · 2... Qh4# (Black's Queen d8-h4)")
    page.screenshot(path=str(SCREENSHOTS / "computer-reply-before-answer.png"))


def test_the_computer_playing_white_opens_when_the_page_loads(serve, page):
    server = serve("chess", "--computer", "white", "--think", "0.3", "--level", "2")
    open_board(page, server)
    wait_for_moves(page, 1)
    page.wait_for_function("() => document.querySelector('#status').textContent === 'Black to move'")
    assert page.inner_text("#message").startswith("Computer: ")
    assert read_record(server.record).tags["White"] == "Computer (level 2, 0.3 s a move)"
