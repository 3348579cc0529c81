"""The board drawn with the printed pieces: GET /api/piece/ID.png makes a piece's picture once (only for the pieces
of the game and its hands) and refuses anything else with JSON; in Chromium the page shows each piece's picture
with its code, the letter disc until it arrives, and a switch to letters and back that the browser remembers.

The browser tests are skipped with the reason when Chromium or Playwright is missing. Screenshots go to
build/screenshots/.
"""

from __future__ import annotations

import io
import re
import subprocess

import pytest
from PIL import Image
from starlette.testclient import TestClient

from dealers_chess.cli.web.access import Access
from dealers_chess.cli.web.app import create_app
from dealers_chess.cli.web.pieces import game_piece_ids
from dealers_chess.cli.web.table import Table
from dealers_chess.engine.session.seats import Seat
from dealers_chess.engine.session.session import Session
from dealers_chess.printing.board_pieces import BOARD_PIECE_PX
from dealers_chess.printing.records import start_saver
from tests.cli.browser import DEALER, NEEDS_CHROMIUM, SCREENSHOTS, open_board

ORIGIN = "http://127.0.0.1"
HAND_FEN = "4k3/1P6/8/8/8/5p2/8/4K3 w - - 0 1 hand=Q(MI)(mi) shared=(MI)"
PICTURED = "() => [...document.querySelectorAll('[data-square] .token')].every(t => t.querySelector('image'))"
DISCS = "() => document.querySelectorAll('[data-square] .token:not(.model)').length"  # pieces drawn as letter discs


@pytest.fixture()
def table(tmp_path):
    session = Session.new("chess")
    served = Table(session, start_saver(session, str(tmp_path / "game.pgn"), None), tmp_path / "out")
    yield served
    served.pieces.stop()


def client_of(table: Table, seat: Seat | None = Seat.BOTH) -> TestClient:
    """A client as the seat's page (None: a stranger without a key)."""
    access = Access.for_server("127.0.0.1", 8765)
    headers = {} if seat is None else {"X-Dealer-Key": access.key_for(seat)}
    return TestClient(create_app(table, access), base_url=ORIGIN, headers=headers)


def test_a_piece_s_picture_is_made_once_for_any_seat_that_asks(table, tmp_path):
    with client_of(table, Seat.WATCH) as client:  # a spectator sees the pieces too
        first = client.get("/api/piece/knight.png?colour=black&seen_from=white")
        assert first.status_code == 200 and first.headers["content-type"] == "image/png"
        with Image.open(io.BytesIO(first.content)) as image:
            assert image.size == (BOARD_PIECE_PX, BOARD_PIECE_PX) and image.getbbox() is not None
        made_ms = float(re.fullmatch(r"render;dur=([0-9.]+)", first.headers["server-timing"]).group(1))
        again = client.get("/api/piece/knight.png?colour=black&seen_from=white")
        assert again.content == first.content and again.headers["server-timing"] == "render;dur=0.0"
    assert made_ms > 0
    assert [path.name.startswith("board-knight-black-from-white-")
            for path in (tmp_path / "out" / "render-cache").iterdir()] == [True]


@pytest.mark.parametrize("path, status, words", [
    ("/api/piece/nope.png", 404, "no piece 'nope' in this game"),
    ("/api/piece/amazon.png", 404, "no piece 'amazon' in this game"),  # in the catalogue, not in chess
    ("/api/piece/KNIGHT.png", 404, "no piece 'KNIGHT' in this game"),
    ("/api/piece/..%2fapp.py.png", 404, "no such address"),
    ("/api/piece/knight", 404, "no such address"),
    ("/api/piece/knight.png?colour=red", 400, "colour='red': give white or black"),
    ("/api/piece/knight.png?seen_from=north", 400, "seen_from='north': give white or black"),
])
def test_a_bad_picture_request_is_refused_with_json_and_nothing_is_made(table, tmp_path, path, status, words):
    with client_of(table) as client:
        response = client.get(path)
    assert response.status_code == status and words in response.json()["error"]
    assert not (tmp_path / "out" / "render-cache").exists()


def test_without_the_key_no_picture_is_made(table, tmp_path):
    with client_of(table, None) as stranger:
        response = stranger.get("/api/piece/knight.png")
    assert response.status_code == 403 and "open the address dealer serve printed" in response.json()["error"]
    assert not (tmp_path / "out").exists()


def test_the_game_s_pieces_include_its_hands_and_what_its_pawns_promote_to():
    pieces = game_piece_ids(Session.new("dealers-8x8", HAND_FEN))
    assert {"king", "standard-pawn", "queen", "minister"} <= pieces and "amazon" not in pieces


# --- in Chromium ----------------------------------------------------------------------------------------------


