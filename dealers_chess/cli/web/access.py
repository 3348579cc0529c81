"""Who may open the board `dealer serve` serves: the run's secret key, the Host names it answers to, the addresses
to print.

The key is made fresh for every run and only the printed address carries it; the page keeps it in a
cookie and sends it with every request. The Host names are the loopback names and the bound (or,
on 0.0.0.0, this computer's network) addresses: a page reached under any other name gets nothing.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from dataclasses import dataclass

import segno

KEY_PARAMETER = "key"  # the printed address ends in ?key=...
KEY_HEADER = "x-dealer-key"  # the page sends the key in this header with every call
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")
KEY_BYTES = 16  # 128 random bits, 22 characters in the address
# addresses from documentation ranges: connecting a UDP socket to one sends nothing, but picks the interface
ROUTE_PROBES = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))


@dataclass(frozen=True, slots=True)
class Access:
    """The run's secret key, the Host names the server answers to (lower case, IPv6 in brackets), and its port."""

    key: str
    hosts: frozenset[str]
    port: int

    @classmethod
    def for_server(cls, bound: str, port: int, network: tuple[str, ...] = ()) -> Access:
        """A fresh key; the loopback names, the bound address, and `network` (the addresses phones use on 0.0.0.0)."""
        names = {*LOOPBACK_NAMES, *(host_literal(name) for name in network)}
        if bound not in WILDCARDS:
            names.add(host_literal(bound))
        return cls(secrets.token_urlsafe(KEY_BYTES), frozenset(name.lower() for name in names), port)

    @property
    def cookie(self) -> str:
        """The cookie that keeps the key: named by port, as browsers share cookies between ports of one host."""
        return f"dealer-key-{self.port}"

    def key_matches(self, given: str | None) -> bool:
        """Whether `given` is this run's key (compared in constant time)."""
        return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"), self.key.encode())

    def allows_host(self, host_header: str) -> bool:
        """Whether a request's Host header names this server (any port: the Origin check compares it whole)."""
        return host_name(host_header) in self.hosts

    def url(self, host: str) -> str:
        """The address to open, with the key: http://HOST:PORT/?key=..."""
        return f"http://{host_literal(host)}:{self.port}/?{KEY_PARAMETER}={self.key}"


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
