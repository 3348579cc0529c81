"""`dealer serve` lets only its own page act: Host names, the run's key, origin, content type, body size, headers.

The in-process tests go through the real middleware with Starlette's client; the process tests
start `dealer serve` and measure what a 200 MB post does to its memory (Linux: /proc).
"""

from __future__ import annotations

import json
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from dealers_chess.cli.web.access import Access, host_name, own_names, qr_lines
from dealers_chess.cli.web.app import create_app
from dealers_chess.cli.web.bodies import MAX_NESTING, MoveBody, RequestError, decode
from dealers_chess.cli.web.guard import MAX_BODY_BYTES, SECURITY_HEADERS
from dealers_chess.cli.web.table import Table
from dealers_chess.engine.record import read_record
from dealers_chess.engine.session.seats import Seat
from dealers_chess.engine.session.session import Session
from dealers_chess.printing.records import start_saver

DEALER = [sys.executable, "-m", "dealers_chess"]
ORIGIN = "http://127.0.0.1:8765"
ROUTES = ("/", "/api/state", "/api/events", "/api/pgn", "/api/board?ply=0", "/static/board.js", "/card/knight.svg",
          "/picture/knight.png", "/api/piece/knight.png")
KEYED_ROUTES = ("/", "/api/state", "/api/pgn", "/card/knight.svg")  # answered 200 to the page's key


@pytest.fixture()
def game(tmp_path):
    """(table, access, a client with no key, a client acting as the page) for a chess game saved in tmp_path."""
    session = Session.new("chess")
    table = Table(session, start_saver(session, str(tmp_path / "game.pgn"), None))
    access = Access.for_server("127.0.0.1", 8765)
    app = create_app(table, access)
    stranger = TestClient(app, base_url=ORIGIN)
    page = TestClient(app, base_url=ORIGIN, headers={"X-Dealer-Key": access.key, "Origin": ORIGIN})
    return table, access, stranger, page


def unchanged(table: Table) -> bool:
    return table.version == 0 and table.session.sans == [] and read_record(table.saver.path).moves == ()


def test_a_foreign_host_gets_nothing_on_any_route(game):
    table, access, stranger, page = game
    for host in ("attacker.example:8765", "rebind.attacker.test", "127.0.0.1.nip.io:8765", "localhost.:8765", "",
                 "0.0.0.0:8765", "127.1:8765", "2130706433:8765", "127.0.0.2:8765"):  # the review's rebinding names
        for route in ROUTES:
            response = page.get(route, headers={"Host": host})
            assert response.status_code == 421, (host, route)
            assert "board" not in response.text
            assert "this server answers only to 127.0.0.1, [::1], localhost" in response.text
        response = page.post("/api/play", json={"move": "e4", "version": 0}, headers={"Host": host})
        assert response.status_code == 421
        response = stranger.get(f"/?key={access.key}", headers={"Host": host})
        assert response.status_code == 421 and "set-cookie" not in response.headers
    for host in ("127.0.0.1:8765", "LOCALHOST:8765", "[::1]:8765", "localhost"):
        assert page.get("/api/state", headers={"Host": host}).status_code == 200
    assert unchanged(table)


def test_without_the_key_nothing_is_served_and_the_printed_address_opens_the_page_without_a_cookie(game):
    table, access, stranger, page = game
    for route in ROUTES:
        response = stranger.get(route)
        assert response.status_code == 403 and "open the address dealer serve printed" in response.text, route
    for wrong in ("not-the-key", access.key[:-1], access.key.upper(), ""):
        assert stranger.get(f"/?key={wrong}", follow_redirects=False).status_code == 403
    entry = stranger.get(f"/?key={access.key}", follow_redirects=False)
    assert entry.status_code == 200 and "set-cookie" not in entry.headers
    assert f'<meta name="dealer-key" content="{access.key}">' in entry.text and "board.js" in entry.text
    assert stranger.get("/api/state").status_code == 403  # nothing was remembered: the page sends its key itself
    for route in KEYED_ROUTES:
        assert page.get(route).status_code == 200, route


