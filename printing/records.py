"""Saving game records: atomically, never over a record that is damaged; the autosave of a game at the board."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from engine.errors import RecordError
from engine.record import GameRecord, format_record, read_record
from engine.session.record import session_record
from engine.session.session import Session
from printing.files import OutputError, write_atomic


def write_record(path: str | Path, record: GameRecord, previous: str | None = None) -> Path:
    """Save a record atomically (temp file + rename); refuse to replace a damaged record.

    `previous` is the text this program last wrote there: if the file still holds exactly that, it
    is known to be sound and is not read back and replayed (an autosave after every move stays fast).
    """
    save_text(path, format_record(record), previous)
    return Path(path)


def save_text(path: str | Path, text: str, previous: str | None = None) -> str:
    """Write a record's text atomically unless the file there is a damaged record; return the text."""
    path = Path(path)
    if path.exists() and (previous is None or _current(path) != previous):
        try:
            read_record(path)
        except RecordError as error:
            raise RecordError(f"{path}: not overwritten, the record there is damaged ({error})") from None
    try:
        write_atomic(path, text)
    except OutputError as error:
        raise RecordError(str(error)) from None
    return text


def reserve_record(path: str | Path) -> Path:
    """Create an empty file for a new game's record; raise RecordError if something is already there."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
    except FileExistsError:
        raise RecordError(f"{path}: already exists; continue that game with --resume {path}, or save to another file") from None
    except OSError as error:
        raise RecordError(f"{path}: cannot be created ({error.strerror})") from None
    return path


def new_record_path(folder: str | Path, game_id: str, day: date | None = None) -> Path:
    """Reserve the first free `<folder>/<game>-<YYYY-MM-DD>-<n>.pgn` and return it."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", game_id) + f"-{(day or date.today()).isoformat()}"
    for number in range(1, 10_000):
        path = Path(folder) / f"{stem}-{number}.pgn"
        if not path.exists():
            try:
                return reserve_record(path)
            except RecordError:
                continue
    raise RecordError(f"{folder}: no free name {stem}-N.pgn left; use --save FILE")


def _current(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


@dataclass(slots=True)
class Saver:
    """The autosave: the record file, and the text last written to each file this game saved to."""

    path: Path
    written: str | None = None  # what the autosave file holds now, if this program wrote (or read) it
    copies: dict[Path, str] = field(default_factory=dict)  # files named by `save FILE`, and their text

    def save(self, session: Session, path: Path | None = None) -> Path:
        """Write the session's record atomically: never over a damaged record, nor over another file's game."""
        text = format_record(session_record(session))
        if path is None or path == self.path:
            self.written = save_text(self.path, text, self.written)
            return self.path
        if path not in self.copies:
            self.copies[path] = save_text(reserve_record(path), text, "")
        else:
            self.copies[path] = save_text(path, text, self.copies[path])
        return path


def start_saver(session: Session, save_file: str | None, resumed: Path | None) -> Saver:
    """The autosave: --save FILE (a new file), else the resumed record, else a new file under build/games."""
    if save_file is not None and Path(save_file) != resumed:
        saver = Saver(reserve_record(save_file), written="")
    elif resumed is not None:
        saver = Saver(resumed, written=resumed.read_text(encoding="utf-8"))
    else:
        saver = Saver(new_record_path("build/games", session.position.game.id), written="")
    if saver.path != resumed:
        saver.save(session)
    return saver
