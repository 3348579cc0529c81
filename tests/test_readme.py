"""Every command of the README's tour runs as written, each section in a fresh folder.

The tour is every line of the README's `sh` blocks under a section heading (the set-up commands
under "Two commands" are CI's own job). A line runs in bash with the venv's `dealer` on PATH and
a few empty lines as its input (Enter at every question: the automatic choice); it must exit 0.
`dealer serve` runs until it prints its address and is then stopped, as a user stops it.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SET_UP = "Two commands"
ENTER_EVERY_QUESTION = "\n" * 12
SERVE_START_S = 60


def tour() -> list[tuple[str, list[str]]]:
    """(section heading, its commands in order) for every section with an `sh` block."""
    sections: dict[str, list[str]] = {}
    heading = ""
    for match in re.finditer(r"^#{2,4} (?P<heading>[^\n]*)$|^```(?P<lang>\w*)\n(?P<body>.*?)^```", README.read_text(),
                             re.M | re.S):
        if match["heading"] is not None:
            heading = match["heading"].strip()
        elif match["lang"] == "sh" and heading != SET_UP:
            sections.setdefault(heading, []).extend(
                line for line in match["body"].splitlines() if line.strip() and not line.lstrip().startswith("#"))
    return list(sections.items())


def _section_id(section: tuple[str, list[str]]) -> str:
    return re.sub(r"[^a-z0-9]+", "-", section[0].lower()).strip("-")


def _environment() -> dict[str, str]:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("DEALER_DEBUG", None)
    return env


def _run(line: str, folder: Path) -> None:
    done = subprocess.run(["bash", "-c", line], cwd=folder, env=_environment(), input=ENTER_EVERY_QUESTION,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"README: `{line}` exited {done.returncode}:\n{done.stderr[-2000:]}"


def _serve(line: str, folder: Path) -> None:
    """Start a `dealer serve` line, wait for the address it prints, then stop it with SIGTERM (exit 0)."""
    server = subprocess.Popen(["bash", "-c", f"exec {line}"], cwd=folder, env=_environment(), stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    printed, deadline = b"", time.monotonic() + SERVE_START_S
    try:
        while b"http://" not in printed and time.monotonic() < deadline:
            if select.select([server.stdout], [], [], 0.5)[0]:
                chunk = os.read(server.stdout.fileno(), 65536)
                printed += chunk
                if not chunk:  # the server ended before it printed an address
                    break
        assert b"http://" in printed, f"README: `{line}` printed no address: {printed.decode(errors='replace')}"
        _open_page(re.search(r"http://127\.0\.0\.1:\d+/\?key=[\w-]+", printed.decode())[0])
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        _, errors = server.communicate(timeout=30)
    assert server.returncode == 0, f"README: `{line}` stopped with {server.returncode}: {errors.decode()[-2000:]}"


def _open_page(address: str) -> None:
    """Open the printed address as a browser would, until the page comes (the server is then fully up)."""
    deadline = time.monotonic() + SERVE_START_S
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    while True:
        try:
            with browser.open(address, timeout=5) as response:
                assert response.status == 200 and b"<html" in response.read().lower()
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.fixture
def port_lock(tmp_path_factory):
    """The tour's servers listen on the default port: one section at a time across test workers."""
    with open(tmp_path_factory.getbasetemp().parent / "readme-serve.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


@pytest.mark.parametrize("section", tour(), ids=_section_id)
def test_every_command_of_the_readme_runs_as_written(section, tmp_path, request):
    heading, lines = section
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "docs" / "images").mkdir(parents=True)
    if any(line.startswith("dealer serve") for line in lines):
        request.getfixturevalue("port_lock")
    for line in lines:
        (_serve if line.startswith("dealer serve") else _run)(line, tmp_path)


def test_the_tour_covers_every_command():
    commands = {line.split()[1] if not line.startswith("dealer --") else line.split()[3]
                for _, lines in tour() for line in lines if line.startswith("dealer ")}
    from dealers_chess.cli import COMMAND_MODULES

    assert set(COMMAND_MODULES) <= commands, f"README tour lacks: {sorted(set(COMMAND_MODULES) - commands)}"


def test_ci_runs_exactly_the_readme_test_command():
    two_commands = README.read_text().split("## Two commands", 1)[1].split("\n## ", 1)[0]
    test_command = re.findall(r"^```sh\n(.*?)\n```", two_commands, re.M | re.S)[1]
    assert (ROOT / ".ci" / "run").read_text().rstrip().splitlines()[-1] == test_command


def _github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation but '-' dropped, spaces as '-'."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_within_the_readme_names_one_of_its_headings():
    text = README.read_text()
    anchors = {_github_anchor(h) for h in re.findall(r"^#{1,6} (.*)$", text, re.M)}
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert len(links) >= 15 and not [link for link in links if link not in anchors]


def test_every_document_in_docs_is_linked_from_the_readme_and_every_linked_file_exists():
    text = README.read_text()
    linked = set(re.findall(r"\]\(((?:docs|examples|dealers_chess)/[^)#]*|LICENSE)\)", text))
    assert {f"docs/{path.name}" for path in (ROOT / "docs").glob("*.md")} <= linked
    assert [path for path in linked if not (ROOT / path).exists()] == []
