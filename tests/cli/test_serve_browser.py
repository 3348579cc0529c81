"""`dealer serve` in a real browser: Debian's Chromium driven by Playwright plays through the page.

Skipped with the reason when Chromium or Playwright is missing (`apt-get install -y chromium`;
.ci/run installs it). Screenshots go to build/screenshots/ in the repository, to be looked at.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
from collections import defaultdict
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.cli.browser import DEALER, NEEDS_CHROMIUM, SCREENSHOTS, Server, open_board, wait_for_moves

pytestmark = NEEDS_CHROMIUM
PROMOTION_FEN = "4k3/1P6/8/8/8/5p2/8/4K3 w - - 0 1 hand=Q(MI)(mi) shared=(MI)"
# `dealer deal --seed 5`: a line that ends in Black's checkmate (found by random play, checked by the referee)
MATE_LINE = "c2c4 f8e6 a1b3 d7e5 b3d3 h8g6 g2g5 e6f8 d3c3 g6f4".split()
SQUARE = re.compile(r"[a-p]\d{1,2}")


def dealer(folder: Path, *args: str) -> str:
    return subprocess.run([*DEALER, *args], cwd=folder, text=True, capture_output=True, check=True).stdout


def tap(page, square: str) -> None:
    page.click(f"[data-square={square}]")


def targets(page) -> set[str]:
    return set(page.eval_on_selector_all("[data-target]", "nodes => nodes.map(n => n.dataset.target)"))


def board_codes(page) -> dict[str, str]:
    return dict(page.eval_on_selector_all(
        "[data-square]", "nodes => nodes.filter(n => n.querySelector('.token'))"
        ".map(n => [n.dataset.square, n.querySelector('.token').classList[1] + ' '"
        " + n.querySelector('text:last-child').textContent])"))


def square_centres(page) -> dict[str, tuple[float, float]]:
    """Each board square's centre in the viewport, for page.mouse.click."""
    return {square: (x, y) for square, x, y in page.evaluate(  # one step: the board may be drawn again at any time
        "() => [...document.querySelectorAll('[data-square]')].map(n => { const r = n.getBoundingClientRect();"
        " return [n.dataset.square, r.x + r.width / 2, r.y + r.height / 2]; })")}


def play_line(page, moves: list[str], already: int = 0) -> None:
    for index, move in enumerate(moves, start=already + 1):
        frm, to = SQUARE.findall(move)[:2]
        tap(page, frm)
        assert to in targets(page), f"{move}: {to} is not highlighted"
        tap(page, to)
        wait_for_moves(page, index)


def test_a_dealt_game_is_played_to_mate_and_resumed_after_the_server_is_killed(serve, page, tmp_path):
    dealer(tmp_path, "deal", "--seed", "5", "--save", "deal.json")
    server = serve("--deal", "deal.json", "--save", "game.pgn")
    open_board(page, server)
    assert page.inner_text("#status") == "White to move" and page.inner_text("#game-name") == "Dealer's Chess 8x8"
    play_line(page, MATE_LINE[:5])
    before = board_codes(page)
    server.kill()
    server = serve("--resume", "game.pgn")
    open_board(page, server)
    wait_for_moves(page, 5)
    assert board_codes(page) == before and page.inner_text("#status") == "Black to move"
    play_line(page, MATE_LINE[5:], already=5)
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over')")
    assert page.inner_text("#status") == "Game over: Black wins by checkmate (0-1)"
    page.screenshot(path=str(SCREENSHOTS / "mate-8x8.png"), full_page=True)
    moves = dealer(tmp_path, "moves", "--deal", "deal.json", "--moves", ",".join(MATE_LINE), "--json")
    assert json.loads(moves)["outcome"]["result"] == "0-1"
    assert server.record.read_text().count("0-1") >= 2  # the Result tag and the move text's result


