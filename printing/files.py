"""Writing files safely: write beside the target, then rename, so a failure never leaves half a file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable

from pieces.errors import DealerError


class OutputError(DealerError):
    """An output file or folder that cannot be written."""


def write_atomic(path: str | Path, data: bytes | str, check: Callable[[Path], None] | None = None) -> Path:
    """Write data to path through a temporary file in the same folder and an atomic rename.

    `check`, if given, reads the temporary file as written and raises to abandon it.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{path.parent}: cannot create the folder ({error.strerror})") from None
    payload = data.encode("utf-8") if isinstance(data, str) else data
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
        if check is not None:
            check(Path(temporary))
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        raise OutputError(f"{path}: cannot write ({error.strerror})") from None
    finally:
        if temporary:
            Path(temporary).unlink(missing_ok=True)
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