def test_an_action_needs_the_key_header_the_served_origin_and_json(game):
    table, access, stranger, page = game
    stranger.get(f"/?key={access.key}")  # opening the address leaves no cookie for a forged request to carry
    body = json.dumps({"move": "e4", "version": 0})
    json_type = {"Content-Type": "application/json"}
    refusals = [
        (stranger, {**json_type, "Origin": ORIGIN}, 403, "needs the key in the x-dealer-key header"),
        (page, {**json_type, "Origin": "http://localhost:8765"}, 403, "must come from the page at http://127.0.0.1:8765"),
        (page, {**json_type, "Origin": "http://127.0.0.1:9999"}, 403, "(Origin or Referer: 'http://127.0.0.1:9999')"),
        (page, {**json_type, "Origin": "null"}, 403, "(Origin or Referer: 'null')"),
        (page, {**json_type, "Origin": "http://evil.example"}, 403, "must come from the page"),
        (page, {"Content-Type": "text/plain", "Origin": ORIGIN}, 415, "not 'text/plain'"),
        (page, {"Content-Type": "application/x-www-form-urlencoded", "Origin": ORIGIN}, 415, "application/json"),
        (page, {"Content-Type": "multipart/form-data; boundary=x", "Origin": ORIGIN}, 415, "application/json"),
        (page, {"Origin": ORIGIN}, 415, "not 'nothing'"),
    ]
    for client, headers, status, reason in refusals:
        response = client.post("/api/play", content=body, headers=headers)
        assert response.status_code == status and reason in response.json()["error"], (headers, response.text)
    no_origin = TestClient(page.app, base_url=ORIGIN, headers={"X-Dealer-Key": access.key, **json_type})
    assert no_origin.post("/api/play", content=body).json()["error"].endswith("(Origin or Referer: none)")
    for path, action in (("/api/command", {"command": "resign"}), ("/api/command", {"command": "undo"}),
                         ("/api/cancel", {})):
        assert stranger.post(path, json=action | {"version": 0}, headers={"Origin": ORIGIN}).status_code == 403
    preflight = stranger.options("/api/play", headers={  # what a browser asks before another origin's JSON post
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-dealer-key"})
    assert preflight.status_code == 403 and not any(h.startswith("access-control-") for h in preflight.headers)
    assert unchanged(table)
    referer = page.post("/api/play", content=body, headers={**json_type, "Origin": "", "Referer": ORIGIN + "/"})
    assert referer.status_code == 403  # an empty Origin is not the served one
    by_referer = no_origin.post("/api/play", content=body, headers={"Referer": ORIGIN + "/"})
    assert by_referer.status_code == 200 and table.session.sans == ["e4"]


@pytest.mark.parametrize("depth, reason", [
    (MAX_NESTING, "the request must be a JSON object such as"),  # parsed, then refused for its shape
    (MAX_NESTING + 1, "the request is nested too deeply"),  # refused before parsing, on every Python version
    (2000, "the request is nested too deeply"),
])
def test_nesting_is_refused_by_depth_not_by_the_parsers_recursion_limit(depth, reason):
    """Python 3.12 parses 1000 nested lists without a RecursionError; the answer must not depend on that."""
    with pytest.raises(RequestError, match=reason):
        decode(b"[" * depth + b"]" * depth, MoveBody)
    with pytest.raises(RequestError, match=reason if depth > MAX_NESTING else "request: move: expected text"):
        decode(b'{"move": ' + b"[" * (depth - 1) + b"]" * (depth - 1) + b', "version": 0}', MoveBody)
    assert decode(b'{"move": "[[[{{{", "version": 0}', MoveBody).move == "[[[{{{"  # brackets in text count for nothing


def test_wrong_typed_or_nested_bodies_are_refused_with_a_reason(game):
    table, access, stranger, page = game
    cases = [
        (b"[" * 1000 + b"]" * 1000, "the request is nested too deeply; expected a JSON object of text and numbers"),
        (b'{"move": ' + b"[" * 2000 + b"]" * 2000 + b', "version": 0}', "nested too deeply"),
        (b'{"move": null, "version": 0}', "request: move: expected text; found None"),
        (b'{"move": 123, "version": 0}', "request: move: expected text; found 123"),
        (b'{"move": ["d2d4"], "version": 0}', "request: move: expected text; found ['d2d4']"),
        (b'{"move": "e4"}', "request: missing key 'version'"),
        (b'{"move": "e4", "version": "0"}', "request: version: expected a whole number; found '0'"),
        (b'{"move": "e4", "version": true}', "request: version: expected a whole number; found True"),
        (b'{"move": "e4", "version": 1e400}', "request: version: expected a whole number"),
        (b'{"move": "e4", "version": NaN}', "the request is not JSON"),
        (b'{"move": "e4", "version": 0, "pad": 1}', "request: unknown key 'pad'; allowed: move, version"),
        (b'"e2e4"', "the request must be a JSON object"),
        (b"\xff\xfe", "the request is not UTF-8 text"),
        (b"", "the request is not JSON"),
    ]
    for raw, reason in cases:
        response = page.post("/api/play", content=raw, headers={"Content-Type": "application/json"})
        assert response.status_code == 400 and reason in response.json()["error"], (raw[:40], response.text)
    assert unchanged(table)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                         lambda inner: (st.lists(inner, max_size=4)
                                        | st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                         max_leaves=30))
def test_no_body_gives_a_server_error(game, body):
    table, access, stranger, page = game
    for path in ("/api/play", "/api/command", "/api/cancel"):
        response = page.post(path, content=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        assert response.status_code in (200, 400), response.text
        assert response.status_code == 200 or response.json()["error"].count("\n") == 0


def test_bodies_over_the_limit_are_refused_before_they_are_read(game):
    table, access, stranger, page = game
    json_type = {"Content-Type": "application/json"}
    declared = page.post("/api/play", content=b"{" + b" " * MAX_BODY_BYTES + b"}", headers=json_type)
    assert declared.status_code == 413 and declared.headers["connection"] == "close"

    def chunks():  # no Content-Length: the guard counts as the body arrives
        for _ in range(100):
            yield b" " * 1000
    streamed = page.post("/api/play", content=chunks(), headers=json_type)
    assert streamed.status_code == 413
    assert streamed.json()["error"] == f"request too large: at most {MAX_BODY_BYTES} bytes"
    assert unchanged(table)


def test_paths_out_of_the_served_folders_are_not_found_even_with_the_key(game):
    table, access, stranger, page = game
    assets = f"/static/{access.assets}/"
    for folder in ("/card/", "/picture/", "/api/piece/", assets):  # the review's traversal variants (a bare ../
        # the client resolves)
        for name in ("%2e%2e/app.py", "%2e%2e", "..%2fapp.py", "..%252fapp.py", "..%5capp.py",
                     "board.js%00.svg", "/etc/passwd", "..%2f..%2f..%2fetc%2fpasswd", "__init__.py", "index.html"):
            response = page.get(folder + name)
            assert response.status_code == 404, (folder, name, response.status_code)
            assert "import" not in response.text and "root:" not in response.text
    assert page.get(assets + "board.js").status_code == 200


def test_every_response_forbids_framing_and_sniffing(game):
    table, access, stranger, page = game
    responses = [page.get(route) for route in KEYED_ROUTES] + [
        stranger.get("/api/state"), page.get("/api/state", headers={"Host": "evil.example"}),
        page.post("/api/play", content=b"x", headers={"Content-Type": "text/plain"}),
        page.post("/api/play", json={"move": "e2e5", "version": 0}),
        stranger.get(f"/?key={access.key}", follow_redirects=False)]
    for response in responses:
        for name, value in SECURITY_HEADERS:
            assert response.headers[name.decode()] == value.decode(), (response.request.url, name)
    assert "frame-ancestors 'none'" in responses[0].headers["content-security-policy"]


def test_access_names_hosts_and_keys():
    access = Access.for_server("0.0.0.0", 8765, ("192.0.2.2", "fd00::2"))
    assert access.hosts == {"127.0.0.1", "localhost", "[::1]", "192.0.2.2", "[fd00::2]", *own_names()}
    assert access.url("fd00::2") == f"http://[fd00::2]:8765/?key={access.key}"
    assert access.allows_host("192.0.2.2:8765") and access.allows_host("[FD00::2]:8765")
    assert not access.allows_host("192.0.2.3:8765") and not access.allows_host("0.0.0.0:8765")
    assert Access.for_server("0.0.0.0", 1).key != Access.for_server("0.0.0.0", 1).key
    assert [host_name(h) for h in ("[::1]:80", "LocalHost", "a.b:1", "[::1")] == ["[::1]", "localhost", "a.b", "[::1"]
    assert not access.key_matches(None) and not access.key_matches("") and access.key_matches(access.key)
    assert [access.seat_of(key) for _, key in access.keys] == list(Seat) and access.seat_of(access.assets) is None


def test_the_qr_code_holds_the_address():
    import segno

    url = "http://192.0.2.2:8765/?key=abcdefghijklmnopqrstuv"
    lines = qr_lines(url)
    modules = [[0] * len(lines[0]) for _ in range(2 * len(lines))]
    for row, line in enumerate(lines):
        for column, glyph in enumerate(line):
            modules[2 * row][column] = int(glyph in "▀█")
            modules[2 * row + 1][column] = int(glyph in "▄█")
    matrix = [list(row) for row in segno.make(url, error="m").matrix]
    border = 4
    assert [row[border:border + len(matrix)] for row in modules[border:border + len(matrix)]] == matrix
    assert not any(modules[:border][0]) and all(len(line) == len(matrix) + 2 * border for line in lines)


# --- the real server ------------------------------------------------------------------------------


class Served:
    """`dealer serve` in a process: its printed lines (read as they come), URL, key and port."""

    def __init__(self, folder: Path, *args: str) -> None:
        self.process = subprocess.Popen([*DEALER, "serve", *args], cwd=folder, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.printed: list[str] = []
        self.reader = threading.Thread(target=lambda: self.printed.extend(self.process.stdout), daemon=True)
        self.reader.start()
        deadline = time.monotonic() + 30
        while len(self.printed) < 2 and self.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        self.lines = self.printed[:2]
        self.url = self.lines[1].split()[1]
        self.key = self.url.partition("?key=")[2]
        self.port = int(self.url.split(":")[2].split("/")[0])

    def rss_kb(self, field: str = "VmHWM") -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith(field + ":")))

    def stop(self, sig: int = signal.SIGTERM) -> str:
        """Stop the server; everything it printed after the address line."""
        self.process.send_signal(sig)
        self.process.wait(20)
        self.reader.join(10)
        return "".join(self.printed[2:])


def flood(port: int, key: str, total: int, chunked: bool) -> tuple[str, int]:
    """POST `total` bytes to /api/play as fast as the server takes them; (its status line, bytes sent)."""
    sock = socket.create_connection(("127.0.0.1", port))
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}"
    sock.sendall((f"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Dealer-Key: {key}\r\n"
                  f"Origin: http://127.0.0.1:{port}\r\nContent-Type: application/json\r\n{framing}\r\n\r\n").encode())
    piece = b"[" * 65536
    frame = f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if chunked else piece
    sent = 0
    while sent < total and not select.select([sock], [], [], 0)[0]:
        try:
            sock.sendall(frame)
        except (BrokenPipeError, ConnectionResetError):
            break
        sent += len(piece)
    sock.settimeout(10)
    status = sock.recv(4096).split(b"\r\n")[0].decode()
    sock.close()
    return status, sent


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="measures memory through Linux's /proc")
def test_a_200_mb_post_is_refused_without_the_server_growing(tmp_path):
    server = Served(tmp_path, "chess", "--save", "g.pgn", "--port", "0")
    try:
        before = server.rss_kb()
        for chunked in (False, True):
            status, sent = flood(server.port, server.key, 200_000_000, chunked)
            # the code, not the reason phrase: Python 3.13 renamed 413 "Content Too Large" (RFC 9110)
            assert status.split(" ")[:2] == ["HTTP/1.1", "413"], status
            assert sent < 50_000_000  # the server closed the connection: the rest was never sent
        grown_kb = server.rss_kb() - before
        assert grown_kb < 3 * 1024, f"the server's peak memory grew by {grown_kb} kB"
    finally:
        server.stop()
    assert read_record(tmp_path / "g.pgn").moves == ()