@pytest.mark.parametrize("turn", [0, 1], ids=["white-at-the-start", "black-after-whites-first-move"])
def test_highlights_equal_dealer_moves_for_every_piece_on_a_12x12_deal(serve, page, tmp_path, turn):
    """Each side's turn apart (about 110 taps each): every piece tapped shows just the squares `dealer moves` lists."""
    dealer(tmp_path, "deal", "--seed", "3", "--board", "12x12", "--save", "deal.json")
    server = serve("--deal", "deal.json")
    open_board(page, server)
    played: list[str] = []
    if turn == 1:
        start = json.loads(dealer(tmp_path, "moves", "--deal", "deal.json", "--json"))
        played.append(start["moves"][0]["move"])
        play_line(page, played)
    listed = json.loads(dealer(tmp_path, "moves", "--deal", "deal.json", "--moves", ",".join(played), "--json"))
    expected = defaultdict(set)
    for row in listed["moves"]:
        frm, to = SQUARE.findall(row["move"])[:2]
        expected[frm].add(to)
    occupied = page.eval_on_selector_all("[data-piece]",
                                         "nodes => nodes.map(n => n.closest('[data-square]').dataset.square)")
    assert len(occupied) >= 48
    # Real mouse clicks at the squares' centres, measured once: page.click's per-click waits for a stable
    # element cost about 0.1 s each here, 17 s over the ~110 taps. A click the board does not receive shows
    # no targets or the wrong ones, so the assertion below still fails.
    centres = square_centres(page)
    shown: set[str] = set()
    selected = ""  # the square whose targets are shown (none yet: shown is empty)
    for square in occupied:
        if square in shown:  # tapping a highlighted square would play the move: put the piece down first
            page.mouse.click(*centres[selected])
            assert targets(page) == set()
        page.mouse.click(*centres[square])
        shown, selected = targets(page), square
        assert shown == expected.get(square, set()), square
    page.mouse.click(*centres[selected])
    assert square_centres(page) == centres  # the board did not move while it was tapped
    played.append(listed["moves"][0]["move"])
    play_line(page, played[-1:], already=turn)
    page.screenshot(path=str(SCREENSHOTS / f"deal-12x12-turn-{turn + 1}.png"), full_page=True)


def test_promotion_dialog_then_undo(serve, page):
    server = serve("dealers-8x8", "--fen", PROMOTION_FEN)
    open_board(page, server)
    tap(page, "b7")
    tap(page, "b8")
    page.wait_for_selector("#choice[open]")
    keys = page.eval_on_selector_all("#choice-options button", "nodes => nodes.map(n => n.dataset.key)")
    assert keys == ["Q", "MI"]
    assert "reaches b8: promote to" in page.inner_text("#choice-prompt")
    assert page.get_attribute("#choice-card", "data-source") == "/card/queen.svg"  # the first option's card
    page.hover("#choice-options button[data-key=MI]")
    assert page.get_attribute("#choice-card", "data-source") == "/card/minister.svg"
    page.wait_for_function("() => document.getElementById('choice-card').naturalWidth > 0")  # the card is served
    assert (page.get_attribute("#choice-card", "alt")
            == "the card of MI: Minister (shared extra: the other side loses it too)")
    page.screenshot(path=str(SCREENSHOTS / "promotion-dialog.png"))
    page.click("#choice-options button[data-key=MI]")
    wait_for_moves(page, 1)
    assert "Black may no longer promote to it" in page.inner_text("#message")
    assert board_codes(page)["b8"] == "white MI"
    assert page.inner_text("#hands").count("MI") == 0
    page.click("#undo")
    wait_for_moves(page, 0)
    assert board_codes(page)["b7"] == "white P" and "b8" not in board_codes(page)
    assert page.inner_text("#hands").count("MI") == 2


