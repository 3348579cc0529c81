"""The seat keys of a served game, kept beside its record (readable by its owner only), so that a server resumed with
`dealer serve --resume FILE --keep-keys` answers the addresses (and QR codes) the players already have.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from dealers_chess.pieces.errors import DealerError

KEY_FORMAT = re.compile(r"[A-Za-z0-9_-]{16,64}")


class SeatKeysError(DealerError):
    """The keys kept beside a record are missing or damaged."""


def keys_path(record: Path) -> Path:
    """Where a record's seat keys live: `.NAME.keys` in the record's folder (beside its `.NAME.lock`)."""
    return record.with_name(f".{record.name}.keys")


def write_seat_keys(record: Path, keys: dict[str, str]) -> Path:
    """Keep the keys (seat name -> key) beside the record, readable by this user only; replaced atomically."""
    path = keys_path(record)
    handle, temporary = tempfile.mkstemp(prefix=f"{path.name}.", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(keys, stream)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise SeatKeysError(f"{path}: cannot keep the seat keys ({error.strerror})") from None
    return path


def read_seat_keys(record: Path, seats: tuple[str, ...]) -> dict[str, str]:
    """The keys the last server of this record kept, one per seat, or why they cannot be used."""
    path = keys_path(record)
    fresh = "run without --keep-keys for new keys (and new addresses)"
    try:
        keys = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SeatKeysError(f"no seat keys kept beside {record} (looked for {path.name}): {fresh}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SeatKeysError(f"{path}: the seat keys cannot be read ({error}): {fresh}") from None
    if not isinstance(keys, dict) or set(keys) != set(seats) or len(set(keys.values())) != len(seats) or not all(
            isinstance(key, str) and KEY_FORMAT.fullmatch(key) for key in keys.values()):
        raise SeatKeysError(f"{path}: not the seat keys of {', '.join(seats)}: {fresh}")
    return keys
