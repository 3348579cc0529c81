"""What `dealer serve` lets the server write to its terminal: one line per cause a minute.

Requests the server refuses before the application sees them (a malformed request line, a WebSocket
upgrade, oversized headers) make uvicorn log a warning each. Anyone who can reach the port could
otherwise scroll the printed addresses and QR codes off the screen without a key.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

WINDOW_S = 60.0


class OncePerMinute(logging.Filter):
    """Pass the first record of each message (its cause) per WINDOW_S; the next one says how many were held back."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.now = now
        self.passed: dict[str, float] = {}
        self.held: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        cause = str(record.msg)
        now = self.now()
        if now - self.passed.get(cause, -WINDOW_S) < WINDOW_S:
            self.held[cause] = self.held.get(cause, 0) + 1
            return False
        self.passed[cause] = now
        held = self.held.pop(cause, 0)
        if held:
            record.msg = f"{record.msg} (and {held} more like it since the last one shown)"
        return True


class RightWords(logging.Filter):
    """uvicorn's words where they would mislead: it answers a WebSocket request with a warning that no WebSocket
    library is installed and advice to install one, but dealer serve refuses WebSockets by design (its page
    uses none). One line says that instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        if text == UNSUPPORTED_UPGRADE:
            return False  # the next line says it
        if text.startswith(NO_WEBSOCKET_LIBRARY):
            record.msg, record.args = WEBSOCKET_REFUSED, ()
        return True


UNSUPPORTED_UPGRADE = "Unsupported upgrade request."
NO_WEBSOCKET_LIBRARY = "No supported WebSocket library detected"
WEBSOCKET_REFUSED = "refused a WebSocket request: dealer serve's page uses none (nothing to install)"


def quiet_server_logs(names: tuple[str, ...] = ("uvicorn.error", "uvicorn")) -> OncePerMinute:
    """Hold uvicorn's loggers to one line per cause a minute, in words that fit dealer serve; the filter, for
    tests."""
    words, limit = RightWords(), OncePerMinute()
    for name in names:
        logging.getLogger(name).addFilter(words)  # first: the limit counts the words shown
        logging.getLogger(name).addFilter(limit)
    return limit
