"""SIGKILL at random moments during `dealer kit`: every visible file stays valid, and the next run
leaves no temporary file behind (slow: about a minute and a half)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealers_chess.printing.files import TEMP_MARK

DEALER = str(Path(sys.executable).parent / "dealer")


def check_file(path: Path) -> None:
    """Read a kit file back with the library that knows its format; raise if it is damaged."""
    if path.suffix == ".pdf":
        from pypdf import PdfReader

        reader = PdfReader(path, strict=True)
        assert len(reader.pages) >= 1 and reader.pages[-1].extract_text() is not None
    elif path.suffix == ".stl":
        import trimesh

        assert trimesh.load(path, force="mesh").is_watertight, path
    elif path.suffix == ".png":
        from PIL import Image

        with Image.open(path) as image:
            image.load()
    elif path.suffix == ".3mf":
        import zipfile

        with zipfile.ZipFile(path) as archive:
            assert archive.testzip() is None and "3D/3dmodel.model" in archive.namelist(), path
    else:
        assert path.suffix == ".txt" and path.read_text(encoding="utf-8"), path


def visible_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")]


def temporaries(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if TEMP_MARK in p.name]


def kill_when(run: subprocess.Popen, ready) -> None:
    """SIGKILL the run as soon as ready() holds (or when it ends by itself)."""
    while run.poll() is None and not ready():
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    run.wait()


@pytest.mark.slow
def test_a_killed_kit_leaves_valid_files_and_the_next_run_no_temporaries(tmp_path):
    seed = random.randrange(10**6)
    moments = random.Random(seed).sample([x / 10 for x in range(5, 150)], 2)
    out = tmp_path / "kit"
    orphans = []
    for moment in [*moments, None]:  # two random moments, then while a temporary file exists
        run = subprocess.Popen([DEALER, "kit", "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started = time.monotonic()
        if moment:
            kill_when(run, lambda started=started, moment=moment: time.monotonic() - started >= moment)
        else:
            kill_when(run, lambda: bool(temporaries(out)))
        orphans += temporaries(out)
        for path in visible_files(out):
            check_file(path)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    planted = out / "pieces-50mm" / f".knight.stl{TEMP_MARK}{int(dead.stdout)}-x"  # as a killed run leaves it
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_bytes(b"half an STL")
    done = subprocess.run([DEALER, "kit", "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert temporaries(out) == [], f"seed {seed}, kills at {moments} s; orphans after the kills: {orphans}"
    files = visible_files(out)
    assert len(files) > 200
    for path in files:
        check_file(path)
