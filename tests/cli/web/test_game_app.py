"""`dealer serve` as a game app: the players' names, a spectator's Watch: link, a clock that starts with the first
move, an end that says who won and how, and a rematch with colours swapped; two phones and a spectator's desktop
in Chromium.

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
    play_the_rematch(white, black, watch)
    assert white.problems == [] and black.problems == [] and watch.problems == []
    for context in (white_context, black_context, watch_context):
        context.close()
    rematch = next(server.record.parent.glob("chess-*.pgn")).read_text()  # the rematch's own record, beside
    assert '[White "Bob"]' in rematch and '[Black "Ann"]' in rematch and '[Round "2"]' in rematch
    assert "1. e4 *" in rematch and "2. g4 Qh4# 0-1" in server.record.read_text()


def play_the_rematch(ann, bob, watch) -> None:
    """Ann (White's link) offers a rematch, Bob declines, then accepts the next offer: Ann's link plays Black."""
    ann.tap("#rematch")
    bob.wait_for_selector("#rematch-bar:not([hidden])")
    assert bob.inner_text("#rematch-text") == "Ann (White) offers a rematch with colours swapped."
    assert ann.inner_text("#asked") == "You offered a rematch: waiting for Black's answer."
    bob.tap("#rematch-decline")
    said(ann, "Black declines your rematch offer")
    ann.tap("#rematch")
    bob.wait_for_selector("#rematch-bar:not([hidden])")
    bob.tap("#rematch-accept")
    for page in (ann, bob, watch):
        text_is(page, "#players", "Bob (White) v Ann (Black)")
        text_is(page, "#status", "White to move" + {ann: " (waiting)", bob: " (your move)", watch: ""}[page])
    assert ann.inner_text("#seat") == "You play Black" and bob.inner_text("#seat") == "You play White"
    assert ann.inner_text("#message") == "Rematch, colours swapped: Bob (White) v Ann (Black). You play Black now."
    a1, a8 = (ann.locator(f"[data-square={name}]").bounding_box()["y"] for name in ("a1", "a8"))
    assert a1 < a8  # Ann's board turned to Black's side
    bob.evaluate("window.scrollTo(0, 0)")
    where = centres(bob)
    touch(bob, "e2", where)
    touch(bob, "e4", where)
    for page in (ann, bob, watch):
        wait_for_moves(page, 1)
    ann.evaluate("window.scrollTo(0, 0)")
    ann.screenshot(path=str(SCREENSHOTS / "app-rematch-ann-plays-black.png"))


def said(page, text: str) -> None:
    page.wait_for_function("t => document.getElementById('message').textContent.includes(t)", arg=text)
