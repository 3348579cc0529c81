"""Two players, two pages: seat links in Chromium at phone size and on a desktop, every legal move by tapping at
390x844, drag and drop, sounds, looking back and the PGN.

Skipped with the reason when Chromium or Playwright is missing. Screenshots go to build/screenshots/.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections import defaultdict

import pytest

from tests.cli.browser import (
    DEALER,
    NEEDS_CHROMIUM,
    PHONE,
    SCREENSHOTS,
    centres,
    open_board,
    opened,
    touch,
    under,
    wait_for_moves,
)

pytestmark = NEEDS_CHROMIUM
DESKTOP = {"viewport": {"width": 1280, "height": 860}}
SCHOLARS_MATE = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
SQUARE = re.compile(r"[a-p]\d{1,2}")


def targets(page) -> set[str]:
    return set(page.eval_on_selector_all("[data-target]", "nodes => nodes.map(n => n.dataset.target)"))


def drag(page, frm: str, to: str) -> None:
    where = centres(page)
    page.mouse.move(*where[frm])
    page.mouse.down()
    page.mouse.move(*where[to], steps=6)
    page.mouse.up()


def touch_drag(page, frm: str, to: str, midway=None) -> None:
    """A finger pressed on `frm`, slid to `to` and lifted (Chromium's touch events through the DevTools protocol);
    `midway()`, if given, is called with the finger half-way."""
    where = centres(page)
    (x0, y0), (x1, y1) = where[frm], where[to]
    devtools = page.context.new_cdp_session(page)
    for step in range(11):
        kind = "touchStart" if step == 0 else "touchMove"
        point = {"x": x0 + (x1 - x0) * step / 10, "y": y0 + (y1 - y0) * step / 10}
        devtools.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [point]})
        if step == 5 and midway:
            midway()
    devtools.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    devtools.detach()


def moves_of(page) -> int:
    return page.eval_on_selector_all("#move-list .san", "nodes => nodes.length")


def test_two_seats_play_a_whole_game_each_moving_only_its_side_and_seeing_the_other_at_once(serve, browser):
    server = serve("chess", "--save", "game.pgn")
    white_context, white = opened(browser, server, "white", PHONE)
    black_context, black = opened(browser, server, "black", DESKTOP)
    assert white.inner_text("#seat") == "You play White" and black.inner_text("#seat") == "You play Black"
    assert black.locator("[data-square=a1]").bounding_box()["y"] < black.locator("[data-square=a8]").bounding_box()["y"]
    where = centres(white)
    touch(white, "e7", where)  # the other side's piece: its card, no marks
    assert targets(white) == set()
    assert white.inner_text("#message") == "Black's Standard Pawn on e7 is the other player's."
    black.click("[data-square=e7]")  # its own piece, on White's turn: no marks
    assert targets(black) == set() and black.inner_text("#message").startswith("It is White's turn")
    black.click("[data-square=g1]")  # White's knight, on White's turn: its card, but no marks on Black's page
    assert targets(black) == set() and black.inner_text("#message") == "White's Knight on g1 is the other player's."
    black.click("[data-square=g1]")
    seen_after: list[float] = []
    for ply, move in enumerate(SCHOLARS_MATE, start=1):
        mover, other = (white, black) if ply % 2 else (black, white)
        frm, to = SQUARE.findall(move)
        if mover is white and ply == 3:  # White drags a piece with a finger once
            touch_drag(white, frm, to)
        elif mover is white:  # and taps on the phone; Black drags with the mouse on the desktop
            touch(white, frm, where)
            assert to in targets(white)
            touch(white, to, where)
        else:
            drag(black, frm, to)
        wait_for_moves(mover, ply)
        played = time.monotonic()  # from the mover's page showing the move (a gesture's own time is the browser's)
        other.wait_for_function("n => document.querySelectorAll('#move-list .san').length === n", arg=ply,
                                timeout=3000)
        seen_after.append(time.monotonic() - played)
        if ply == 1:  # White asks to take 1. e4 back; Black accepts on its page; White plays it again
            white.click("#undo")
            black.wait_for_selector("#request:not([hidden])")
            assert black.inner_text("#request-text") == "White asks to take back a move."
            black.click("#takeback-accept")
            wait_for_moves(white, 0)
            touch(white, "e2", where)
            touch(white, "e4", where)
            wait_for_moves(black, 1)
    for page in (white, black):
        page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over')")
        assert page.inner_text("#status") == "Game over: White wins by checkmate (1-0)" and page.is_disabled("#resign")
        assert page.evaluate("document.body.dataset.sound") == "end"
    assert max(seen_after) < 1.0, seen_after  # the mover's board to the other page's, for every move
    white.screenshot(path=str(SCREENSHOTS / "two-seats-white-phone.png"), full_page=True)
    black.screenshot(path=str(SCREENSHOTS / "two-seats-black-desktop.png"))
    assert white.problems == [] and black.problems == []
    white_context.close()
    black_context.close()
    assert "4. Qxf7# 1-0" in server.record.read_text()


def test_a_tap_acts_once_a_finger_drags_and_a_drop_elsewhere_keeps_the_piece_picked_up(serve, browser):
    """On the phone (the mouse: the two seats' game drags, the other tests click)."""
    server = serve("chess")
    context, phone = opened(browser, server, None, PHONE)
    phone.evaluate("() => { window.clicks = 0; document.addEventListener('click', () => window.clicks++, true);"
                   " window.swallow = (event) => event.stopPropagation(); }")
    where = centres(phone)
    touch(phone, "e2", where)  # the tap is handled as the finger lifts; the click the browser sends after it is not
    phone.wait_for_function("() => window.clicks === 1")  # a second tap (which would put the pawn down again)
    assert targets(phone) == {"e3", "e4"}
    touch(phone, "e2", where)
    phone.wait_for_function("() => window.clicks === 2")
    assert targets(phone) == set()
    phone.evaluate("() => document.addEventListener('click', window.swallow, true)")
    touch(phone, "g1", where)  # a phone's browser that sends no click after a touch: the tap is played all the same
    assert targets(phone) == {"f3", "h3"}
    touch(phone, "g1", where)
    assert targets(phone) == set() and phone.evaluate("window.clicks") == 4
    phone.evaluate("() => document.removeEventListener('click', window.swallow, true)")

    def in_the_air() -> None:  # the piece follows the finger, its square shows it lifted, its moves are marked
        assert phone.locator("[data-ghost=g1]").count() == 1 and phone.locator("[data-square=g1] .lifted").count()
        assert targets(phone) == {"f3", "h3"}
    touch_drag(phone, "g1", "g3", in_the_air)  # dropped on no target: back on g1, still picked up
    assert phone.locator("[data-ghost]").count() == 0 and targets(phone) == {"f3", "h3"} and moves_of(phone) == 0
    touch_drag(phone, "g1", "f3")
    wait_for_moves(phone, 1)
    phone.wait_for_timeout(900)  # a click no press came before (a screen reader's) is a tap too
    phone.dispatch_event("[data-square=b8]", "click")
    assert targets(phone) == {"a6", "c6"}
    phone.screenshot(path=str(SCREENSHOTS / "phone-after-touch-drags.png"))
    assert phone.problems == []
    context.close()
    assert "1. Nf3 *" in server.record.read_text()


def test_a_seat_cannot_resign_or_claim_for_the_other_and_its_undo_asks(serve, browser):
    server = serve("chess")
    white_context, white = opened(browser, server, "white", DESKTOP)
    black_context, black = opened(browser, server, "black", DESKTOP)
    white.click("[data-square=e2]")
    white.click("[data-square=e4]")
    wait_for_moves(black, 1)
    assert white.inner_text("#resign") == "Resign" and white.is_hidden("#redo")
    assert black.is_disabled("#undo")  # Black has no move to take back
    white.click("#resign")
    assert white.inner_text("#confirm-text") == "White resigns and loses the game. Resign?"  # its own side
    white.click("#confirm-no")
    black.click("#draw")
    white.wait_for_selector("#accept:not([hidden])")
    assert black.is_hidden("#accept") and white.inner_text("#accept") == "Accept draw…"
    white.click("#decline")
    black.wait_for_function("() => document.querySelector('#draw').hidden === false")
    black.click("#resign")
    black.click("#confirm-yes")
    white.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over')")
    assert white.inner_text("#status") == "Game over: White wins by resignation (1-0)"
    white_context.close()
    black_context.close()


def test_sounds_have_a_remembered_mute_the_move_list_looks_back_and_the_pgn_downloads(serve, page, tmp_path):
    server = serve("chess", "--fen", "4k3/8/8/3p4/4P3/8/8/R3K3 w - - 0 1")
    open_board(page, server)
    for frm, to, count, sound in (("e4", "d5", 1, "capture"), ("e8", "e7", 2, "move"), ("a1", "a7", 3, "check")):
        page.click(f"[data-square={frm}]")
        page.click(f"[data-square={to}]")
        wait_for_moves(page, count)
        assert page.evaluate("document.body.dataset.sound") == sound
    assert page.inner_text("#sound") == "Sound on"
    page.click("#sound")
    page.reload()  # the tab keeps its key (sessionStorage) and the page its mute (localStorage)
    page.wait_for_selector("[data-square]")
    assert page.url.endswith(":" + server.origin.rsplit(":", 1)[1] + "/") and page.inner_text("#sound") == "Sound off"
    page.click("#move-list .san >> nth=0")  # the board after 1. exd5
    page.wait_for_selector("#look-back:not([hidden])")
    assert page.inner_text("#look-text") == "The board after exd5 (move 1 of 3)"
    codes = dict(page.eval_on_selector_all("[data-square] .token", "nodes => nodes.map(n => "
                                           "[n.closest('[data-square]').dataset.square, n.textContent])"))
    assert codes == {"d5": "P", "e8": "K", "a1": "R", "e1": "K"}
    page.click("#look-prev")
    page.wait_for_function("() => document.querySelector('#look-text').textContent.startsWith('The board before')")
    page.screenshot(path=str(SCREENSHOTS / "look-back.png"))
    page.click("[data-square=e4]")  # a tap on a board of the past brings the game back
    page.wait_for_selector("#look-back", state="hidden")
    assert page.locator("[data-square=a7] .token").text_content() == "R"
    with page.expect_download() as waiting:
        page.click("#pgn")
    saved = tmp_path / "downloaded.pgn"
    waiting.value.save_as(saved)
    assert waiting.value.suggested_filename == server.record.name
    assert "1. exd5 Ke7 2. Ra7+ *" in saved.read_text() and saved.read_text() == server.record.read_text()


def dealt_positions(folder, plies: tuple[int, ...] = (0, 1, 8)) -> list[tuple[str, list[tuple[str, str]]]]:
    """Positions of `dealer deal --seed 7` (saved as deal.json) after so many plies, each the middle one of the
    legal moves: White at the start, Black after one move, White after eight; each FEN and its moves (from, to)."""
    from dealers_chess.engine.dealing.deal_file import read_deal_file
    from dealers_chess.engine.notation import format_fen
    from dealers_chess.engine.session.session import Session

    subprocess.run([*DEALER, "deal", "--seed", "7", "--save", "deal.json"], cwd=folder, check=True,
                   capture_output=True)
    session, found = Session.from_deal(read_deal_file(folder / "deal.json")), []
    for ply in range(max(plies) + 1):
        listed = session.moves()
        if ply in plies:
            found.append((format_fen(session.position), list(dict.fromkeys((row.frm, row.to) for row in listed))))
        session.play(listed[len(listed) // 2].move)
    return found


def play_by_tapping(page, pairs: list[tuple[str, str]], name: str) -> None:
    """Each (from, to) tapped on the phone and played, then taken back: every target in reach, never covered."""
    where = centres(page)
    for index, (frm, to) in enumerate(pairs):
        touch(page, frm, where)
        assert to in targets(page), (frm, to)
        touch(page, to, where)
        if page.is_visible("#choice[open]"):
            page.click("#choice-options button >> nth=0")
        wait_for_moves(page, 1)
        if index == 0:
            page.screenshot(path=str(SCREENSHOTS / f"phone-every-move-{name}.png"))
        page.click("#undo")  # Playwright scrolls the button into view (a tall card pushes it down): scroll back
        wait_for_moves(page, 0)
        page.evaluate("window.scrollTo(0, 0)")
        assert centres(page) == where, (frm, to)  # the board never moves under the player's finger


@pytest.mark.slow
def test_every_legal_move_of_three_dealt_positions_is_played_by_tapping_on_a_phone(serve, browser, tmp_path):
    for number, (fen, pairs) in enumerate(dealt_positions(tmp_path)):
        server = serve("--deal", "deal.json", "--fen", fen)
        context, page = opened(browser, server, None, PHONE)
        if " b " in fen:
            page.click("#flip")  # Black's moves on Black's side of the board
        play_by_tapping(page, pairs, f"position-{number}")
        assert page.problems == []
        context.close()
        server.kill()


def test_every_piece_of_a_dealt_army_reaches_every_target_by_tapping_on_a_phone(serve, browser, tmp_path):
    """The quick sibling of the test above: with the card open, every target of every piece is the square a tap
    there hits (never the card), and a move of three of the pieces is played by tapping."""
    fen, pairs = dealt_positions(tmp_path, (0,))[0]
    server = serve("--deal", "deal.json")
    context, page = opened(browser, server, None, PHONE)
    where = centres(page)
    by_piece: dict[str, set[str]] = defaultdict(set)
    for frm, to in pairs:
        by_piece[frm].add(to)
    for index, (frm, tos) in enumerate(by_piece.items()):
        touch(page, frm, where)
        if index == 0:
            page.wait_for_function("() => !document.getElementById('card-face').hidden")  # the card is open ...
            page.screenshot(path=str(SCREENSHOTS / "phone-dealt-card-open.png"))
        assert targets(page) == tos and all(under(page, where[to]) == to for to in tos)  # ... and covers none
        touch(page, frm, where)  # put it down
    chosen = list(by_piece.items())[::5][:3]
    play_by_tapping(page, [(frm, sorted(tos)[-1]) for frm, tos in chosen], "each-piece")
    assert page.problems == []
    context.close()
