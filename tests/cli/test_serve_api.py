"""`dealer serve`'s web API without a browser: state, moves, refusals, choices, concurrency, saves, resume."""

from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from starlette.testclient import TestClient

from dealers_chess.cli import cli
from dealers_chess.cli.serve_commands import _announcement, _listen
from dealers_chess.cli.terminal.script import play_script
from dealers_chess.cli.web.access import Access
from dealers_chess.cli.web.app import create_app
from dealers_chess.cli.web.table import STALE, Table
from dealers_chess.engine.notation import format_fen
from dealers_chess.engine.record import read_record
from dealers_chess.engine.session.record import session_from_record
from dealers_chess.engine.session.seats import Seat
from dealers_chess.engine.session.session import Session
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.pictures import PICTURE_PX
from dealers_chess.printing.records import Saver, start_saver
from dealers_chess.printing.render_cache import default_cache_dir, render_key

PROMOTION_FEN = "4k3/1P6/8/8/8/5p2/8/4K3 w - - 0 1 hand=Q(MI)(mi) shared=(MI)"
ORIGIN = "http://127.0.0.1"


def page_client(table: Table, seat: Seat = Seat.BOTH, access: Access | None = None) -> TestClient:
    """A client that acts as the served page of `seat` does: the seat's key in its header, the served origin."""
    access = access or Access.for_server("127.0.0.1", 8765)
    client = TestClient(create_app(table, access), base_url=ORIGIN,
                        headers={"X-Dealer-Key": access.key_for(seat), "Origin": ORIGIN})
    client.access = access  # type: ignore[attr-defined]
    return client


@pytest.fixture()
def served(tmp_path):
    """A client for a table serving `game` (from `fen`), saving to tmp_path/game.pgn."""
    def serve(game: str = "chess", fen: str | None = None, pictures: Path | None = None):
        session = Session.new(game, fen)
        table = Table(session, start_saver(session, str(tmp_path / "game.pgn"), None), pictures)
        return table, page_client(table)
    return serve


def post(client: TestClient, path: str, body: dict):
    """An action sent as the page sends it: with the version of the game it shows."""
    return client.post(path, json=body | {"version": client.get("/api/state").json()["version"]})


def test_the_state_lists_every_legal_target_per_piece(served):
    table, client = served()
    state = client.get("/api/state").json()
    assert state["files"] == 8 and state["turn"] == "white" and len(state["squares"]) == 64
    assert state["squares"][4] == {"name": "e8", "light": True, "piece": "king", "code": "K", "side": "black",
                                   "royal": True, "piece_name": "King"}
    assert {frm: sorted(t["to"] for t in ts) for frm, ts in state["targets"].items()} == {
        "a2": ["a3", "a4"], "b2": ["b3", "b4"], "c2": ["c3", "c4"], "d2": ["d3", "d4"], "e2": ["e3", "e4"],
        "f2": ["f3", "f4"], "g2": ["g3", "g4"], "h2": ["h3", "h4"], "b1": ["a3", "c3"], "g1": ["f3", "h3"]}
    page = client.get("/").text
    assert "board.js" in page and f'content="{client.access.key}"' in page
    script = re.search(r'src="(/static/[\w-]+/board.js)"', page)[1]
    assert client.get(script).status_code == 200 and client.get("/static/board.js").status_code == 404


def test_a_move_is_played_saved_and_the_target_kinds_follow_the_position(served):
    table, client = served("chess", "4k3/8/8/3p4/4P3/8/8/4K2R w K - 0 1")
    kinds = {t["to"]: t["kind"] for t in client.get("/api/state").json()["targets"]["e4"]}
    assert kinds == {"e5": "move", "d5": "capture"}
    assert {t["to"]: t["kind"] for t in client.get("/api/state").json()["targets"]["e1"]}["g1"] == "castle"
    answer = client.post("/api/play", json={"move": "e4d5", "version": 0}).json()
    assert [e["text"] for e in answer["events"]] == [
        "1. exd5 (White's Standard Pawn e4-d5)", "White's Standard Pawn takes Black's Standard Pawn on d5"]
    assert answer["state"]["version"] == 1 and answer["state"]["last_squares"] == ["e4", "d5"]
    assert read_record(table.saver.path).moves == ("exd5",)


