"""Appending to a measuring run's results file: one JSON line a game, on disk before the next game is counted.

A run killed at any moment loses no finished game: each line is flushed and synced as it is written,
and a half-written last line (the kill came mid-write) is cut off when the file is opened again.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

from dealers_chess.printing.files import OutputError, write_atomic


class ResultsWriter:
    """An open results file that lines are appended to."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if self.path.is_symlink() or (self.path.exists() and not self.path.is_file()):
            raise OutputError(f"{self.path}: not a regular file; give --out a file name")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._cut_half_line()
            self.file = open(self.path, "ab")  # noqa: SIM115 - kept open for the run, closed by close()
        except OSError as error:
            raise OutputError(f"{self.path}: cannot write the results file ({error.strerror})") from None

    def _cut_half_line(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            with open(self.path, "r+b") as file:
                file.truncate(data.rfind(b"\n") + 1)

    def append(self, line: dict) -> None:
        """Write one line and make sure it is on disk."""
        self.file.write(json.dumps(line, separators=(",", ":")).encode() + b"\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def start_from(source: str | Path, path: str | Path) -> None:
    """Begin a results file as a copy of another (plain or .gz), to extend it."""
    data = Path(source).read_bytes()
    if str(source).endswith(".gz"):
        data = gzip.decompress(data)
    write_atomic(path, data)


def write_compressed(source: str | Path, path: str | Path) -> Path:
    """A results file gzipped (the form the package ships), written atomically."""
    return write_atomic(path, gzip.compress(Path(source).read_bytes(), compresslevel=9, mtime=0))
