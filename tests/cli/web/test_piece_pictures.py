"""The board drawn with the printed pieces: GET /api/piece/ID.png makes a piece's picture once (only for the pieces
of the game and its hands) and refuses anything else with JSON."""

from __future__ import annotations

import io
import re

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

ORIGIN = "http://127.0.0.1"
HAND_FEN = "4k3/1P6/8/8/8/5p2/8/4K3 w - - 0 1 hand=Q(MI)(mi) shared=(MI)"


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