def test_a_refused_move_comes_back_with_the_referees_one_line_reason(served):
    table, client = served()
    response = client.post("/api/play", json={"move": "e2e5", "version": 0})
    assert response.status_code == 400
    error = response.json()["error"]
    assert "\n" not in error and error.startswith("move 'e2e5' is not legal")
    assert response.json()["state"]["version"] == 0 and read_record(table.saver.path).moves == ()
    allowed = ("allowed: undo, redo, draw, accept, decline, claim, resign, accept undo, decline undo, rematch, "
               "decline rematch")
    for path, body, reason in (
            ("/api/play", {"move": " "}, "no move given: send a move such as e2e4"),
            ("/api/command", {"command": "quit"}, f"request: command: 'quit' is not allowed; {allowed}"),
            ("/api/command", {"command": "save /tmp/x.pgn"},
             f"request: command: 'save /tmp/x.pgn' is not allowed; {allowed}")):
        assert post(client, path, body).json()["error"] == reason
    json_type = {"Content-Type": "application/json"}
    assert client.post("/api/play", content=b"not json", headers=json_type).json()["error"] == "the request is not JSON"
    too_large = client.post("/api/play", content=b"{" + b" " * 5000 + b"}", headers=json_type)
    assert too_large.status_code == 413 and too_large.json()["error"] == "request too large: at most 4096 bytes"


def test_a_page_that_missed_a_change_is_refused_not_applied(served):
    table, client = served()
    assert client.post("/api/play", json={"move": "e2e4", "version": 0}).status_code == 200
    response = client.post("/api/play", json={"move": "e7e5", "version": 0})
    assert response.status_code == 400 and response.json()["error"] == STALE
    assert response.json()["state"]["moves"] == ["e4"]


def test_promotion_from_hand_asks_and_the_answer_plays_it(served):
    table, client = served("dealers-8x8", PROMOTION_FEN)
    answer = client.post("/api/play", json={"move": "b7b8", "version": 0}).json()
    assert answer["choice"]["kind"] == "promotion"
    assert [o["key"] for o in answer["choice"]["options"]] == ["Q", "MI"]
    assert answer["state"]["pending"] == answer["choice"]
    assert post(client, "/api/cancel", {}).json()["state"]["pending"] is None
    post(client, "/api/play", {"move": "b7b8"})
    answer = post(client, "/api/play", {"move": "MI"}).json()
    assert "White used the shared Minister: Black may no longer promote to it" in [e["text"] for e in answer["events"]]
    assert answer["state"]["hands"] == {"white": [{"piece": "queen", "code": "Q", "name": "Queen", "shared": False}],
                                        "black": []}
    undone = post(client, "/api/command", {"command": "undo"}).json()["state"]
    assert undone["fen"] == format_fen(Session.new("dealers-8x8", PROMOTION_FEN).position)


def test_draw_offer_accept_and_resign_through_commands(served):
    table, client = served()
    post(client, "/api/play", {"move": "e2e4"})
    assert post(client, "/api/command", {"command": "draw"}).json()["state"]["draw_offer"] == "black"
    state = post(client, "/api/command", {"command": "decline"}).json()["state"]
    assert state["draw_offer"] is None
    state = post(client, "/api/command", {"command": "resign"}).json()["state"]
    assert (state["result"], state["reason"]) == ("1-0", "resignation")
    assert read_record(table.saver.path).tags["Result"] == "1-0"
    assert post(client, "/api/play", {"move": "e7e5"}).json()["error"].startswith("the game is over")


def test_two_tabs_acting_at_once_cannot_corrupt_the_game(served):
    table, client = served()
    replies = []

    def tab(move: str) -> None:
        replies.append(client.post("/api/play", json={"move": move, "version": 0}).status_code)

    threads = [threading.Thread(target=tab, args=(move,)) for move in ("e2e4", "d2d4", "g1f3", "c2c4") * 4]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(replies) == [200] + [400] * 15
    state = client.get("/api/state").json()
    assert len(state["moves"]) == 1 and state["version"] == 1
    assert read_record(table.saver.path).moves == tuple(state["moves"])


def test_card_faces_and_cached_pictures(served, tmp_path):
    table, client = served("chess", pictures=tmp_path / "out")
    svg = client.get("/card/knight.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml") and "Knight" in svg.text
    assert client.get("/card/nonsense.svg").status_code == 404
    assert client.get("/picture/knight.png").status_code == 404
    knight = table.session.position.catalogue.get("knight")
    cache = default_cache_dir(tmp_path / "out")
    cache.mkdir(parents=True)
    buffer = io.BytesIO()
    Image.new("RGBA", (PICTURE_PX, 2 * PICTURE_PX), (200, 0, 0, 255)).save(buffer, "PNG")
    (cache / f"knight-white-{render_key(knight, PICTURE_PX, 'white', 50.0)}.png").write_bytes(buffer.getvalue())
    table._pictures.clear()
    assert client.get("/picture/knight.png").content == buffer.getvalue()
    assert client.get("/api/state").json()["pictures"] == ["knight"]


