"""Fixtures shared by the tests of the `dealer` command (pytest finds them here; test modules do not import them)."""

from __future__ import annotations

import pytest

from tests.cli.browser import CHROMIUM, CHROMIUM_ARGS, Server, sync_playwright


@pytest.fixture()
def in_tmp(tmp_path, monkeypatch):
    """Run the test in its own temporary folder (the tests of `dealer play` use it for every test)."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module (each test gets its own context and page). Not one per session: Playwright's
    sync API keeps an asyncio loop running for as long as it is open, and the later tests of the same process
    that call asyncio.run (the terminal's prompt_toolkit) then fail ("cannot be called from a running event loop")."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(str(error)))
    opened.on("console", lambda message: problems.append(message.text)
              if "Content Security Policy" in message.text else None)
    yield opened
    context.close()
    assert problems == [], f"the page's script failed: {problems}"


@pytest.fixture()
def serve(tmp_path):
    servers: list[Server] = []

    def start(*args: str) -> Server:
        servers.append(Server(tmp_path, *args))
        return servers[-1]
    yield start
    for server in servers:
        if server.process.poll() is None:
            server.kill()
