"""The page's dialogs on a phone (390x844, touch): every option of a promotion or a hand is tapped, and the move
played is the one tapped.

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