def test_the_board_is_played_by_keyboard(serve, page):
    server = serve("chess")
    open_board(page, server)
    page.focus("[data-square=a8]")  # the first square takes the keyboard's focus
    focused = "document.activeElement.dataset.square"
    for key in ["ArrowDown"] * 6 + ["ArrowRight"] * 4:
        page.keyboard.press(key)
    assert page.evaluate(focused) == "e2"
    page.keyboard.press("Enter")
    assert targets(page) == {"e3", "e4"} and page.evaluate(focused) == "e2"  # focus stays on the square drawn again
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press(" ")
    wait_for_moves(page, 1)
    assert board_codes(page)["e4"] == "white P"
    assert page.evaluate("document.activeElement.closest('#board') !== null")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused) == "d4"
    tab_stops = page.eval_on_selector_all("[data-square][tabindex='0']", "nodes => nodes.length")
    assert tab_stops == 1  # one tab stop for the whole board: Tab moves on to the buttons
    page.screenshot(path=str(SCREENSHOTS / "keyboard.png"))


def test_free_castling_dialog(serve, page):
    server = serve("constable-spiel", "--fen", "rnbqk2r/8/4p3/8/8/4P3/8/R3K2R w KQkq - 0 1")
    open_board(page, server)
    tap(page, "e1")
    assert {"f1", "g1", "c1"} <= targets(page)
    assert page.get_attribute("[data-target=g1]", "data-kind") == "castle"
    tap(page, "f1")
    page.wait_for_selector("#choice[open]")
    keys = page.eval_on_selector_all("#choice-options button", "nodes => nodes.map(n => n.dataset.key)")
    assert keys[:2] == ["move", "h1"]
    assert not page.is_visible("#choice-card")  # no piece to preview when castling
    page.click("#choice-options button[data-key=h1]")
    wait_for_moves(page, 1)
    assert page.inner_text("#move-list .san") == "O-O@f1"
    assert board_codes(page)["e1"] == "white R"


def test_battle_move_steps_are_marked_drawn_as_arrows_and_the_bar_stays_in_view(serve, page):
    server = serve("spinal-tap")
    open_board(page, server)
    page.click("#battle")
    for square in ("d3", "d4", "e3", "e4", "f3", "g4"):
        tap(page, square)
    assert page.inner_text("#battle-steps") == "d3d4 & e3e4 & f3g4"
    page.click("#battle-play")
    wait_for_moves(page, 1)
    assert page.inner_text("#move-list .san") == "d3d4&e3e4&f3g4"
    page.click("#battle")
    tap(page, "d9")
    assert targets(page) == {"d8"}  # the one step this pawn may take in a battle move
    tap(page, "d7")  # not a step of the pawn on d9: nothing is added
    tap(page, "d9")
    tap(page, "d8")
    tap(page, "e9")
    tap(page, "e8")
    assert page.inner_text("#battle-steps") == "d9d8 & e9e8"
    arrows = page.eval_on_selector_all(".battle-step",
                                       "nodes => nodes.map(n => [n.dataset.step, n.getAttribute('marker-end')])")
    assert arrows == [["d9d8", "url(#arrowhead)"], ["e9e8", "url(#arrowhead)"]]
    assert page.locator("#arrowhead path").count() == 1
    bar = page.locator("#battle-play").bounding_box()
    assert 0 <= bar["y"] and bar["y"] + bar["height"] <= 900  # in view without scrolling, at 1100x900 (a 12x12 board)
    page.screenshot(path=str(SCREENSHOTS / "battle-move-arrows.png"))
    page.click("#battle-play")
    wait_for_moves(page, 2)
    assert page.locator("#move-list .san").nth(1).inner_text() == "d9d8&e9e8"
    assert page.is_hidden("#battle-bar") and page.is_hidden("#battle")


def test_a_second_tab_that_missed_a_move_is_told_and_brought_up_to_date(serve, page, browser):
    server = serve("chess")
    open_board(page, server)
    other = browser.new_page()
    other.route("**/api/events", lambda route: None)  # its event stream never answers: it misses the next move
    open_board(other, server)
    play_line(page, ["e2e4"])
    tap(other, "d2")
    tap(other, "d4")  # still highlighted in the tab that has not heard of 1. e4
    other.wait_for_selector("#message.error")
    assert "changed on another page or tab" in other.inner_text("#message")
    wait_for_moves(other, 1)
    assert other.inner_text("#status") == "Black to move"
    other.close()


