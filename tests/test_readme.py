"""Every command of the README's tour runs as written, each line in a fresh folder.

The tour is every line of the README's `sh` blocks under a section heading (the set-up commands
under "Two commands" are CI's own job). A line runs in bash with the venv's `dealer` on PATH and
a few empty lines as its input (Enter at every question: the automatic choice); it must exit 0.
`dealer serve` runs until it prints its address and is then stopped, as a user stops it.

Each line is a test of its own, so that no one test holds a test process for the whole of a long section;
the lines of its section that save a file it reads (`--save deal.json` or `--out F.EXT`, then `--deal deal.json`) run
first in its folder. `dealer kit` and `dealer pieces` run once per test run (tests/built_once.py), and the
tests of what they write (tests/cli/test_cards_cli.py, tests/pieces/test_model.py) read the same folder.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.built_once import dealer_env
from tests.readme_tour import README, ROOT, SHARED_LINES, command_of, tour

ENTER_EVERY_QUESTION = "\n" * 12
SERVE_START_S = 60


def _section_id(section: tuple[str, list[str]]) -> str:
    return re.sub(r"[^a-z0-9]+", "-", section[0].lower()).strip("-")


def _environment() -> dict[str, str]:
    return dealer_env()


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


def _saved(line: str) -> set[str]:
    return set(re.findall(r"--save (\S+)", line)) | set(re.findall(r"--out (\S+\.\w+)\b", line))  # files only


def _with_prerequisites(earlier: list[str], line: str) -> list[str]:
    """The earlier lines of a section that save a file `line` reads (and what those read), in order, then `line`."""
    needed = [line]
    for before in reversed(earlier):
        if any(name in needed_line.split() for name in _saved(before) for needed_line in needed
               if name not in _saved(needed_line)):
            needed.insert(0, before)
    return needed


def tour_lines() -> list:
    """One pytest parameter per line of the tour: its section's id and number, and the lines it runs."""
    params = []
    for heading, lines in tour():
        for number, line in enumerate(lines, 1):
            words = "-".join(line.split("#")[0].split()[:3])
            name = f"{_section_id((heading, lines))}-{number:02d}-{re.sub(r'[^a-z0-9]+', '-', words.lower())}"
            params.append(pytest.param(_with_prerequisites(lines[: number - 1], line),
                                       marks=_shared_group(line), id=name.strip("-")))
    return params


def _shared_group(line: str) -> list:
    """The xdist group of a line that runs once per test run (its readers join the group: one worker builds)."""
    shared = SHARED_LINES.get(command_of(line))
    return [pytest.mark.xdist_group(shared)] if shared else []


@pytest.mark.parametrize("lines", tour_lines())
def test_every_command_of_the_readme_runs_as_written(lines, tmp_path, request):
    shared = SHARED_LINES.get(command_of(lines[-1]))
    if shared is not None:  # run once per test run, in its own fresh folder; other tests read what it wrote
        ran = request.getfixturevalue(shared.replace("-", "_"))
        assert ran.returncode == 0, f"README: `{lines[-1]}` exited {ran.returncode}:\n{ran.stderr[-2000:]}"
        return
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "docs" / "images").mkdir(parents=True)
    if any(line.startswith("dealer serve") for line in lines):
        request.getfixturevalue("port_lock")
    for line in lines:
        (_serve if line.startswith("dealer serve") else _run)(line, tmp_path)


def test_a_line_runs_after_the_lines_that_save_what_it_reads():
    section = ["dealer deal --seed 5 --save deal.json", "dealer play --deal deal.json --save game.pgn",
               "dealer play --resume game.pgn", "dealer play chess"]
    assert _with_prerequisites(section[:2], section[2]) == section[:3]
    assert _with_prerequisites(section[:3], section[3]) == section[3:]
    assert _with_prerequisites([], section[0]) == section[:1]


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
