"""What the browser tests of `dealer serve` share: Chromium, a served game, and the page helpers they both use.

The fixtures built on these (browser, page, serve) are in tests/cli/conftest.py.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # the test extra is not installed
    sync_playwright = None

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NEEDS_CHROMIUM = pytest.mark.skipif(
    sync_playwright is None or CHROMIUM is None,
    reason="needs Chromium and Playwright: apt-get install -y chromium; pip install -e '.[test]'")
# *.attacker.test resolves to this computer: a hostile site, or a DNS-rebinding one, on the same machine
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--host-resolver-rules=MAP *.attacker.test 127.0.0.1"]
DEALER = [sys.executable, "-m", "dealers_chess"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


class Server:
    """A `dealer serve` process on a free port; its URL and the record it saves to. Its page draws lettered discs
    unless the test asks for `--pieces models` (the pictures' tests do): no test pays for pictures it never looks at."""

    def __init__(self, folder: Path, *args: str) -> None:
        self.folder, self.args = folder, args
        self.start(*args)

    def start(self, *args: str) -> None:
        style = () if "--pieces" in args else ("--pieces", "letters")
        self.process = subprocess.Popen([*DEALER, "serve", *args, *style, "--port", "0"], cwd=self.folder, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        timer = threading.Timer(30, self.process.kill)
        timer.start()
        lines = [self.process.stdout.readline() for _ in range(5)]  # the record; both sides; White; Black; Watch
        timer.cancel()
        assert lines[1].startswith("open http://127.0.0.1:"), (lines, self.process.stderr.read())
        self.url = lines[1].split()[1]
        self.origin = self.url.partition("/?")[0]
        self.key = self.url.partition("?key=")[2]
        self.seat_urls = {line.split(":")[0].lower(): line.split()[1] for line in lines[2:5]}  # white, black, watch
        self.record = Path(self.folder, lines[0].rsplit(" ", 1)[1].strip())

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.process.stdout.close()
        self.process.stderr.close()


def wait_for_moves(page, count: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#move-list .san').length === n", arg=count)


def open_board(page, server: Server, seat: str | None = None) -> None:
    """Open the printed address of `seat` ('white', 'black'; None: both sides) and wait for the board."""
    page.goto(server.url if seat is None else server.seat_urls[seat])
    page.wait_for_selector("[data-square]")


def opened(browser, server, seat: str | None, device: dict):
    """A page of its own (its own sessionStorage, as on a phone of its own) on the seat's link."""
    context = browser.new_context(**device)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    open_board(page, server, seat)
    page.problems = problems  # type: ignore[attr-defined]
    return context, page


def centres(page) -> dict[str, tuple[float, float]]:
    """Each square's centre on the screen, measured in one step (the board may be drawn again at any moment)."""
    return {square: (x, y) for square, x, y in page.evaluate(
        "() => [...document.querySelectorAll('[data-square]')].map(n => { const r = n.getBoundingClientRect();"
        " return [n.dataset.square, r.x + r.width / 2, r.y + r.height / 2]; })")}


def under(page, point: tuple[float, float]) -> str | None:
    """The board square whose group is the topmost thing at a point of the screen (None: something covers it)."""
    return page.evaluate("([x, y]) => { const hit = document.elementFromPoint(x, y);"
                         " const square = hit && hit.closest('[data-square]');"
                         " return square && square.dataset.square; }", list(point))


def touch(page, square: str, where: dict[str, tuple[float, float]]) -> None:
    assert under(page, where[square]) == square, f"{square} is covered"
    page.touchscreen.tap(*where[square])