def test_a_busy_port_leaves_no_record_and_a_held_record_refuses_a_second_session(tmp_path):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = str(busy.getsockname()[1])
    failed = subprocess.run([*DEALER, "serve", "chess", "--save", "g.pgn", "--port", port], cwd=tmp_path,
                            capture_output=True, text=True)
    busy.close()
    assert failed.returncode == 1
    assert failed.stderr == f"error: cannot listen on 127.0.0.1:{port}: it is in use: choose another with --port\n"
    assert list(tmp_path.iterdir()) == []
    server = Served(tmp_path, "chess", "--save", "g.pgn", "--port", "0")
    try:
        before = (tmp_path / "g.pgn").read_bytes()
        lock = (tmp_path / ".g.pgn.lock").read_text()
        assert lock.startswith(f"dealer serve (process {server.process.pid} on {socket.gethostname()}, since ")
        for args in (["play", "--resume", "g.pgn"], ["serve", "--resume", "g.pgn", "--port", "0"],
                     ["play", "chess", "--save", "g.pgn"]):
            second = subprocess.run([*DEALER, *args], cwd=tmp_path, input="e4\nquit\n", capture_output=True, text=True)
            lines = second.stderr.splitlines()
            assert second.returncode == 1 and len(lines) == 1, second
            assert lines[0].startswith(f"error: g.pgn: in use by dealer serve (process {server.process.pid}")
        assert (tmp_path / "g.pgn").read_bytes() == before
        server.stop(signal.SIGKILL)  # no chance to clean up: the lock file stays, but nothing holds it
        assert (tmp_path / ".g.pgn.lock").exists()
        resumed = subprocess.run([*DEALER, "play", "--resume", "g.pgn"], cwd=tmp_path, input="e4\n",
                                 capture_output=True, text=True)
        assert resumed.returncode == 0 and resumed.stdout.splitlines()[-1] == "result: * (unfinished)", resumed
        assert read_record(tmp_path / "g.pgn").moves == ("e4",) and not (tmp_path / ".g.pgn.lock").exists()
    finally:
        if server.process.poll() is None:
            server.stop()