def test_a_draw_offer_is_accepted_only_after_the_page_asks(serve, page):
    server = serve("chess")
    open_board(page, server)
    play_line(page, ["e2e4"])
    assert page.inner_text("#draw") == "Black offers a draw"
    page.click("#draw")
    page.wait_for_selector("#offer:not([hidden])")  # under the board, as a takeback request is
    assert page.inner_text("#offer-text") == "Black offers a draw."
    assert page.inner_text("#accept") == "White accepts the draw…" and page.inner_text("#decline") == "White declines"
    page.click("#accept")
    page.wait_for_selector("#confirm[open]")
    assert page.inner_text("#confirm-text") == "White accepts Black's draw offer: the game ends 1/2-1/2. Accept?"
    assert page.evaluate("document.activeElement.id") == "confirm-no"
    page.keyboard.press("Enter")  # a stray Enter (or a tap on the focused button) keeps the game going
    page.wait_for_selector("#confirm", state="hidden")
    assert page.inner_text("#status") == "Black to move" and page.is_visible("#accept")
    page.click("#accept")
    page.click("#confirm-yes")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over')")
    assert page.inner_text("#status") == "Game over: Draw by agreement (1/2-1/2)"
    assert page.is_hidden("#offer") and page.is_disabled("#draw") and page.is_disabled("#resign")
    assert "1/2-1/2" in server.record.read_text()


def test_the_flag_falls_on_the_page(serve, page):
    server = serve("chess", "--clock", "0.02+0")
    open_board(page, server)
    assert page.is_visible("#clock")
    page.wait_for_timeout(1500)  # the clock waits for the first move
    assert page.inner_text("#status") == "White to move"
    play_line(page, ["e2e4"])
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over')", timeout=8000)
    assert page.inner_text("#status") == "Game over: White wins on time (1-0)"
    assert page.inner_text("#clock-black") == "Black 0:00.0"  # never less than nothing


def test_a_12x12_board_fits_a_phone(serve, browser, tmp_path):
    dealer(tmp_path, "deal", "--seed", "3", "--board", "12x12", "--save", "deal.json")
    server = serve("--deal", "deal.json")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
    page = phone.new_page()
    open_board(page, server)
    page.tap("[data-square=f2]")
    box = page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    square = page.locator("[data-square=a1]").bounding_box()
    assert square["width"] >= 28  # a square is still a finger's width
    labels = page.eval_on_selector_all(".label-strip text",
                                       "nodes => nodes.map(n => [n.textContent, n.getBoundingClientRect().height])")
    assert [text for text, _ in labels] == list("abcdefghijkl") + [str(rank) for rank in range(12, 0, -1)]
    assert min(height for _, height in labels) >= 10  # the coordinates beside the board, readable (inside: about 5 px)
    page.screenshot(path=str(SCREENSHOTS / "phone-12x12.png"), full_page=True)
    phone.close()


# --- other web pages cannot play ---------------------------------------------------------------

