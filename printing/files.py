"""Writing files safely: write beside the target, then rename, so a failure never leaves half a file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pieces.errors import DealerError


class OutputError(DealerError):
    """An output file or folder that cannot be written."""


def write_atomic(path: str | Path, data: bytes | str) -> Path:
    """Write data to path through a temporary file in the same folder and an atomic rename."""
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
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(temporary, path)
    except OSError as error:
        if temporary:
            Path(temporary).unlink(missing_ok=True)
        raise OutputError(f"{path}: cannot write ({error.strerror})") from None
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
