"""The board page's layout on a phone: turned sideways (844x390) the card sits beside the board and in view;
upright (390x844) a one-line move strip and the controls a move may need stay in view with the card open; a 12x12
board uses the phone's whole width and lets two fingers zoom.

Skipped with the reason when Chromium or Playwright is missing. Screenshots go to build/screenshots/.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.cli.browser import DEALER, NEEDS_CHROMIUM, PHONE, SCREENSHOTS, centres, opened, touch, wait_for_moves

pytestmark = NEEDS_CHROMIUM
SIDEWAYS = {**PHONE, "viewport": {"width": 844, "height": 390}}


def box(page, selector: str) -> dict[str, float]:
    return page.evaluate("s => { const r = document.querySelector(s).getBoundingClientRect();"
                         " return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; }", selector)


def in_view(page, selector: str) -> bool:
    found = box(page, selector)
    height = page.evaluate("window.innerHeight")
    return found["bottom"] > found["top"] and found["top"] >= 0 and found["bottom"] <= height


def deal(folder, board: str) -> str:
    name = f"deal-{board}.json"
    subprocess.run([*DEALER, "deal", "--seed", "7", "--board", board, "--save", name], cwd=folder, check=True,
                   capture_output=True)
    return name


def show_card(page, square: str) -> None:
    touch(page, square, centres(page))
    page.wait_for_function("() => document.getElementById('card-face').naturalWidth > 0"
                           " && !document.getElementById('card-face').hidden")


@pytest.mark.parametrize("board", ["8x8", "12x12"])
def test_sideways_the_card_sits_beside_the_board_and_in_view(serve, browser, tmp_path, board):
    server = serve("--deal", deal(tmp_path, board))
    context, page = opened(browser, server, "white", SIDEWAYS)
    show_card(page, "b2")
    board_box, card_box = box(page, "#board"), box(page, "#card-face")
    assert board_box["top"] >= 0 and board_box["bottom"] <= 390  # the whole board, without scrolling
    assert card_box["left"] >= board_box["right"] and in_view(page, "#card-face") and in_view(page, "#card-caption")
    assert page.evaluate("window.scrollY") == 0
    page.screenshot(path=str(SCREENSHOTS / f"layout-sideways-{board}-card.png"))
    assert page.problems == []
    context.close()


def test_upright_the_move_strip_and_the_controls_a_move_needs_stay_in_view_with_the_card_open(serve, browser):
    server = serve("chess")
    white_context, white = opened(browser, server, "white", PHONE)
    black_context, black = opened(browser, server, "black", PHONE)
    for ply, (page, frm, to) in enumerate(((white, "e2", "e4"), (black, "e7", "e5"), (white, "g1", "f3")), start=1):
        where = centres(page)
        touch(page, frm, where)
        touch(page, to, where)
        wait_for_moves(black, ply)
    show_card(black, "b8")  # Black looks at a card while White offers a draw
    white.tap("#draw")
    black.wait_for_selector("#offer:not([hidden])")
    assert black.inner_text("#move-strip").split() == ["1.", "e4", "e5", "2.", "Nf3"]
    assert box(black, "#move-strip")["bottom"] - box(black, "#move-strip")["top"] < 30  # one line
    black.screenshot(path=str(SCREENSHOTS / "layout-upright-card-open-draw-offered.png"))
    for selector in ("#move-strip", "#board", "#accept", "#decline", "#undo", "#resign"):
        assert in_view(black, selector), selector
    assert box(black, "#decline")["bottom"] < box(black, "#card-face")["top"] < 844 - 150  # the card starts in view
    black.tap("#decline")
    show_card(white, "f3")
    for selector in ("#move-strip", "#undo", "#draw", "#resign", "#card-face"):
        assert in_view(white, selector), selector
    assert white.evaluate("window.scrollY") == 0
    assert white.problems == [] and black.problems == []
    white_context.close()
    black_context.close()


def test_a_12x12_board_spans_the_phone_and_two_fingers_may_zoom(serve, browser, tmp_path):
    server = serve("--deal", deal(tmp_path, "12x12"))
    context, page = opened(browser, server, "white", PHONE)
    board_box, square = box(page, "#board"), box(page, "[data-square=f2]")
    assert board_box["left"] == 0 and board_box["right"] == 390  # edge to edge
    assert square["right"] - square["left"] >= 31  # (30.5 px before; 44 px would need a 528 px wide screen)
    assert page.evaluate("getComputedStyle(document.getElementById('board')).touchAction") == "pinch-zoom"
    show_card(page, "f2")
    page.screenshot(path=str(SCREENSHOTS / "layout-upright-12x12-card.png"))
    assert page.problems == []
    context.close()
