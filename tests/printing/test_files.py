"""The one path builder and the one writer: nothing leaves --out, nothing a user owns is replaced."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealers_chess.printing.files import (
    TEMP_MARK,
    OutputError,
    file_stem,
    out_path,
    remove_stale_temporaries,
    write_atomic,
)

DEALER = str(Path(sys.executable).parent / "dealer")


@pytest.mark.parametrize("name", ["..", ".", "", "a/../../b", "/abs", "x\\y", "bell\x07", "new\nline", "é" * 150])
def test_unsafe_names_never_become_paths(tmp_path, name):
    with pytest.raises(OutputError, match="cannot be a file name"):
        out_path(tmp_path, "cards", name)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=12), min_size=1, max_size=3))
def test_any_path_built_lies_under_the_output_folder(names):
    base = Path("/srv/out")
    try:
        path = out_path(base, *names)
    except OutputError:
        return
    assert os.path.commonpath([base, os.path.normpath(path)]) == str(base) and ".." not in path.parts


def test_file_stems_from_user_file_names_are_plain():
    assert file_stem("...", "deal") == "deal"
    assert file_stem("my deal (2)", "deal") == "my-deal-2"
    assert out_path("out", file_stem("../../etc/passwd", "x")) == Path("out/etc-passwd")


def test_write_atomic_refuses_links_folders_and_devices(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("mine")
    (tmp_path / "link.json").symlink_to(real)
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe")
    for name, problem in (("link.json", "symbolic link"), ("folder", "is a folder"),
                          ("pipe", "device, pipe or socket")):
        with pytest.raises(OutputError, match=problem):
            write_atomic(tmp_path / name, "new")
    assert (tmp_path / "link.json").is_symlink() and real.read_text() == "mine"
    assert (tmp_path / "folder").is_dir() and (tmp_path / "pipe").is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "link.json", "pipe", "real.json"]


def test_a_failed_check_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "piece.stl"
    target.write_bytes(b"old")

    def refuse(path: Path) -> None:
        assert path.name.startswith(".piece.stl" + TEMP_MARK)
        raise OutputError("not a solid")

    with pytest.raises(OutputError):
        write_atomic(target, b"new", check=refuse)
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["piece.stl"]


def test_temporaries_of_dead_runs_are_removed_and_live_ones_kept(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    stale = tmp_path / f".plate-01.stl{TEMP_MARK}{dead_pid}-abcd"
    mine = tmp_path / f".plate-02.stl{TEMP_MARK}{os.getpid()}-abcd"
    other = tmp_path / ".notes.txt.XYZ"  # not ours: left alone
    for path in (stale, mine, other):
        path.write_bytes(b"partial")
    remove_stale_temporaries(tmp_path)
    assert not stale.exists() and mine.exists() and other.exists()


def test_sigterm_ends_a_run_like_ctrl_c_and_leaves_no_temporary(tmp_path):
    run = subprocess.Popen([DEALER, "pieces", "--set", "starter", "--out", str(tmp_path)], stderr=subprocess.PIPE,
                           stdout=subprocess.DEVNULL, text=True)
    folder = tmp_path / "pieces-50mm"
    deadline = time.monotonic() + 60
    while not (folder.exists() and any(folder.iterdir())) and time.monotonic() < deadline:
        time.sleep(0.05)
    run.send_signal(signal.SIGTERM)
    stderr = run.communicate(timeout=60)[1]
    assert run.returncode == 1 and stderr.strip().splitlines()[-1] == "Aborted!"
    assert not [p for p in folder.iterdir() if TEMP_MARK in p.name]


def test_data_files_are_read_only_from_regular_files_of_bounded_size(tmp_path, monkeypatch):
    from dealers_chess.pieces import datafile
    from dealers_chess.pieces.errors import CatalogueError

    os.mkfifo(tmp_path / "pipe.toml")  # opening it must not block
    (tmp_path / "big.toml").write_text("a = 1\n" * 100)
    (tmp_path / "latin.toml").write_bytes(b'name = "caf\xe9"\n')
    (tmp_path / "bom.toml").write_bytes(b'\xef\xbb\xbfname = "caf\xc3\xa9"\n')
    monkeypatch.setattr(datafile, "MAX_BYTES", 100)
    for name, problem in (("pipe.toml", "is a device, pipe or socket"), (".", "is a folder"),
                          ("big.toml", "larger than"), ("latin.toml", "not UTF-8"), ("none.toml", "no such")):
        with pytest.raises(CatalogueError, match=problem):
            datafile.read_toml(tmp_path / name, "catalogue", CatalogueError)
    assert datafile.read_toml(tmp_path / "bom.toml", "catalogue", CatalogueError) == {"name": "café"}
