"""Who may open the board `dealer serve` serves: the run's secret keys, the Host names it answers to, the addresses
to print.

Three keys are made fresh for every run, one per seat: the table's (one device plays both sides),
White's and Black's (a resumed game may keep the last run's: `--keep-keys`). Only the printed
addresses carry them; the page keeps its key in memory and in the tab's sessionStorage and sends it
in a header with every request (never in a cookie: browsers send a cookie to every port of a host).
The Host names are the loopback names and the bound (or, on 0.0.0.0, this computer's network
addresses and its own name): a page reached under any other name
gets nothing.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from dataclasses import dataclass

import segno

from dealers_chess.engine.session.seats import Seat

KEY_PARAMETER = "key"  # the printed address ends in ?key=...
KEY_HEADER = "x-dealer-key"  # the page sends the key in this header with every call
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")
KEY_BYTES = 16  # 128 random bits, 22 characters in the address
ASSET_BYTES = 9  # the path part the page's own script and style sheet are served under (it opens nothing else)
# addresses from documentation ranges: connecting a UDP socket to one sends nothing, but picks the interface
ROUTE_PROBES = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))
QR_GAP = 2  # columns between QR codes printed side by side (each has its own quiet zone too)


@dataclass(frozen=True, slots=True)
class Access:
    """The run's secret key per seat, the Host names the server answers to (lower case, IPv6 in brackets), its port,
    and the path part of the page's own files."""

    keys: tuple[tuple[Seat, str], ...]
    hosts: frozenset[str]
    port: int
    assets: str

    @classmethod
    def for_server(cls, bound: str, port: int, network: tuple[str, ...] = (),
                   kept: dict[Seat, str] | None = None) -> Access:
        """Fresh keys (or the `kept` ones of a resumed game); the loopback names, the bound address, and `network`
        (the addresses phones use on 0.0.0.0) with, on 0.0.0.0, this computer's own name."""
        names = {*LOOPBACK_NAMES, *(host_literal(name) for name in network)}
        if bound not in WILDCARDS:
            names.add(host_literal(bound))
        else:
            names.update(own_names())
        keys = tuple((seat, kept[seat] if kept else secrets.token_urlsafe(KEY_BYTES)) for seat in Seat)
        return cls(keys, frozenset(name.lower() for name in names), port, secrets.token_urlsafe(ASSET_BYTES))

    @property
    def key(self) -> str:
        """The table's key: its page plays both sides."""
        return self.key_for(Seat.BOTH)

    def key_for(self, seat: Seat) -> str:
        return dict(self.keys)[seat]

    def seat_of(self, given: str | None) -> Seat | None:
        """The seat whose key `given` is, or None (every key compared in constant time)."""
        if given is None:
            return None
        found = None
        for seat, key in self.keys:
            if hmac.compare_digest(given.encode("utf-8", "replace"), key.encode()):
                found = seat
        return found

    def key_matches(self, given: str | None) -> bool:
        """Whether `given` is one of this run's keys."""
        return self.seat_of(given) is not None

    def allows_host(self, host_header: str) -> bool:
        """Whether a request's Host header names this server (any port: the Origin check compares it whole)."""
        return host_name(host_header) in self.hosts

    def url(self, host: str, seat: Seat = Seat.BOTH) -> str:
        """The address to open, with the seat's key: http://HOST:PORT/?key=..."""
        return f"http://{host_literal(host)}:{self.port}/?{KEY_PARAMETER}={self.key_for(seat)}"


def own_names() -> set[str]:
    """This computer's own name as a phone may type it: `hostname`, and with `.local` (mDNS), short and full."""
    full = socket.gethostname().lower().rstrip(".")
    if not full or full == "localhost":
        return set()
    short = full.partition(".")[0]
    return {full, f"{full}.local", short, f"{short}.local"}


def host_name(host_header: str) -> str:
    """The name part of a Host header, lower case: '[::1]:8765' -> '[::1]', 'LocalHost' -> 'localhost'."""
    text = host_header.strip().lower()
    if text.startswith("["):
        return text[: text.find("]") + 1] if "]" in text else text
    return text.rpartition(":")[0] if ":" in text else text


def host_literal(address: str) -> str:
    """An address as written in a URL: IPv6 in brackets."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def is_wildcard(host: str) -> bool:
    """Whether `--host` listens on every network of this computer (0.0.0.0 or ::)."""
    return host in WILDCARDS


def is_loopback(host: str) -> bool:
    """Whether `--host` is reachable from this computer only."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host.lower() == "localhost"


def network_addresses(family: int | None = None) -> tuple[str, ...]:
    """This computer's addresses on its networks, the one that reaches other machines first (no loopback)."""
    found: list[str] = []
    for probe_family, probe in ROUTE_PROBES:
        if family in (None, probe_family):
            found += _route_address(probe_family, probe)
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, family or socket.AF_UNSPEC, socket.SOCK_STREAM)
    except OSError:
        infos = []
    found += [str(info[4][0]) for info in infos]
    usable = [address for address in found if _usable(address)]
    return tuple(dict.fromkeys(usable))


def _route_address(family: int, probe: str) -> list[str]:
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe_socket:
            probe_socket.connect((probe, 9))
            return [str(probe_socket.getsockname()[0])]
    except OSError:
        return []


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def qr_lines(text: str) -> list[str]:
    """`text` as a QR code for a terminal: two modules a character ('▀', '▄', '█' dark), with a quiet zone."""
    matrix = [list(row) for row in segno.make(text, error="m").matrix]
    border = 4  # the quiet zone the QR standard asks for
    width = len(matrix[0]) + 2 * border
    rows = [[0] * width for _ in range(border)] + [[0] * border + row + [0] * border for row in matrix]
    rows += [[0] * width for _ in range(border)]
    if len(rows) % 2:
        rows.append([0] * width)
    glyphs = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}
    return ["".join(glyphs[top, bottom] for top, bottom in zip(rows[i], rows[i + 1], strict=True))
            for i in range(0, len(rows), 2)]


def qr_block(codes: list[tuple[str, str]], columns: int, style=lambda line: line) -> list[str]:
    """Several (caption, text) QR codes side by side, as many a row as fit `columns`; each caption above its code.

    `style` colours each code's lines (a terminal's dark-on-light), never the gaps between codes.
    """
    drawn = [(caption, qr_lines(text)) for caption, text in codes]
    width = max(len(lines[0]) for _, lines in drawn)
    per_row = max(1, min(len(drawn), (columns + QR_GAP) // (width + QR_GAP)))
    out: list[str] = []
    for first in range(0, len(drawn), per_row):
        row = drawn[first:first + per_row]
        gap = " " * QR_GAP
        out.append(gap.join(caption[:width].center(width) for caption, _ in row).rstrip())
        height = max(len(lines) for _, lines in row)
        for index in range(height):
            out.append(gap.join(style(lines[index]) + " " * (width - len(lines[index])) if index < len(lines)
                                else " " * width for _, lines in row))
    return out
