"""What several tests read, built once per test run: a folder under pytest's base temporary folder, shared by
every test process of the run (pytest-xdist's workers take turns under a file lock; the first builds).

A build that fails is recorded like one that works (its exit status and output are kept), so every test
that reads it fails on it with the same message instead of building it again.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

DONE = "built-once.json"


@dataclass(frozen=True)
class Ran:
    """A command run once in its own folder: the folder, its exit status and what it printed."""

    folder: Path
    returncode: int
    stdout: str
    stderr: str


def run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every test process of this run shares: the base temporary folder, or with pytest-xdist
    the one above each worker's own (`pytest-N/` above `pytest-N/popen-gw0/`)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def run_once(tmp_path_factory: pytest.TempPathFactory, name: str, command: str, env: dict[str, str]) -> Ran:
    """`command` run by bash in the folder `name` under the run's shared folder, the first time any test of
    this run asks for it; later calls (in any test process) get the same result without running it again."""
    folder = run_root(tmp_path_factory) / name
    with open(run_root(tmp_path_factory) / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        record = folder / DONE
        if not record.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=600)
            record.write_text(json.dumps({"returncode": done.returncode, "stdout": done.stdout,
                                          "stderr": done.stderr}))
        kept = json.loads(record.read_text())
    return Ran(folder, kept["returncode"], kept["stdout"], kept["stderr"])


def dealer_env() -> dict[str, str]:
    """The environment a README line runs in: the venv's `dealer` first on PATH, no debug tracebacks."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("DEALER_DEBUG", None)
    return env


def shares_every_built_piece(test):
    """Mark a test that builds many catalogue pieces at 50 or 40 mm squares (in this process or a pool forked from
    it): it runs in the one test process that builds every piece once (the fixture every_piece_built), after the
    group's tests that come before it in the collection (pieces/ before printing/: theirs are built by then)."""
    test = pytest.mark.usefixtures("every_piece_built")(test)
    return pytest.mark.xdist_group("catalogue-models")(test)
