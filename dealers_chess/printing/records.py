"""Saving game records: atomically, never over a record that is damaged or that another session changed;
the autosave of a game at the board; the lock that keeps a record to one running session.
"""

from __future__ import annotations

import os
import re
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

if sys.platform != "win32":
    import fcntl
else:  # Windows: msvcrt locks a byte of the lock file instead
    import msvcrt

from dealers_chess.engine.errors import RecordError
from dealers_chess.engine.record import GameRecord, format_record, read_record
from dealers_chess.engine.session.record import session_record
from dealers_chess.engine.session.session import Session
from dealers_chess.printing.files import OutputError, write_atomic


def write_record(path: str | Path, record: GameRecord, previous: str | None = None) -> Path:
    """Save a record atomically (temp file + rename); refuse to replace a damaged record.

    `previous` is the text this program last wrote there: if the file still holds exactly that, it
    is known to be sound and is not read back and replayed (an autosave after every move stays fast).
    """
    save_text(path, format_record(record), previous)
    return Path(path)


def save_text(path: str | Path, text: str, previous: str | None = None) -> str:
    """Write a record's text atomically; return the text.

    Without `previous` the file there must be a sound record (a damaged one is never replaced).
    With it, the file must still hold exactly `previous`: a record another program changed since
    this session last wrote it is left alone, whatever it holds.
    """
    path = Path(path)
    if previous is not None and path.exists() and _current(path) != previous:
        raise RecordError(f"{path}: not overwritten, another program changed it since this session saved it; "
                          "save this game elsewhere with 'save FILE'")
    if previous is None and path.exists():
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
    """Create an empty file for a new game's record; raise RecordError if something is already there.

    The folder must exist: a mistyped folder is reported, never created.
    """
    path = Path(path)
    _require_folder(path)
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
    except FileExistsError:
        raise RecordError(
            f"{path}: already exists; continue that game with --resume {path}, or save to another file"
        ) from None
    except OSError as error:
        raise RecordError(f"{path}: cannot be created ({error.strerror})") from None
    return path


