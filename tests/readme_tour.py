"""The README's tour of the commands, read from README.md: what tests/test_readme.py runs line by line, and the
few long lines whose output other tests read (run once per test run, by the fixtures in tests/conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SET_UP = "Two commands"
# command (a line without its comment) -> the folder and xdist group of its one run per test run; the fixture
# that gives its result has the same name with underscores (tests/conftest.py)
SHARED_LINES = {"dealer kit": "readme-kit", "dealer pieces": "readme-pieces"}


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


def command_of(line: str) -> str:
    """A tour line without its comment and extra spaces: 'dealer kit   # everything ...' -> 'dealer kit'."""
    return " ".join(line.split(" #", 1)[0].split())


def tour_line(command: str) -> str:
    """The tour's line of a command, as written (with its comment, which bash ignores)."""
    found = [line for _, lines in tour() for line in lines if command_of(line) == command]
    assert len(found) == 1, f"the README's tour has {len(found)} lines `{command}`"
    return found[0]
