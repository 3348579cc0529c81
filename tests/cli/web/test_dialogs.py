"""The page's questions and answers on a phone (390x844, touch): every option of a promotion or a hand is tapped,
and the move played is the one tapped; a draw offer and a takeback request are answered under the board, and the
answer (a decline, a move that lets the offer lapse) is said on the asker's page.

Skipped with the reason when Chromium or Playwright is missing. Screenshots go to build/screenshots/.
"""

from __future__ import annotations

from tests.cli.browser import NEEDS_CHROMIUM, PHONE, SCREENSHOTS, centres, opened, touch, wait_for_moves

pytestmark = NEEDS_CHROMIUM
CHESS_PROMOTION = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
HAND_PROMOTION = "4k3/1P6/8/8/8/5p2/8/4K3 w - - 0 1 hand=Q(GI)(AN)R(MI)(mi) shared=(MI)"


def option_keys(page) -> list[str]:
    return page.eval_on_selector_all("#choice-options button", "nodes => nodes.map(n => n.dataset.key)")


def option_centre(page, key: str) -> tuple[float, float]:
    box = page.locator(f"#choice-options button[data-key='{key}']").bounding_box()
    assert box is not None, key
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def open_promotion(page, where) -> None:
    """Tap the pawn on b7, then b8: the dialog opens, with the first option's card shown (as a player sees it)."""
    touch(page, "b7", where)
    touch(page, "b8", where)
    page.wait_for_selector("#choice[open]")
    page.wait_for_function("() => document.getElementById('choice-card').naturalWidth > 0")


def last_move(page) -> str:
    return page.locator("#move-list .san").last.inner_text()


def tap_every_option(browser, serve, game: str, fen: str, name: str) -> dict[str, str]:
    """Each option of the promotion dialog tapped with a finger in turn (taken back after each): the move each
    tap played, by option key."""
    server = serve(game, "--fen", fen)
    context, page = opened(browser, server, None, PHONE)
    where = centres(page)
    open_promotion(page, where)
    keys, played = option_keys(page), {}
    first_seen = {key: option_centre(page, key) for key in keys}
    page.screenshot(path=str(SCREENSHOTS / f"dialog-{name}-open.png"))
    for index, key in enumerate(keys):
        if index:
            open_promotion(page, where)
        assert {key: option_centre(page, key) for key in keys} == first_seen  # every option where it was
        page.touchscreen.tap(*first_seen[key])
        wait_for_moves(page, 1)
        played[key] = last_move(page)
        if index == len(keys) - 1:
            page.screenshot(path=str(SCREENSHOTS / f"dialog-{name}-last-option-played.png"))
        page.click("#undo")
        wait_for_moves(page, 0)
        page.evaluate("window.scrollTo(0, 0)")
    assert page.problems == []
    context.close()
    return played


def test_every_promotion_option_tapped_on_a_phone_plays_that_piece(serve, browser):
    played = tap_every_option(browser, serve, "chess", CHESS_PROMOTION, "chess-promotion")
    assert played == {"Q": "b8=Q+", "R": "b8=R+", "B": "b8=B", "N": "b8=N"}


def test_every_card_of_a_hand_tapped_on_a_phone_is_the_one_promoted_to(serve, browser):
    played = tap_every_option(browser, serve, "dealers-8x8", HAND_PROMOTION, "hand-promotion")
    assert played == {key: f"b8={key}" + ("+" if key in "QR" else "") for key in played}
    assert sorted(played) == ["AN", "GI", "MI", "Q", "R"]


def in_view(page, selector: str) -> bool:
    """Whether the element is wholly inside the viewport, without scrolling."""
    return page.evaluate("s => { const r = document.querySelector(s).getBoundingClientRect();"
                         " return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }", selector)


def play_by_finger(page, frm: str, to: str, count: int) -> None:
    page.evaluate("window.scrollTo(0, 0)")  # tapping a button lower down may have scrolled the board away
    where = centres(page)
    touch(page, frm, where)
    touch(page, to, where)
    wait_for_moves(page, count)


def said(page, text: str) -> None:
    page.wait_for_function("t => document.getElementById('message').textContent.includes(t)", arg=text)


def test_a_declined_draw_and_a_declined_takeback_are_said_on_the_askers_page(serve, browser):
    server = serve("chess")
    white_context, white = opened(browser, server, "white", PHONE)
    black_context, black = opened(browser, server, "black", PHONE)
    play_by_finger(white, "f2", "f3", 1)
    wait_for_moves(black, 1)
    touch(black, "e7", centres(black))  # Black looks at a card: it opens under the board
    black.wait_for_function("() => !document.getElementById('card-face').hidden")
    white.tap("#draw")
    black.wait_for_selector("#offer:not([hidden])")
    assert black.inner_text("#offer-text") == "White offers a draw."
    assert in_view(black, "#accept") and in_view(black, "#decline")  # in view, the card open, like a takeback's
    assert white.inner_text("#asked") == "You offered a draw: waiting for Black's answer."
    black.screenshot(path=str(SCREENSHOTS / "answers-black-draw-offer-in-view.png"))
    black.tap("#decline")
    said(white, "Black declines your draw offer")
    white.screenshot(path=str(SCREENSHOTS / "answers-white-draw-declined.png"))
    assert white.is_hidden("#asked") and white.is_visible("#draw")
    white.tap("#undo")
    black.wait_for_selector("#request:not([hidden])")
    assert in_view(black, "#takeback-decline")
    black.tap("#takeback-decline")
    said(white, "Black declines your takeback request")
    white.screenshot(path=str(SCREENSHOTS / "answers-white-takeback-declined.png"))
    white.tap("#draw")
    black.wait_for_selector("#offer:not([hidden])")
    play_by_finger(black, "e7", "e5", 2)  # a move lets the offer lapse: the asker is told that too
    said(white, "Black played 1... e5 · Your draw offer lapsed with the move")
    play_by_finger(white, "g2", "g4", 3)
    wait_for_moves(black, 3)
    play_by_finger(black, "d8", "h4", 4)
    white.wait_for_function("() => document.getElementById('status').textContent.startsWith('Game over')")
    assert white.is_disabled("#undo") and black.is_disabled("#undo")  # no takeback once the game is over
    assert white.problems == [] and black.problems == []
    white_context.close()
    black_context.close()