def test_host_0_0_0_0_prints_the_network_addresses_a_warning_and_a_qr_code_each_and_keeps_the_keys(tmp_path,
                                                                                                   monkeypatch):
    from dealers_chess.cli.web.access import network_addresses

    addresses = network_addresses(socket.AF_INET)
    if not addresses:
        pytest.skip("this computer has no network address besides loopback")
    monkeypatch.setenv("COLUMNS", "80")  # one code under the other
    server = Served(tmp_path, "chess", "--save", "g.pgn", "--host", "0.0.0.0", "--port", "0")
    try:
        time.sleep(0.5)
        url = f"http://{addresses[0]}:{server.port}/?key={server.key}"
        assert server.lines[1] == (f"open {url} on a phone or tablet on your network to play both sides (or scan "
                                   f"the first code below); on this computer: http://127.0.0.1:{server.port}/?key="
                                   f"{server.key}\n")
        import urllib.error
        import urllib.request

        state = f"http://{addresses[0]}:{server.port}/api/state"
        with pytest.raises(urllib.error.HTTPError, match="403"):
            urllib.request.urlopen(state, timeout=10)
        request = urllib.request.Request(state, headers={"X-Dealer-Key": server.key})
        assert json.load(urllib.request.urlopen(request, timeout=10))["version"] == 0
        foreign = urllib.request.Request(state, headers={"X-Dealer-Key": server.key, "Host": "attacker.example"})
        with pytest.raises(urllib.error.HTTPError, match="421"):
            urllib.request.urlopen(foreign, timeout=10)
        for name in own_names():  # the computer's own name, as a player may type it
            named = urllib.request.Request(state, headers={"X-Dealer-Key": server.key, "Host": f"{name}:{server.port}"})
            assert json.load(urllib.request.urlopen(named, timeout=10))["version"] == 0
    finally:
        out = server.stop()
    lines = out.splitlines()
    seats = [line.split()[1] for line in lines[:3]]
    assert [line.split(":")[0] for line in lines[:3]] == ["White", "Black", "Watch"]
    assert all(seat.startswith(f"http://{addresses[0]}:{server.port}/?key=") for seat in seats)
    assert lines[3].startswith("warning: anyone on your network who has one of these links can play in this game")
    block = lines[4:lines.index("Ctrl-C stops the server")]
    height = len(qr_lines(url))
    for index, (caption, text) in enumerate(zip(("both sides", "White", "Black", "Watch"), (url, *seats), strict=True)):
        assert block[index * (height + 1)].strip() == caption
        qr = block[index * (height + 1) + 1:(index + 1) * (height + 1)]
        assert qr == qr_lines(text)
        _decodes_to(tmp_path, qr, text)


def _decodes_to(folder: Path, qr: list[str], url: str) -> None:
    """Draw the printed code as a picture and read it back with zbarimg, where zbar-tools is installed."""
    import shutil

    from PIL import Image

    if shutil.which("zbarimg") is None:
        return  # the module comparison above already holds; zbar reads it like a phone camera would
    scale = 8
    image = Image.new("L", (len(qr[0]) * scale, 2 * len(qr) * scale), 255)
    for row, line in enumerate(qr):
        for column, glyph in enumerate(line):
            for half, dark in ((0, glyph in "▀█"), (1, glyph in "▄█")):
                if dark:
                    box = (column * scale, (2 * row + half) * scale, (column + 1) * scale, (2 * row + half + 1) * scale)
                    image.paste(0, box)
    image.save(folder / "qr.png")
    read = subprocess.run(["zbarimg", "--raw", "-q", str(folder / "qr.png")], capture_output=True, text=True)
    assert read.stdout.strip() == url
