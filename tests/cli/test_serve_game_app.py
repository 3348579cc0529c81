"""`dealer serve` as a game app: the players' names, a spectator's Watch: link, a clock that starts with the first
move, and an end that says who won and how; two phones and a spectator's desktop in Chromium.

Skipped with the reason when Chromium or Playwright is missing. Screenshots go to build/screenshots/.
"""

from __future__ import annotations

from tests.cli.browser import NEEDS_CHROMIUM, PHONE, SCREENSHOTS, centres, opened, touch, wait_for_moves

pytestmark = NEEDS_CHROMIUM
DESKTOP = {"viewport": {"width": 1280, "height": 860}}
FOOLS_MATE = [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")]


def text_is(page, selector: str, text: str) -> None:
    page.wait_for_function("([s, t]) => document.querySelector(s).textContent === t", arg=[selector, text])


def targets(page) -> set[str]:
    return set(page.eval_on_selector_all("[data-target]", "nodes => nodes.map(n => n.dataset.target)"))


def test_names_a_spectator_the_clock_from_the_first_move_and_the_end_in_words(serve, browser):
    server = serve("chess", "--white-name", "Ann", "--clock", "5+0", "--save", "g.pgn")
    white_context, white = opened(browser, server, "white", PHONE)
    black_context, black = opened(browser, server, "black", PHONE)
    watch_context, watch = opened(browser, server, "watch", DESKTOP)
    for page in (white, black, watch):
        text_is(page, "#players", "Ann (White) v Black")
    assert watch.inner_text("#seat") == "You are watching: this page follows the game"
    assert white.input_value("#name-input") == "Ann" and watch.is_hidden("#name-form")
    black.fill("#name-input", "Bob")
    black.tap("#name-save")
    for page in (white, black, watch):
        text_is(page, "#players", "Ann (White) v Bob (Black)")
    assert all(watch.is_hidden(button) for button in ("#undo", "#draw", "#resign"))  # a spectator acts for nobody
    watch.click("[data-square=e2]")
    assert targets(watch) == set() and watch.inner_text("#message").endswith(": this page follows the game.")
    white.wait_for_timeout(1200)  # nobody has moved: nobody's time runs
    assert white.inner_text("#clock") == "White 5:00 Black 5:00" and white.locator("#clock .running").count() == 0
    for ply, (frm, to) in enumerate(FOOLS_MATE, start=1):
        mover = white if ply % 2 else black
        mover.evaluate("window.scrollTo(0, 0)")
        where = centres(mover)
        touch(mover, frm, where)
        touch(mover, to, where)
        for page in (white, black, watch):
            wait_for_moves(page, ply)
        if ply == 1:  # White's first move starts Black's clock
            assert white.inner_text("#clock .running").startswith("Black")
    for page in (white, black, watch):
        text_is(page, "#status", "Game over: Black wins by checkmate (0-1)")
    assert white.inner_text("#message") == "Black played 2... Qh4#"  # said once: the status line has the result
    watch.screenshot(path=str(SCREENSHOTS / "app-spectator-after-mate.png"))
    white.screenshot(path=str(SCREENSHOTS / "app-white-phone-after-mate.png"))
    record = server.record.read_text()
    assert '[White "Ann"]' in record and '[Black "Bob"]' in record and "2. g4 Qh4# 0-1" in record
    assert white.problems == [] and black.problems == [] and watch.problems == []
    for context in (white_context, black_context, watch_context):
        context.close()
