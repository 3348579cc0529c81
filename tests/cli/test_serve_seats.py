"""`dealer serve` for two players: a key per seat, what each seat may do, no key in a cookie, the event stream,
looking back, the PGN, own game files, a card that cannot be drawn, and a quiet terminal."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from dealers_chess.cli.web.access import Access, own_names, qr_block, qr_lines
from dealers_chess.cli.web.app import create_app
from dealers_chess.cli.web.logs import WEBSOCKET_REFUSED, OncePerMinute
from dealers_chess.cli.web.stream import state_events
from dealers_chess.cli.web.table import Table
from dealers_chess.engine.game import game_files
from dealers_chess.engine.record import read_record
from dealers_chess.engine.session.seats import Seat
from dealers_chess.engine.session.session import Session
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.printing.records import start_saver

DEALER = [sys.executable, "-m", "dealers_chess"]
ORIGIN = "http://127.0.0.1"
ALL_ROUTES = ("/", "/api/state", "/api/events", "/api/board?ply=0", "/api/pgn", "/card/knight.svg",
              "/picture/knight.png", "/api/piece/knight.png", "/static/board.js")


@pytest.fixture()
def seats(tmp_path):
    """(table, {seat: a client acting as that seat's page}, a client with no key) for a chess game."""
    def serve(game: str = "chess", fen: str | None = None, catalogue=None):
        session = Session.new(game, fen, catalogue)
        table = Table(session, start_saver(session, str(tmp_path / "game.pgn"), None))
        access = Access.for_server("127.0.0.1", 8765)
        app = create_app(table, access)
        pages = {seat: TestClient(app, base_url=ORIGIN, headers={"X-Dealer-Key": access.key_for(seat),
                                                                  "Origin": ORIGIN}) for seat in Seat}
        return table, pages, TestClient(app, base_url=ORIGIN)
    return serve


def act(client: TestClient, path: str, body: dict):
    return client.post(path, json=body | {"version": client.get("/api/state").json()["version"]})


def test_a_seats_key_is_refused_for_the_other_sides_moves_resignation_and_claims(seats):
    table, pages, _ = seats()
    white, black = pages[Seat.WHITE], pages[Seat.BLACK]
    assert white.get("/api/state").json()["seat"] == "white" and black.get("/api/state").json()["seat"] == "black"
    refused = act(black, "/api/play", {"move": "e2e4"})
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("it is White's turn: this page plays Black")
    assert act(white, "/api/play", {"move": "e2e4"}).status_code == 200
    assert act(white, "/api/play", {"move": "e7e5"}).json()["error"].startswith("it is Black's turn")
    for move in ("g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8", "f3g1"):
        act(black if move[0] in "fg" and move[1] in "68" else white, "/api/play", {"move": move})
    state = white.get("/api/state").json()
    assert state["claimable"] and state["turn"] == "black"
    assert "may claim a draw on White's turn" in act(white, "/api/command", {"command": "claim"}).json()["error"]
    resigned = act(white, "/api/command", {"command": "resign"}).json()["state"]  # on Black's turn: White resigns
    assert (resigned["result"], resigned["reason"]) == ("0-1", "resignation")
    assert read_record(table.saver.path).tags["Result"] == "0-1"


def test_draw_offers_and_undo_requests_go_from_one_seat_to_the_other(seats):
    table, pages, _ = seats()
    white, black = pages[Seat.WHITE], pages[Seat.BLACK]
    act(white, "/api/play", {"move": "e2e4"})
    assert act(white, "/api/command", {"command": "draw"}).json()["state"]["draw_offer"] == "white"
    assert "White offered this draw" in act(white, "/api/command", {"command": "accept"}).json()["error"]
    assert act(black, "/api/command", {"command": "decline"}).json()["state"]["draw_offer"] is None
    asked = act(white, "/api/command", {"command": "undo"}).json()
    assert asked["state"]["takeback"] == "white" and asked["state"]["moves"] == ["e4"]
    assert "the other side answers it" in act(white, "/api/command", {"command": "accept undo"}).json()["error"]
    taken = act(black, "/api/command", {"command": "accept undo"}).json()["state"]
    assert taken["moves"] == [] and taken["takeback"] is None and read_record(table.saver.path).moves == ()
    both = pages[Seat.BOTH]  # the table's own page plays both sides and undoes at once
    act(both, "/api/play", {"move": "e2e4"})
    assert act(both, "/api/command", {"command": "undo"}).json()["state"]["moves"] == []


def test_no_response_sets_a_cookie_and_without_a_key_nothing_is_served(seats):
    table, pages, stranger = seats()
    responses = [stranger.get(route) for route in ALL_ROUTES]
    assert [r.status_code for r in responses] == [403] * len(ALL_ROUTES)
    for page in pages.values():
        key = page.headers["X-Dealer-Key"]
        entry = stranger.get(f"/?key={key}", follow_redirects=False)
        assert entry.status_code == 200 and f'<meta name="dealer-key" content="{key}">' in entry.text
        responses += [entry, page.get("/api/state"), page.get("/api/pgn"), page.get("/card/knight.svg"),
                      act(page, "/api/command", {"command": "resign"})]
    assert not any("set-cookie" in response.headers for response in responses)
    assert stranger.get("/api/state").status_code == 403  # an opened address leaves nothing behind
    reloaded = stranger.get("/")  # a tab reloaded at /: its script brings the key kept in sessionStorage back
    assert reloaded.status_code == 403 and "sessionStorage" in reloaded.text
    assert "script-src 'sha256-" in reloaded.headers["content-security-policy"]
    script = re.search(r'src="(/static/[\w-]+/board.js)"', entry.text)[1]
    assert stranger.get(script).status_code == 200  # the page's own script: the same for every game, no key
    for other in ("index.html", "%2e%2e/%2e%2e/api/state", "..%2fapp.py", "board.js.map", "Board.js"):
        assert stranger.get(script.replace("board.js", other)).status_code == 404, other


def test_every_refusal_under_api_is_json_with_a_reason_and_elsewhere_a_line_of_text(seats, monkeypatch):
    table, pages, stranger = seats()
    white = pages[Seat.WHITE]
    refusals = {
        "no route": white.get("/api/nothing"), "wrong method": white.get("/api/play"),
        "no key": stranger.get("/api/state"), "too large": white.post("/api/play", content=b"{" * 5000,
                                                                       headers={"Content-Type": "application/json"}),
        "not json": white.post("/api/play", content=b"e4", headers={"Content-Type": "text/plain"}),
        "foreign host": white.get("/api/state", headers={"Host": "evil.example"}),
        "bad body": white.post("/api/play", json={"move": "e4"}),
    }
    statuses = {cause: (answer.status_code, answer.headers["content-type"]) for cause, answer in refusals.items()}
    assert statuses == {cause: (status, "application/json") for cause, status in (
        ("no route", 404), ("wrong method", 405), ("no key", 403), ("too large", 413), ("not json", 415),
        ("foreign host", 421), ("bad body", 400))}
    assert refusals["no route"].json() == {"error": "no such address: /api/nothing; the routes are in docs/web-api.md"}
    assert refusals["wrong method"].json() == {"error": "GET is not taken here: /api/play takes POST"}
    assert refusals["wrong method"].headers["allow"] == "POST"
    elsewhere = white.get("/nothing")
    assert (elsewhere.status_code, elsewhere.headers["content-type"]) == (404, "text/plain; charset=utf-8")
    monkeypatch.setattr(Table, "refresh", lambda self: 1 / 0)  # a bug: said in one line, no traceback sent
    failed = TestClient(white.app, base_url=ORIGIN, headers=white.headers, raise_server_exceptions=False)
    answer = failed.get("/api/state")
    assert answer.status_code == 500 and answer.json() == {"error": "the server failed (ZeroDivisionError): see its "
                                                                    "terminal"}


def test_the_board_of_an_earlier_move_and_the_pgn_so_far(seats):
    table, pages, _ = seats()
    both = pages[Seat.BOTH]
    for move in ("e2e4", "e7e5", "d1h5"):
        act(both, "/api/play", {"move": move})
    start, after = both.get("/api/board?ply=0").json(), both.get("/api/board?ply=2").json()
    assert start["last_squares"] == [] and start["fen"].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP")
    assert after["last_squares"] == ["e7", "e5"] and after["turn"] == "white" and len(after["squares"]) == 64
    assert both.get("/api/board?ply=3").json()["fen"] == both.get("/api/state").json()["fen"]
    beyond = both.get("/api/board?ply=99")
    assert (beyond.status_code, beyond.json()["error"]) == (400, "ply 99: the game has 3 moves so far; give 0 to 3")
    for bad in ("-1", "x", "", "1e3", "9999999"):
        assert both.get(f"/api/board?ply={bad}").status_code == 400
    pgn = both.get("/api/pgn")
    assert pgn.headers["content-disposition"] == 'attachment; filename="game.pgn"'
    assert "1. e4 e5 2. Qh5 *" in pgn.text and pgn.text == table.saver.path.read_text()


def test_the_event_stream_sends_the_state_at_once_and_after_every_change(seats):
    table, pages, _ = seats()

    async def follow() -> list[dict]:
        stream = state_events(table, lambda: Seat.BLACK)
        seen = [json.loads((await anext(stream)).split("data: ", 1)[1])]
        await asyncio.to_thread(act, pages[Seat.WHITE], "/api/play", {"move": "e2e4"})
        seen.append(json.loads((await asyncio.wait_for(anext(stream), 2)).split("data: ", 1)[1]))
        table.closing.set()
        assert [event async for event in stream] == []  # the server stops: the stream ends
        return seen
    first, second = asyncio.run(follow())
    assert (first["version"], second["version"], second["moves"], second["seat"]) == (0, 1, ["e4"], "black")


def test_a_card_too_wordy_to_draw_says_why_and_a_name_too_wide_is_refused_at_load(seats, tmp_path):
    wordy = tmp_path / "wordy.toml"
    wordy.write_text('[[piece]]\nid = "knight"\nname = "Knight"\ngroup = "piece"\ncode = "N"\nbetza = "N"\n'
                     f'text = "{"Leaps to any square two away and one aside, over anything. " * 12}"\n')
    table, pages, _ = seats(catalogue=load_catalogue([wordy]))
    for _ in range(2):  # drawn once, answered twice; never a server error
        refused = pages[Seat.BOTH].get("/card/knight.svg")
        assert refused.status_code == 422 and refused.text.startswith("the card cannot be drawn: ")
    wide = tmp_path / "wide.toml"
    wide.write_text(wordy.read_text().replace('name = "Knight"',
                                              'name = "Grand Imperial Chancellor of the Northern Marches"'))
    done = subprocess.run([*DEALER, "serve", "chess", "--catalogue", str(wide), "--port", "0"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "piece 'knight': name:" in done.stderr
    assert "the card's name band holds 200 pt" in done.stderr and list(tmp_path.glob("build/games/*")) == []


def test_refusals_are_logged_once_per_cause_a_minute():
    now = [0.0]
    limit = OncePerMinute(lambda: now[0])
    logger = logging.getLogger("tests.serve.quiet")
    logger.addFilter(limit)
    records: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: records.append(record.getMessage())
    logger.addHandler(handler)
    for _ in range(200):
        logger.warning("Invalid HTTP request received.")
        logger.warning("Unsupported upgrade request.")
    now[0] = 61.0
    logger.warning("Invalid HTTP request received.")
    assert records == ["Invalid HTTP request received.", "Unsupported upgrade request.",
                       "Invalid HTTP request received. (and 199 more like it since the last one shown)"]


def test_on_0_0_0_0_the_computers_own_name_is_a_host_and_each_seat_gets_a_qr_code():
    access = Access.for_server("0.0.0.0", 8765, ("192.0.2.2",))
    name = socket.gethostname().lower()
    if name and name != "localhost":
        assert {name, f"{name}.local"} <= access.hosts and access.allows_host(f"{name}.local:8765")
    assert own_names() <= access.hosts and not Access.for_server("127.0.0.1", 1).hosts & (own_names() - {"localhost"})
    codes = [(seat.value, access.url("192.0.2.2", seat)) for seat in Seat]
    wide, narrow = qr_block(codes, 200), qr_block(codes, 80)
    width = len(qr_lines(codes[0][1])[0])
    assert wide[0].split() == ["both", "white", "black", "watch"] and len(wide) == 1 + len(qr_lines(codes[0][1]))
    assert wide[1] == "  ".join(qr_lines(text)[0] for _, text in codes)
    assert narrow[0].strip() == "both" and narrow[1:1 + len(qr_lines(codes[0][1]))] == qr_lines(codes[0][1])
    assert max(len(line) for line in narrow) == width


def own_game(folder: Path) -> Path:
    chess = next(path for path in game_files() if path.name == "chess.toml").read_text(encoding="utf-8")
    (folder / "mine.toml").write_text(chess.replace('id = "chess"', 'id = "mine"'), encoding="utf-8")
    return folder / "mine.toml"


def test_serve_runs_an_own_game_file_streams_moves_and_stops_on_sigterm_with_a_stream_open(tmp_path):
    own_game(tmp_path)
    server = subprocess.Popen([*DEALER, "serve", "mine.toml", "--save", "g.pgn", "--port", "0"], cwd=tmp_path,
                              text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        lines = [server.stdout.readline() for _ in range(4)]
        assert lines[0] == "Chess: every move is saved to g.pgn\n"
        assert lines[2].startswith("White: http://127.0.0.1:") and lines[3].startswith("Black: http://127.0.0.1:")
        base, white = lines[1].split()[1].partition("/?")[0], lines[2].split()[1].partition("?key=")[2]
        black = lines[3].split()[1].partition("?key=")[2]
        stream = urllib.request.urlopen(urllib.request.Request(base + "/api/events", headers={"X-Dealer-Key": black}),
                                        timeout=10)
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert json.loads(_next_event(stream))["version"] == 0
        started = time.monotonic()
        threading.Thread(target=_post, args=(base, white, {"move": "e2e4", "version": 0})).start()
        assert json.loads(_next_event(stream))["moves"] == ["e4"]
        assert time.monotonic() - started < 1.0  # the other seat sees the move within a second
        server.send_signal(signal.SIGTERM)  # with the stream still open
        out, err = server.communicate(timeout=10)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0 and err == "" and out.strip().endswith("or dealer play --resume g.pgn)")
    record = read_record(tmp_path / "g.pgn")  # read from another folder: the record names the game file in full
    assert record.moves == ("e4",) and record.tags["Variant"] == str((tmp_path / "mine.toml").resolve())


def _next_event(stream) -> str:
    block = b""
    while not block.endswith(b"\n\n") or b"data: " not in block:
        block = block if not block.endswith(b"\n\n") else b""
        block += stream.readline()
    return block.decode().split("data: ", 1)[1]


def _post(base: str, key: str, body: dict) -> None:
    request = urllib.request.Request(base + "/api/play", data=json.dumps(body).encode(), headers={
        "Content-Type": "application/json", "X-Dealer-Key": key, "Origin": base})
    urllib.request.urlopen(request, timeout=10).read()


@pytest.mark.skipif(shutil.which("bash") is None, reason="runs dealer play through bash")
def test_dealer_play_runs_an_own_game_file(tmp_path):
    own_game(tmp_path)
    done = subprocess.run([*DEALER, "play", "mine.toml", "--save", "g.pgn"], cwd=tmp_path, input="f3\ne5\ng4\nQh4\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "result: 0-1 (checkmate)"


def test_a_flood_of_malformed_requests_prints_one_line_per_cause(tmp_path):
    server = subprocess.Popen([*DEALER, "serve", "chess", "--save", "g.pgn", "--port", "0"], cwd=tmp_path, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        port = int(re.search(r":(\d+)/", [server.stdout.readline() for _ in range(2)][1])[1])
        upgrade = (f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
        keyless = f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
        foreign = keyless.replace(f"127.0.0.1:{port}".encode(), b"attacker.example")
        posted = (f"POST /api/command HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: text/plain\r\n"
                  "Content-Length: 2\r\nConnection: close\r\n\r\n{}").encode()
        # no key needed to send any of these; refused without a key (403) or a Host (421), they print nothing
        answers: list[bytes] = []
        for request in [b"GARBAGE\r\n\r\n"] * 100 + [upgrade] * 30 + [keyless, foreign, posted] * 20:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(request)
                answers.append(sock.recv(100)[:12])
        assert answers[130:133] == [b"HTTP/1.1 403", b"HTTP/1.1 421", b"HTTP/1.1 403"]
    finally:
        server.send_signal(signal.SIGTERM)
        _, errors = server.communicate(timeout=20)
    lines = errors.splitlines()
    assert sum("Invalid HTTP request received" in line for line in lines) == 1
    assert not any("WebSocket library" in line or "Unsupported upgrade" in line for line in lines), lines
    assert sum(line.endswith(WEBSOCKET_REFUSED) for line in lines) == 1 and len(lines) <= 2, lines


def test_resume_keeps_the_seat_keys_only_when_asked(tmp_path):
    from tests.cli.browser import Server

    first = Server(tmp_path, "chess", "--save", "g.pgn")
    first.kill()
    keys = tmp_path / ".g.pgn.keys"
    assert keys.stat().st_mode & 0o777 == 0o600
    kept = Server(tmp_path, "--resume", "g.pgn", "--keep-keys")
    assert kept.key == first.key and kept.seat_urls == {seat: url.replace(first.origin, kept.origin)
                                                        for seat, url in first.seat_urls.items()}
    answer = urllib.request.urlopen(urllib.request.Request(f"{kept.origin}/api/state",
                                                           headers={"X-Dealer-Key": first.key}), timeout=10)
    assert json.load(answer)["seat"] == "both"  # an open page's key works again
    kept.kill()
    fresh = Server(tmp_path, "--resume", "g.pgn")
    assert fresh.key != first.key and fresh.seat_urls["white"].split("=")[1] != first.seat_urls["white"].split("=")[1]
    fresh.kill()
    keys.unlink()
    missing = subprocess.run([*DEALER, "serve", "--resume", "g.pgn", "--keep-keys", "--port", "0"], cwd=tmp_path,
                             text=True, capture_output=True, timeout=60)
    assert missing.returncode == 1 and missing.stderr.strip() == (
        "error: no seat keys kept beside g.pgn (looked for .g.pgn.keys): run without --keep-keys for new keys "
        "(and new addresses)")
    alone = subprocess.run([*DEALER, "serve", "chess", "--keep-keys"], cwd=tmp_path, text=True, capture_output=True,
                           timeout=60)
    assert alone.returncode == 2 and "--keep-keys keeps the keys of the game --resume FILE continues" in alone.stderr
    assert not (tmp_path / ".g.pgn.lock").exists()  # the refused run let go of the record


def test_a_rematch_is_offered_and_accepted_between_the_seats_and_swaps_the_colours(seats, tmp_path):
    table, pages, _ = seats()
    white, black, watch = pages[Seat.WHITE], pages[Seat.BLACK], pages[Seat.WATCH]
    act(white, "/api/name", {"name": "Ann"})
    act(black, "/api/name", {"name": "Bob"})
    assert "a rematch is for a game that is over" in act(white, "/api/command", {"command": "rematch"}).json()["error"]
    for page, move in ((white, "f2f3"), (black, "e7e5"), (white, "g2g4"), (black, "d8h4")):
        act(page, "/api/play", {"move": move})
    first_record = table.saver.path
    assert act(white, "/api/command", {"command": "rematch"}).json()["state"]["rematch_offer"] == "white"
    assert act(black, "/api/command", {"command": "decline rematch"}).json()["state"]["rematch_offer"] is None
    assert "this page watches the game" in act(watch, "/api/command", {"command": "rematch"}).json()["error"]
    act(white, "/api/command", {"command": "rematch"})
    begun = act(black, "/api/command", {"command": "rematch"}).json()
    assert begun["events"][0]["text"] == "rematch, colours swapped: Bob plays White, Ann Black"
    assert (begun["state"]["seat"], begun["state"]["round"], begun["state"]["moves"]) == ("white", 2, [])
    assert white.get("/api/state").json()["seat"] == "black"  # Ann's page (White's key) now plays Black
    assert begun["state"]["names"] == {"white": "Bob", "black": "Ann"} and begun["state"]["result"] is None
    refused = act(white, "/api/play", {"move": "e2e4"}).json()["error"]
    assert refused.startswith("it is White's turn: this page plays Black")
    act(black, "/api/play", {"move": "e2e4"})  # Bob's page (Black's key) plays White now
    assert table.saver.path != first_record and "0-1" in first_record.read_text()
    assert not (tmp_path / f".{first_record.name}.lock").exists()  # the first game's record is let go
    again = read_record(table.saver.path)
    assert (again.tags["White"], again.tags["Black"], again.tags["Round"], again.moves) == ("Bob", "Ann", "2", ("e4",))
    kept = json.loads((tmp_path / f".{table.saver.path.name}.keys").read_text())
    assert kept["white"] == black.headers["X-Dealer-Key"] and kept["black"] == white.headers["X-Dealer-Key"]


def test_the_tables_own_page_plays_a_rematch_at_once(seats):
    table, pages, _ = seats()
    both = pages[Seat.BOTH]
    act(both, "/api/command", {"command": "resign"})
    begun = act(both, "/api/command", {"command": "rematch"}).json()["state"]
    assert (begun["round"], begun["seat"], begun["result"], begun["rematch_offer"]) == (2, "both", None, None)
    assert pages[Seat.WHITE].get("/api/state").json()["seat"] == "black"


def test_after_a_rematch_the_server_stops_naming_the_rematchs_record_whose_keys_it_keeps(tmp_path):
    from tests.cli.browser import Server

    server = Server(tmp_path, "chess", "--save", "g.pgn")
    keys = {seat: url.partition("?key=")[2] for seat, url in server.seat_urls.items()}

    def send(seat: str, command: str) -> dict:
        state = json.load(urllib.request.urlopen(urllib.request.Request(
            f"{server.origin}/api/state", headers={"X-Dealer-Key": keys[seat]}), timeout=10))
        request = urllib.request.Request(f"{server.origin}/api/command", method="POST", data=json.dumps(
            {"command": command, "version": state["version"]}).encode(), headers={
            "X-Dealer-Key": keys[seat], "Origin": server.origin, "Content-Type": "application/json"})
        return json.load(urllib.request.urlopen(request, timeout=10))

    send("white", "resign")
    send("black", "rematch")
    assert send("white", "rematch")["state"]["seat"] == "black"  # White's key plays Black in the rematch
    server.process.send_signal(signal.SIGTERM)
    out, _ = server.process.communicate(timeout=20)
    rematch = next(tmp_path.glob("chess-*.pgn")).name  # beside g.pgn
    assert out.strip().endswith(f"continue with: dealer serve --resume {rematch} --keep-keys  (the same addresses; "
                                f"or dealer play --resume {rematch})")
    resumed = Server(tmp_path, "--resume", rematch, "--keep-keys")
    assert resumed.seat_urls["black"].endswith(keys["white"]) and resumed.seat_urls["white"].endswith(keys["black"])
    resumed.kill()
