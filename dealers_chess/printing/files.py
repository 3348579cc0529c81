"""The one way files are written: safe output paths under --out, and an atomic, durable writer.

`out_path` builds every path under an output folder from plain names (never a separator, '..' or
a control character), so no name from a catalogue or deal file can leave --out. `write_atomic`
writes beside the target and renames, refusing to replace anything but a regular file, and clears
temporary files that a killed run left in the folder.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from dealers_chess.pieces.datafile import shown
from dealers_chess.pieces.errors import DealerError

TEMP_MARK = ".dealer-tmp-"  # temporary files are named .NAME.dealer-tmp-PID-RANDOM
MAX_NAME_BYTES = 200  # leaves room for the temporary name within the usual 255-byte limit
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f/\\]")
_TEMP = re.compile(re.escape(TEMP_MARK) + r"(\d+)-")
_cleaned: set[Path] = set()


class OutputError(DealerError):
    """An output file or folder that cannot be written."""


def out_path(out_dir: str | Path, *names: str) -> Path:
    """out_dir joined with names (each may hold '/' between plain names); OutputError on any unsafe name."""
    parts = [part for name in names for part in name.split("/")]
    for part in parts:
        if part in ("", ".", "..") or _UNSAFE.search(part) or len(part.encode()) > MAX_NAME_BYTES:
            raise OutputError(f"{part[:60]!r} cannot be a file name under {shown(out_dir)} "
                              "(a separator, '..', a control character or too long)")
    return Path(out_dir).joinpath(*parts)


def file_stem(text: str, fallback: str) -> str:
    """A name from the user's own file name made safe for out_path: odd characters become '-'."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip(".-")[:80]
    return stem or fallback


def prepare_out_dir(out_dir: str | Path) -> Path:
    """Make sure the output folder exists and takes files, before any work starts."""
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out_dir):
            pass
    except OSError as error:
        raise OutputError(f"{shown(out_dir)}: cannot create the folder or write in it ({error.strerror})") from None
    return out_dir


def write_atomic(path: str | Path, data: bytes | str, check: Callable[[Path], None] | None = None) -> Path:
    """Write data to path through a temporary file in the same folder, fsync, and an atomic rename.

    The target must be absent or a regular file: a symlink, folder or device is refused, never
    replaced. `check`, if given, reads the temporary file as written and raises to abandon it.
    """
    path = check_target(Path(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{shown(path.parent)}: cannot create the folder ({error.strerror})") from None
    remove_stale_temporaries(path.parent)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}{TEMP_MARK}{os.getpid()}-", dir=path.parent)
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            stream.flush()
            os.fsync(stream.fileno())
        if check is not None:
            check(Path(temporary))
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(temporary, path)
        temporary = None
        _sync_folder(path.parent)
    except OSError as error:
        raise OutputError(f"{shown(path)}: cannot write ({error.strerror})") from None
    finally:
        if temporary:
            Path(temporary).unlink(missing_ok=True)
    return path


def check_target(path: Path) -> Path:
    """The path, unless a symlink, folder, device, pipe or socket is there (OutputError: never replaced)."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return path
    except OSError as error:
        raise OutputError(f"{shown(path)}: cannot write ({error.strerror})") from None
    if stat.S_ISLNK(mode):
        raise OutputError(f"{shown(path)}: is a symbolic link; not replaced (write to the file it points to instead)")
    if stat.S_ISDIR(mode):
        raise OutputError(f"{shown(path)}: is a folder; expected a file name")
    if not stat.S_ISREG(mode):
        raise OutputError(f"{shown(path)}: is a device, pipe or socket; not replaced")
    return path


def remove_unlisted(folder: Path, written: Iterable[Path], patterns: Iterable[str]) -> list[Path]:
    """Delete the files matching `patterns` in folder that this run did not write; return them.

    A folder with a listing (plates.txt, HOW-TO-PRINT.txt) then holds just what the listing names,
    so "print every plate in the folder" prints the right set. Links and folders are left alone.
    """
    kept = {Path(path).resolve() for path in written}
    removed = []
    for pattern in patterns:
        for path in sorted(folder.glob(pattern)):
            if path.is_file() and not path.is_symlink() and path.resolve() not in kept:
                path.unlink(missing_ok=True)
                removed.append(path)
    return removed


def remove_stale_temporaries(folder: Path) -> None:
    """Delete temporary files in folder left by dealer runs that no longer exist (once per folder)."""
    if folder in _cleaned:
        return
    _cleaned.add(folder)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        found = _TEMP.search(entry.name) if entry.name.startswith(".") else None
        if found and _process_gone(int(found[1])) and entry.is_file(follow_symlinks=False):
            Path(entry.path).unlink(missing_ok=True)


def _process_gone(pid: int) -> bool:
    if pid == os.getpid() or os.name != "posix":
        return False  # on Windows os.kill(pid, 0) would end the process; leave its files alone
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError):
        return False
    return False


def _sync_folder(folder: Path) -> None:
    """Make the rename durable (a power cut after this keeps the new file)."""
    if os.name != "posix":
        return
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