def new_record_path(folder: str | Path, game_id: str, day: date | None = None) -> Path:
    """Reserve the first free `<folder>/<game>-<YYYY-MM-DD>-<n>.pgn` and return it."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", game_id) + f"-{(day or date.today()).isoformat()}"
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RecordError(f"{folder}: cannot create the folder for game records ({error.strerror})") from None
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


def _require_folder(path: Path) -> None:
    folder = path.parent
    if not folder.is_dir():
        raise RecordError(f"{path}: the folder {folder} does not exist; create it first, or save elsewhere")


# --- one record, one session ------------------------------------------------------------


@dataclass(slots=True)
class RecordLock:
    """A record held by this process: `.NAME.lock` beside it names the process, and an OS lock on that file
    (flock) is what holds it, so the record is free again the moment this process ends, however it ends."""

    path: Path
    handle: int | None

    def release(self) -> None:
        """Let another session have the record (the lock file goes; the OS lock ends with it)."""
        if self.handle is None:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass
        os.close(self.handle)
        self.handle = None


def lock_path(record: Path) -> Path:
    """Where a record's lock file lives: `.NAME.lock` in the record's folder."""
    return record.with_name(f".{record.name}.lock")


def lock_record(record: str | Path, holder: str) -> RecordLock:
    """Hold the record for this process; RecordError naming the session that has it, if one is running.

    A lock file left by a process that has ended (killed, power cut) holds nothing: it is taken over.
    """
    record = Path(record)
    _require_folder(record)
    path = lock_path(record)
    for _ in range(5):  # another process may remove the lock file between our open and our lock: try again
        handle = _open_lock_file(path, record)
        if not _try_lock(handle):
            owner = _read_all(handle).strip() or "another dealer session"
            os.close(handle)
            raise RecordError(
                f"{record}: in use by {owner}; finish or stop that session first, or save to another file"
            )
        if _same_file(handle, path):
            os.ftruncate(handle, 0)
            os.lseek(handle, 0, os.SEEK_SET)
            os.write(handle, _holder_text(holder).encode("utf-8"))
            return RecordLock(path, handle)
        os.close(handle)
    raise RecordError(f"{record}: its lock file {path.name} keeps changing; is another session starting on it?")


def _open_lock_file(path: Path, record: Path) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except OSError as error:
        raise RecordError(f"{record}: cannot create its lock file {path.name} ({error.strerror})") from None


def _try_lock(handle: int) -> bool:
    try:
        if sys.platform != "win32":
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            os.lseek(handle, 1 << 20, os.SEEK_SET)  # a byte past the text, which stays readable
            msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _same_file(handle: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(handle), os.stat(path, follow_symlinks=False))
    except OSError:
        return False


def _read_all(handle: int) -> str:
    os.lseek(handle, 0, os.SEEK_SET)
    return os.read(handle, 1000).decode("utf-8", "replace")


def _holder_text(holder: str) -> str:
    since = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    return f"{holder} (process {os.getpid()} on {socket.gethostname()}, since {since})\n"


# --- the autosave -----------------------------------------------------------------------


@dataclass(slots=True)
class Saver:
    """The autosave: the record file (held by this session's lock), and the text last written to each file saved to."""

    path: Path
    written: str | None = None  # what the autosave file holds now, if this program wrote (or read) it
    copies: dict[Path, str] = field(default_factory=dict)  # files named by `save FILE`, and their text
    lock: RecordLock | None = None
    holder: str = "dealer"

    def save(self, session: Session, path: Path | None = None) -> Path:
        """Write the session's record atomically: never over a damaged record, nor over another file's game."""
        text = format_record(session_record(session))
        if path is None or path == self.path:
            self.written = save_text(self.path, text, self.written)
            return self.path
        copy_lock = lock_record(path, self.holder)  # a copy never goes over a record another session plays
        try:
            if path not in self.copies:
                self.copies[path] = save_text(reserve_record(path), text, "")
            else:
                self.copies[path] = save_text(path, text, self.copies[path])
        finally:
            copy_lock.release()
        return path

    def release(self) -> None:
        """The session is over: let another session have the record."""
        if self.lock is not None:
            self.lock.release()


def start_saver(session: Session, save_file: str | None, resumed: Path | None, holder: str = "dealer",
                held: RecordLock | None = None) -> Saver:
    """The autosave, holding its record: --save FILE (a new file), else the resumed record, else a new file
    under build/games.

    `held` is the resumed record's lock when the caller took it before reading the record.
    """
    if save_file is not None and Path(save_file) != resumed:
        lock = lock_record(save_file, holder)
        try:
            saver = Saver(reserve_record(save_file), written="", lock=lock, holder=holder)
        except RecordError:
            lock.release()
            raise
    elif resumed is not None:
        lock = held or lock_record(resumed, holder)
        saver = Saver(resumed, written=resumed.read_text(encoding="utf-8"), lock=lock, holder=holder)
    else:
        path = new_record_path("build/games", session.position.game.id)
        saver = Saver(path, written="", lock=lock_record(path, holder), holder=holder)
    if held is not None and held is not saver.lock:
        held.release()
    if saver.path != resumed:
        _first_save(saver, session)
    return saver


def next_saver(saver: Saver, session: Session) -> Saver:
    """The autosave of the next game at the same table (a rematch): a new record beside the last one, which is
    let go."""
    path = new_record_path(saver.path.parent, session.position.game.id)
    following = Saver(path, written="", lock=lock_record(path, saver.holder), holder=saver.holder)
    _first_save(following, session)
    saver.release()
    return following


def _first_save(saver: Saver, session: Session) -> None:
    """Write a new record's first text; if that fails, the empty file reserved for it goes and the lock with it."""
    try:
        saver.save(session)
    except BaseException:
        if not saver.written:
            saver.path.unlink(missing_ok=True)
        saver.release()
        raise


def open_game(resume_file: str | None, save_file: str | None, holder: str,
              open_session: Callable[[], tuple[Session, Path | None]]) -> tuple[Session, Saver]:
    """The session and its autosave, a resumed record being read only once this process holds it.

    A record another running session holds is refused (RecordError) before anything is read or written.
    """
    # a record that is not there is not locked: reading it says what is wrong
    held = lock_record(resume_file, holder) if resume_file is not None and Path(resume_file).is_file() else None
    try:
        session, resumed = open_session()
        return session, start_saver(session, save_file, resumed, holder, held)
    except BaseException:
        if held is not None:
            held.release()
        raise