ATTACK_SCRIPT = """<!doctype html><title>attacking</title><body><script>
const target = "TARGET", version = VERSION, results = {};
async function attempt(name, request) {
  try {
    const response = await request();
    results[name] = response.type === "opaque" ? "opaque" : `${response.status} ${await response.text()}`;
  } catch (error) {
    results[name] = `failed: ${error.name}`;
  }
}
const post = (path, body, extra) => fetch(target + path, { method: "POST", credentials: "include", ...extra,
  body: JSON.stringify({ ...body, version }) });
(async () => {
  await attempt("play, no-cors text/plain", () => post("/api/play", { move: "d2d4" },
    { mode: "no-cors", headers: { "Content-Type": "text/plain" } }));
  await attempt("resign, no-cors", () => post("/api/command", { command: "resign" }, { mode: "no-cors" }));
  await attempt("undo, cors json", () => post("/api/command", { command: "undo" },
    { headers: { "Content-Type": "application/json" } }));
  await attempt("resign, cors json with a guessed key", () => post("/api/command", { command: "resign" },
    { headers: { "Content-Type": "application/json", "X-Dealer-Key": "guess" } }));
  await attempt("read the state", () => fetch(target + "/api/state", { credentials: "include" }));
  await attempt("read the page", () => fetch(target + "/", { credentials: "include" }));
  window.results = results;
  document.title = "done";
})();
</script></body>"""
FORM_PAGE = """<!doctype html><body><form method="POST" enctype="text/plain" action="TARGET/api/command">
<input name='{"command":"resign","version":VERSION,"pad":"' value='"}'></form>
<script>document.forms[0].submit();</script></body>"""
FRAME_PAGE = """<!doctype html><body><iframe id="board" src="TARGET/" width="800" height="600"></iframe></body>"""