def test_a_game_started_in_the_browser_continues_in_dealer_play(served, tmp_path, capsys):
    table, client = served()
    for move in ("f2f3", "e7e5", "g2g4"):
        post(client, "/api/play", {"move": move})
    record = read_record(table.saver.path)
    session = session_from_record(record)
    saver = Saver(table.saver.path, written=table.saver.path.read_text())
    assert play_script(session, saver, ["Qh4\n"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "result: 0-1 (checkmate)"
    assert read_record(table.saver.path).moves == ("f3", "e5", "g4", "Qh4#")


def test_serve_refuses_a_busy_port_and_says_who_can_connect():
    busy = _listen("127.0.0.1", 0)
    port = busy.getsockname()[1]
    with pytest.raises(DealerError,
                       match=f"cannot listen on 127.0.0.1:{port}: it is in use: choose another with --port"):
        _listen("127.0.0.1", port)
    busy.close()
    access = Access.for_server("127.0.0.1", port)
    white, black, watch = (access.key_for(seat) for seat in (Seat.WHITE, Seat.BLACK, Seat.WATCH))
    assert _announcement("127.0.0.1", access, ()) == [
        f"open http://127.0.0.1:{port}/?key={access.key} in a browser to play both sides; only this computer can "
        "open it (--host 0.0.0.0 lets phones on your network in)",
        f"White: http://127.0.0.1:{port}/?key={white} (a page that plays White only: its moves, offers and "
        "resignation; undo asks Black)",
        f"Black: http://127.0.0.1:{port}/?key={black} (a page that plays Black only; undo asks White)",
        f"Watch: http://127.0.0.1:{port}/?key={watch} (a page that only follows the game, for spectators: it can do "
        "nothing)",
        "Ctrl-C stops the server"]
    assert len({access.key, white, black, watch}) == 4
    # --port 0: the command listens before it reads its arguments, and the default port may be taken
    result = CliRunner().invoke(cli, ["serve", "--deal", "x.json", "--resume", "y.pgn", "--port", "0"])
    assert result.exit_code == 2 and "--resume FILE continues a saved game" in result.output


def test_dealer_serve_serves_saves_and_stops_cleanly_on_sigterm(tmp_path):
    command = [sys.executable, "-m", "dealers_chess", "serve", "chess", "--save", "g.pgn", "--port", "0"]
    server = subprocess.Popen(command, cwd=tmp_path, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        first, second = server.stdout.readline(), server.stdout.readline()
        assert first == "Chess: every move is saved to g.pgn\n"
        assert second.startswith("open http://127.0.0.1:") and "only this computer can open it" in second
        url = second.split()[1]
        key = url.partition("?key=")[2]
        opened = urllib.request.urlopen(url, timeout=10)
        assert len(key) >= 22 and b"board.js" in opened.read() and opened.headers["set-cookie"] is None
        base = url.partition("?")[0]
        request = urllib.request.Request(base + "api/play", data=json.dumps({"move": "e4", "version": 0}).encode(),
                                         headers={"Content-Type": "application/json", "X-Dealer-Key": key,
                                                  "Origin": base.rstrip("/")})
        assert json.load(urllib.request.urlopen(request, timeout=10))["state"]["moves"] == ["e4"]
    finally:
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=20)
    assert server.returncode == 0 and err == ""
    assert out.strip().endswith("stopped; continue with: dealer serve --resume g.pgn --keep-keys  (the same addresses; "
                                   "or dealer play --resume g.pgn)")
    assert read_record(tmp_path / "g.pgn").moves == ("e4",) and not (tmp_path / ".g.pgn.lock").exists()


def test_the_clock_starts_with_the_first_move_never_reads_below_zero_and_a_flag_ends_the_game(tmp_path):
    from dealers_chess.engine.session.clock import TimeControl

    now = [0.0]
    session = Session.new("chess", control=TimeControl.parse("0.1+2"), now=lambda: now[0])
    table = Table(session, start_saver(session, str(tmp_path / "game.pgn"), None))
    client = page_client(table)
    now[0] += 3600  # the server waited an hour before anyone opened the page, and the page an hour more
    state = client.get("/api/state").json()
    now[0] += 3600
    assert client.get("/api/state").json()["clock"] == {"white_s": 6.0, "black_s": 6.0, "running": None}
    post(client, "/api/play", {"move": "e2e4"})  # White's first move: Black's time runs, White's got the increment
    now[0] += 2.5
    state = client.get("/api/state").json()
    assert state["clock"]["white_s"] == 8.0 and state["clock"]["black_s"] == pytest.approx(3.5)
    assert state["clock"]["running"] == "black"
    now[0] += 10  # Black's flag falls: the game ends on the next look, and the clock reads 0, never less
    state = client.get("/api/state").json()
    assert (state["result"], state["reason"], state["ending"]) == ("1-0", "time", "White wins on time")
    assert state["clock"]["black_s"] == 0.0