def pictured_pieces(page) -> dict[str, str]:
    """Square -> 'side piece code' for every piece drawn as a picture."""
    return dict(page.eval_on_selector_all(
        "[data-square] .token", "tokens => tokens.filter(t => t.querySelector('image'))"
        ".map(t => [t.closest('[data-square]').dataset.square, t.classList[1] + ' '"
        " + t.dataset.piece + ' ' + t.querySelector('.code-tag').textContent])"))


def first_picture_s(page) -> float:
    """Seconds from the page's start to its first picture on the board."""
    page.wait_for_function("() => document.querySelector('[data-square] image')")
    return page.evaluate("performance.now()") / 1000


@NEEDS_CHROMIUM
def test_a_chess_board_shows_the_printed_pieces_and_switches_to_letters_and_back(serve, page):
    server = serve("chess", "--pieces", "models")
    open_board(page, server)
    assert page.evaluate(DISCS) > 0  # letter discs stand in until the pictures come (the first takes a second)
    first_s = first_picture_s(page)
    page.wait_for_function(PICTURED, timeout=60_000)
    shown = pictured_pieces(page)
    assert len(shown) == 32 and page.evaluate(DISCS) == 0
    assert shown["g1"] == "white knight N" and shown["e8"] == "black king K" and shown["a7"] == "black standard-pawn P"
    hrefs = page.eval_on_selector_all("[data-square] image", "nodes => nodes.map(n => n.getAttribute('href'))")
    assert len(set(hrefs)) == 12 and all(href.startswith("blob:") for href in hrefs)  # 6 pieces x 2 colours
    print(f"first picture after {first_s:.2f} s")
    page.screenshot(path=str(SCREENSHOTS / "pieces-chess.png"))
    assert page.inner_text("#pieces") == "Show letters"
    page.click("#pieces")
    assert page.evaluate("document.querySelectorAll('[data-square] image').length") == 0
    assert page.evaluate(DISCS) == 32 and page.inner_text("#pieces") == "Show pictures"
    page.reload()  # the browser remembers the player's choice
    page.wait_for_selector("[data-square] .token")
    assert page.evaluate(DISCS) == 32 and page.inner_text("#pieces") == "Show pictures"
    page.screenshot(path=str(SCREENSHOTS / "pieces-letters.png"))
    page.click("#pieces")
    page.wait_for_function(PICTURED)
    assert pictured_pieces(page) == shown


@NEEDS_CHROMIUM
def test_a_flipped_board_shows_the_pieces_from_black_s_chair(serve, page):
    server = serve("chess", "--pieces", "models")
    open_board(page, server, "black")  # a Black seat sees Black's side
    page.wait_for_function(PICTURED, timeout=60_000)
    assert page.evaluate("document.querySelectorAll('[data-square] image').length") == 32
    asked = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)"
                          ".filter(name => name.includes('/api/piece/'))")
    assert asked and all(name.endswith("seen_from=black") for name in asked)
    page.screenshot(path=str(SCREENSHOTS / "pieces-black-chair.png"))


@NEEDS_CHROMIUM
def test_a_dealt_game_shows_its_pieces_and_the_route_refuses_a_bad_id_with_json(serve, page, tmp_path):
    subprocess.run([*DEALER, "deal", "--seed", "7", "--board", "8x8", "--save", "deal.json"], cwd=tmp_path,
                   check=True, capture_output=True)
    server = serve("--deal", "deal.json", "--pieces", "models")
    open_board(page, server)
    page.wait_for_function(PICTURED, timeout=120_000)
    shown = pictured_pieces(page)
    assert len(shown) == 32 and len({text.split()[1] for text in shown.values()}) > 6  # more than chess's six
    page.screenshot(path=str(SCREENSHOTS / "pieces-dealt-8x8.png"))
    refused = page.evaluate("""async (key) => Promise.all(["nope", "KNIGHT", "..%2Fapp"].map(
        async (name) => { const r = await fetch(`/api/piece/${name}.png`, { headers: { "X-Dealer-Key": key } });
                          return [r.status, r.headers.get("content-type"), (await r.json()).error]; }))""",
                            server.key)
    assert [status for status, _, _ in refused] == [404, 404, 404], refused
    assert all(kind == "application/json" for _, kind, _ in refused)
    assert [error.split(" in this game")[0] for _, _, error in refused[:2]] == ["no piece 'nope'", "no piece 'KNIGHT'"]
    assert refused[2][2].startswith("no such address: /api/piece/../app.png")


@NEEDS_CHROMIUM
def test_served_with_letters_the_page_asks_for_no_picture(serve, page):
    server = serve("chess", "--pieces", "letters")
    open_board(page, server)
    page.wait_for_function(f"() => ({DISCS})() === 32")
    asked = page.evaluate("() => performance.getEntriesByType('resource').filter(e => e.name.includes('/api/piece/'))"
                          ".length")
    assert asked == 0 and page.inner_text("#pieces") == "Show pictures"