class AttackSite:
    """Another web site on this computer (any port, any *.attacker.test name) serving pages aimed at the board."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.cookies: list[str] = []  # the Cookie header of every request the browser sent here
        folder.mkdir()
        site = self

        class Handler(SimpleHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                site.cookies.append(self.headers.get("Cookie", ""))
                super().do_GET()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(folder)))
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def page(self, name: str, template: str, target: str, version: int) -> None:
        (self.folder / name).write_text(template.replace("TARGET", target).replace("VERSION", str(version)))


@pytest.fixture()
def attack_site(tmp_path):
    site = AttackSite(tmp_path / "attack")
    yield site
    site.httpd.shutdown()


def test_other_origins_cannot_play_undo_resign_or_read_while_the_real_page_plays_on(serve, page, browser, attack_site):
    server = serve("chess")
    open_board(page, server)  # the player's tab: the key's cookie is set in this browser
    play_line(page, ["e2e4"])
    record = server.record.read_text()
    for origin in (f"http://evil.attacker.test:{attack_site.port}", f"http://127.0.0.1:{attack_site.port}"):
        attacker = page.context.new_page()
        attack_site.page("fetch.html", ATTACK_SCRIPT, server.origin, 1)
        attacker.goto(f"{origin}/fetch.html")
        attacker.wait_for_function("() => document.title === 'done'")
        results = attacker.evaluate("window.results")
        for name in ("play, no-cors text/plain", "resign, no-cors"):  # sent, refused; the answer unreadable
            assert results[name] in ("opaque", "failed: TypeError"), (origin, name, results[name])
        for name in ("undo, cors json", "resign, cors json with a guessed key", "read the state", "read the page"):
            assert results[name] == "failed: TypeError", (origin, name, results[name])  # blocked: nothing read
        attack_site.page("form.html", FORM_PAGE, server.origin, 1)
        attacker.goto(f"{origin}/form.html")
        attacker.wait_for_load_state()
        refusal = attacker.inner_text("body")  # the form's navigation shows only the guard's refusal
        assert server.key not in attacker.content() and ("no key" in refusal or "needs the key" in refusal), refusal
        attack_site.page("frame.html", FRAME_PAGE, server.origin, 1)
        attacker.goto(f"{origin}/frame.html")
        framed = attacker.frame_locator("#board").locator("[data-square]")
        attacker.wait_for_timeout(500)
        assert framed.count() == 0  # X-Frame-Options DENY: no board inside another site's page
        attacker.close()
    assert server.record.read_text() == record
    assert attack_site.cookies and not any(attack_site.cookies)  # no key (no cookie at all) went to the other port
    wait_for_moves(page, 1)
    assert page.inner_text("#status") == "Black to move"
    play_line(page, ["e7e5", "g1f3"], already=1)  # the player's own page still plays
    assert read_moves(server) == ("e4", "e5", "Nf3")


def test_a_dns_rebinding_site_gets_nothing(serve, page, browser):
    server = serve("chess")
    port = server.origin.rsplit(":", 1)[1]
    rebound = f"http://rebind.attacker.test:{port}"
    response = page.goto(f"{rebound}/?key={server.key}")  # even with the key: the Host is not this server's
    assert response.status == 421 and "this server answers only to" in page.inner_text("body")
    for path in ("/api/state", "/static/board.js", "/card/knight.svg"):
        status = page.evaluate("path => fetch(path).then(r => r.status)", path)
        assert status == 421
    posted = page.evaluate("""() => fetch('/api/command', {method: 'POST',
                               headers: {'Content-Type': 'application/json'},
                               body: JSON.stringify({command: 'resign', version: 0})}).then(r => r.status)""")
    assert posted == 421
    open_board(page, server)
    assert page.inner_text("#status") == "White to move" and read_moves(server) == ()


def read_moves(server: Server) -> tuple[str, ...]:
    from dealers_chess.engine.record import read_record

    return read_record(server.record).moves


# --- the page on a phone, and the card -----------------------------------------------------------


def phone_page(browser, server: Server):
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
    opened = phone.new_page()
    open_board(opened, server)
    return phone, opened


def overlap(a: dict, b: dict) -> float:
    """The area two boxes share."""
    width = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    height = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(width, 0) * max(height, 0)


def test_on_a_phone_the_card_opens_under_the_board_and_closing_it_keeps_the_piece_picked_up(serve, browser, tmp_path):
    dealer(tmp_path, "deal", "--seed", "3", "--board", "12x12", "--save", "deal.json")
    server = serve("--deal", "deal.json")
    phone, page = phone_page(browser, server)
    assert page.is_hidden("#card")
    page.tap("[data-square=f2]")
    page.wait_for_function("() => document.querySelector('#card-face').naturalWidth > 0")
    board, card = page.locator("#board").bounding_box(), page.locator("#card").bounding_box()
    assert overlap(board, card) == 0 and card["y"] >= board["y"] + board["height"]  # under the board, never over it
    assert card["y"] + card["height"] <= 844  # and in view with it
    shown = targets(page)
    assert shown and page.inner_text("#card-caption") == "White's Lion on f2"
    page.screenshot(path=str(SCREENSHOTS / "phone-12x12-card-under-board.png"))
    page.tap("#card-close")
    assert page.is_hidden("#card") and targets(page) == shown  # the piece stays picked up
    target = sorted(shown)[0]
    page.tap(f"[data-square={target}]")
    wait_for_moves(page, 1)
    page.tap("[data-square=f1]")  # White's piece on Black's turn: the card, and whose turn it is
    page.wait_for_function("() => document.querySelector('#card-face').naturalWidth > 0")
    card = page.locator("#card").bounding_box()
    assert overlap(board, card) == 0 and page.inner_text("#message").startswith("It is Black's turn: White's ")
    page.screenshot(path=str(SCREENSHOTS / "phone-12x12-card-other-side.png"))
    phone.close()


def test_marks_are_dots_and_rings_and_the_caption_follows_the_piece(serve, page):
    server = serve("chess", "--fen", "4k3/8/8/3p4/4P3/8/8/4K1NR w K - 0 1")
    open_board(page, server)
    tap(page, "e4")
    marks = page.eval_on_selector_all("[data-target]", "nodes => nodes.map(n => [n.dataset.target, n.dataset.kind, "
                                      "n.tagName, n.getAttribute('r')])")
    assert sorted(marks) == [["d5", "capture", "circle", "44"], ["e5", "move", "circle", "15"]]
    page.screenshot(path=str(SCREENSHOTS / "marks-dots-and-rings.png"))
    tap(page, "e4")
    tap(page, "g1")
    assert page.inner_text("#card-caption") == "White's Knight on g1"
    tap(page, "f3")
    wait_for_moves(page, 1)
    assert page.inner_text("#card-caption") == "White's Knight on f3"
    page.click("#undo")
    wait_for_moves(page, 0)
    assert page.inner_text("#card-caption") == "White's Knight on g1"
