"""A chess clock with Fischer increment, read from an injected time source (tests need no sleeping)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from dealers_chess.pieces.errors import DealerError

CONTROL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)\s*$")
HMS = re.compile(r"^(\d+):([0-5]\d):([0-5]\d(?:\.\d+)?)$")


class ClockError(DealerError):
    """A time control or clock reading that cannot be used."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Base time and Fischer increment, in seconds."""

    base_s: float
    increment_s: float

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """'15+10': 15 minutes each and 10 seconds added after every move."""
        match = CONTROL.match(text)
        if match is None or float(match[1]) <= 0 or float(match[1]) > 24 * 60 or float(match[2]) > 3600:
            raise ClockError(
                f"clock {text!r}: expected MINUTES+SECONDS such as 15+10 (minutes above 0 up to 1440, "
                "increment up to 3600 seconds)"
            )
        return cls(float(match[1]) * 60, float(match[2]))

    def tag(self) -> str:
        """The PGN TimeControl tag value: seconds+increment."""
        return f"{_number(self.base_s)}+{_number(self.increment_s)}"

    @classmethod
    def from_tag(cls, text: str) -> TimeControl:
        """Read a TimeControl tag written by `tag`."""
        match = CONTROL.match(text)
        if match is None:
            raise ClockError(f"TimeControl {text!r}: expected SECONDS+INCREMENT such as 900+10")
        return cls(float(match[1]), float(match[2]))


class Clock:
    """Two countdowns; the side to move's runs. `now` gives seconds (time.monotonic by default)."""

    def __init__(self, control: TimeControl, now: Callable[[], float], remaining: tuple[float, float] | None = None):
        self.control = control
        self._now = now
        self._remaining = list(remaining or (control.base_s, control.base_s))
        self.running: int | None = None  # the side whose time runs, None while paused
        self._since = 0.0

    @property
    def now(self) -> Callable[[], float]:
        """The time source the clock reads."""
        return self._now

    def start(self, side: int) -> None:
        """Let `side`'s time run (after charging whoever was running)."""
        self.stop()
        self.running, self._since = side, self._now()

    def stop(self) -> None:
        """Pause: charge the running side for the time used so far."""
        if self.running is not None:
            self._remaining[self.running] -= self._now() - self._since
            self.running = None

    def left(self, side: int) -> float:
        """Seconds `side` has left now (negative once its flag has fallen)."""
        left = self._remaining[side]
        if side == self.running:
            left -= self._now() - self._since
        return left

    def flagged(self) -> int | None:
        """The side whose time has run out, or None."""
        for side in (0, 1):
            if self.left(side) <= 0:
                return side
        return None

    def moved(self, side: int) -> None:
        """`side` has made a move: charge its time, add the increment, start the opponent's time."""
        self.stop()
        self._remaining[side] += self.control.increment_s
        self.start(1 - side)


def format_seconds(seconds: float) -> str:
    """A clock reading for people: 14:52, 1:02:03, or 0:09.4 under ten seconds."""
    seconds = max(seconds, 0.0)
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def format_hms(seconds: float) -> str:
    """An exact reading for a record: H:MM:SS.fff."""
    millis = round(max(seconds, 0.0) * 1000)
    whole, fraction = divmod(millis, 1000)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}.{fraction:03d}"


def parse_hms(text: str) -> float:
    """Seconds from H:MM:SS(.fff); raise ClockError otherwise."""
    match = HMS.match(text.strip())
    if match is None:
        raise ClockError(f"clock reading {text!r}: expected H:MM:SS.fff such as 0:14:52.300")
    return int(match[1]) * 3600 + int(match[2]) * 60 + float(match[3])


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
