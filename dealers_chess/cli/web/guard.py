"""The gate in front of `dealer serve`'s application: only the page it served may read the game or act on it.

Every request needs a Host this server answers to (421 otherwise: DNS rebinding) and one of the
run's keys in the X-Dealer-Key header (403); the key says which seat asks, and the guard leaves that
seat in the request's scope (SEAT). The printed address (`GET /?key=...`) opens the page itself, and
the page's own script and style sheet come from a per-run path under /static/ that opens nothing
else. No response sets a cookie. A request that may change something (anything but GET and HEAD)
also needs an Origin (or Referer) equal to the served origin (403), `Content-Type: application/json`
(415) and a body of at most MAX_BODY_BYTES, counted as it arrives and never read past the limit
(413). Every response forbids framing and sniffing, is never cached and cannot be read by another
origin. All of it lives here, so the handlers see only good requests.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from html import escape
from urllib.parse import parse_qs, urlsplit

from starlette.datastructures import Headers
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dealers_chess.cli.web.access import KEY_HEADER, KEY_PARAMETER, Access
from dealers_chess.engine.session.seats import Seat

MAX_BODY_BYTES = 4096  # the longest action, a battle move of every pawn on 12x12, is under 200 bytes
SAFE_METHODS = ("GET", "HEAD")
CONTENT_SECURITY = ("default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; "
                    "form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", CONTENT_SECURITY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
)
PRINTED = "open the address dealer serve printed (it ends in ?key=...; a new run makes a new key)"
SEAT = "dealer.seat"  # the scope key where the guard leaves the seat whose key a request carries
# A tab reloaded at / has its key in sessionStorage (the page put it there): this 403 page sends it back to the
# printed address. The one inline script the server ever sends, allowed by its hash alone.
RELOAD_SCRIPT = ('const key = sessionStorage.getItem("dealer-key"); '
                 'if (key) location.replace("/?key=" + encodeURIComponent(key));')
RELOAD_SECURITY = ("default-src 'none'; script-src 'sha256-"
                   + base64.b64encode(hashlib.sha256(RELOAD_SCRIPT.encode()).digest()).decode()
                   + "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a request is turned away: its HTTP status, a one-line reason, and whether to close the connection."""

    status: int
    reason: str
    close: bool = False
    reload: bool = False  # a tab reloaded at /: the page that sends its kept key back to the printed address


class Guard:
    """ASGI middleware: refuses what the served page would never send, and adds the security headers."""

    def __init__(self, app: ASGIApp, access: Access) -> None:
        self.app, self.access = app, access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":  # the page uses none: refuse before the application sees one
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":  # lifespan
            await self.app(scope, receive, send)
            return
        send = _with_security_headers(send)
        headers = Headers(scope=scope)
        refusal, seat = self.vet(scope, headers)
        if refusal is None and scope["method"] not in SAFE_METHODS:
            body = await read_limited(receive, MAX_BODY_BYTES)
            if body is None:
                refusal = Refusal(413, f"request too large: at most {MAX_BODY_BYTES} bytes", close=True)
            else:
                receive = _replay(body)
        if refusal is not None:
            await _refused(scope, refusal)(scope, receive, send)
            return
        await self.app({**scope, SEAT: seat}, receive, send)

    def vet(self, scope: Scope, headers: Headers) -> tuple[Refusal | None, Seat | None]:
        """The first rule a request breaks (or None), and the seat its key opens (the body's size is checked as
        it is read)."""
        host = headers.get("host", "")
        if not self.access.allows_host(host):
            allowed = ", ".join(sorted(self.access.hosts))
            return Refusal(421, f"this server answers only to {allowed}, not to the Host {host[:60]!r}"), None
        if _entering(scope):
            seat = self.access.seat_of(_query_key(scope))
            return (None, seat) if seat is not None else (Refusal(403, f"wrong key: {PRINTED}"), None)
        safe = scope["method"] in SAFE_METHODS
        if safe and scope["path"].startswith(f"/static/{self.access.assets}/"):
            return None, None  # the page's own script and style sheet: the same for every game, no key needed
        seat = self.access.seat_of(headers.get(KEY_HEADER))
        if seat is None and safe:
            return Refusal(403, f"no key: {PRINTED}", reload=scope["path"] == "/"), None
        if seat is None:
            return Refusal(403, f"an action needs the key in the {KEY_HEADER} header, as the page sends it"), None
        return (None if safe else self.action_refusal(headers)), seat

    def action_refusal(self, headers: Headers) -> Refusal | None:
        """Why a request that may change the game is refused: origin, content type or declared size."""
        origin = request_origin(headers)
        served = f"http://{headers.get('host', '')}".lower()
        if origin != served:
            shown = "none" if origin is None else repr(origin[:60])
            return Refusal(403, f"an action must come from the page at {served} (Origin or Referer: {shown})")
        media_type = headers.get("content-type", "").partition(";")[0].strip().lower()
        if media_type != "application/json":
            return Refusal(415, f"an action must be sent as application/json, not {media_type[:40] or 'nothing'!r}")
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            return Refusal(413, f"request too large: at most {MAX_BODY_BYTES} bytes", close=True)
        return None


def request_origin(headers: Headers) -> str | None:
    """The origin that sent a request: its Origin header, else the origin of its Referer; lower case."""
    origin = headers.get("origin")
    if origin is not None:
        return origin.strip().lower()
    referer = headers.get("referer")
    if referer is None:
        return None
    parts = urlsplit(referer.strip())
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme and parts.netloc else None


async def read_limited(receive: Receive, limit: int) -> bytes | None:
    """The request body as it arrives, or None as soon as it passes `limit` bytes (the rest is never read)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)  # the client went away; the application sees an empty body
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    """A receive callable that hands the application the body already read."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}
    return receive


def _with_security_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(name, value) for name, value in SECURITY_HEADERS if name not in present]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)
    return sending


def _entering(scope: Scope) -> bool:
    """Whether this is the printed address: GET / with ?key=."""
    return scope["method"] in SAFE_METHODS and scope["path"] == "/" and _query_key(scope) is not None


def _query_key(scope: Scope) -> str | None:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(KEY_PARAMETER)
    return values[0] if values else None


def _refused(scope: Scope, refusal: Refusal) -> Response:
    close = {"connection": "close"} if refusal.close else {}
    if scope["path"].startswith("/api/"):
        return JSONResponse({"error": refusal.reason}, status_code=refusal.status, headers=close)
    if refusal.reload:
        page = (f"<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Dealer's Chess</title>"
                f"<p>{escape(refusal.reason)}</p><script>{RELOAD_SCRIPT}</script></html>\n")
        return HTMLResponse(page, status_code=403, headers={"content-security-policy": RELOAD_SECURITY})
    return PlainTextResponse(refusal.reason + "\n", status_code=refusal.status, headers=close)
